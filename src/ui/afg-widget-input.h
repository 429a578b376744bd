/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The controllers the drawn widgets (flame view, stack chart, step strip)
 * take their input with, wired the same way in each: @data is the
 * callbacks' last argument. */

/* The pointer moving over @widget (@motion) and leaving it (@leave). */
void        afg_widget_add_motion (GtkWidget *widget,
                                   GCallback  motion,
                                   GCallback  leave,
                                   gpointer   data);
/* A key pressed while @widget has the focus. */
void        afg_widget_add_key    (GtkWidget *widget,
                                   GCallback  key_pressed,
                                   gpointer   data);
/* A drag from a press to its release. Returns the gesture, owned by
 * @widget, for the caller to narrow (a button, say). */
GtkGesture *afg_widget_add_drag   (GtkWidget *widget,
                                   GCallback  begin,
                                   GCallback  update,
                                   GCallback  end,
                                   gpointer   data);

G_END_DECLS
