/* SPDX-License-Identifier: MIT */
/* Stepping through a search's matches: F3 and Shift+F3 anywhere in the
 * window (the stack chart's instances when there is no search), Enter and Shift+Enter in the search entry (Enter in the graph
 * still zooms into the selected frame). Each step selects the match and
 * brings it into view (afg_flame_view_step_match). */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include "afg-window-private.h"

/* Without a search to step through, F3 steps through the stack chart's
 * rows of the node selected in the flame graph. */
static void
step (AfgWindow *self, gboolean forward)
{
  if (afg_flame_view_step_match (self->flame_view, forward) > 0)
    _afg_window_update_match_label (self);
  else
    _afg_window_chart_step (self, forward);
}

static void
next_match_action (GtkWidget *widget, const char *name, GVariant *param)
{
  step (AFG_WINDOW (widget), TRUE);
}

static void
previous_match_action (GtkWidget *widget, const char *name, GVariant *param)
{
  step (AFG_WINDOW (widget), FALSE);
}

/* Before the entry's own "activate": Shift+Enter too. */
static gboolean
on_entry_key (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state, AfgWindow *self)
{
  if (keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter && keyval != GDK_KEY_ISO_Enter)
    return FALSE;
  step (self, (state & GDK_SHIFT_MASK) == 0);
  return TRUE;
}

void
_afg_window_search_init (AfgWindow *self)
{
  GtkEventController *key = gtk_event_controller_key_new ();

  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_entry_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), key);
}

void
_afg_window_search_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.next-match", NULL, next_match_action);
  gtk_widget_class_install_action (widget_class, "win.previous-match", NULL, previous_match_action);
}
