/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <malloc.h>

#include <gtk/gtk.h>

#include "afg-application.h"
#include "afg-ui-module.h"

int afg_ui_main (int argc, char **argv, const char *diff_a, const char *diff_b);

/* Every step picked, idle scope or transform builds its tree on a new
 * worker thread. With an arena per thread, glibc's default, the first
 * builds land in fresh arenas and fault in each page they touch, which
 * made the first picks the slowest; one arena hands them the pages the
 * load and the builds before freed, and the window's peak RSS is lower. */
static void
share_one_arena (void)
{
#ifdef M_ARENA_MAX
  mallopt (M_ARENA_MAX, 1);
#endif
}

/* The module's entry point (see afg-ui-module.h). The display is opened
 * here so that no display is one error line and a hint rather than a
 * Gtk-WARNING; the application's own gtk_init() then reuses it. */
int
afg_ui_main (int argc, char **argv, const char *diff_a, const char *diff_b)
{
  share_one_arena ();
  if (!gtk_init_check ())
    return AFG_UI_NO_DISPLAY;
  if (diff_a != NULL && diff_b != NULL)
    return afg_application_run_diff (argv[0], diff_a, diff_b);
  return afg_application_run (argc, argv);
}
