/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-tree.h"

G_BEGIN_DECLS

typedef enum {
  AFG_DIFF_TREE_A,
  AFG_DIFF_TREE_B,
} AfgDiffTreeSide;

typedef struct {
  gint64 calls;
  gint64 total_ns;
  gint64 self_ns;
} AfgDiffValues;

/* The difference of two profile trees, A and B (issue 16). Each side's
 * threads are merged into one root by name, recursively: calls and totals
 * add, and self = max(0, total − children's total) after merging. The
 * diff is the union of both sides' paths; every frame has both sides'
 * values, zeros where a side lacks it.
 *
 * Node 0 is the root ("All threads", its values the sums of its
 * children's, self 0), depth 1 the top frames; nodes are in AfgNode's
 * order (breadth-first, children contiguous and by name in byte order),
 * `thread` is AFG_THREAD_NONE. Names are the diff's own: the two sides
 * come from two documents with their own string tables.
 *
 * Each side is also an AfgTree of exactly these nodes, without threads,
 * holding that side's calls, total and self: a flame layout, a search or
 * a renderer takes it as any tree (B's for widths by B's totals, A's for
 * A's shape), and node i of one side is node i of the other. Immutable,
 * shared between threads. */
typedef struct _AfgDiffTree AfgDiffTree;

/* Both trees should be built with the same flags (merged addresses) and
 * a scope each (the same steps, or two ranges to compare). Returns NULL
 * only when cancelled. */
AfgDiffTree     *afg_diff_tree_new               (AfgTree         *a,
                                                  AfgTree         *b,
                                                  GCancellable    *cancellable);
AfgDiffTree     *afg_diff_tree_ref               (AfgDiffTree     *self);
void             afg_diff_tree_unref             (AfgDiffTree     *self);
/* The profile tree a side was built from. */
AfgTree         *afg_diff_tree_get_source        (const AfgDiffTree *self,
                                                  AfgDiffTreeSide  side);
/* The side's values on the diff's nodes, as an AfgTree (see above). */
AfgTree         *afg_diff_tree_get_side          (const AfgDiffTree *self,
                                                  AfgDiffTreeSide  side);
guint            afg_diff_tree_get_n_nodes       (const AfgDiffTree *self);
const AfgNode   *afg_diff_tree_get_node          (const AfgDiffTree *self,
                                                  guint32          node);
const char      *afg_diff_tree_get_node_name     (const AfgDiffTree *self,
                                                  guint32          node);
AfgCategory      afg_diff_tree_get_node_category (const AfgDiffTree *self,
                                                  guint32          node);
void             afg_diff_tree_get_values        (const AfgDiffTree *self,
                                                  AfgDiffTreeSide  side,
                                                  guint32          node,
                                                  AfgDiffValues   *values);
/* TRUE when the frame exists on @side (it has calls there); the root
 * always does. */
gboolean         afg_diff_tree_has_node          (const AfgDiffTree *self,
                                                  AfgDiffTreeSide  side,
                                                  guint32          node);
/* What "per step" divides a side by: the steps of its scope, or all its
 * DB's steps for a whole profile; 1 when it has none. */
guint            afg_diff_tree_get_step_count    (const AfgDiffTree *self,
                                                  AfgDiffTreeSide  side);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgDiffTree, afg_diff_tree_unref)

G_END_DECLS
