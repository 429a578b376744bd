/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-flame-view"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-flame-renderer.h"
#include "afg-flame-view.h"
#include "afg-format.h"

struct _AfgFlameView {
  GtkWidget         parent_instance;

  AfgTree          *tree;
  AfgColumn         weight;
  AfgFlameLayout   *layout;
  AfgFlameRenderer *renderer;
  GskRenderNode    *frames_node;   /* cached drawing of the frames */
  guint8           *matches;       /* NULL when nothing is searched */
  char             *search;
  GtkAdjustment    *hadjustment;
  GtkAdjustment    *vadjustment;
  guint32           view_root;
  guint32           hover;         /* frame index */
  guint32           selected_node; /* node id, survives zooming */
  guint             hscroll_policy : 1;
  guint             vscroll_policy : 1;
  guint             flame : 1;
};

enum {
  PROP_0,
  PROP_FLAME,
  PROP_ZOOM_ROOT,
  N_PROPS,
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_CODE (AfgFlameView, afg_flame_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

static void
fill_state (AfgFlameView *self, AfgFlameDrawState *state)
{
  state->width = gtk_widget_get_width (GTK_WIDGET (self));
  state->height = gtk_widget_get_height (GTK_WIDGET (self));
  state->scroll_y = self->vadjustment ? gtk_adjustment_get_value (self->vadjustment) : 0;
  state->flame = self->flame;
  state->matches = self->matches;
  state->hover = self->hover;
  state->selected = self->layout
    ? afg_flame_layout_find_node (self->layout, self->selected_node) : AFG_FLAME_NO_FRAME;
}

static void
invalidate_frames (AfgFlameView *self)
{
  g_clear_pointer (&self->frames_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_vadjustment (AfgFlameView *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  int content = self->layout ? afg_flame_content_height (self->layout) : 0;

  if (self->vadjustment == NULL)
    return;
  gtk_adjustment_configure (self->vadjustment,
                            gtk_adjustment_get_value (self->vadjustment),
                            0, MAX (content, height), AFG_FLAME_ROW_HEIGHT * 3,
                            height * 0.9, height);
}

/* The root row is where reading starts: the top in icicle mode, the
 * bottom in flame mode. */
static void
scroll_to_root (AfgFlameView *self)
{
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, self->flame
                              ? gtk_adjustment_get_upper (self->vadjustment) : 0);
}

/* Takes LAYOUT, which may be NULL. */
static void
set_layout (AfgFlameView *self, AfgFlameLayout *layout)
{
  g_clear_pointer (&self->layout, afg_flame_layout_free);
  self->hover = AFG_FLAME_NO_FRAME;
  self->layout = layout;
  update_vadjustment (self);
  scroll_to_root (self);
  invalidate_frames (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_ROOT]);
}

static void
rebuild_layout (AfgFlameView *self, guint32 zoom_root)
{
  set_layout (self, self->tree == NULL ? NULL
              : afg_flame_layout_new (self->tree, self->weight, self->view_root, zoom_root));
}

static void
set_hover (AfgFlameView *self, guint32 hover)
{
  guint n;

  if (hover == self->hover)
    return;
  self->hover = hover;
  if (hover != AFG_FLAME_NO_FRAME)
    g_debug ("hover: %s", afg_tree_get_node_name (self->tree, afg_flame_layout_get_frames (self->layout, &n)[hover].node));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static guint32
frame_at (AfgFlameView *self, double x, double y)
{
  AfgFlameDrawState state;

  if (self->layout == NULL)
    return AFG_FLAME_NO_FRAME;
  fill_state (self, &state);
  return afg_flame_frame_at (self->layout, &state, x, y);
}

static guint32
frame_node (AfgFlameView *self, guint32 frame)
{
  guint n;

  return afg_flame_layout_get_frames (self->layout, &n)[frame].node;
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, AfgFlameView *self)
{
  set_hover (self, frame_at (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *motion, AfgFlameView *self)
{
  set_hover (self, AFG_FLAME_NO_FRAME);
}

static void
select_node (AfgFlameView *self, guint32 node)
{
  self->selected_node = node;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_click_released (GtkGestureClick *gesture, int n_press, double x, double y, AfgFlameView *self)
{
  guint32 frame = frame_at (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (frame == AFG_FLAME_NO_FRAME)
    return;
  select_node (self, frame_node (self, frame));
  afg_flame_view_zoom_to (self, frame_node (self, frame));
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

static guint32
neighbour_frame (AfgFlameView *self, guint32 frame, guint keyval)
{
  guint n;
  const AfgFlameFrame *frames = afg_flame_layout_get_frames (self->layout, &n);
  gboolean up = keyval == GDK_KEY_Up;

  if (keyval == GDK_KEY_Up || keyval == GDK_KEY_Down)
    return up != (gboolean) self->flame
      ? afg_flame_layout_get_parent (self->layout, frame)
      : afg_flame_layout_get_first_child (self->layout, frame);
  if (keyval == GDK_KEY_Left)
    return frame > 0 && frames[frame - 1].row == frames[frame].row ? frame - 1 : AFG_FLAME_NO_FRAME;
  return frame + 1 < n && frames[frame + 1].row == frames[frame].row ? frame + 1 : AFG_FLAME_NO_FRAME;
}

static void
move_selection (AfgFlameView *self, guint keyval)
{
  guint32 frame = afg_flame_layout_find_node (self->layout, self->selected_node);
  guint32 next;

  if (frame == AFG_FLAME_NO_FRAME)
    next = afg_flame_layout_find_node (self->layout, afg_flame_layout_get_zoom_root (self->layout));
  else
    next = neighbour_frame (self, frame, keyval);
  if (next == AFG_FLAME_NO_FRAME)
    return;
  select_node (self, frame_node (self, next));
  scroll_to_frame (self, next);
  g_debug ("selected: %s", afg_tree_get_node_name (self->tree, self->selected_node));
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
    case GDK_KEY_Return: case GDK_KEY_KP_Enter:
      if (afg_flame_layout_find_node (self->layout, self->selected_node) != AFG_FLAME_NO_FRAME)
        afg_flame_view_zoom_to (self, self->selected_node);
      return TRUE;
    case GDK_KEY_BackSpace:
      afg_flame_view_zoom_out (self);
      return TRUE;
    default:
      return FALSE;
    }
}

static char *
tooltip_markup (AfgFlameView *self, guint32 node)
{
  AfgTree *tree = self->tree;
  AfgColumn self_column = afg_column_get_info (self->weight)->self;
  gint64 value = afg_tree_get_value (tree, self->weight, node);
  g_autofree char *total = afg_format_duration (value);
  g_autofree char *self_time = afg_format_duration (afg_tree_get_value (tree, self_column, node));
  g_autofree char *of_all = afg_format_percent (value, afg_tree_get_value (tree, self->weight, AFG_TREE_ROOT));
  g_autofree char *of_zoom = afg_format_percent (value, afg_tree_get_value (tree, self->weight,
                                                   afg_flame_layout_get_zoom_root (self->layout)));
  AfgCategory category = afg_tree_get_node_category (tree, node);
  guint64 calls = node == AFG_TREE_ROOT ? 0 : (guint64) afg_tree_get_value (tree, AFG_COLUMN_CALLS, node);

  return g_markup_printf_escaped ("<b>%s</b>\n%s: %s\n%s: %" G_GUINT64_FORMAT "\n%s: %s\n%s: %s\n"
                                  "%s: %s\n%s: %s",
                                  afg_tree_get_node_name (self->tree, node),
                                  _("Category"), afg_category_to_string (category),
                                  _("Calls"), calls, _("Total"), total, _("Self"), self_time,
                                  _("Of all"), of_all, _("Of zoom"), of_zoom);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  AfgFlameView *self = AFG_FLAME_VIEW (widget);
  guint32 frame = frame_at (self, x, y);
  g_autofree char *markup = NULL;

  if (frame == AFG_FLAME_NO_FRAME)
    return FALSE;
  markup = tooltip_markup (self, frame_node (self, frame));
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
copy_action (GtkWidget *widget, const char *action_name, GVariant *param)
{
  AfgFlameView *self = AFG_FLAME_VIEW (widget);

  if (self->tree == NULL || self->layout == NULL
      || afg_flame_layout_find_node (self->layout, self->selected_node) == AFG_FLAME_NO_FRAME)
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
    return;
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

  set_adjustment (self, &self->hadjustment, NULL);
  set_adjustment (self, &self->vadjustment, NULL);
  g_clear_pointer (&self->frames_node, gsk_render_node_unref);
  g_clear_pointer (&self->layout, afg_flame_layout_free);
  g_clear_pointer (&self->renderer, afg_flame_renderer_free);
  g_clear_pointer (&self->tree, afg_tree_unref);
  g_clear_pointer (&self->matches, g_free);
  g_clear_pointer (&self->search, g_free);
  G_OBJECT_CLASS (afg_flame_view_parent_class)->dispose (object);
}

static void
afg_flame_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgFlameView *self = AFG_FLAME_VIEW (object);

  switch (prop_id)
    {
    case PROP_FLAME:
      g_value_set_boolean (value, self->flame);
      break;
    case PROP_ZOOM_ROOT:
      g_value_set_uint (value, self->layout ? afg_flame_layout_get_zoom_root (self->layout) : 0);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
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
    case PROP_FLAME:
      afg_flame_view_set_flame (self, g_value_get_boolean (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_flame_view_class_init (AfgFlameViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_flame_view_dispose;
  object_class->get_property = afg_flame_view_get_property;
  object_class->set_property = afg_flame_view_set_property;
  widget_class->snapshot = afg_flame_view_snapshot;
  widget_class->size_allocate = afg_flame_view_size_allocate;
  widget_class->measure = afg_flame_view_measure;
  widget_class->query_tooltip = on_query_tooltip;

  properties[PROP_FLAME] =
    g_param_spec_boolean ("flame", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM_ROOT] =
    g_param_spec_uint ("zoom-root", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  gtk_widget_class_install_action (widget_class, "flame.copy", NULL, copy_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "flame.copy", NULL);
  gtk_widget_class_set_css_name (widget_class, "flameview");
}

static void
afg_flame_view_init (AfgFlameView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *key = gtk_event_controller_key_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->view_root = AFG_TREE_ROOT;
  self->weight = AFG_COLUMN_TOTAL_NS;
  self->hover = AFG_FLAME_NO_FRAME;
  self->selected_node = AFG_FLAME_NO_FRAME;
  self->renderer = afg_flame_renderer_new (gtk_widget_get_pango_context (GTK_WIDGET (self)));
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
  g_signal_connect (click, "released", G_CALLBACK (on_click_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
}

GtkWidget *
afg_flame_view_new (void)
{
  return g_object_new (AFG_TYPE_FLAME_VIEW, NULL);
}

void
afg_flame_view_set_tree (AfgFlameView *self, AfgTree *tree)
{
  afg_flame_view_set_tree_with_layout (self, tree, NULL);
}

/* LAYOUT, if given, is TREE's whole-profile layout, built off the main
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
  g_clear_pointer (&self->search, g_free);
  self->tree = tree ? afg_tree_ref (tree) : NULL;
  self->view_root = AFG_TREE_ROOT;
  self->selected_node = AFG_FLAME_NO_FRAME;
  afg_flame_renderer_set_tree (self->renderer, tree);
  if (layout != NULL)
    set_layout (self, layout);
  else
    rebuild_layout (self, AFG_TREE_ROOT);
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
  rebuild_layout (self, view_root);
}

void
afg_flame_view_zoom_to (AfgFlameView *self, guint32 node)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));
  g_return_if_fail (self->tree != NULL);

  if (!afg_tree_is_descendant (self->tree, node, self->view_root))
    return;
  g_debug ("zoom: %s", afg_tree_get_node_name (self->tree, node));
  rebuild_layout (self, node);
}

void
afg_flame_view_zoom_out (AfgFlameView *self)
{
  guint32 parent;

  g_return_if_fail (AFG_IS_FLAME_VIEW (self));

  if (self->layout == NULL)
    return;
  parent = afg_flame_layout_get_node_parent (self->layout, afg_flame_layout_get_zoom_root (self->layout));
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

  return self->layout != NULL && afg_flame_layout_get_zoom_root (self->layout) != self->view_root;
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
  if (text != NULL && self->tree != NULL)
    self->matches = afg_flame_search_match (self->tree, text);
  invalidate_frames (self);
}

gboolean
afg_flame_view_get_search_result (AfgFlameView *self, AfgFlameSearchResult *result)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), FALSE);

  if (self->matches == NULL || self->layout == NULL)
    return FALSE;
  afg_flame_search_summarize (self->tree, self->weight, self->matches,
                              afg_flame_layout_get_zoom_root (self->layout), result);
  return TRUE;
}

gboolean
afg_flame_view_get_flame (AfgFlameView *self)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), FALSE);

  return self->flame;
}

void
afg_flame_view_set_flame (AfgFlameView *self, gboolean flame)
{
  g_return_if_fail (AFG_IS_FLAME_VIEW (self));

  flame = !!flame;
  if (flame == self->flame)
    return;
  self->flame = flame;
  scroll_to_root (self);
  invalidate_frames (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLAME]);
}

const AfgFlameLayout *
afg_flame_view_get_layout (AfgFlameView *self)
{
  g_return_val_if_fail (AFG_IS_FLAME_VIEW (self), NULL);

  return self->layout;
}
