/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-tree.h"

G_BEGIN_DECLS

typedef enum {
  AFG_DIFF_SIDE_A,
  AFG_DIFF_SIDE_B,
} AfgDiffSide;

/* Two profile trees as the window draws their difference: each side's
 * threads merged into one root by name (calls and totals add, self =
 * max(0, total − children's total) after merging; the root keeps the
 * threads' own time), over the union of
 * both sides' paths. It is two AfgTrees with the same nodes in the same
 * order, one per side, holding that side's calls, total and self (0
 * where the side lacks the frame), so the layout, search and renderer
 * take either as a tree: A's for A's shape, B's for B's. Their names
 * live in a document of their own, named by @title. */
typedef struct _AfgDiffShape AfgDiffShape;

/* One side's values of a frame (zeros where the side lacks it). */
typedef struct {
  gint64 calls;
  gint64 total_ns;
  gint64 self_ns;
} AfgDiffValues;

/* NULL only when cancelled. */
AfgDiffShape *afg_diff_shape_new         (AfgTree       *a,
                                          AfgTree       *b,
                                          const char    *title,
                                          GCancellable  *cancellable);
/* The same with each side's frames weighing @total_column (a total
 * column, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS say; 0 where a side lacks it)
 * instead of host time; calls stay the host's. */
AfgDiffShape *afg_diff_shape_new_weighted (AfgTree      *a,
                                          AfgTree       *b,
                                          const char    *title,
                                          AfgColumn      total_column,
                                          GCancellable  *cancellable);
/* The total column the sides' frames weigh (AFG_COLUMN_TOTAL_NS for
 * afg_diff_shape_new()). */
AfgColumn     afg_diff_shape_get_weight  (AfgDiffShape  *self);
AfgDiffShape *afg_diff_shape_ref         (AfgDiffShape  *self);
void          afg_diff_shape_unref       (AfgDiffShape  *self);
AfgTree      *afg_diff_shape_get_tree    (AfgDiffShape  *self,
                                          AfgDiffSide    side);
/* The profile tree the side was built from. */
AfgTree      *afg_diff_shape_get_source  (AfgDiffShape  *self,
                                          AfgDiffSide    side);
gint64        afg_diff_shape_get_value   (AfgDiffShape  *self,
                                          AfgDiffSide    side,
                                          AfgColumn      column,
                                          guint32        node);
/* TRUE when the frame exists on @side (it has calls there). */
gboolean      afg_diff_shape_has_node    (AfgDiffShape  *self,
                                          AfgDiffSide    side,
                                          guint32        node);
/* For the diff's writers (JSON, folded and page): node 0 is the
 * root, nodes in AfgNode's order, names and categories those of either
 * side's tree. */
void          afg_diff_shape_get_values  (AfgDiffShape  *self,
                                          AfgDiffSide    side,
                                          guint32        node,
                                          AfgDiffValues *values);
/* What "per step" divides a side by: the steps of its scope, or all its
 * DB's steps for a whole profile; 1 when it has none. */
guint         afg_diff_shape_get_step_count (AfgDiffShape *self,
                                             AfgDiffSide   side);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgDiffShape, afg_diff_shape_unref)

G_END_DECLS
