/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

enum {
  AFG_EXIT_OK = 0,
  AFG_EXIT_BAD_INPUT = 1,
  AFG_EXIT_USAGE = 2,
  AFG_EXIT_WRITE_FAILED = 3,
};

gboolean afg_cli_wants_export (int    argc,
                               char **argv);
/* The headless exporter: never touches GTK. */
int      afg_cli_main         (int    argc,
                               char **argv);

G_END_DECLS
