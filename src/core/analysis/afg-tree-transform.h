/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-transform-list.h"
#include "afg-tree.h"

G_BEGIN_DECLS

/* Reshapes a profile tree, thread by thread, one transform after the
 * other in @list's order. F (afg-frame-matcher.h) names the frames a
 * transform acts on.
 *
 * - focus-function F: every outermost F frame (no F ancestor in its
 *   thread) becomes a top frame, merged by path with its subtree; threads
 *   without F are left out. The root total is then F's function-table
 *   total (with a regex: that of the matching frames with no matching
 *   ancestor).
 * - focus-subtree PATH: the frame at PATH from the thread's top, with its
 *   subtree, is the thread's tree; threads without the path are left out.
 * - merge-function F: every F frame is removed and its children merged
 *   by path into its parent; root and thread totals do not change.
 * - drop-function F: every F frame is removed with its subtree, its
 *   totals taken from every ancestor (threads and root included).
 * - collapse-recursion F: a frame named like its parent frame (and
 *   matching F) is removed, its children merged by path into the parent,
 *   which keeps its calls; totals do not change.
 * - collapse-indirect-recursion F: every F frame below another F frame is
 *   removed, its totals taken from the frames between, its children
 *   merged by path into the outermost F frame above it.
 *
 * Merging frames by path adds their calls, totals and calls' durations
 * (so the percentiles are those of all the calls); every total-like
 * column is carried the same way (NPU time; a frame's own counts such as
 * NPU tasks as their subtree's sums), and after each transform a frame's
 * self values are max(0, total − its children's totals). A thread that
 * is left with no frame and no time is left out.
 *
 * The result records its transforms (afg_tree_get_transforms(): @tree's,
 * then @list's); an empty list gives a tree equal to @tree. @tree must
 * be a profile tree (built, merged, or transformed), not a tree of
 * merged paths. Walks @tree's rows again when @tree has durations and
 * is not itself transformed. NULL only when cancelled. */
AfgTree *afg_tree_transform (AfgTree                *tree,
                             const AfgTransformList *list,
                             GCancellable           *cancellable,
                             GError                **error);

/* Whether @transform names a frame of @tree: one F matches, or for
 * focus-subtree the frame at PATH in some thread; a transform that names
 * none leaves the tree as it is, or (a focus) empty. */
gboolean afg_tree_transform_names_frame (const AfgTree      *tree,
                                         const AfgTransform *transform);

/* afg_tree_transform(), and in @named (one per transform of @list)
 * whether each named a frame of the tree it was applied to, the one the
 * transforms before it made (afg_tree_transform_names_frame()). */
AfgTree *afg_tree_transform_named (AfgTree                *tree,
                                   const AfgTransformList *list,
                                   gboolean               *named,
                                   GCancellable           *cancellable,
                                   GError                **error);

/* What a menu on frame @node of @tree appends for @op: the frame's name
 * as F (afg_frame_matcher_quote_name), or for focus-subtree its PATH
 * from its thread's top, escaped. */
char    *afg_tree_transform_arg_for_node (const AfgTree  *tree,
                                          AfgTransformOp  op,
                                          guint32         node);

G_END_DECLS
