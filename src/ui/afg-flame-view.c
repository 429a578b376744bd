/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-flame-view"

#include "config.h"

#include <inttypes.h>
#include <math.h>

#include <glib/gi18n.h>

#include "afg-flame-renderer.h"
#include "afg-flame-view.h"
#include "afg-format.h"
#include "afg-frame-tooltip.h"
#include "afg-scrollable.h"
#include "afg-widget-input.h"
#include "afg-task-kinds.h"
#include "afg-worker.h"

/* Wide enough for the stats lines; a long name (C++ templates, Python
 * paths) wraps, also inside a word, instead of spanning the screen. The
 * exported page wraps at about the same width. */
#define TOOLTIP_MAX_CHARS 60
/* A match F3 steps to is made at least this wide on screen. */
#define MATCH_MIN_PX 3.0

struct _AfgFlameView {
  GtkWidget         parent_instance;

  AfgTree       *tree;
  AfgColumn      weight;
  guint          divisor;  /* "Per step": the tooltip's values divided by it */
  AfgFlameLayout   *layout;        /* the last one built; may lag a request */
  AfgWorker        *layouter;      /* builds every layout but a load's */
  AfgFlameRenderer *renderer;
  GskRenderNode    *frames_node;   /* cached drawing of the frames */
  guint8           *matches;       /* NULL when nothing is searched */
  guint8           *highlight;     /* NULL when no function is picked */
  char             *search;
  AfgFlameTooltipFunc tooltip_func;
  gpointer          tooltip_data;
  GtkAdjustment    *hadjustment;
  GtkAdjustment    *vadjustment;
  guint32           view_root;
  guint32           zoom_root;      /* requested: the layout may still be building */
  guint32           hover;          /* frame index */
  guint32           hover_leaf;     /* kernel leaf index, when no frame is hovered */
  guint32           selected_node;  /* node id, survives zooming */
  guint32           selected_frame; /* its index in the layout, kept in step */
  GArray           *match_list;     /* the matches F3 steps through, built at the first step */
  guint             match_pos;      /* the current one, from 1; 0 before a step */
  guint32           reveal;         /* the node the next layout scrolls to, or AFG_FLAME_NO_FRAME */
  GtkScrollablePolicy hscroll_policy;
  GtkScrollablePolicy vscroll_policy;
  guint             icicle : 1;

};

enum {
  PROP_0,
  PROP_ICICLE,
  PROP_ZOOM_ROOT,
  PROP_SELECTED_NODE,
  PROP_HOVER_NODE,
  N_PROPS,
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

enum {
  NODE_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (AfgFlameView, afg_flame_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

static void
fill_state (AfgFlameView *self, AfgFlameDrawState *state)
{
  state->width = gtk_widget_get_width (GTK_WIDGET (self));
  state->height = gtk_widget_get_height (GTK_WIDGET (self));
  state->scroll_y = self->vadjustment ? gtk_adjustment_get_value (self->vadjustment) : 0;
  state->icicle = self->icicle;
  state->matches = self->matches;
  state->highlight = self->highlight;
  state->hover = self->hover;
  state->selected = self->selected_frame;
  state->hover_leaf = self->hover_leaf;
}

static void
invalidate_frames (AfgFlameView *self)
{
  /* While a new tree's layout is built the last picture stays, inert:
   * set_layout () replaces it. */
  if (self->layout != NULL || !afg_worker_is_running (self->layouter))
    g_clear_pointer (&self->frames_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* In flame orientation the roots sit at the bottom of the content: when
 * the view shrinks or grows (a smaller window, the notice bar sliding in)
 * the distance from the bottom is kept, not the one from the top, so the
 * roots stay where they were instead of scrolling out of view. */
static void
update_vadjustment (AfgFlameView *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  int content = self->layout ? afg_flame_content_height (self->layout) : 0;
  double upper = MAX (content, height);
  double value;

  if (self->vadjustment == NULL)
    return;
  value = gtk_adjustment_get_value (self->vadjustment);
  if (!self->icicle)
    value = upper - height - (gtk_adjustment_get_upper (self->vadjustment)
                              - gtk_adjustment_get_page_size (self->vadjustment) - value);
  gtk_adjustment_configure (self->vadjustment, CLAMP (value, 0, upper - height),
                            0, upper, AFG_FLAME_ROW_HEIGHT * 3, height * 0.9, height);
}

/* The root row is where reading starts: the top in icicle mode, the
 * bottom in flame mode. */
static void
scroll_to_root (AfgFlameView *self)
{
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, self->icicle
                              ? 0 : gtk_adjustment_get_upper (self->vadjustment));
}

static guint32
find_selected_frame (AfgFlameView *self)
{
  if (self->layout == NULL || self->selected_node == AFG_FLAME_NO_FRAME)
    return AFG_FLAME_NO_FRAME;
  return afg_flame_layout_find_node (self->layout, self->selected_node);
}

static void scroll_to_frame (AfgFlameView *self, guint32 frame);

/* Takes LAYOUT, which may be NULL. */
static void
set_layout (AfgFlameView *self, AfgFlameLayout *layout)
{
  gboolean had_hover = self->hover != AFG_FLAME_NO_FRAME || self->hover_leaf != AFG_FLAME_NO_FRAME;
  guint32 revealed;

  g_clear_pointer (&self->layout, afg_flame_layout_free);
  self->hover = AFG_FLAME_NO_FRAME;
  self->hover_leaf = AFG_FLAME_NO_FRAME;
  self->layout = layout;
  self->selected_frame = find_selected_frame (self);
  update_vadjustment (self);
  revealed = layout != NULL && self->reveal != AFG_FLAME_NO_FRAME
    ? afg_flame_layout_find_node (layout, self->reveal) : AFG_FLAME_NO_FRAME;
  if (revealed != AFG_FLAME_NO_FRAME)
    scroll_to_frame (self, revealed);
  else
    scroll_to_root (self);
  self->reveal = AFG_FLAME_NO_FRAME;
  invalidate_frames (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_ROOT]);
  if (had_hover)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_NODE]);
}

typedef struct {
  AfgTree    *tree;
  AfgColumn   weight;
  guint32     view_root;
  guint32     zoom_root;
} LayoutRequest;

static void
layout_request_free (gpointer data)
{
  LayoutRequest *req = data;

  afg_tree_unref (req->tree);
  g_free (req);
}

static gpointer
build_layout (gpointer data, GCancellable *cancellable, GError **error)
{
  LayoutRequest *req = data;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  return afg_flame_layout_new (req->tree, req->weight, req->view_root, req->zoom_root);
}

/* The layout of the tree shown before: none of its frames is the new
 * tree's to draw, hit or name (the renderer and the marks are the new
 * tree's already). Until the new layout lands, a few ms, the view shows
 * the last picture and answers no pointer. */
static void
drop_stale_layout (AfgFlameView *self)
{
  gboolean had_hover = self->hover != AFG_FLAME_NO_FRAME || self->hover_leaf != AFG_FLAME_NO_FRAME;

  g_clear_pointer (&self->layout, afg_flame_layout_free);
  self->hover = AFG_FLAME_NO_FRAME;
  self->hover_leaf = AFG_FLAME_NO_FRAME;
  self->selected_frame = AFG_FLAME_NO_FRAME;
  if (had_hover)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_NODE]);
}

/* A newer zoom, another profile or the view gone dropped any other. */
static void
on_layout_built (gpointer owner, gpointer layout, const GError *error, gpointer data)
{
  if (layout != NULL)
    set_layout (owner, layout);
}

static const AfgWorkerFuncs layout_funcs = {
  .name = "afg-layout",
  .run = build_layout,
  .done = on_layout_built,
  .free_result = (GDestroyNotify) afg_flame_layout_free,
  .takes_result = TRUE,  /* the view does */
};

/* Every layout but the one a load hands over is built here, in a worker:
 * zooming into the root of a 60k-frame profile costs a few ms that the
 * main loop does not wait for. */
static void
rebuild_layout (AfgFlameView *self, guint32 zoom_root)
{
  LayoutRequest *req;

  afg_worker_cancel (self->layouter);
  self->zoom_root = zoom_root;
  if (self->tree == NULL)
    {
      set_layout (self, NULL);
      return;
    }
  req = g_new (LayoutRequest, 1);
  *req = (LayoutRequest) { afg_tree_ref (self->tree), self->weight, self->view_root, zoom_root };
  afg_worker_start (self->layouter, &layout_funcs, req, layout_request_free);
}

static void
set_hover (AfgFlameView *self, guint32 hover, guint32 hover_leaf)
{
  if (hover == self->hover && hover_leaf == self->hover_leaf)
    return;
  self->hover = hover;
  self->hover_leaf = hover_leaf;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_NODE]);
}

/* A bsearch in the cached layout's row (rows are sorted by x): nothing per
 * pointer move walks the frames. The frame there, or with @leaf the
 * kernel leaf. */
static guint32
hit (AfgFlameView *self, double x, double y, gboolean leaf)
{
  AfgFlameDrawState state;

  if (self->layout == NULL)
    return AFG_FLAME_NO_FRAME;
  fill_state (self, &state);
  return leaf ? afg_flame_leaf_at (self->layout, &state, x, y) : afg_flame_frame_at (self->layout, &state, x, y);
}

static guint32
frame_at (AfgFlameView *self, double x, double y)
{
  return hit (self, x, y, FALSE);
}

static guint32
frame_node (AfgFlameView *self, guint32 frame)
{
  guint n;

  return afg_flame_layout_get_frames (self->layout, &n)[frame].node;
}

static guint32
leaf_at (AfgFlameView *self, double x, double y)
{
  return hit (self, x, y, TRUE);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, AfgFlameView *self)
{
  guint32 frame = frame_at (self, x, y);

  set_hover (self, frame, frame == AFG_FLAME_NO_FRAME ? leaf_at (self, x, y) : AFG_FLAME_NO_FRAME);
}

static void
on_leave (GtkEventControllerMotion *motion, AfgFlameView *self)
{
  set_hover (self, AFG_FLAME_NO_FRAME, AFG_FLAME_NO_FRAME);
}

static void
select_frame (AfgFlameView *self, guint32 frame)
{
  guint32 node = frame == AFG_FLAME_NO_FRAME ? AFG_FLAME_NO_FRAME : frame_node (self, frame);

  self->selected_frame = frame;
  if (node == self->selected_node)
    return;
  self->selected_node = node;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

/* The middle of the selected frame's part on screen, in the view's
 * coordinates: where a pointer lands on it. FALSE when no frame is
 * selected or its row is scrolled out of sight. */
gboolean
afg_flame_view_get_selected_point (AfgFlameView *self, graphene_point_t *point)
{
  AfgFlameDrawState state;
  const AfgFlameFrame *frame;
  double left, right, y;
  guint n;

  if (self->layout == NULL || self->selected_frame == AFG_FLAME_NO_FRAME)
    return FALSE;
  fill_state (self, &state);
  frame = &afg_flame_layout_get_frames (self->layout, &n)[self->selected_frame];
  left = MAX (frame->x, 0.0) * state.width;
  right = MIN (frame->x + frame->width, 1.0) * state.width;
  y = afg_flame_row_get_y (self->layout, &state, frame->row);
  if (right <= left || y < 0 || y + AFG_FLAME_ROW_HEIGHT > state.height)
    return FALSE;
  graphene_point_init (point, (float) ((left + right) / 2), (float) (y + AFG_FLAME_ROW_HEIGHT / 2.0));
  return TRUE;
}

/* A click selects, a double-click activates (the window zooms). */
static void
on_click_pressed (GtkGestureClick *gesture, int n_press, double x, double y, AfgFlameView *self)
{
  guint32 frame = frame_at (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (frame == AFG_FLAME_NO_FRAME)
    return;
  select_frame (self, frame);
  if (n_press == 2)
    g_signal_emit (self, signals[NODE_ACTIVATED], 0, self->selected_node);
}

static void
scroll_to_frame (AfgFlameView *self, guint32 frame)
{
  AfgFlameDrawState state;
  guint n;
  double y;

  fill_state (self, &state);
  y = afg_flame_row_get_y (self->layout, &state, afg_flame_layout_get_frames (self->layout, &n)[frame].row);
  if (y < 0 || y + AFG_FLAME_ROW_HEIGHT > state.height)
    gtk_adjustment_clamp_page (self->vadjustment, y + state.scroll_y,
                               y + state.scroll_y + AFG_FLAME_ROW_HEIGHT);
}

/* The first child may be far under a pixel wide; the widest one is the
 * one a reader follows. Children sit side by side in the next row. */
static guint32
widest_child (AfgFlameView *self, guint32 frame)
{
  guint n;
  const AfgFlameFrame *frames = afg_flame_layout_get_frames (self->layout, &n);
  guint32 best = afg_flame_layout_get_first_child (self->layout, frame);

  if (best == AFG_FLAME_NO_FRAME)
    return best;
  for (guint32 i = best + 1; i < n && frames[i].row == frames[best].row; i++)
    {
      if (afg_tree_get_parent_in_view (self->tree, self->view_root, frames[i].node)
          != frames[frame].node)
        break;
      if (frames[i].width > frames[best].width)
        best = i;
    }
  return best;
}

/* Arrows move on screen: in flame orientation children are drawn above
 * their parent, so Up goes to a child there and Down to the parent. */
static guint32
neighbour_frame (AfgFlameView *self, guint32 frame, guint keyval)
{
  gboolean up = keyval == GDK_KEY_Up;

  if (keyval == GDK_KEY_Up || keyval == GDK_KEY_Down)
    return up == (gboolean) self->icicle
      ? afg_flame_layout_get_parent (self->layout, frame)
      : widest_child (self, frame);
  return afg_flame_layout_get_sibling (self->layout, frame, keyval == GDK_KEY_Right);
}

static void
move_selection (AfgFlameView *self, guint keyval)
{
  guint32 next;

  if (self->selected_frame == AFG_FLAME_NO_FRAME)
    next = afg_flame_layout_find_node (self->layout, afg_flame_layout_get_zoom_root (self->layout));
  else
    next = neighbour_frame (self, self->selected_frame, keyval);
  if (next == AFG_FLAME_NO_FRAME)
    return;
  select_frame (self, next);
  scroll_to_frame (self, next);
}

static gboolean
on_key_pressed (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
                AfgFlameView *self)
{
  if (self->layout == NULL || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Up: case GDK_KEY_Down: case GDK_KEY_Left: case GDK_KEY_Right:
      move_selection (self, keyval);
      return TRUE;
    case GDK_KEY_Return: case GDK_KEY_KP_Enter: case GDK_KEY_ISO_Enter:
      if (self->selected_frame != AFG_FLAME_NO_FRAME)
        g_signal_emit (self, signals[NODE_ACTIVATED], 0, self->selected_node);
      return TRUE;
    case GDK_KEY_BackSpace:
      /* Unzoomed, the window's binding takes it (out of a diff). */
      if (!afg_flame_view_is_zoomed (self))
        return FALSE;
      afg_flame_view_zoom_out (self);
      return TRUE;
    default:
      return FALSE;
    }
}

/* The title, then the core's rows (afg-frame-tooltip.h); the call
 * durations last, with what their five values are. */
static char *
tooltip_markup (AfgFlameView *self, guint32 node)
{
  g_autoptr(GPtrArray) rows = afg_frame_tooltip_rows (self->tree, node, self->weight, self->divisor,
                                                      afg_flame_layout_get_zoom_root (self->layout));
  g_autofree char *title = g_markup_escape_text (afg_tree_get_node_title (self->tree, node), -1);
  GString *markup = g_string_new (NULL);

  g_string_append_printf (markup, "<b>%s</b>", title);
  for (guint i = 0; i < rows->len; i++)
    {
      const AfgTooltipRow *row = g_ptr_array_index (rows, i);
      g_autofree char *line = g_markup_printf_escaped (_("%s: %s"), row->label, row->value);

      g_string_append_c (markup, '\n');
      g_string_append (markup, line);
    }
  if (afg_tree_has_column (self->tree, AFG_COLUMN_DURATION_MIN) && rows->len > 0
      && g_str_equal (((const AfgTooltipRow *) g_ptr_array_index (rows, rows->len - 1))->label, _("Call durations")))
    g_string_append_printf (markup, "\n<small>%s</small>", _("min / p50 / p90 / p99 / max"));
  return g_string_free (markup, FALSE);
}

/* The provider's markup, or the profile's. */
static char *
node_markup (AfgFlameView *self, guint32 node)
{
  return self->tooltip_func != NULL ? self->tooltip_func (node, self->tooltip_data)
                                    : tooltip_markup (self, node);
}

/* The part of a box on screen (@x, @width of the view, @row), in widget
 * pixels. */
static GdkRectangle
box_area (AfgFlameView *self, double x, double width, guint32 row)
{
  AfgFlameDrawState state;
  double left, right;

  fill_state (self, &state);
  left = CLAMP (x * state.width, 0, state.width);
  right = CLAMP ((x + width) * state.width, left + 1, state.width);
  return (GdkRectangle) { (int) floor (left), (int) floor (afg_flame_row_get_y (self->layout, &state, row)),
                          MAX ((int) ceil (right) - (int) floor (left), 1), AFG_FLAME_ROW_HEIGHT };
}

static GdkRectangle
frame_area (AfgFlameView *self, guint32 frame)
{
  guint n;
  const AfgFlameFrame *f = &afg_flame_layout_get_frames (self->layout, &n)[frame];

  return box_area (self, f->x, f->width, f->row);
}

static GdkRectangle
leaf_area (AfgFlameView *self, guint32 leaf)
{
  guint n;
  const AfgFlameLeaf *l = &afg_flame_layout_get_leaves (self->layout, &n)[leaf];

  return box_area (self, l->x, l->width, l->row);
}

/* A kernel leaf: what it is and its figures, whatever the weight. */
static char *
leaf_markup (AfgFlameView *self, guint32 leaf_index)
{
  guint n;
  const AfgFlameLeaf *leaf = &afg_flame_layout_get_leaves (self->layout, &n)[leaf_index];
  const AfgNpuKernel *k = &afg_tree_get_kernels (self->tree, leaf->node, &n)[leaf->kernel];
  g_autofree char *ns = afg_format_duration (k->ns / self->divisor);
  g_autofree char *exposed = afg_format_duration (k->exposed_ns / self->divisor);

  /* TRANSLATORS: a kernel leaf's tooltip: its name, then "label: value"
   * lines (the labels are translated on their own) */
  return g_markup_printf_escaped (_("<b>%s</b>\n%s: %s\n%s: %s\n%s: %" PRIu64 "\n%s: %s\n%s: %s"),
                                  afg_document_get_string (afg_tree_get_document (self->tree), k->name),
                                  _("Device kernel of"), afg_tree_get_node_name (self->tree, leaf->node),
                                  _("Kind"), k->kind == AFG_TASK_KIND_COMPUTE ? _("compute") : _("communication"),
                                  _("Count"), k->count,
                                  self->divisor > 1 ? _("Time / step") : _("Time"), ns,
                                  self->divisor > 1 ? _("Exposed / step") : _("Exposed"), exposed);
}

static GtkWidget *
markup_label (const char *markup)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), TOOLTIP_MAX_CHARS);
  /* One width for every tooltip: GTK 4.8 places a tooltip shown again
   * with the size of the one before, which at the right edge put a wider
   * one partly off the screen. */
  gtk_label_set_width_chars (GTK_LABEL (label), TOOLTIP_MAX_CHARS);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  return label;
}

/* The tooltip's area is the frame's box: when the pointer leaves it, GTK
 * hides the tooltip and shows the next frame's where the pointer is,
 * instead of changing the text in place where the first one appeared
 * (and, grown wider there, partly off the screen). */
static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  AfgFlameView *self = AFG_FLAME_VIEW (widget);
  guint32 frame = frame_at (self, x, y);
  guint32 leaf = frame == AFG_FLAME_NO_FRAME ? leaf_at (self, x, y) : AFG_FLAME_NO_FRAME;
  g_autofree char *markup = NULL;
  GdkRectangle area;

  if (frame != AFG_FLAME_NO_FRAME)
    {
      area = frame_area (self, frame);
      gtk_tooltip_set_tip_area (tooltip, &area);
      gtk_tooltip_set_custom (tooltip, afg_flame_view_create_tooltip (self, frame_node (self, frame)));
      return TRUE;
    }
  if (leaf == AFG_FLAME_NO_FRAME)
    return FALSE;
  area = leaf_area (self, leaf);
  gtk_tooltip_set_tip_area (tooltip, &area);
  markup = leaf_markup (self, leaf);
  gtk_tooltip_set_custom (tooltip, markup_label (markup));
  return TRUE;
}

static void
copy_action (GtkWidget *widget, const char *action_name, GVariant *param)
{
  AfgFlameView *self = AFG_FLAME_VIEW (widget);

  if (self->selected_frame == AFG_FLAME_NO_FRAME)
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget),
                          afg_tree_get_node_name (self->tree, self->selected_node));
}

static GskRenderNode *
record_frames (AfgFlameView *self, AfgFlameDrawState *state)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot,
                                           &GRAPHENE_RECT_INIT (0, 0, state->width, state->height));

  afg_flame_renderer_draw_frames (self->renderer, cr, self->layout, state);
  cairo_destroy (cr);
  return gtk_snapshot_free_to_node (snapshot);
}

static void
afg_flame_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  AfgFlameView *self = AFG_FLAME_VIEW (widget);
  AfgFlameDrawState state;
  cairo_t *cr;

  if (self->layout == NULL)
    {
      if (self->frames_node != NULL)  /* the last picture, a new layout coming */
        gtk_snapshot_append_node (snapshot, self->frames_node);
      return;
    }
  fill_state (self, &state);
  if (state.width <= 0 || state.height <= 0)
    return;
  if (self->frames_node == NULL)
    self->frames_node = record_frames (self, &state);
  if (self->frames_node != NULL)
    gtk_snapshot_append_node (snapshot, self->frames_node);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, state.width, state.height));
  afg_flame_renderer_draw_highlights (self->renderer, cr, self->layout, &state);
  cairo_destroy (cr);
}

static void
afg_flame_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  AfgFlameView *self = AFG_FLAME_VIEW (widget);

  update_vadjustment (self);
  invalidate_frames (self);
}

static void
afg_flame_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                        int *minimum, int *natural, int *min_baseline, int *nat_baseline)
{
  *minimum = 0;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 600 : 400;
}

static void
on_vadjustment_changed (GtkAdjustment *adjustment, AfgFlameView *self)
{
  invalidate_frames (self);
}

static void
set_adjustment (AfgFlameView *self, GtkAdjustment **slot, GtkAdjustment *adjustment)
{
  if (*slot == adjustment)
    return;
  if (*slot != NULL)
    g_signal_handlers_disconnect_by_func (*slot, on_vadjustment_changed, self);
  g_set_object (slot, adjustment);
  if (*slot != NULL)
    g_signal_connect (*slot, "value-changed", G_CALLBACK (on_vadjustment_changed), self);
  update_vadjustment (self);
}

static void
afg_flame_view_dispose (GObject *object)
{
  AfgFlameView *self = AFG_FLAME_VIEW (object);

  afg_worker_cancel (self->layouter);
  set_adjustment (self, &self->hadjustment, NULL);
  set_adjustment (self, &self->vadjustment, NULL);
  g_clear_pointer (&self->frames_node, gsk_render_node_unref);
  g_clear_pointer (&self->layout, afg_flame_layout_free);
  g_clear_pointer (&self->renderer, afg_flame_renderer_free);
  g_clear_pointer (&self->tree, afg_tree_unref);
  g_clear_pointer (&self->matches, g_free);
  g_clear_pointer (&self->highlight, g_free);
  g_clear_pointer (&self->search, g_free);
  g_clear_pointer (&self->match_list, g_array_unref);
  G_OBJECT_CLASS (afg_flame_view_parent_class)->dispose (object);
}

static void
afg_flame_view_finalize (GObject *object)
{
  AfgFlameView *self = AFG_FLAME_VIEW (object);

  g_clear_object (&self->layouter);
  G_OBJECT_CLASS (afg_flame_view_parent_class)->finalize (object);
}

static void
afg_flame_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgFlameView *self = AFG_FLAME_VIEW (object);

  switch (prop_id)
    {
    case PROP_ICICLE:
      g_value_set_boolean (value, self->icicle);
      break;
    case PROP_ZOOM_ROOT:
      g_value_set_uint (value, self->layout ? afg_flame_layout_get_zoom_root (self->layout) : 0);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_uint (value, self->selected_node);
      break;
    case PROP_HOVER_NODE:
      g_value_set_uint (value, afg_flame_view_get_hover_node (self));
      break;
    default:
      if (!afg_scrollable_get_property (prop_id - PROP_HADJUSTMENT, value, self->hadjustment,
                                        self->vadjustment, self->hscroll_policy, self->vscroll_policy))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_flame_view_set_property (GObject *object, guint prop_id, const GValue *value,
                             GParamSpec *pspec)
{
  AfgFlameView *self = AFG_FLAME_VIEW (object);

  switch (prop_id)
    {
    case PROP_ICICLE:
      afg_flame_view_set_icicle (self, g_value_get_boolean (value));
      break;
    case PROP_SELECTED_NODE:
      afg_flame_view_set_selected_node (self, g_value_get_uint (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    default:
      if (!afg_scrollable_set_policy (prop_id - PROP_HADJUSTMENT, value, &self->hscroll_policy,
                                      &self->vscroll_policy))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_flame_view_class_init (AfgFlameViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_flame_view_dispose;
  object_class->finalize = afg_flame_view_finalize;
  object_class->get_property = afg_flame_view_get_property;
  object_class->set_property = afg_flame_view_set_property;
  widget_class->snapshot = afg_flame_view_snapshot;
  widget_class->size_allocate = afg_flame_view_size_allocate;
  widget_class->measure = afg_flame_view_measure;
  widget_class->query_tooltip = on_query_tooltip;

  /* TRUE (the default) draws roots at the top, FALSE at the bottom. */
  properties[PROP_ICICLE] =
    g_param_spec_boolean ("icicle", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The zoom root of the layout on screen: notified when a layout lands. */
  properties[PROP_ZOOM_ROOT] =
    g_param_spec_uint ("zoom-root", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* A node id (it survives zooming), AFG_FLAME_NO_FRAME for none. */
  properties[PROP_SELECTED_NODE] =
    g_param_spec_uint ("selected-node", NULL, NULL, 0, G_MAXUINT32, AFG_FLAME_NO_FRAME,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HOVER_NODE] =
    g_param_spec_uint ("hover-node", NULL, NULL, 0, G_MAXUINT32, AFG_FLAME_NO_FRAME,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Double-click or Return on a frame; the argument is its node id. */
  signals[NODE_ACTIVATED] =
    g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  afg_scrollable_override_properties (object_class, PROP_HADJUSTMENT);

  gtk_widget_class_install_action (widget_class, "flame.copy", NULL, copy_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "flame.copy", NULL);
  gtk_widget_class_set_css_name (widget_class, "flameview");
}

static void
afg_flame_view_init (AfgFlameView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->icicle = TRUE;
  self->view_root = AFG_TREE_ROOT;
  self->zoom_root = AFG_TREE_ROOT;
  self->weight = AFG_COLUMN_TOTAL_NS;
  self->divisor = 1;
  self->hover = AFG_FLAME_NO_FRAME;
  self->reveal = AFG_FLAME_NO_FRAME;
  self->hover_leaf = AFG_FLAME_NO_FRAME;
  self->selected_node = AFG_FLAME_NO_FRAME;
  self->selected_frame = AFG_FLAME_NO_FRAME;
  self->renderer = afg_flame_renderer_new (gtk_widget_get_pango_context (GTK_WIDGET (self)));
  self->layouter = afg_worker_new (self);
  afg_widget_add_motion (GTK_WIDGET (self), G_CALLBACK (on_motion), G_CALLBACK (on_leave), self);
  afg_widget_add_key (GTK_WIDGET (self), G_CALLBACK (on_key_pressed), self);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
}

GtkWidget *
afg_flame_view_new (void)
{
  return g_object_new (AFG_TYPE_FLAME_VIEW, NULL);
}

/* A new search, tree or thread: F3 starts again from the first match. */
static void
clear_match_list (AfgFlameView *self)
{
  g_clear_pointer (&self->match_list, g_array_unref);
  self->match_pos = 0;
}


void
afg_flame_view_set_tree (AfgFlameView *self, AfgTree *tree)
{
  afg_flame_view_set_tree_with_layout (self, tree, NULL);
}

/* LAYOUT, if given, is TREE's layout at its root, built off the main
 * thread (for a big profile, the first one costs 10+ ms of page faults);
 * the view takes it. */
void
afg_flame_view_set_tree_with_layout (AfgFlameView *self, AfgTree *tree, AfgFlameLayout *layout)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));
  g_return_if_fail (layout == NULL || (afg_flame_layout_get_tree (layout) == tree
                    && afg_flame_layout_get_weight (layout) == self->weight
                    && afg_flame_layout_get_view_root (layout) == AFG_TREE_ROOT
                    && afg_flame_layout_get_zoom_root (layout) == AFG_TREE_ROOT));

  g_clear_pointer (&self->tree, afg_tree_unref);
  g_clear_pointer (&self->matches, g_free);
  g_clear_pointer (&self->highlight, g_free);
  g_clear_pointer (&self->search, g_free);
  clear_match_list (self);
  self->tree = tree ? afg_tree_ref (tree) : NULL;
  self->view_root = AFG_TREE_ROOT;
  afg_flame_view_set_selected_node (self, AFG_FLAME_NO_FRAME);
  afg_flame_renderer_set_tree (self->renderer, tree);
  if (layout != NULL)
    {
      afg_worker_cancel (self->layouter);
      self->zoom_root = AFG_TREE_ROOT;
      set_layout (self, layout);
      return;
    }
  rebuild_layout (self, AFG_TREE_ROOT);
  if (tree != NULL)
    drop_stale_layout (self);
}

/* TREE has the nodes of the tree shown, in the same order (the other
 * side of a diff), only other values: zoom, selection and search stay. */
void
afg_flame_view_replace_tree (AfgFlameView *self, AfgTree *tree)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));
  g_return_if_fail (self->tree != NULL && afg_tree_get_n_nodes (tree) == afg_tree_get_n_nodes (self->tree));

  afg_tree_ref (tree);
  afg_tree_unref (self->tree);
  self->tree = tree;
  afg_flame_renderer_set_tree (self->renderer, tree);
  rebuild_layout (self, self->zoom_root);
  drop_stale_layout (self);
}

/* FUNC (NULL: the palette) stays set across trees; calling this again
 * repaints with what it answers now. */
void
afg_flame_view_set_color_func (AfgFlameView *self, AfgFlameColorFunc func, gpointer user_data)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));

  afg_flame_renderer_set_color_func (self->renderer, func, user_data);
  invalidate_frames (self);
}

void
afg_flame_view_set_tooltip_func (AfgFlameView *self, AfgFlameTooltipFunc func, gpointer user_data)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));

  self->tooltip_func = func;
  self->tooltip_data = user_data;
}

void
afg_flame_view_set_view_root (AfgFlameView *self, guint32 view_root)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));
  g_return_if_fail (self->tree != NULL);

  /* Filling the thread list selects "All threads" again: the layout the
   * view already has (maybe built in a worker) would come out the same. */
  if (view_root == self->view_root && !afg_flame_view_is_zoomed (self))
    return;
  self->view_root = view_root;
  clear_match_list (self);
  rebuild_layout (self, view_root);
}

void
afg_flame_view_zoom_to (AfgFlameView *self, guint32 node)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));
  g_return_if_fail (self->tree != NULL);

  if (!afg_tree_is_descendant (self->tree, node, self->view_root)
      || node == self->zoom_root)
    return;
  rebuild_layout (self, node);
}

void
afg_flame_view_zoom_out (AfgFlameView *self)
{
  guint32 parent;

  g_return_if_fail (AFG_IS_FLAME_VIEW (self));

  if (self->tree == NULL)
    return;
  parent = afg_tree_get_parent_in_view (self->tree, self->view_root, self->zoom_root);
  if (parent != AFG_NODE_NONE)
    afg_flame_view_zoom_to (self, parent);
}

void
afg_flame_view_reset_zoom (AfgFlameView *self)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));

  if (self->tree != NULL && afg_flame_view_is_zoomed (self))
    afg_flame_view_zoom_to (self, self->view_root);
}

gboolean
afg_flame_view_is_zoomed (AfgFlameView *self)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), FALSE);

  return self->tree != NULL && self->zoom_root != self->view_root;
}

void
afg_flame_view_set_search (AfgFlameView *self, const char *text)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));

  if (text != NULL && text[0] == '\0')
    text = NULL;
  if (g_strcmp0 (text, self->search) == 0)
    return;
  g_free (self->search);
  self->search = g_strdup (text);
  g_clear_pointer (&self->matches, g_free);
  clear_match_list (self);
  if (text != NULL && self->tree != NULL)
    self->matches = afg_flame_search_match (self->tree, text);
  invalidate_frames (self);
}

/* The next (@forward) or previous match of the search in the view (the
 * thread shown or all threads), depth first, round and round: selected
 * and brought into view. Its position among the matches, from 1; 0 when
 * nothing matches. */
guint
afg_flame_view_step_match (AfgFlameView *self, gboolean forward)
{
  guint n;

  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), 0);

  if (self->matches == NULL || self->tree == NULL)
    return 0;
  if (self->match_list == NULL)
    self->match_list = afg_flame_search_list (self->tree, self->matches, self->view_root);
  n = self->match_list->len;
  if (n == 0)
    return 0;
  if (self->match_pos == 0)
    self->match_pos = forward ? 1 : n;
  else
    self->match_pos = forward ? self->match_pos % n + 1 : (self->match_pos + n - 2) % n + 1;
  afg_flame_view_set_selected_node (self, g_array_index (self->match_list, guint32, self->match_pos - 1));
  afg_flame_view_reveal_node (self, g_array_index (self->match_list, guint32, self->match_pos - 1));
  return self->match_pos;
}

/* Brings @node into view: scrolled to when the zoom shows it
 * MATCH_MIN_PX wide, else zoomed out as far as shows it that wide (or to
 * it); the new layout then scrolls to it. */
void
afg_flame_view_reveal_node (AfgFlameView *self, guint32 node)
{
  AfgFlameDrawState state;
  guint32 frame;
  guint n;

  g_return_if_fail (AFG_IS_FLAME_VIEW (self));
  g_return_if_fail (self->tree != NULL && node < afg_tree_get_n_nodes (self->tree));

  if (!afg_tree_is_descendant (self->tree, node, self->view_root))
    return;
  frame = self->layout ? afg_flame_layout_find_node (self->layout, node) : AFG_FLAME_NO_FRAME;
  fill_state (self, &state);
  if (frame != AFG_FLAME_NO_FRAME
      && afg_flame_layout_get_frames (self->layout, &n)[frame].width * state.width >= MATCH_MIN_PX)
    {
      scroll_to_frame (self, frame);
      return;
    }
  self->reveal = node;
  afg_flame_view_zoom_to (self, afg_flame_search_reveal_root (self->tree, self->weight, self->view_root, node,
                                                               state.width, MATCH_MIN_PX));
}

guint
afg_flame_view_get_match (AfgFlameView *self)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), 0);

  return self->match_pos;
}

gboolean
afg_flame_view_get_search_result (AfgFlameView *self, AfgFlameSearchResult *result)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), FALSE);

  if (self->matches == NULL || self->layout == NULL)
    return FALSE;
  /* Over the whole view (the thread or all threads), whatever the zoom:
   * the page counts the same way. */
  afg_flame_search_summarize (self->tree, self->weight, self->matches, self->view_root, result);
  return TRUE;
}

gboolean
afg_flame_view_get_icicle (AfgFlameView *self)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), TRUE);

  return self->icicle;
}

void
afg_flame_view_set_icicle (AfgFlameView *self, gboolean icicle)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));

  icicle = !!icicle;
  if (icicle == self->icicle)
    return;
  self->icicle = icicle;
  scroll_to_root (self);
  invalidate_frames (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICICLE]);
}

const AfgFlameLayout *
afg_flame_view_get_layout (AfgFlameView *self)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), NULL);

  return self->layout;
}

/* The node of the frame under the pointer, AFG_FLAME_NO_FRAME for none. */
guint32
afg_flame_view_get_hover_node (AfgFlameView *self)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), AFG_FLAME_NO_FRAME);

  return self->hover == AFG_FLAME_NO_FRAME ? AFG_FLAME_NO_FRAME : frame_node (self, self->hover);
}

guint32
afg_flame_view_get_selected_node (AfgFlameView *self)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), AFG_FLAME_NO_FRAME);

  return self->selected_node;
}

/* NODE may be one the current layout does not show (zoomed away): it is
 * kept, and outlined again when a layout shows it. */
void
afg_flame_view_set_selected_node (AfgFlameView *self, guint32 node)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));

  if (node == self->selected_node)
    return;
  self->selected_node = node;
  self->selected_frame = find_selected_frame (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

/* Per step: the tooltip shows values divided by @divisor (1: as they are). */
void
afg_flame_view_set_divisor (AfgFlameView *self, guint divisor)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));
  g_return_if_fail (divisor > 0);

  self->divisor = divisor;
}

/* Widths, shares and the tooltip's "Of all" follow @weight, a total
 * column: a weight's (afg_weight_get_total_column()); the device
 * weights but "npu" bring their kernel leaves. The zoom stays
 * unless its frame weighs nothing there. A tree without that column gets
 * it at the next afg_flame_view_set_tree*, which its caller is about to
 * call. */
void
afg_flame_view_set_weight (AfgFlameView *self, AfgColumn weight)
{
  const gint64 *weights;

  g_return_if_fail (AFG_IS_FLAME_VIEW (self));
  if (weight == self->weight)
    return;
  self->weight = weight;
  weights = self->tree ? afg_tree_get_column (self->tree, weight) : NULL;
  if (weights != NULL)
    rebuild_layout (self, weights[self->zoom_root] > 0 ? self->zoom_root : self->view_root);
}

AfgColumn
afg_flame_view_get_weight (AfgFlameView *self)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), AFG_COLUMN_TOTAL_NS);

  return self->weight;
}

/* The plain text of NODE's tooltip, lines joined by "\n". */
char *
afg_flame_view_get_tooltip_text (AfgFlameView *self, guint32 node)
{
  g_autofree char *markup = NULL;
  char *text = NULL;

  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), NULL);
  g_return_val_if_fail (self->layout != NULL, NULL);

  markup = node_markup (self, node);
  if (!pango_parse_markup (markup, -1, 0, NULL, &text, NULL, NULL))
    return NULL;
  return text;
}

/* The plain text of the hovered kernel leaf's tooltip, or NULL when the
 * pointer is on none. */
char *
afg_flame_view_get_hover_leaf_text (AfgFlameView *self)
{
  g_autofree char *markup = NULL;
  char *text = NULL;

  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), NULL);

  if (self->layout == NULL || self->hover_leaf == AFG_FLAME_NO_FRAME)
    return NULL;
  markup = leaf_markup (self, self->hover_leaf);
  if (!pango_parse_markup (markup, -1, 0, NULL, &text, NULL, NULL))
    return NULL;
  return text;
}

/* TRUE while a requested layout is still being built. */
gboolean
afg_flame_view_is_busy (AfgFlameView *self)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), FALSE);

  return afg_worker_is_running (self->layouter);
}

/* The tooltip's content for NODE, a label that wraps at
 * TOOLTIP_MAX_CHARS and is always that wide: GTK 4.8 places a tooltip
 * shown again with the size of the one before and only then lets it
 * grow, which pushed a wider one past the screen's right edge. */
GtkWidget *
afg_flame_view_create_tooltip (AfgFlameView *self, guint32 node)
{
  g_autofree char *markup = NULL;

  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), NULL);
  g_return_val_if_fail (self->layout != NULL, NULL);

  markup = node_markup (self, node);
  return markup_label (markup);
}

/* Dims every frame whose node is not marked in @marks (a byte per node of
 * the tree shown; taken, g_free()d by the view), as a search does; NULL
 * lights every frame again. Cleared when the tree changes. */
void
afg_flame_view_set_highlight (AfgFlameView *self, guint8 *marks)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));

  if (marks == NULL && self->highlight == NULL)
    return;
  g_free (self->highlight);
  self->highlight = marks;
  invalidate_frames (self);
}
