/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AFG_TYPE_APPLICATION (afg_application_get_type ())

G_DECLARE_FINAL_TYPE (AfgApplication, afg_application, AFG, APPLICATION, GtkApplication)

AfgApplication *afg_application_new (void);
int             afg_application_run (int    argc,
                                     char **argv);

int             afg_application_run_diff (const char *program,
                                          const char *a,
                                          const char *b);

G_END_DECLS
