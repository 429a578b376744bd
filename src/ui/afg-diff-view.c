/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-diff-view"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-diff-view.h"
#include "afg-format.h"
#include "afg-names.h"

struct _AfgDiffView {
  AfgFlameView       *view;   /* not owned: it owns the window that owns us */
  AfgDiffShape       *shape;
  GSimpleActionGroup *actions;
  GtkWidget          *legend;
  AfgDiffSide         side;
  AfgColumn           color_column;
  AfgDiffNorm         norm;
  AfgDiffNoise        noise;
  double              scales[2];
};

static const char *const norm_names[] = {
  [AFG_DIFF_NORM_RAW] = "raw",
  [AFG_DIFF_NORM_PER_STEP] = "per-step",
  [AFG_DIFF_NORM_EQUAL_TOTALS] = "equal-totals",
};

static void
update_scales (AfgDiffView *self)
{
  if (self->shape == NULL)
    return;
  afg_diff_norm_scales (self->norm,
                        afg_diff_shape_get_value (self->shape, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT),
                        afg_diff_shape_get_value (self->shape, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT),
                        afg_diff_shape_get_step_count (self->shape, AFG_DIFF_SIDE_A),
                        afg_diff_shape_get_step_count (self->shape, AFG_DIFF_SIDE_B),
                        &self->scales[AFG_DIFF_SIDE_A], &self->scales[AFG_DIFF_SIDE_B]);
}

static double
side_value (AfgDiffView *self, AfgDiffSide side, AfgColumn column, guint32 node)
{
  return afg_diff_shape_get_value (self->shape, side, column, node) * self->scales[side];
}

static void
color_node (guint32 node, AfgFlameColor *color, gpointer data)
{
  AfgDiffView *self = data;
  double a = side_value (self, AFG_DIFF_SIDE_A, self->color_column, node);
  double b = side_value (self, AFG_DIFF_SIDE_B, self->color_column, node);

  afg_diff_compared (&a, &b, side_value (self, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS, node),
                     side_value (self, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, node), &self->noise);
  afg_diff_color (a, b, afg_diff_shape_has_node (self->shape, AFG_DIFF_SIDE_A, node),
                  afg_diff_shape_has_node (self->shape, AFG_DIFF_SIDE_B, node),
                  &self->noise, color);
}

/* U+2212 for a loss (afg-format.h), "+" for a gain, no sign for none:
 * the page's changeText(). */
static const char *
sign_of (double d)
{
  return d > 0 ? "+" : d < 0 ? "−" : "";
}

/* "1.20 ms → 1.50 ms (+300 µs, +25.0%)": the page's changeText(). */
static char *
change_text (double a, double b, char *(*format) (double))
{
  g_autofree char *text_a = format (a);
  g_autofree char *text_b = format (b);
  g_autofree char *delta = format (ABS (b - a));
  g_autofree char *share = a > 0 ? afg_format_share (ABS (b - a) * 100.0 / a) : NULL;
  g_autofree char *percent = a > 0 ? g_strdup_printf ("%s%s", sign_of (b - a), share)
                                   : g_strdup (b > 0 ? _("new") : "0%");

  return g_strdup_printf ("%s → %s (%s%s, %s)", text_a, text_b, sign_of (b - a), delta, percent);
}

static char *
change_line (AfgDiffView *self, AfgColumn column, guint32 node)
{
  return change_text (side_value (self, AFG_DIFF_SIDE_A, column, node),
                      side_value (self, AFG_DIFF_SIDE_B, column, node), afg_format_scaled_duration);
}

/* Calls are divided per step, as times are, but not scaled to B's total. */
static char *
calls_line (AfgDiffView *self, guint32 node)
{
  double a = afg_diff_shape_get_value (self->shape, AFG_DIFF_SIDE_A, AFG_COLUMN_CALLS, node);
  double b = afg_diff_shape_get_value (self->shape, AFG_DIFF_SIDE_B, AFG_COLUMN_CALLS, node);

  if (self->norm == AFG_DIFF_NORM_PER_STEP)
    {
      a *= self->scales[AFG_DIFF_SIDE_A];
      b *= self->scales[AFG_DIFF_SIDE_B];
    }
  return change_text (a, b, afg_format_count);
}

/* "Self", or "Self / step" when Per step divides the values. */
static char *
value_label (AfgDiffView *self, const char *label)
{
  return self->norm == AFG_DIFF_NORM_PER_STEP ? g_strdup_printf (_("%s / step"), label) : g_strdup (label);
}

static const char *
presence_line (AfgDiffView *self, guint32 node)
{
  if (!afg_diff_shape_has_node (self->shape, AFG_DIFF_SIDE_A, node))
    return _("Only in B");
  if (!afg_diff_shape_has_node (self->shape, AFG_DIFF_SIDE_B, node))
    return _("Only in A");
  return NULL;
}

static const char *
norm_label (AfgDiffNorm norm)
{
  if (norm == AFG_DIFF_NORM_PER_STEP)
    return _("Per step");
  if (norm == AFG_DIFF_NORM_EQUAL_TOTALS)
    return _("A scaled to B's total");
  return NULL;
}

/* Lines without markup: NAME, then the changes; the tooltip bolds the first. */
static GPtrArray *
tooltip_lines (AfgDiffView *self, guint32 node)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *self_line = change_line (self, AFG_COLUMN_SELF_NS, node);
  g_autofree char *total_line = change_line (self, AFG_COLUMN_TOTAL_NS, node);
  g_autofree char *calls = calls_line (self, node);
  g_autofree char *self_label = value_label (self, _("Self"));
  g_autofree char *total_label = value_label (self, _("Total"));
  g_autofree char *calls_label = value_label (self, _("Calls"));
  const char *presence = presence_line (self, node);
  const char *norm = norm_label (self->norm);

  g_ptr_array_add (lines, g_strdup (afg_tree_get_node_name (afg_diff_view_get_tree (self), node)));
  g_ptr_array_add (lines, g_strdup_printf (_("%s: %s"), self_label, self_line));
  g_ptr_array_add (lines, g_strdup_printf (_("%s: %s"), total_label, total_line));
  g_ptr_array_add (lines, g_strdup_printf (_("%s: %s"), calls_label, calls));
  if (presence != NULL)
    g_ptr_array_add (lines, g_strdup (presence));
  if (norm != NULL)
    g_ptr_array_add (lines, g_strdup_printf (_("Times normalised: %s"), norm));
  return lines;
}

static char *
tooltip_markup (guint32 node, gpointer data)
{
  g_autoptr(GPtrArray) lines = tooltip_lines (data, node);
  g_autoptr(GString) markup = g_string_new (NULL);

  for (guint i = 0; i < lines->len; i++)
    {
      g_autofree char *escaped = g_markup_escape_text (lines->pdata[i], -1);

      g_string_append_printf (markup, i == 0 ? "<b>%s</b>" : "\n%s", escaped);
    }
  return g_string_free (g_steal_pointer (&markup), FALSE);
}

char *
afg_diff_view_get_tooltip_text (AfgDiffView *self, guint32 node)
{
  g_autoptr(GPtrArray) lines = NULL;

  g_return_val_if_fail (self->shape != NULL, NULL);

  lines = tooltip_lines (self, node);
  g_ptr_array_add (lines, NULL);
  return g_strjoinv ("\n", (char **) lines->pdata);
}

static void
repaint (AfgDiffView *self)
{
  if (self->shape != NULL)
    afg_flame_view_set_color_func (self->view, color_node, self);
}

static void
on_shape_changed (GSimpleAction *action, GVariant *value, gpointer data)
{
  AfgDiffView *self = data;
  AfgDiffSide side = g_str_equal (g_variant_get_string (value, NULL), "a") ? AFG_DIFF_SIDE_A : AFG_DIFF_SIDE_B;

  g_simple_action_set_state (action, value);
  if (side == self->side)
    return;
  self->side = side;
  if (self->shape != NULL)
    afg_flame_view_replace_tree (self->view, afg_diff_view_get_tree (self));
}

static void
on_color_changed (GSimpleAction *action, GVariant *value, gpointer data)
{
  AfgDiffView *self = data;

  g_simple_action_set_state (action, value);
  self->color_column = g_str_equal (g_variant_get_string (value, NULL), "total")
    ? AFG_COLUMN_TOTAL_NS : AFG_COLUMN_SELF_NS;
  repaint (self);
}

static void
on_norm_changed (GSimpleAction *action, GVariant *value, gpointer data)
{
  AfgDiffView *self = data;
  const char *name = g_variant_get_string (value, NULL);

  guint norm;

  if (!afg_names_find (norm_names, G_N_ELEMENTS (norm_names), name, &norm))
    return;
  self->norm = norm;
  update_scales (self);
  repaint (self);
  /* The state last: its watchers read the new scales. */
  g_simple_action_set_state (action, value);
}

static void
on_noise_changed (GSimpleAction *action, GVariant *value, gpointer data)
{
  AfgDiffView *self = data;
  double v = MAX (0, g_variant_get_double (value));

  g_simple_action_set_state (action, g_variant_new_double (v));
  if (g_str_equal (g_action_get_name (G_ACTION (action)), "min-ms"))
    self->noise.min_ns = v * 1e6;
  else
    self->noise.min_percent = v;
  repaint (self);
}

static void
add_actions (AfgDiffView *self)
{
  const GActionEntry entries[] = {
    { "shape", NULL, "s", "'b'", on_shape_changed },
    { "color", NULL, "s", "'self'", on_color_changed },
    { "norm", NULL, "s", "'raw'", on_norm_changed },
    { "min-ms", NULL, "d", "0.1", on_noise_changed },
    { "min-percent", NULL, "d", "5.0", on_noise_changed },
  };

  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), entries, G_N_ELEMENTS (entries), self);
}

static char *
swatch (AfgDiffKind kind, const char *label)
{
  AfgFlameHsl hsl;
  AfgFlameColor c;
  g_autofree char *escaped = g_markup_escape_text (label, -1);

  afg_diff_kind_hsl (kind, &hsl);
  afg_flame_color_for_hsl (&hsl, &c);
  return g_strdup_printf ("<span background=\"#%02x%02x%02x\">   </span> %s",
                          (guint) (c.red * 255 + 0.5), (guint) (c.green * 255 + 0.5),
                          (guint) (c.blue * 255 + 0.5), escaped);
}

static GtkWidget *
legend_label (void)
{
  g_autofree char *grew = swatch (AFG_DIFF_GREW, _("grew"));
  g_autofree char *shrank = swatch (AFG_DIFF_SHRANK, _("shrank"));
  g_autofree char *only_a = swatch (AFG_DIFF_ONLY_A, _("only in A"));
  g_autofree char *only_b = swatch (AFG_DIFF_ONLY_B, _("only in B"));
  g_autofree char *same = swatch (AFG_DIFF_SAME, _("below the noise floor"));
  g_autofree char *markup = g_strdup_printf ("%s  %s  %s  %s  %s", grew, shrank, only_a, only_b, same);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_widget_set_tooltip_text (label, _("From A to B; the stronger the colour, the bigger the change (full at a change of 100 percent or more); grey: neither the frame's own time nor its total changed past the noise floor"));
  gtk_widget_add_css_class (label, "caption");
  return label;
}

AfgDiffView *
afg_diff_view_new (AfgFlameView *view)
{
  AfgDiffView *self = g_new0 (AfgDiffView, 1);

  self->view = view;
  self->side = AFG_DIFF_SIDE_B;
  self->color_column = AFG_COLUMN_SELF_NS;
  self->norm = AFG_DIFF_NORM_RAW;
  self->noise = (AfgDiffNoise) { AFG_DIFF_DEFAULT_MIN_NS, AFG_DIFF_DEFAULT_MIN_PERCENT };
  add_actions (self);
  self->legend = g_object_ref_sink (legend_label ());
  gtk_widget_set_visible (self->legend, FALSE);
  return self;
}

void
afg_diff_view_free (AfgDiffView *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->shape, afg_diff_shape_unref);
  g_clear_object (&self->actions);
  g_clear_object (&self->legend);
  g_free (self);
}

void
afg_diff_view_set_shape (AfgDiffView *self, AfgDiffShape *shape, AfgFlameLayout *layout)
{
  if (shape != NULL)
    afg_diff_shape_ref (shape);
  g_clear_pointer (&self->shape, afg_diff_shape_unref);
  self->shape = shape;
  gtk_widget_set_visible (self->legend, shape != NULL);
  afg_flame_view_set_tooltip_func (self->view, shape ? tooltip_markup : NULL, self);
  afg_flame_view_set_color_func (self->view, shape ? color_node : NULL, self);
  if (shape == NULL)
    return;
  update_scales (self);
  if (layout != NULL && afg_flame_layout_get_tree (layout) != afg_diff_view_get_tree (self))
    g_clear_pointer (&layout, afg_flame_layout_free);
  afg_flame_view_set_tree_with_layout (self->view, afg_diff_view_get_tree (self), layout);
}

AfgDiffShape *
afg_diff_view_get_shape (AfgDiffView *self)
{
  return self->shape;
}

AfgTree *
afg_diff_view_get_tree (AfgDiffView *self)
{
  return self->shape ? afg_diff_shape_get_tree (self->shape, self->side) : NULL;
}

GActionGroup *
afg_diff_view_get_actions (AfgDiffView *self)
{
  return G_ACTION_GROUP (self->actions);
}

GtkWidget *
afg_diff_view_get_legend (AfgDiffView *self)
{
  return self->legend;
}

void
afg_diff_view_get_scales (AfgDiffView *self, double *a_scale, double *b_scale)
{
  *a_scale = self->shape != NULL ? self->scales[AFG_DIFF_SIDE_A] : 1.0;
  *b_scale = self->shape != NULL ? self->scales[AFG_DIFF_SIDE_B] : 1.0;
}

const char *
afg_diff_view_get_option (AfgDiffView *self, const char *name)
{
  if (g_str_equal (name, "shape"))
    return self->side == AFG_DIFF_SIDE_A ? "a" : "b";
  if (g_str_equal (name, "color"))
    return self->color_column == AFG_COLUMN_TOTAL_NS ? "total" : "self";
  if (g_str_equal (name, "norm"))
    return norm_names[self->norm];
  return NULL;
}
