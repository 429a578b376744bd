/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-palette.h"
#include "afg-tree.h"

G_BEGIN_DECLS

#define AFG_FLAME_NO_FRAME G_MAXUINT32

/* One rectangle of the flame graph. x and width are fractions of the view
 * width so the layout does not depend on the widget size. */
typedef struct {
  guint32 node;
  guint32 row;
  double  x;
  double  width;
} AfgFlameFrame;

/* The frames of @tree below @view_root (AFG_TREE_ROOT: all threads, or a
 * thread's node), zoomed to @zoom_root, each as wide as its @weight:
 * the zoom root's ancestors up to the view root fill whole rows above
 * it. Frames are sorted by (row, x), so hit-testing is a binary search. */
typedef struct _AfgFlameLayout AfgFlameLayout;

/* One kernel leaf of a frame in a device weight (compute, comm,
 * exposed): its @kernel-th afg_tree_get_kernels() entry, in the row above
 * the frame, after its children, as wide as its value in the weight.
 * What is on no leaf stays the frame's own time, as `--kernels` does. */
typedef struct {
  guint32 node;
  guint32 kernel;
  guint32 row;
  double  x;
  double  width;
} AfgFlameLeaf;

AfgFlameLayout      *afg_flame_layout_new             (AfgTree              *tree,
                                                       AfgColumn             weight,
                                                       guint32               view_root,
                                                       guint32               zoom_root);
void                 afg_flame_layout_free            (AfgFlameLayout       *self);
AfgTree             *afg_flame_layout_get_tree        (const AfgFlameLayout *self);
AfgColumn            afg_flame_layout_get_weight      (const AfgFlameLayout *self);
guint32              afg_flame_layout_get_view_root   (const AfgFlameLayout *self);
guint32              afg_flame_layout_get_zoom_root   (const AfgFlameLayout *self);
guint                afg_flame_layout_get_zoom_row    (const AfgFlameLayout *self);
const AfgFlameFrame *afg_flame_layout_get_frames      (const AfgFlameLayout *self,
                                                       guint                *n_frames);
guint                afg_flame_layout_get_n_rows      (const AfgFlameLayout *self);
guint                afg_flame_layout_get_row_start   (const AfgFlameLayout *self,
                                                       guint                 row);
guint32              afg_flame_layout_hit_test        (const AfgFlameLayout *self,
                                                       guint                 row,
                                                       double                x,
                                                       double                min_width);
guint32              afg_flame_layout_find_node       (const AfgFlameLayout *self,
                                                       guint32               node);
guint32              afg_flame_layout_get_parent      (const AfgFlameLayout *self,
                                                       guint32               frame);
guint32              afg_flame_layout_get_first_child (const AfgFlameLayout *self,
                                                       guint32               frame);
/* The frame beside @frame (after it when @forward) with the same parent,
 * or AFG_FLAME_NO_FRAME: the next frame on a row may be a cousin. */
guint32              afg_flame_layout_get_sibling     (const AfgFlameLayout *self,
                                                       guint32               frame,
                                                       gboolean              forward);
/* The kernel leaves, sorted by (row, x); none outside the device
 * weights. */
const AfgFlameLeaf  *afg_flame_layout_get_leaves      (const AfgFlameLayout *self,
                                                       guint                *n_leaves);
/* The leaf at @x in @row, or AFG_FLAME_NO_FRAME. */
guint32              afg_flame_layout_hit_leaf        (const AfgFlameLayout *self,
                                                       guint                 row,
                                                       double                x,
                                                       double                min_width);
/* The node's parent within the view: AFG_NODE_NONE at the view root. */
guint32              afg_flame_layout_get_node_parent (const AfgFlameLayout *self,
                                                       guint32               node);

G_END_DECLS
