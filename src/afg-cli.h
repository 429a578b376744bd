/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-writers.h"

G_BEGIN_DECLS

enum {
  AFG_EXIT_OK = 0,
  AFG_EXIT_BAD_INPUT = 1,
  AFG_EXIT_USAGE = 2,
  AFG_EXIT_WRITE_FAILED = 3,
};

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
/* `PROG: error: MESSAGE` and, when @hint is set, `PROG: hint: HINT`. */
void     afg_cli_print_error  (const char *message,
                               const char *hint);
/* A load, scope or build error of @document (NULL when it did not
 * load) as error and hint lines; returns the exit status. */
int      afg_cli_report_build_error (const GError      *error,
                                     const AfgDocument *document);
/* The export's warnings about @tree (rows skipped, empty, no NPU), each
 * line led by @who ("ascend-flamegraph", or that and the side of a diff). */
void     afg_cli_print_warnings     (const char        *who,
                                     const AfgTree     *tree,
                                     AfgWeight          weight);
/* The window cannot open: says why in one line, hints at --export, and
 * returns the exit status. */
int      afg_cli_no_display   (void);

G_END_DECLS
