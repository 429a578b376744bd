/* SPDX-License-Identifier: MIT */
/* A killed export never leaves a partial file: SIGKILL at 50 random
 * moments of an export over a previous flamegraph.json leaves either the
 * old bytes or the complete new ones. A stray .flamegraph.json.XXXXXX temp
 * file is the price of temp + rename under SIGKILL; it is counted and
 * reported, not failed on. */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "afg-hostile.h"

#define ROWS "300000"
#define RUNS 50
#define OLD_BYTES "{\"old\":true}\n"

static GPid
start_export (const char *db, const char *out)
{
  const char *argv[] = { g_getenv ("AFG_EXE"), "--export", "-q", "-f", "json", "-o", out, db, NULL };
  g_autoptr(GError) error = NULL;
  GPid pid;

  g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  return pid;
}

/* Removes and counts the temp files the killed runs left. */
static guint
sweep_temp_files (const char *out)
{
  g_autoptr(GDir) dir = g_dir_open (out, 0, NULL);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (out, name, NULL);

      if (strcmp (name, "flamegraph.json") == 0)
        continue;
      g_assert_true (g_str_has_prefix (name, ".flamegraph.json."));
      g_unlink (path);
      n++;
    }
  return n;
}

static void
test_sigkill (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *in = g_build_filename (dir, "in", NULL);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_autofree char *json = g_build_filename (out, "flamegraph.json", NULL);
  g_autofree char *db = NULL;
  g_autofree char *new_bytes = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (50);
  gsize new_len;
  double full;
  gint64 t0;
  int status;
  guint n_old = 0, n_new = 0, n_temp = 0;

  g_assert_cmpint (g_mkdir (in, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (out, 0755), ==, 0);
  db = afg_hostile_generate_db (in, ROWS);
  before = afg_test_snapshot_dir (in);
  t0 = g_get_monotonic_time ();
  waitpid (start_export (db, out), &status, 0);
  full = (g_get_monotonic_time () - t0) / 1e6;
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_true (g_file_get_contents (json, &new_bytes, &new_len, NULL));
  g_test_message ("a full export takes %.3f s and writes %zu bytes", full, new_len);

  for (guint run = 0; run < RUNS; run++)
    {
      g_autofree char *bytes = NULL;
      gsize len;
      /* Half the kills land in the last third, where the file is written. */
      double at = full * (run % 2 ? g_rand_double_range (rand, 0.66, 1.05) : g_rand_double (rand));
      GPid pid;

      afg_test_write_file (json, OLD_BYTES, -1);
      pid = start_export (db, out);
      g_usleep ((gulong) (at * G_USEC_PER_SEC));
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
      g_spawn_close_pid (pid);
      g_assert_true (g_file_get_contents (json, &bytes, &len, NULL));
      if (len == strlen (OLD_BYTES) && memcmp (bytes, OLD_BYTES, len) == 0)
        n_old++;
      else if (len == new_len && memcmp (bytes, new_bytes, len) == 0)
        n_new++;
      else
        g_test_fail_printf ("run %u (kill at %.3f s): flamegraph.json is neither the old nor the"
                            " new file (%zu bytes)", run, at, len);
      n_temp += sweep_temp_files (out);
    }
  g_test_message ("%d runs: %u old, %u new; %u stray temp files", RUNS, n_old, n_new, n_temp);
  g_print ("# sigkill: %d runs: %u kept the old file, %u had the new one;"
           " %u left a stray .flamegraph.json.XXXXXX\n", RUNS, n_old, n_new, n_temp);
  g_assert_cmpuint (n_old + n_new, ==, RUNS);
  after = afg_test_snapshot_dir (in);
  g_assert_cmpstr (after, ==, before);
  afg_test_rm_rf (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sigkill/export-50-runs", test_sigkill);
  return g_test_run ();
}
