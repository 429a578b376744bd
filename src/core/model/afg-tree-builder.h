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

/* The same in a worker thread, for the window. */
void     afg_tree_build_async  (AfgDocument          *document,
                                const AfgScope       *scope,
                                AfgTreeFlags          flags,
                                GCancellable         *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data);
AfgTree *afg_tree_build_finish (GAsyncResult         *result,
                                GError              **error);

G_END_DECLS
