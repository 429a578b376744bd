/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-step-strip"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-device-timeline.h"
#include "afg-format.h"
#include "afg-step-range.h"
#include "afg-step-strip.h"
#include "afg-widget-input.h"

#define STRIP_HEIGHT 36
#define BAR_GAP 1.0
#define MIN_BAR_HEIGHT 2.0
#define MARK_HEIGHT 2.0  /* each of the A and B bands above the bars */

/* One bar per step, its height the step's duration, stacked by what the
 * NPU did in it (compute at the bottom, free at the top) when the DB has
 * device tasks: the slow step and why it is slow at one glance. A click picks a step,
 * a shift-click or a drag a range, arrows move it, Esc goes back to the
 * whole profile. The range is told (::range-changed) when a gesture ends,
 * so a drag builds one tree, not one per bar crossed. */
struct _AfgStepStrip {
  GtkWidget     parent_instance;

  AfgStep      *steps;
  AfgDeviceSplit *device;  /* per step, or NULL */
  gboolean     *slow;
  guint         n_steps;
  gint64        max_ns;
  AfgStepRange  range;
  AfgStepRange  told;   /* the range last emitted */
  gboolean      marked; /* A of a comparison shown, the range being B */
  AfgStepRange  mark;
  int           hover;
  double        drag_x;
};

G_DEFINE_FINAL_TYPE (AfgStepStrip, afg_step_strip, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_HOVER,
  N_PROPS
};

enum {
  RANGE_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const GdkRGBA scope_color = { 0.208, 0.518, 0.894, 1.0 };  /* blue 3 */
static const GdkRGBA slow_color = { 0.878, 0.106, 0.141, 1.0 };   /* red 3 */
static const GdkRGBA mark_color = { 1.0, 0.471, 0.0, 1.0 };       /* orange 3: A */
/* The device's parts, bottom to top; free is the bar's own colour. */
static const GdkRGBA part_colors[3] = {
  { 0.200, 0.820, 0.478, 1.0 },  /* green 3: compute */
  { 0.569, 0.255, 0.675, 1.0 },  /* purple 3: communication */
  { 0.604, 0.600, 0.588, 1.0 },  /* dark 1: other */
};

static void
tell_range (AfgStepStrip *self)
{
  if (self->range.first == self->told.first && self->range.last == self->told.last)
    return;
  self->told = self->range;
  g_signal_emit (self, signals[RANGE_CHANGED], 0);
}

static gboolean
range_has (const AfgStepRange *range, guint i)
{
  return afg_step_range_is_all (range) || ((int) i >= range->first && (int) i <= range->last);
}

static gboolean
in_range (AfgStepStrip *self, guint i)
{
  return range_has (&self->range, i);
}

/* The bars' room: below the A and B bands while they are drawn. */
static double
bars_top (AfgStepStrip *self)
{
  return self->marked ? 2 * MARK_HEIGHT + 1 : 0;
}

static GdkRGBA
bar_color (AfgStepStrip *self, guint i, const GdkRGBA *fg)
{
  GdkRGBA color = self->slow[i] ? slow_color : in_range (self, i) ? scope_color : *fg;

  if (!in_range (self, i))
    color.alpha = self->slow[i] ? 0.45 : 0.3;
  if ((int) i == self->hover)
    color.alpha *= 0.75;
  return color;
}

static graphene_rect_t
bar_rect (AfgStepStrip *self, guint i, double width, double height)
{
  double w = width / self->n_steps;
  double gap = w > 4 * BAR_GAP ? BAR_GAP : 0;
  gint64 d = afg_step_get_ns (&self->steps[i]);
  double room = height - bars_top (self) - 2;
  double h = self->max_ns > 0 ? MAX (MIN_BAR_HEIGHT, room * d / (double) self->max_ns) : MIN_BAR_HEIGHT;

  return GRAPHENE_RECT_INIT (i * w, height - h, MAX (1.0, w - gap), h);
}

static void
draw_focus (AfgStepStrip *self, GtkSnapshot *snapshot, double width, double height, const GdkRGBA *fg)
{
  double w = width / self->n_steps;
  int first = afg_step_range_is_all (&self->range) ? 0 : self->range.first;
  int last = afg_step_range_is_all (&self->range) ? (int) self->n_steps - 1 : self->range.last;
  GskRoundedRect outline;
  GdkRGBA colors[4];
  float widths[4] = { 1, 1, 1, 1 };

  for (guint k = 0; k < 4; k++)
    {
      colors[k] = *fg;
      colors[k].alpha = 0.6;
    }
  gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (first * w, 0, (last - first + 1) * w, height), 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
}

/* A band over @range's steps in row @row (0 for A, 1 for B). */
static void
draw_band (AfgStepStrip *self, GtkSnapshot *snapshot, const AfgStepRange *range, guint row, double width,
           const GdkRGBA *color)
{
  double w = width / self->n_steps;
  int first = afg_step_range_is_all (range) ? 0 : range->first;
  int last = afg_step_range_is_all (range) ? (int) self->n_steps - 1 : range->last;

  gtk_snapshot_append_color (snapshot, color,
                             &GRAPHENE_RECT_INIT (first * w, row * MARK_HEIGHT, (last - first + 1) * w, MARK_HEIGHT));
}

/* Compute, communication and other from the bottom of @rect, each as
 * tall as its share of the step; what is left above them is free. */
static void
draw_parts (AfgStepStrip *self, GtkSnapshot *snapshot, guint i, const graphene_rect_t *rect, double alpha)
{
  const AfgDeviceSplit *d = &self->device[i];
  gint64 parts[3] = { d->compute_ns, d->comm_ns, d->other_ns };
  gint64 whole = d->compute_ns + d->comm_ns + d->other_ns + d->free_ns;
  double y = rect->origin.y + rect->size.height;

  for (guint k = 0; k < 3 && whole > 0; k++)
    {
      double h = rect->size.height * parts[k] / (double) whole;
      GdkRGBA color = part_colors[k];

      color.alpha = alpha;
      y -= h;
      gtk_snapshot_append_color (snapshot, &color, &GRAPHENE_RECT_INIT (rect->origin.x, y, rect->size.width, h));
    }
}

static void
draw_bar (AfgStepStrip *self, GtkSnapshot *snapshot, guint i, double width, double height, const GdkRGBA *fg)
{
  GdkRGBA color = bar_color (self, i, fg);
  graphene_rect_t rect = bar_rect (self, i, width, height);

  if (self->device == NULL)
    {
      gtk_snapshot_append_color (snapshot, &color, &rect);
      return;
    }
  /* The free part keeps the bar's colour (red when slow), faint. */
  color.alpha *= 0.5;
  gtk_snapshot_append_color (snapshot, &color, &rect);
  draw_parts (self, snapshot, i, &rect, in_range (self, i) ? 1.0 : 0.45);
}

static void
afg_step_strip_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  AfgStepStrip *self = AFG_STEP_STRIP (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  GdkRGBA fg;

  if (self->n_steps == 0 || width <= 0)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  for (guint i = 0; i < self->n_steps; i++)
    draw_bar (self, snapshot, i, width, height, &fg);
  if (self->marked)
    {
      draw_band (self, snapshot, &self->mark, 0, width, &mark_color);
      draw_band (self, snapshot, &self->range, 1, width, &scope_color);
    }
  if (gtk_widget_get_state_flags (widget) & GTK_STATE_FLAG_FOCUS_VISIBLE)
    draw_focus (self, snapshot, width, height, &fg);
}

static void
afg_step_strip_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                        int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_VERTICAL ? STRIP_HEIGHT : 48;
}

static int
index_at (AfgStepStrip *self, double x)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  return afg_step_index_at (self->n_steps, width, CLAMP (x, 0, width - 1));
}

/* " · A", " · B", " · A and B" while a comparison is marked, else "". */
static const char *
side_words (AfgStepStrip *self, guint i)
{
  gboolean a = self->marked && range_has (&self->mark, i);
  gboolean b = self->marked && in_range (self, i);

  /* Translators: a step of the strip in both compared ranges */
  return a && b ? _(" · A and B") : a ? _(" · A") : b ? _(" · B") : "";
}

static char *
step_tooltip (AfgStepStrip *self, guint i)
{
  g_autofree char *duration = afg_format_duration (afg_step_get_ns (&self->steps[i]));
  g_autofree char *text = NULL;

  /* Translators: a bar of the step strip: "step 11 · 1.02 s wall", the
   * step's wall-clock time */
  text = self->slow[i]
    ? g_strdup_printf (_("step %" PRId64 " · %s wall · slow"), self->steps[i].id, duration)
    : g_strdup_printf (_("step %" PRId64 " · %s wall"), self->steps[i].id, duration);
  if (self->device != NULL)
    {
      g_autofree char *parts = afg_device_split_describe (&self->device[i],
                                                          afg_step_get_ns (&self->steps[i]), TRUE);
      g_autofree char *head = g_steal_pointer (&text);

      /* TRANSLATORS: the second line of a step's tooltip */
      text = g_strdup_printf (_("%s\nNPU: %s"), head, parts);
    }
  return g_strconcat (text, side_words (self, i), NULL);
}

static gboolean
afg_step_strip_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  AfgStepStrip *self = AFG_STEP_STRIP (widget);
  int i = keyboard ? self->range.last : afg_step_index_at (self->n_steps, gtk_widget_get_width (widget), x);
  g_autofree char *text = NULL;

  if (i < 0)
    return FALSE;
  text = step_tooltip (self, i);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
set_hover (AfgStepStrip *self, int hover)
{
  if (hover == self->hover)
    return;
  self->hover = hover;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER]);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, AfgStepStrip *self)
{
  set_hover (self, afg_step_index_at (self->n_steps, gtk_widget_get_width (GTK_WIDGET (self)), x));
}

static void
on_leave (GtkEventControllerMotion *motion, AfgStepStrip *self)
{
  set_hover (self, -1);
}

static void
on_drag_begin (GtkGestureDrag *drag, double x, double y, AfgStepStrip *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (drag));
  int i = index_at (self, x);

  if (i < 0)
    return;
  self->drag_x = x;
  if (state & GDK_SHIFT_MASK)
    afg_step_range_extend (&self->range, i);
  else
    afg_step_range_select (&self->range, i);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_update (GtkGestureDrag *drag, double dx, double dy, AfgStepStrip *self)
{
  int i = index_at (self, self->drag_x + dx);

  if (i < 0 || afg_step_range_is_all (&self->range))
    return;
  afg_step_range_extend (&self->range, i);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_end (GtkGestureDrag *drag, double dx, double dy, AfgStepStrip *self)
{
  tell_range (self);
}

static gboolean
on_key_pressed (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
                AfgStepStrip *self)
{
  gboolean extend = (state & GDK_SHIFT_MASK) != 0;

  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      afg_step_range_move (&self->range, -1, self->n_steps, extend);
      break;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      afg_step_range_move (&self->range, 1, self->n_steps, extend);
      break;
    case GDK_KEY_Escape:
      /* Already the whole profile: the window's Esc does the rest. */
      if (afg_step_range_is_all (&self->range))
        return FALSE;
      afg_step_range_clear (&self->range);
      break;
    default:
      return FALSE;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  tell_range (self);
  return TRUE;
}

static void
afg_step_strip_state_flags_changed (GtkWidget *widget, GtkStateFlags previous)
{
  GTK_WIDGET_CLASS (afg_step_strip_parent_class)->state_flags_changed (widget, previous);
  gtk_widget_queue_draw (widget);
}

static void
afg_step_strip_finalize (GObject *object)
{
  AfgStepStrip *self = AFG_STEP_STRIP (object);

  g_clear_pointer (&self->steps, g_free);
  g_clear_pointer (&self->slow, g_free);
  g_clear_pointer (&self->device, g_free);
  G_OBJECT_CLASS (afg_step_strip_parent_class)->finalize (object);
}

static void
afg_step_strip_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgStepStrip *self = AFG_STEP_STRIP (object);

  switch (prop_id)
    {
    case PROP_HOVER:
      g_value_set_int (value, self->hover);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_step_strip_class_init (AfgStepStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = afg_step_strip_finalize;
  object_class->get_property = afg_step_strip_get_property;
  widget_class->snapshot = afg_step_strip_snapshot;
  widget_class->measure = afg_step_strip_measure;
  widget_class->query_tooltip = afg_step_strip_query_tooltip;
  widget_class->state_flags_changed = afg_step_strip_state_flags_changed;

  /* The index of the step under the pointer, or -1. */
  properties[PROP_HOVER] =
    g_param_spec_int ("hover", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The selected steps changed (afg_step_strip_get_range). */
  signals[RANGE_CHANGED] = g_signal_new ("range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (widget_class, "afgstepstrip");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
afg_step_strip_init (AfgStepStrip *self)
{
  GtkGesture *drag;

  afg_step_range_clear (&self->range);
  afg_step_range_clear (&self->mark);
  self->told = self->range;
  self->hover = -1;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Steps"), -1);
  drag = afg_widget_add_drag (GTK_WIDGET (self), G_CALLBACK (on_drag_begin), G_CALLBACK (on_drag_update),
                              G_CALLBACK (on_drag_end), self);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  afg_widget_add_motion (GTK_WIDGET (self), G_CALLBACK (on_motion), G_CALLBACK (on_leave), self);
  afg_widget_add_key (GTK_WIDGET (self), G_CALLBACK (on_key_pressed), self);
}

void
afg_step_strip_set_steps (AfgStepStrip *self, const AfgStep *steps, guint n_steps)
{
  gint64 median;

  g_return_if_fail (AFG_IS_STEP_STRIP (self));

  g_free (self->steps);
  g_free (self->slow);
  g_clear_pointer (&self->device, g_free);
  self->steps = g_memdup2 (steps, sizeof *steps * n_steps);
  self->slow = g_new0 (gboolean, n_steps);
  self->n_steps = n_steps;
  self->max_ns = 0;
  median = afg_step_median_ns (steps, n_steps);
  for (guint i = 0; i < n_steps; i++)
    {
      self->max_ns = MAX (self->max_ns, afg_step_get_ns (&steps[i]));
      self->slow[i] = afg_step_is_slow (steps, n_steps, i, median);
    }
  afg_step_range_clear (&self->range);
  self->told = self->range;
  self->marked = FALSE;
  set_hover (self, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
afg_step_strip_get_n_steps (AfgStepStrip *self)
{
  g_return_val_if_fail (AFG_IS_STEP_STRIP (self), 0);

  return self->n_steps;
}

gboolean
afg_step_strip_get_range (AfgStepStrip *self, guint *first, guint *last)
{
  g_return_val_if_fail (AFG_IS_STEP_STRIP (self), FALSE);

  if (afg_step_range_is_all (&self->told))
    return FALSE;
  *first = self->told.first;
  *last = self->told.last;
  return TRUE;
}

void
afg_step_strip_clear_range (AfgStepStrip *self)
{
  g_return_if_fail (AFG_IS_STEP_STRIP (self));

  afg_step_range_clear (&self->range);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  tell_range (self);
}

/* Steps @first..@last, or the whole profile for @first < 0, as the
 * window shows them already: not told. */
void
afg_step_strip_set_range (AfgStepStrip *self, int first, int last)
{
  g_return_if_fail (AFG_IS_STEP_STRIP (self));

  afg_step_range_clear (&self->range);
  if (first >= 0 && last >= first && (guint) last < self->n_steps)
    {
      afg_step_range_select (&self->range, first);
      afg_step_range_extend (&self->range, last);
    }
  self->told = self->range;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
afg_step_strip_get_hover (AfgStepStrip *self)
{
  g_return_val_if_fail (AFG_IS_STEP_STRIP (self), -1);

  return self->hover;
}

gboolean
afg_step_strip_is_slow (AfgStepStrip *self, guint index)
{
  g_return_val_if_fail (AFG_IS_STEP_STRIP (self), FALSE);
  g_return_val_if_fail (index < self->n_steps, FALSE);

  return self->slow[index];
}

/* With @marked, steps @first..@last (the whole profile for @first < 0)
 * are A of a comparison: an orange band above them, a blue one above the
 * range (B), and the tooltips say which. */
void
afg_step_strip_set_mark (AfgStepStrip *self, gboolean marked, int first, int last)
{
  g_return_if_fail (AFG_IS_STEP_STRIP (self));

  afg_step_range_clear (&self->mark);
  if (marked && first >= 0 && last >= first && (guint) last < self->n_steps)
    {
      afg_step_range_select (&self->mark, first);
      afg_step_range_extend (&self->mark, last);
    }
  self->marked = marked && self->n_steps > 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
afg_step_strip_get_mark (AfgStepStrip *self, int *first, int *last)
{
  g_return_val_if_fail (AFG_IS_STEP_STRIP (self), FALSE);

  *first = self->mark.first;
  *last = self->mark.last;
  return self->marked;
}

/* Each step's split by what the NPU did (n_steps of them, in the steps'
 * order), or NULL: the bars are then plain. */
void
afg_step_strip_set_device (AfgStepStrip *self, const AfgDeviceSplit *device)
{
  g_return_if_fail (AFG_IS_STEP_STRIP (self));

  g_clear_pointer (&self->device, g_free);
  if (device != NULL)
    self->device = g_memdup2 (device, sizeof *device * self->n_steps);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The step's split, FALSE when the strip has none. */
gboolean
afg_step_strip_get_device (AfgStepStrip *self, guint index, AfgDeviceSplit *split)
{
  g_return_val_if_fail (AFG_IS_STEP_STRIP (self), FALSE);

  if (self->device == NULL || index >= self->n_steps)
    return FALSE;
  *split = self->device[index];
  return TRUE;
}
