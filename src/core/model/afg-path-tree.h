/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* Assembles a tree that is not a profile: merged paths of names below one
 * root, such as a function's callers or callees, the two sides of a diff
 * or a job's ranks added up. The result is an AfgTree
 * with no threads, whose root (node 0) is a frame too, so layouts,
 * searches and renderers take it like any other tree; nodes are in the
 * order of AfgNode (breadth-first, children by name). */
typedef struct _AfgPathTreeBuilder AfgPathTreeBuilder;

AfgPathTreeBuilder *afg_path_tree_builder_new    (const AfgTree      *source,
                                                  guint32             root_name);
/* The child of @parent (0: the root) named @name, made on first use. */
guint32             afg_path_tree_builder_child  (AfgPathTreeBuilder *self,
                                                  guint32             parent,
                                                  guint32             name);
void                afg_path_tree_builder_add    (AfgPathTreeBuilder *self,
                                                  guint32             node,
                                                  gint64              calls,
                                                  gint64              total_ns,
                                                  gint64              self_ns);
/* The device columns a path tree can carry, from AFG_COLUMN_NPU_TOTAL_NS
 * (NPU, then by kind) to AFG_COLUMN_COMM_EXPOSED_SELF_NS. */
#define AFG_PATH_DEVICE_COLUMNS 11
/* The result also carries the first @n_columns device columns (3: the
 * NPU ones; AFG_PATH_DEVICE_COLUMNS: by kind too), each node's the sums
 * of what afg_path_tree_builder_add_device() gave it. */
void                afg_path_tree_builder_keep_device (AfgPathTreeBuilder *self,
                                                       guint               n_columns);
/* The first @n_columns device columns (0: none; at most what
 * _keep_device() kept) are what is added and built from now on; columns
 * left out meanwhile hold what was added before. */
void                afg_path_tree_builder_limit_device (AfgPathTreeBuilder *self,
                                                        guint               n_columns);
/* The device columns of @tree a path tree can carry: all of them, the
 * NPU ones (3), or none. */
guint               afg_path_tree_device_columns (const AfgTree *tree);
/* @values: @n_columns values, in the columns' order. */
void                afg_path_tree_builder_add_device  (AfgPathTreeBuilder *self,
                                                       guint32             node,
                                                       const gint64       *values);
/* Consumes @self. */
AfgTree            *afg_path_tree_builder_finish (AfgPathTreeBuilder *self);
/* A builder whose names are the caller's own numbers, made strings of a
 * document only by afg_path_tree_builder_build(): to add up the trees of
 * several documents (a job's ranks). */
AfgPathTreeBuilder *afg_path_tree_builder_new_own_names (void);
/* The tree of what was added so far, @self kept: @model's document,
 * scope, flags and stats, @names taking the builder's names to the
 * document's strings, the root named @root_name. @new_index (may be
 * NULL) gets, to free, each builder node's index in the tree. */
AfgTree            *afg_path_tree_builder_build  (const AfgPathTreeBuilder *self,
                                                  const AfgTree      *model,
                                                  const guint32      *names,
                                                  guint32             root_name,
                                                  guint32           **new_index);
void                afg_path_tree_builder_free   (AfgPathTreeBuilder *self);
/* Self time from the totals: max(0, total − the children's totals); the
 * root no calls, and at least the sum of its children as its total
 * (more where its own time was added to it). */
void                afg_path_tree_sum_children   (AfgTree            *tree);

G_END_DECLS
