/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when argv holds an option: the command line answers, not the window. */
gboolean afg_cli_handles      (int         argc,
                               char      **argv);
/* The headless exporter, --help and --version: never touches GTK. */
gboolean afg_cli_window_diff  (int          argc,
                               char       **argv,
                               const char **a,
                               const char **b);
int      afg_cli_main         (int         argc,
                               char      **argv);
/* The window cannot open: says why in one line, hints at --export, and
 * returns the exit status. */
int      afg_cli_no_display   (void);

G_END_DECLS
