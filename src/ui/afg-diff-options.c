/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-diff-options"

#include "config.h"

#include "afg-diff-options.h"

struct _AfgDiffOptions {
  GtkWidget      parent_instance;

  /* Template children */
  GtkMenuButton *button;
  GtkSpinButton *min_ms;
  GtkSpinButton *min_percent;

  /* Owned */
  GActionGroup  *actions;
};

G_DEFINE_FINAL_TYPE (AfgDiffOptions, afg_diff_options, GTK_TYPE_WIDGET)

/* The two thresholds are doubles: a spin button is not actionable. */
static GtkSpinButton *
spin_of (AfgDiffOptions *self, const char *action)
{
  if (g_str_equal (action, "min-ms"))
    return self->min_ms;
  return g_str_equal (action, "min-percent") ? self->min_percent : NULL;
}

static const char *
action_of (AfgDiffOptions *self, GtkSpinButton *spin)
{
  return spin == self->min_ms ? "min-ms" : "min-percent";
}

static void
show_state (AfgDiffOptions *self, const char *action, GVariant *state)
{
  GtkSpinButton *spin = spin_of (self, action);

  /* The same value again emits nothing: no loop with on_spin_changed. */
  if (spin != NULL && g_variant_is_of_type (state, G_VARIANT_TYPE_DOUBLE))
    gtk_spin_button_set_value (spin, g_variant_get_double (state));
}

static void
on_state_changed (GActionGroup *actions, const char *action, GVariant *state, AfgDiffOptions *self)
{
  show_state (self, action, state);
}

/* A value the action already has (shown from its state) is not sent
 * back: the diff would be repainted for nothing. */
static void
on_spin_changed (GtkSpinButton *spin, AfgDiffOptions *self)
{
  g_autoptr(GVariant) state = NULL;
  double value = gtk_spin_button_get_value (spin);

  if (self->actions == NULL)
    return;
  state = g_action_group_get_action_state (self->actions, action_of (self, spin));
  if (state == NULL || g_variant_get_double (state) != value)
    g_action_group_change_action_state (self->actions, action_of (self, spin), g_variant_new_double (value));
}

static void
show_thresholds (AfgDiffOptions *self)
{
  static const char *const names[] = { "min-ms", "min-percent" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GVariant) state = g_action_group_get_action_state (self->actions, names[i]);

      if (state != NULL)
        show_state (self, names[i], state);
    }
}

/* The toggles find the actions by name through this widget, wherever
 * it is put. */
static void
set_actions (AfgDiffOptions *self, GActionGroup *actions)
{
  self->actions = g_object_ref (actions);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "diff", actions);
  g_signal_connect_object (actions, "action-state-changed", G_CALLBACK (on_state_changed), self, 0);
  show_thresholds (self);
}

static void
afg_diff_options_dispose (GObject *object)
{
  AfgDiffOptions *self = AFG_DIFF_OPTIONS (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), AFG_TYPE_DIFF_OPTIONS);
  g_clear_object (&self->actions);
  G_OBJECT_CLASS (afg_diff_options_parent_class)->dispose (object);
}

static void
afg_diff_options_class_init (AfgDiffOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_diff_options_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-diff-options.ui");
  /* Bound so that dispose_template unparents it. */
  gtk_widget_class_bind_template_child (widget_class, AfgDiffOptions, button);
  gtk_widget_class_bind_template_child (widget_class, AfgDiffOptions, min_ms);
  gtk_widget_class_bind_template_child (widget_class, AfgDiffOptions, min_percent);
  gtk_widget_class_bind_template_callback (widget_class, on_spin_changed);
}

static void
afg_diff_options_init (AfgDiffOptions *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
afg_diff_options_new (GActionGroup *actions)
{
  AfgDiffOptions *self;

  g_return_val_if_fail (G_IS_ACTION_GROUP (actions), NULL);

  self = g_object_new (AFG_TYPE_DIFF_OPTIONS, NULL);
  set_actions (self, actions);
  return GTK_WIDGET (self);
}
