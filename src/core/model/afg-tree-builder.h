/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* Builds the tree of @document for @scope (NULL: the whole profile) from
 * its event store: stacks rebuilt by containment, same-named siblings
 * merged. In a bounded scope a row counts when it overlaps the range by
 * 1 ns or more, with the overlap as its time; where it nests is decided
 * on its whole interval. Synchronous: the CLI calls it directly. Returns
 * NULL only when cancelled. */
AfgTree *afg_tree_build        (AfgDocument          *document,
                                const AfgScope       *scope,
                                AfgTreeFlags          flags,
                                GCancellable         *cancellable,
                                GError              **error);

/* A build for a thread of its own (the window's worker requests): what
 * afg_tree_build() is called with, @document referenced. */
typedef struct _AfgTreeBuildRequest AfgTreeBuildRequest;

AfgTreeBuildRequest *afg_tree_build_request_new  (AfgDocument    *document,
                                                  const AfgScope *scope,
                                                  AfgTreeFlags    flags);
/* In the thread: the tree (AfgTree *), or NULL with @error set. The
 * shape of an AfgWorkerRunFunc. */
gpointer             afg_tree_build_request_run  (gpointer        request,
                                                  GCancellable   *cancellable,
                                                  GError        **error);
void                 afg_tree_build_request_free (gpointer        request);

G_END_DECLS
