/* SPDX-License-Identifier: MIT */
/* The viewer under hostile use, in-process under Xvfb so that
 * ASan and LSan see every thread: three bad files in a row, a load
 * cancelled twenty times, a window closed mid-load. */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>
#include <glib/gstdio.h>

#include "afg-application.h"
#include "afg-hostile.h"
#include "afg-window-private.h"

#define BIG_ROWS "400000"

static GtkApplication *app;
static char *big_db;

static gboolean
stack_shows (AfgWindow *win, const char *page)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (win->stack), page) == 0;
}

/* Runs the main loop until @page shows or @seconds pass. */
static gboolean
wait_for_page (AfgWindow *win, const char *page, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (!stack_shows (win, page) && g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  return stack_shows (win, page);
}

static void
spin (double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

static void
open_path (AfgWindow *win, const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  afg_window_open (win, file);
}

static AfgWindow *
new_window (void)
{
  AfgWindow *win = afg_window_new (app);

  gtk_window_present (GTK_WINDOW (win));
  return win;
}

static void
assert_error_shown (AfgWindow *win, const char *path, const char *reason)
{
  const char *text;

  g_assert_true (wait_for_page (win, "error", 10));
  text = afg_error_page_get_message (win->error_page);
  g_assert_true (g_str_has_prefix (text, path));
  g_assert_nonnull (strstr (text, reason));
}

static void
test_three_bad_files (void)
{
  AfgWindow *win = new_window ();
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *text = g_build_filename (dir, "text.db", NULL);
  g_autofree char *truncated = afg_hostile_sample_copy ("ascend_pytorch_profiler_level0_rank0.db", 4096);
  AfgTestDb *view = afg_test_db_new (AFG_TEST_DB_NO_PYTORCH_API);
  AfgTestDb *empty = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *truncated_dir = g_path_get_dirname (truncated);

  g_autofree char *view_dir = NULL;
  char *before[3];

  afg_test_write_file (text, "this is not a database\n", -1);
  afg_test_db_exec (view, "CREATE VIEW PYTORCH_API AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL"
                          " SELECT n + 1 FROM r) SELECT n AS startNs, n AS endNs, 1 AS globalTid,"
                          " 1 AS name FROM r");
  afg_test_db_close (view);
  afg_test_db_close (empty);
  view_dir = g_path_get_dirname (view->path);
  before[0] = afg_test_snapshot_dir (dir);
  before[1] = afg_test_snapshot_dir (truncated_dir);
  before[2] = afg_test_snapshot_dir (view_dir);

  open_path (win, text);
  assert_error_shown (win, text, "not an SQLite database");
  g_assert_cmpstr (afg_error_page_get_title (win->error_page), ==, "Could Not Open the File");
  open_path (win, truncated);
  assert_error_shown (win, truncated, "malformed");
  open_path (win, view->path);
  assert_error_shown (win, view->path, "is a view");
  g_assert_nonnull (afg_error_page_get_hint (win->error_page));
  /* A valid profile with nothing to draw is no file that failed to open. */
  open_path (win, empty->path);
  assert_error_shown (win, empty->path, "no usable rows");
  g_assert_cmpstr (afg_error_page_get_title (win->error_page), ==, "Nothing to Draw");
  /* The window recovers: a good file after three bad ones. */
  open_path (win, afg_hostile_sample ("ascend_pytorch_profiler_level0_rank0.db"));
  g_assert_true (wait_for_page (win, "graph", 20));
  /* Nothing touched: bytes, mtimes and listings of the three directories. */
  {
    g_autofree char *after0 = afg_test_snapshot_dir (dir);
    g_autofree char *after1 = afg_test_snapshot_dir (truncated_dir);
    g_autofree char *after2 = afg_test_snapshot_dir (view_dir);

    g_assert_cmpstr (after0, ==, before[0]);
    g_assert_cmpstr (after1, ==, before[1]);
    g_assert_cmpstr (after2, ==, before[2]);
  }
  for (guint i = 0; i < G_N_ELEMENTS (before); i++)
    g_free (before[i]);

  gtk_window_destroy (GTK_WINDOW (win));
  afg_test_db_free (view);
  afg_test_db_free (empty);
  afg_test_rm_rf (truncated_dir);
  afg_test_rm_rf (dir);
}

static void
test_cancel_twenty_times (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20);
  AfgWindow *win = new_window ();
  guint cancelled = 0;

  for (guint i = 0; i < 20; i++)
    {
      open_path (win, big_db);
      g_assert_true (stack_shows (win, "loading"));
      spin (g_rand_double_range (rand, 0, 0.3));
      if (stack_shows (win, "loading"))
        {
          g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.cancel-load", NULL));
          g_assert_false (stack_shows (win, "loading"));
          cancelled++;
        }
    }
  g_test_message ("%u of 20 loads cancelled while loading", cancelled);
  g_assert_cmpuint (cancelled, >, 0);
  /* After the storm, a load still completes. */
  open_path (win, big_db);
  g_assert_true (wait_for_page (win, "graph", 60));
  gtk_window_destroy (GTK_WINDOW (win));
}

static void
test_close_mid_load (void)
{
  for (guint i = 0; i < 5; i++)
    {
      AfgWindow *win = new_window ();

      open_path (win, big_db);
      spin (0.02 + 0.05 * i);
      gtk_window_destroy (GTK_WINDOW (win));
    }
  /* The workers finish into windows that are gone. */
  spin (3);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *big_dir = NULL;
  g_autofree char *home = g_strdup ("/tmp/afg-gui-hostile-XXXXXX");
  int status;

  /* Recent files and caches go to a private home, before GLib caches it. */
  g_assert_nonnull (g_mkdtemp (home));
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", home, TRUE);
  g_setenv ("XDG_CACHE_HOME", home, TRUE);
  g_test_init (&argc, &argv, NULL);
  big_db = afg_hostile_generate_db (NULL, BIG_ROWS);
  app = GTK_APPLICATION (afg_application_new ());
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  g_test_add_func ("/gui-hostile/three-bad-files", test_three_bad_files);
  g_test_add_func ("/gui-hostile/cancel-twenty-times", test_cancel_twenty_times);
  g_test_add_func ("/gui-hostile/close-mid-load", test_close_mid_load);
  status = g_test_run ();
  g_object_unref (app);
  big_dir = g_path_get_dirname (big_db);
  afg_test_rm_rf (big_dir);
  afg_test_rm_rf (home);
  g_free (big_db);
  return status;
}
