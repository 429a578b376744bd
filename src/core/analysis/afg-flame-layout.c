/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-flame-layout"

#include "config.h"

#include <string.h>

#include "afg-bisect.h"
#include "afg-flame-layout.h"
#include "afg-writers.h"

struct _AfgFlameLayout {
  AfgTree    *tree;
  AfgColumn   weight;
  guint32     view_root;
  guint32     zoom_root;
  guint       zoom_row;
  GArray     *frames;     /* AfgFlameFrame, sorted by (row, x) */
  GArray     *row_starts; /* guint, n_rows + 1 entries */
  GArray     *leaves;     /* AfgFlameLeaf, sorted by (row, x) */
  gboolean    kernels;    /* the weight has kernel leaves */
  AfgWeight   kernel_weight;
};

guint32
afg_flame_layout_get_node_parent (const AfgFlameLayout *self, guint32 node)
{
  return afg_tree_get_parent_in_view (self->tree, self->view_root, node);
}

static void
push_frame (AfgFlameLayout *self, guint32 node, guint row, double x, double width)
{
  AfgFlameFrame frame = { node, row, x, width };

  while (self->row_starts->len <= row)
    g_array_append_val (self->row_starts, self->frames->len);
  g_array_append_val (self->frames, frame);
}

static guint
add_ancestors (AfgFlameLayout *self)
{
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 node = self->zoom_root;

  while (node != AFG_NODE_NONE)
    {
      g_array_prepend_val (chain, node);
      node = afg_flame_layout_get_node_parent (self, node);
    }
  for (guint i = 0; i < chain->len; i++)
    push_frame (self, g_array_index (chain, guint32, i), i, 0.0, 1.0);
  return chain->len - 1;
}

/* After the children, from @x on: the parent's own time, split into its
 * leaves and (the rest of its width) the time on none. */
static void
push_leaves (AfgFlameLayout *self, const AfgFlameFrame *parent, double x, double scale)
{
  guint n = 0;
  const AfgNpuKernel *k = afg_tree_get_kernels (self->tree, parent->node, &n);

  for (guint j = 0; j < n; j++)
    {
      double width = afg_weight_kernel_value (self->kernel_weight, &k[j]) / scale;
      AfgFlameLeaf leaf = { parent->node, j, parent->row + 1, x, width };

      if (width <= 0)
        continue;
      g_array_append_val (self->leaves, leaf);
      x += width;
    }
}

/* Level order keeps every row sorted by x: parents come left to right and
 * each parent places its children left to right inside itself. */
static void
add_descendants (AfgFlameLayout *self)
{
  const AfgNode *nodes = afg_tree_get_nodes (self->tree);
  const gint64 *weights = afg_tree_get_column (self->tree, self->weight);
  double scale = weights[self->zoom_root];
  guint level_start = self->frames->len - 1;
  guint level_end = self->frames->len;

  if (scale <= 0)
    return;
  while (level_start < level_end)
    {
      for (guint i = level_start; i < level_end; i++)
        {
          AfgFlameFrame parent = g_array_index (self->frames, AfgFlameFrame, i);
          const AfgNode *n = &nodes[parent.node];
          double x = parent.x;

          for (guint c = 0; c < n->n_children; c++)
            {
              guint32 child = n->first_child + c;
              double width = weights[child] / scale;

              if (width > 0)
                push_frame (self, child, parent.row + 1, x, width);
              x += width;
            }
          if (self->kernels)
            push_leaves (self, &parent, x, scale);
        }
      level_start = level_end;
      level_end = self->frames->len;
    }
}

AfgFlameLayout *
afg_flame_layout_new (AfgTree *tree, AfgColumn weight, guint32 view_root, guint32 zoom_root)
{
  AfgFlameLayout *self;

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (afg_tree_has_column (tree, weight), NULL);
  g_return_val_if_fail (afg_tree_is_descendant (tree, zoom_root, view_root), NULL);

  self = g_new0 (AfgFlameLayout, 1);
  self->tree = afg_tree_ref (tree);
  self->weight = weight;
  self->view_root = view_root;
  self->zoom_root = zoom_root;
  /* Each node is at most one frame: never regrown. */
  self->frames = g_array_sized_new (FALSE, FALSE, sizeof (AfgFlameFrame),
                                    afg_tree_get_n_nodes (tree));
  self->row_starts = g_array_new (FALSE, FALSE, sizeof (guint));
  self->leaves = g_array_new (FALSE, FALSE, sizeof (AfgFlameLeaf));
  self->kernels = afg_weight_from_total_column (weight, &self->kernel_weight)
                  && afg_weight_has_kernels (self->kernel_weight);
  self->zoom_row = add_ancestors (self);
  add_descendants (self);
  g_array_append_val (self->row_starts, self->frames->len);
  /* The leaves of the deepest frames are a row of their own. */
  if (self->leaves->len > 0)
    {
      guint last = g_array_index (self->leaves, AfgFlameLeaf, self->leaves->len - 1).row;

      while (self->row_starts->len < last + 2)
        g_array_append_val (self->row_starts, self->frames->len);
    }
  return self;
}

void
afg_flame_layout_free (AfgFlameLayout *self)
{
  if (self == NULL)
    return;
  afg_tree_unref (self->tree);
  g_array_unref (self->frames);
  g_array_unref (self->row_starts);
  g_array_unref (self->leaves);
  g_free (self);
}

AfgTree *
afg_flame_layout_get_tree (const AfgFlameLayout *self)
{
  return self->tree;
}

AfgColumn
afg_flame_layout_get_weight (const AfgFlameLayout *self)
{
  return self->weight;
}

guint32
afg_flame_layout_get_view_root (const AfgFlameLayout *self)
{
  return self->view_root;
}

guint32
afg_flame_layout_get_zoom_root (const AfgFlameLayout *self)
{
  return self->zoom_root;
}

guint
afg_flame_layout_get_zoom_row (const AfgFlameLayout *self)
{
  return self->zoom_row;
}

const AfgFlameFrame *
afg_flame_layout_get_frames (const AfgFlameLayout *self, guint *n_frames)
{
  *n_frames = self->frames->len;
  return (const AfgFlameFrame *) self->frames->data;
}

guint
afg_flame_layout_get_n_rows (const AfgFlameLayout *self)
{
  return self->row_starts->len - 1;
}

guint
afg_flame_layout_get_row_start (const AfgFlameLayout *self, guint row)
{
  g_return_val_if_fail (row < self->row_starts->len, self->frames->len);
  return g_array_index (self->row_starts, guint, row);
}

guint32
afg_flame_layout_hit_test (const AfgFlameLayout *self, guint row, double x, double min_width)
{
  const AfgFlameFrame *frames = (const AfgFlameFrame *) self->frames->data;
  guint lo, hi;

  if (row >= afg_flame_layout_get_n_rows (self))
    return AFG_FLAME_NO_FRAME;
  lo = afg_flame_layout_get_row_start (self, row);
  hi = afg_flame_layout_get_row_start (self, row + 1);
  /* Find the last frame that starts at or before x. */
  AFG_BISECT (guint, lo, hi, mid, frames[mid].x <= x);
  if (lo == afg_flame_layout_get_row_start (self, row))
    return AFG_FLAME_NO_FRAME;
  lo--;
  if (x >= frames[lo].x + frames[lo].width || frames[lo].width < min_width)
    return AFG_FLAME_NO_FRAME;
  return lo;
}

guint32
afg_flame_layout_find_node (const AfgFlameLayout *self, guint32 node)
{
  for (guint i = 0; i < self->frames->len; i++)
    if (g_array_index (self->frames, AfgFlameFrame, i).node == node)
      return i;
  return AFG_FLAME_NO_FRAME;
}

guint32
afg_flame_layout_get_parent (const AfgFlameLayout *self, guint32 frame)
{
  const AfgFlameFrame *f = &g_array_index (self->frames, AfgFlameFrame, frame);

  if (f->row == 0)
    return AFG_FLAME_NO_FRAME;
  return afg_flame_layout_hit_test (self, f->row - 1, f->x + f->width / 2, 0);
}

guint32
afg_flame_layout_get_sibling (const AfgFlameLayout *self, guint32 frame, gboolean forward)
{
  const AfgFlameFrame *frames = (const AfgFlameFrame *) self->frames->data;
  guint32 next;

  if (forward ? frame + 1 >= self->frames->len : frame == 0)
    return AFG_FLAME_NO_FRAME;
  next = forward ? frame + 1 : frame - 1;
  if (frames[next].row != frames[frame].row
      || afg_flame_layout_get_parent (self, next) != afg_flame_layout_get_parent (self, frame))
    return AFG_FLAME_NO_FRAME;
  return next;
}

guint32
afg_flame_layout_get_first_child (const AfgFlameLayout *self, guint32 frame)
{
  const AfgFlameFrame *f = &g_array_index (self->frames, AfgFlameFrame, frame);
  guint32 child;

  if (f->row < self->zoom_row)
    return afg_flame_layout_hit_test (self, f->row + 1, 0.5, 0);
  child = afg_flame_layout_hit_test (self, f->row + 1, f->x, 0);
  if (child == AFG_FLAME_NO_FRAME)
    return AFG_FLAME_NO_FRAME;
  if (afg_flame_layout_get_node_parent (self, g_array_index (self->frames, AfgFlameFrame, child).node) != f->node)
    return AFG_FLAME_NO_FRAME;
  return child;
}


const AfgFlameLeaf *
afg_flame_layout_get_leaves (const AfgFlameLayout *self, guint *n_leaves)
{
  *n_leaves = self->leaves->len;
  return (const AfgFlameLeaf *) self->leaves->data;
}

/* Leaves are few (a frame has a handful): a binary search on (row, x). */
guint32
afg_flame_layout_hit_leaf (const AfgFlameLayout *self, guint row, double x, double min_width)
{
  const AfgFlameLeaf *leaves = (const AfgFlameLeaf *) self->leaves->data;
  guint lo = 0, hi = self->leaves->len;

  AFG_BISECT (guint, lo, hi, mid, leaves[mid].row < row || (leaves[mid].row == row && leaves[mid].x <= x));
  if (lo == 0)
    return AFG_FLAME_NO_FRAME;
  lo--;
  if (leaves[lo].row != row || x >= leaves[lo].x + leaves[lo].width || leaves[lo].width < min_width)
    return AFG_FLAME_NO_FRAME;
  return lo;
}
