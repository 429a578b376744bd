/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <locale.h>
#include <signal.h>

#include <glib/gi18n.h>

#include "afg-cli.h"

#if HAVE_GUI
#include "afg-ui-module.h"
#endif

int
main (int argc, char *argv[])
{
  /* Past a file size limit (ulimit -f) a write must fail with EFBIG, so
   * that the export reports it, rather than kill the process. */
  signal (SIGXFSZ, SIG_IGN);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

#if HAVE_GUI
  const char *diff_a, *diff_b;

  if (afg_cli_window_diff (argc, argv, &diff_a, &diff_b))
    return afg_ui_module_run (argc, argv, diff_a, diff_b);
#endif
  /* Decided before any GTK call: the exporter must run without a display. */
  if (afg_cli_handles (argc, argv))
    return afg_cli_main (argc, argv);
#if HAVE_GUI
  return afg_ui_module_run (argc, argv, NULL, NULL);
#else
  return afg_cli_main (argc, argv);
#endif
}
