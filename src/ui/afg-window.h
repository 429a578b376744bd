/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AFG_TYPE_WINDOW (afg_window_get_type ())

G_DECLARE_FINAL_TYPE (AfgWindow, afg_window, AFG, WINDOW, GtkApplicationWindow)

AfgWindow *afg_window_new        (GtkApplication *application);
void       afg_window_open       (AfgWindow      *self,
                                  GFile          *file);
void       afg_window_compare    (AfgWindow      *self,
                                  GFile          *a,
                                  GFile          *b);
gboolean   afg_window_is_comparing (AfgWindow    *self);
GFile     *afg_window_get_file   (AfgWindow      *self);
gboolean   afg_window_has_failed (AfgWindow      *self);
/* The job folder whose ranks the window lists, or NULL. */
GFile     *afg_window_get_job_folder (AfgWindow  *self);
/* Prints the test state line (AFG_TEST_STATE) if it changed. */
void       afg_window_report_state (AfgWindow    *self);

G_END_DECLS
