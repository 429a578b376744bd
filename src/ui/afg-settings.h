/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The app's GSettings, or NULL when its schema is not installed (a run
 * from the build tree): then nothing is remembered, nothing fails. */
GSettings *afg_settings_get             (void);
/* Restores and saves the window size and the flame/icicle orientation
 * (the window's "icicle" property). */
void       afg_settings_bind_window     (GtkWindow      *window);
void       afg_settings_restore_folder  (GtkFileChooser *chooser);
void       afg_settings_remember_folder (GFile          *file);

G_END_DECLS
