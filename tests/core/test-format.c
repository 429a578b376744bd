/* SPDX-License-Identifier: MIT */
/* The window's and the CLI's number texts, against the table the page's
 * test reads too (tests/data/format-cases.tsv): one set of rules. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "afg-format.h"
#include "afg-names.h"
#include "afg-test-db.h"

static char *
format_case (char **f, guint n)
{
  if (g_str_equal (f[0], "duration") && n == 3)
    return afg_format_duration (g_ascii_strtoll (f[1], NULL, 10));
  if (g_str_equal (f[0], "percent") && n == 4)
    return afg_format_percent (g_ascii_strtoll (f[1], NULL, 10), g_ascii_strtoll (f[2], NULL, 10));
  if (g_str_equal (f[0], "share") && n == 3)
    return afg_format_share (g_ascii_strtod (f[1], NULL));
  if (g_str_equal (f[0], "count") && n == 3)
    return afg_format_count (g_ascii_strtod (f[1], NULL));
  g_error ("a malformed case: %s", f[0]);
}

static void
test_table (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("AFG_SAMPLES_DIR"), "format-cases.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint checked = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = NULL;
      g_autofree char *got = NULL;
      guint n;

      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      f = g_strsplit (lines[i], "\t", -1);
      n = g_strv_length (f);
      got = format_case (f, n);
      g_assert_cmpstr (got, ==, f[n - 1]);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 30);
}

/* One of each count: the CLI's summary says "1 thread", "1 frame",
 * "1 partial overlap", not "1 partial overlaps". */
static void
test_cli_singular (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autofree char *out_dir = afg_test_make_tmp_dir ();
  const char *args[] = { "--export", "-o", out_dir, "-f", "json", db->path, NULL };
  g_autofree char *err = NULL;

  afg_test_db_add (db, GTID (1, 1), 0, 100, "a");
  afg_test_db_add (db, GTID (1, 1), 50, 150, "a");
  afg_test_db_close (db);
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, 0);
  g_assert_nonnull (strstr (err, " 1 thread, 1 frame, 1 partial overlap, "));
  afg_test_rm_rf (out_dir);
  afg_test_db_free (db);
}

/* A name's index, every name found, nothing else: not a prefix, not
 * another case, not NULL; a miss leaves the index alone. */
static void
test_names_find (void)
{
  static const char * const names[] = { "host", "npu", "compute" };
  guint index = 99;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_true (afg_names_find (names, G_N_ELEMENTS (names), names[i], &index));
      g_assert_cmpuint (index, ==, i);
    }
  index = 99;
  g_assert_false (afg_names_find (names, G_N_ELEMENTS (names), "comp", &index));
  g_assert_false (afg_names_find (names, G_N_ELEMENTS (names), "NPU", &index));
  g_assert_false (afg_names_find (names, G_N_ELEMENTS (names), "", &index));
  g_assert_false (afg_names_find (names, G_N_ELEMENTS (names), NULL, &index));
  g_assert_false (afg_names_find (names, 1, "npu", &index));
  g_assert_cmpuint (index, ==, 99);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/format/table", test_table);
  g_test_add_func ("/format/cli-singular", test_cli_singular);
  g_test_add_func ("/format/names-find", test_names_find);
  return g_test_run ();
}
