/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* The profiles of several processes (a job's ranks) added up into one
 * tree: every thread of every profile merged into the root by path, names
 * with their addresses merged (no two processes share addresses). Holds
 * only the union of the paths, never an event store. Not thread-safe. */
typedef struct _AfgMergedTree AfgMergedTree;

AfgMergedTree *afg_merged_tree_new    (void);
void           afg_merged_tree_free   (AfgMergedTree *self);
void           afg_merged_tree_add    (AfgMergedTree *self,
                                       const AfgTree *tree);
guint          afg_merged_tree_get_n_added (AfgMergedTree *self);
/* The tree of all that was added so far; its document is named @title
 * (the job folder), with no events. */
AfgTree       *afg_merged_tree_build  (AfgMergedTree *self,
                                       const char    *title);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgMergedTree, afg_merged_tree_free)

G_END_DECLS
