/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-widget-input.h"

void
afg_widget_add_motion (GtkWidget *widget, GCallback motion, GCallback leave, gpointer data)
{
  GtkEventController *controller = gtk_event_controller_motion_new ();

  g_signal_connect (controller, "motion", motion, data);
  g_signal_connect (controller, "leave", leave, data);
  gtk_widget_add_controller (widget, controller);
}

void
afg_widget_add_key (GtkWidget *widget, GCallback key_pressed, gpointer data)
{
  GtkEventController *controller = gtk_event_controller_key_new ();

  g_signal_connect (controller, "key-pressed", key_pressed, data);
  gtk_widget_add_controller (widget, controller);
}

GtkGesture *
afg_widget_add_drag (GtkWidget *widget, GCallback begin, GCallback update, GCallback end, gpointer data)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  g_signal_connect (drag, "drag-begin", begin, data);
  g_signal_connect (drag, "drag-update", update, data);
  g_signal_connect (drag, "drag-end", end, data);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));
  return drag;
}
