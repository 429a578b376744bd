/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-flame-renderer"

#include "config.h"

#include <string.h>

#include <pango/pangocairo.h>

#include "afg-flame-renderer.h"
#include "afg-task-kinds.h"

#define LABEL_MIN_WIDTH 24
#define LABEL_PADDING 4
#define DIM_ALPHA 0.22
#define SELECTED_MIN_WIDTH 6
/* Search matches: magenta, a hue neither the palette nor a diff uses for
 * a frame's fill. */
#define MATCH_RED 0.88
#define MATCH_GREEN 0.0
#define MATCH_BLUE 0.55
#define MATCH_BAR_HEIGHT 3
#define MATCH_MIN_WIDTH 4

struct _AfgFlameRenderer {
  PangoLayout   *label;
  AfgTree       *tree;
  AfgFlameColor *colors;     /* per node, valid where has_color is set */
  guint8        *has_color;
  AfgFlameColorFunc color_func;
  gpointer       color_data;
  int            text_height;
};

AfgFlameRenderer *
afg_flame_renderer_new (PangoContext *context)
{
  AfgFlameRenderer *self = g_new0 (AfgFlameRenderer, 1);

  self->label = pango_layout_new (context);
  pango_layout_set_ellipsize (self->label, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (self->label, TRUE);
  pango_layout_set_text (self->label, "Ag", -1);
  pango_layout_get_pixel_size (self->label, NULL, &self->text_height);
  return self;
}

void
afg_flame_renderer_free (AfgFlameRenderer *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->label);
  g_clear_pointer (&self->tree, afg_tree_unref);
  g_free (self->colors);
  g_free (self->has_color);
  g_free (self);
}

void
afg_flame_renderer_set_tree (AfgFlameRenderer *self, AfgTree *tree)
{
  guint n;

  g_clear_pointer (&self->tree, afg_tree_unref);
  g_clear_pointer (&self->colors, g_free);
  g_clear_pointer (&self->has_color, g_free);
  if (tree == NULL)
    return;
  self->tree = afg_tree_ref (tree);
  n = afg_tree_get_n_nodes (tree);
  self->colors = g_new (AfgFlameColor, n);
  self->has_color = g_new0 (guint8, n);
}

void
afg_flame_renderer_set_color_func (AfgFlameRenderer *self, AfgFlameColorFunc func, gpointer user_data)
{
  self->color_func = func;
  self->color_data = user_data;
  if (self->tree != NULL)
    memset (self->has_color, 0, afg_tree_get_n_nodes (self->tree));
}

int
afg_flame_content_height (const AfgFlameLayout *layout)
{
  return afg_flame_layout_get_n_rows (layout) * AFG_FLAME_ROW_HEIGHT;
}

double
afg_flame_row_get_y (const AfgFlameLayout *layout, const AfgFlameDrawState *state, guint row)
{
  int content = MAX (afg_flame_content_height (layout), state->height);

  if (!state->icicle)
    return content - (double) (row + 1) * AFG_FLAME_ROW_HEIGHT - state->scroll_y;
  return (double) row * AFG_FLAME_ROW_HEIGHT - state->scroll_y;
}

static gboolean
row_at_y (const AfgFlameLayout *layout, const AfgFlameDrawState *state, double y, guint *row)
{
  double top = afg_flame_row_get_y (layout, state, 0);
  double offset = state->icicle ? y - top : top + AFG_FLAME_ROW_HEIGHT - y;

  if (offset < 0)
    return FALSE;
  *row = (guint) (offset / AFG_FLAME_ROW_HEIGHT);
  return *row < afg_flame_layout_get_n_rows (layout);
}

guint32
afg_flame_frame_at (const AfgFlameLayout *layout, const AfgFlameDrawState *state, double x,
                    double y)
{
  guint row;

  if (state->width <= 0 || !row_at_y (layout, state, y, &row))
    return AFG_FLAME_NO_FRAME;
  return afg_flame_layout_hit_test (layout, row, x / state->width, 1.0 / state->width);
}

guint32
afg_flame_leaf_at (const AfgFlameLayout *layout, const AfgFlameDrawState *state, double x, double y)
{
  guint row;

  if (state->width <= 0 || !row_at_y (layout, state, y, &row))
    return AFG_FLAME_NO_FRAME;
  return afg_flame_layout_hit_leaf (layout, row, x / state->width, 1.0 / state->width);
}

/* Colours are hashed when a frame is first drawn, not for every node when
 * a profile arrives: most of a big profile's frames are under a pixel
 * wide, and hashing all their names cost the first frame 10+ ms. */
static const AfgFlameColor *
frame_color (AfgFlameRenderer *self, guint32 node)
{
  if (!self->has_color[node])
    {
      if (self->color_func != NULL)
        self->color_func (node, &self->colors[node], self->color_data);
      else
        afg_flame_color_for_node (self->tree, node, &self->colors[node]);
      self->has_color[node] = TRUE;
    }
  return &self->colors[node];
}

static gboolean
frame_dimmed (const AfgFlameDrawState *state, guint32 node)
{
  return (state->matches != NULL && !state->matches[node])
      || (state->highlight != NULL && !state->highlight[node]);
}

static void
draw_label (AfgFlameRenderer *self, cairo_t *cr, const char *text, double x,
            double y, double width, double alpha)
{
  pango_layout_set_width (self->label, (int) ((width - 2 * LABEL_PADDING) * PANGO_SCALE));
  pango_layout_set_text (self->label, text, -1);
  cairo_set_source_rgba (cr, 0.1, 0.1, 0.1, alpha);
  cairo_move_to (cr, x + LABEL_PADDING, y + (AFG_FLAME_ROW_HEIGHT - 1 - self->text_height) / 2);
  pango_cairo_show_layout (cr, self->label);
}

static void
draw_frame (AfgFlameRenderer *self, cairo_t *cr, AfgTree *tree,
            const AfgFlameDrawState *state, const AfgFlameFrame *frame, double y)
{
  const AfgFlameColor *c = frame_color (self, frame->node);
  double x = frame->x * state->width;
  double w = frame->width * state->width;
  double alpha = frame_dimmed (state, frame->node) ? DIM_ALPHA : 1.0;

  cairo_set_source_rgba (cr, c->red, c->green, c->blue, alpha);
  cairo_rectangle (cr, x, y, MAX (w - 1, 1), AFG_FLAME_ROW_HEIGHT - 1);
  cairo_fill (cr);
  if (w >= LABEL_MIN_WIDTH)
    draw_label (self, cr, afg_tree_get_node_title (tree, frame->node), x, y, w, alpha < 1 ? 0.45 : 1.0);
}

#define LEAF_BAND 3

/* Device work is drawn apart from the host's category hues, as the page
 * draws it (data/html/kinds.js): yellow for compute, violet for
 * communication, each with a darker band on top that no host frame has. */
static void
kind_color (guint32 kind, AfgFlameColor *fill, AfgFlameColor *band)
{
  if (kind == AFG_TASK_KIND_COMPUTE)
    {
      *fill = (AfgFlameColor) { 0.981, 0.909, 0.259 };
      *band = (AfgFlameColor) { 0.570, 0.516, 0.030 };
    }
  else
    {
      *fill = (AfgFlameColor) { 0.746, 0.566, 0.874 };
      *band = (AfgFlameColor) { 0.376, 0.193, 0.507 };
    }
}

static void
draw_leaf (AfgFlameRenderer *self, cairo_t *cr, AfgTree *tree,
           const AfgFlameDrawState *state, const AfgFlameLeaf *leaf, double y)
{
  guint n;
  const AfgNpuKernel *k = &afg_tree_get_kernels (tree, leaf->node, &n)[leaf->kernel];
  double x = leaf->x * state->width;
  double w = MAX (leaf->width * state->width - 1, 1);
  double alpha = frame_dimmed (state, leaf->node) ? DIM_ALPHA : 1.0;
  AfgFlameColor fill, band;

  kind_color (k->kind, &fill, &band);
  cairo_set_source_rgba (cr, fill.red, fill.green, fill.blue, alpha);
  cairo_rectangle (cr, x, y, w, AFG_FLAME_ROW_HEIGHT - 1);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, band.red, band.green, band.blue, alpha);
  cairo_rectangle (cr, x, y, w, LEAF_BAND);
  cairo_fill (cr);
  if (w >= LABEL_MIN_WIDTH)
    draw_label (self, cr, afg_document_get_string (afg_tree_get_document (tree), k->name), x, y, w,
                alpha < 1 ? 0.45 : 1.0);
}

static void
draw_leaves (AfgFlameRenderer *self, cairo_t *cr, const AfgFlameLayout *layout,
             const AfgFlameDrawState *state)
{
  guint n_leaves;
  const AfgFlameLeaf *leaves = afg_flame_layout_get_leaves (layout, &n_leaves);
  double min_width = 1.0 / MAX (state->width, 1);

  for (guint i = 0; i < n_leaves; i++)
    {
      double y = afg_flame_row_get_y (layout, state, leaves[i].row);

      if (leaves[i].width >= min_width && y + AFG_FLAME_ROW_HEIGHT > 0 && y < state->height)
        draw_leaf (self, cr, afg_flame_layout_get_tree (layout), state, &leaves[i], y);
    }
}

/* The frame's box across: its drawn width, widened to @min_width around
 * its centre (kept on screen) when narrower. */
static void
frame_span (const AfgFlameFrame *frame, const AfgFlameDrawState *state, double min_width, double *x, double *w)
{
  *x = frame->x * state->width;
  *w = MAX (frame->width * state->width - 1, 1);
  if (*w < min_width)
    {
      *x = CLAMP (*x + *w / 2 - min_width / 2, 0, MAX (state->width - min_width, 0));
      *w = min_width;
    }
}

/* A search's matches get a bar of a colour of their own along their
 * bottom edge, at least MATCH_MIN_WIDTH wide: their fill alone, among
 * dimmed frames, is lost on a frame a pixel or two wide (and one under
 * a pixel is not drawn). The bar leaves the label and the frame's right
 * edge alone. */
static void
mark_matches (cairo_t *cr, const AfgFlameLayout *layout, const AfgFlameDrawState *state, GArray *marked)
{
  guint n_frames;
  const AfgFlameFrame *frames = afg_flame_layout_get_frames (layout, &n_frames);

  cairo_set_source_rgb (cr, MATCH_RED, MATCH_GREEN, MATCH_BLUE);
  for (guint k = 0; k < marked->len; k++)
    {
      const AfgFlameFrame *frame = &frames[g_array_index (marked, guint, k)];
      double y = afg_flame_row_get_y (layout, state, frame->row);
      double x, w;

      frame_span (frame, state, MATCH_MIN_WIDTH, &x, &w);
      cairo_rectangle (cr, x, y + AFG_FLAME_ROW_HEIGHT - 1 - MATCH_BAR_HEIGHT, w, MATCH_BAR_HEIGHT);
    }
  cairo_fill (cr);
}

void
afg_flame_renderer_draw_frames (AfgFlameRenderer *self, cairo_t *cr,
                                const AfgFlameLayout *layout, const AfgFlameDrawState *state)
{
  AfgTree *tree = afg_flame_layout_get_tree (layout);
  guint n_frames;
  const AfgFlameFrame *frames = afg_flame_layout_get_frames (layout, &n_frames);
  double min_width = 1.0 / MAX (state->width, 1);
  g_autoptr(GArray) marked = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_if_fail (tree == self->tree);

  for (guint row = 0; row < afg_flame_layout_get_n_rows (layout); row++)
    {
      double y = afg_flame_row_get_y (layout, state, row);
      guint end = afg_flame_layout_get_row_start (layout, row + 1);

      if (y + AFG_FLAME_ROW_HEIGHT <= 0 || y >= state->height)
        continue;
      for (guint i = afg_flame_layout_get_row_start (layout, row); i < end; i++)
        {
          if (frames[i].width >= min_width)
            draw_frame (self, cr, tree, state, &frames[i], y);
          if (state->matches != NULL && state->matches[frames[i].node])
            g_array_append_val (marked, i);
        }
    }
  mark_matches (cr, layout, state, marked);
  draw_leaves (self, cr, layout, state);
}

/* MIN_WIDTH widens the outline of a frame narrower than that around its
 * centre, so a selected frame under a pixel wide still shows. */
static void
outline_frame (cairo_t *cr, const AfgFlameLayout *layout, const AfgFlameDrawState *state,
               guint32 index, double line_width, double min_width)
{
  guint n_frames;
  const AfgFlameFrame *frame = &afg_flame_layout_get_frames (layout, &n_frames)[index];
  double y = afg_flame_row_get_y (layout, state, frame->row);
  double x, w;

  frame_span (frame, state, min_width, &x, &w);

  cairo_set_line_width (cr, line_width);
  cairo_rectangle (cr, x + line_width / 2, y + line_width / 2,
                   MAX (w - line_width, 0), AFG_FLAME_ROW_HEIGHT - 1 - line_width);
  cairo_stroke (cr);
}

/* Drawn over the cached frames, so moving the pointer never redraws them. */
void
afg_flame_renderer_draw_highlights (AfgFlameRenderer *self, cairo_t *cr,
                                    const AfgFlameLayout *layout, const AfgFlameDrawState *state)
{
  guint n_leaves;
  const AfgFlameLeaf *leaves = afg_flame_layout_get_leaves (layout, &n_leaves);

  if (state->hover != AFG_FLAME_NO_FRAME)
    {
      guint n_frames;
      const AfgFlameFrame *frame = &afg_flame_layout_get_frames (layout, &n_frames)[state->hover];
      double y = afg_flame_row_get_y (layout, state, frame->row);

      cairo_set_source_rgba (cr, 1, 1, 1, 0.35);
      cairo_rectangle (cr, frame->x * state->width, y,
                       MAX (frame->width * state->width - 1, 1), AFG_FLAME_ROW_HEIGHT - 1);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, 0.1, 0.1, 0.1, 0.8);
      outline_frame (cr, layout, state, state->hover, 1, 0);
    }
  /* Checked against the leaves: a zero-initialised state names leaf 0. */
  if (state->hover_leaf < n_leaves)
    {
      const AfgFlameLeaf *leaf = &leaves[state->hover_leaf];

      cairo_set_source_rgba (cr, 1, 1, 1, 0.35);
      cairo_rectangle (cr, leaf->x * state->width, afg_flame_row_get_y (layout, state, leaf->row),
                       MAX (leaf->width * state->width - 1, 1), AFG_FLAME_ROW_HEIGHT - 1);
      cairo_fill (cr);
    }
  if (state->selected != AFG_FLAME_NO_FRAME)
    {
      cairo_set_source_rgb (cr, 0.21, 0.52, 0.89);
      outline_frame (cr, layout, state, state->selected, 2, SELECTED_MIN_WIDTH);
    }
}
