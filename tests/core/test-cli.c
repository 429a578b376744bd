/* SPDX-License-Identifier: MIT */
/* The headless exporter: `ascend-flamegraph --export [-o DIR] [-f FORMAT] [-q] DB`.
 * Exit 0 ok, 1 bad input, 2 usage, 3 cannot write output. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "afg-loader.h"
#include "afg-test-db.h"
#include "afg-writers.h"

enum { EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE, EXIT_WRITE_FAILED };

#define ERROR_PREFIX "ascend-flamegraph: error: "
#define HINT_PREFIX "ascend-flamegraph: hint: "

typedef struct {
  AfgTestDb *db;
  char      *out_dir;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->db = afg_test_db_new (0);
  afg_test_db_add (f->db, GTID (10, 11), 0, 100, "train.py(1): main");
  afg_test_db_add (f->db, GTID (10, 11), 10, 60, "aten::add");
  afg_test_db_add (f->db, GTID (10, 11), 20, 30, "aclnnAdd");
  afg_test_db_add (f->db, GTID (10, 12), 0, 5, "<module>");
  afg_test_db_close (f->db);
  f->out_dir = afg_test_make_tmp_dir ();
  /* Writable by the nobody user of the non-root tests. */
  g_assert_cmpint (g_chmod (f->out_dir, 0777), ==, 0);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  afg_test_rm_rf (f->out_dir);
  g_free (f->out_dir);
  afg_test_db_free (f->db);
}

static char *
serialize (const char *db_path, AfgFormat format)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (db_path, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) profile = NULL;
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  /* What the CLI builds: with the durations. */
  profile = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  if (format == AFG_FORMAT_JSON)
    afg_json_write (profile, out);
  else
    afg_folded_write (profile, AFG_COLUMN_SELF_NS, out);
  return g_string_free (out, FALSE);
}

static char *
read_output (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *data = NULL;

  g_file_get_contents (path, &data, NULL, &error);
  g_assert_no_error (error);
  return data;
}

/* The output directory holds exactly @name (or nothing when NULL). */
static void
assert_dir_holds (const char *dir, const char *name)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;
  guint n = 0;

  g_assert_nonnull (d);
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      g_assert_cmpstr (entry, ==, name);
      n++;
    }
  g_assert_cmpuint (n, ==, name ? 1 : 0);
}

static void
export_ok (Fixture *f, const char *format, const char *file_name, AfgFormat afg_format)
{
  const char *args[] = { "--export", "-o", f->out_dir, "-f", format, f->db->path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *written = NULL;
  g_autofree char *expected = NULL;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, &err), ==, EXIT_OK);
  assert_dir_holds (f->out_dir, file_name);
  written = read_output (f->out_dir, file_name);
  expected = serialize (f->db->path, afg_format);
  g_assert_cmpstr (written, ==, expected);
  g_assert_null (strstr (err, "error"));
}

static void
test_json (Fixture *f, gconstpointer data)
{
  export_ok (f, "json", "flamegraph.json", AFG_FORMAT_JSON);
}

static void
test_folded (Fixture *f, gconstpointer data)
{
  export_ok (f, "folded", "flamegraph.folded", AFG_FORMAT_FOLDED);
}

/* Passes once the HTML page has landed. */
static void
test_html (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--export", "-o", f->out_dir, f->db->path, NULL };
  g_autofree char *path = g_build_filename (f->out_dir, "flamegraph.html", NULL);
  struct stat st;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, NULL), ==, EXIT_OK);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  g_assert_cmpint (st.st_size, >, 0);
}

static void
test_quiet (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--export", "-q", "-o", f->out_dir, "-f", "json", f->db->path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, &err), ==, EXIT_OK);
  g_assert_cmpstr (err, ==, "");
  assert_dir_holds (f->out_dir, "flamegraph.json");
}

/* No usable rows: exit 0, output written, a warning on stderr. */
static void
test_no_usable_rows (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autofree char *out_dir = afg_test_make_tmp_dir ();
  const char *args[] = { "--export", "-o", out_dir, "-f", "json", db->path, NULL };
  g_autofree char *err = NULL;
  g_autofree char *json = NULL;

  afg_test_db_add_typed (db, GTID (1, 1), 0, 10, "mstx", TYPE_MSTX);
  afg_test_db_close (db);
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, EXIT_OK);
  g_assert_nonnull (strstr (err, "warning"));
  json = read_output (out_dir, "flamegraph.json");
  g_assert_nonnull (strstr (json, "\"threads\":[]"));
  afg_test_rm_rf (out_dir);
  afg_test_db_free (db);
}

/* A bad input: @code, one error line naming @path (and maybe one hint
 * line), nothing written, the input's directory unchanged. */
static char *
assert_cli_fails (const char *path, gboolean as_nobody, const char *needle)
{
  g_autofree char *in_dir = g_path_get_dirname (path);
  g_autofree char *out_dir = afg_test_make_tmp_dir ();
  g_autofree char *before = afg_test_snapshot_dir (in_dir);
  g_autofree char *after = NULL;
  g_autofree char *prefix = g_strconcat (ERROR_PREFIX, path, ": ", NULL);
  g_auto(GStrv) lines = NULL;
  const char *args[] = { "--export", "-o", out_dir, "-f", "json", path, NULL };
  char *err = NULL;

  g_assert_cmpint (g_chmod (out_dir, 0777), ==, 0);
  g_assert_cmpint (afg_test_run_cli (args, as_nobody, NULL, &err), ==, EXIT_BAD_INPUT);
  lines = g_strsplit (err, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], prefix));
  if (needle != NULL)
    g_assert_nonnull (strstr (lines[0], needle));
  g_assert_nonnull (lines[1]);
  if (lines[1][0] != '\0')
    {
      g_assert_true (g_str_has_prefix (lines[1], HINT_PREFIX));
      g_assert_cmpstr (lines[2], ==, "");
    }
  assert_dir_holds (out_dir, NULL);
  after = afg_test_snapshot_dir (in_dir);
  g_assert_cmpstr (after, ==, before);
  afg_test_rm_rf (out_dir);
  return err;
}

typedef void (*MakeInput) (const char *path);

static void
make_nothing (const char *path)
{
}

static void
make_directory (const char *path)
{
  g_assert_cmpint (g_mkdir (path, 0755), ==, 0);
}

static void
make_fifo (const char *path)
{
  g_assert_cmpint (mkfifo (path, 0644), ==, 0);
}

static void
make_too_large (const char *path)
{
  afg_test_write_file (path, "SQLite format 3", 16);
  g_assert_cmpint (truncate (path, G_GINT64_CONSTANT (10) * 1024 * 1024 * 1024 + 1), ==, 0);
}

static void
make_text (const char *path)
{
  afg_test_write_file (path, "startNs,endNs\n1,2\n", -1);
}

static void
make_empty (const char *path)
{
  afg_test_write_file (path, "", 0);
}

static void
test_bad_file (gconstpointer data)
{
  MakeInput make = (MakeInput) data;
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "ascend_pytorch_profiler_0.db", NULL);
  g_autofree char *err = NULL;

  make (path);
  err = assert_cli_fails (path, FALSE, NULL);
  afg_test_rm_rf (dir);
}

static void
test_unreadable (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autofree char *err = NULL;

  afg_test_db_add (db, GTID (1, 1), 0, 10, "A");
  afg_test_db_close (db);
  g_assert_cmpint (g_chmod (db->path, 0), ==, 0);
  err = assert_cli_fails (db->path, TRUE, NULL);
  afg_test_db_free (db);
}

static void
test_bad_schema (gconstpointer data)
{
  const char *what = data;
  AfgTestDb *db = NULL;
  g_autofree char *err = NULL;

  if (g_str_equal (what, "PYTORCH_API"))
    db = afg_test_db_new (AFG_TEST_DB_NO_PYTORCH_API);
  else if (g_str_equal (what, "STRING_IDS"))
    db = afg_test_db_new (AFG_TEST_DB_NO_STRING_IDS);
  else
    {
      db = afg_test_db_new (AFG_TEST_DB_NO_PYTORCH_API);
      if (g_str_equal (what, "globalTid"))
        afg_test_db_exec (db, "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, name INTEGER)");
      else
        afg_test_db_exec (db, "CREATE TABLE t (startNs TEXT, endNs TEXT, globalTid INTEGER,"
                              " name INTEGER); CREATE VIEW PYTORCH_API AS SELECT * FROM t");
    }
  afg_test_db_close (db);
  err = assert_cli_fails (db->path, FALSE, g_str_equal (what, "view") ? "PYTORCH_API" : what);
  /* A missing table: hint that CPU activity must be collected. */
  if (g_str_equal (what, "PYTORCH_API") || g_str_equal (what, "STRING_IDS"))
    {
      const char *hint = strstr (err, "\n" HINT_PREFIX);
      g_assert_nonnull (hint);
      g_assert_nonnull (strstr (hint, "torch_npu.profiler.ProfilerActivity.CPU"));
    }
  afg_test_db_free (db);
}

/* An output failure: exit 3, one error line naming the output (the
 * directory or DIR/flamegraph.json) then the reason, the output place and
 * the input unchanged. */
static void
assert_write_fails (Fixture *f, const char *out, gboolean as_nobody)
{
  g_autofree char *in_dir = g_path_get_dirname (f->db->path);
  g_autofree char *out_before = afg_test_snapshot_dir (f->out_dir);
  g_autofree char *in_before = afg_test_snapshot_dir (in_dir);
  g_autofree char *out_after = NULL;
  g_autofree char *in_after = NULL;
  const char *args[] = { "--export", "-o", out, "-f", "json", f->db->path, NULL };
  g_autofree char *err = NULL;
  const char *rest;

  g_assert_cmpint (afg_test_run_cli (args, as_nobody, NULL, &err), ==, EXIT_WRITE_FAILED);
  g_assert_true (g_str_has_prefix (err, ERROR_PREFIX));
  /* Not fatal, so that the no-change checks below still run. */
  rest = err + strlen (ERROR_PREFIX);
  if (g_str_has_prefix (rest, out))
    rest += strlen (out);
  if (g_str_has_prefix (rest, "/flamegraph.json"))
    rest += strlen ("/flamegraph.json");
  if (rest == err + strlen (ERROR_PREFIX) || !g_str_has_prefix (rest, ": "))
    g_test_fail_printf ("expected '" ERROR_PREFIX "%s[/flamegraph.json]: <reason>', got: %s",
                        out, err);
  out_after = afg_test_snapshot_dir (f->out_dir);
  in_after = afg_test_snapshot_dir (in_dir);
  g_assert_cmpstr (out_after, ==, out_before);
  g_assert_cmpstr (in_after, ==, in_before);
}

static void
test_out_not_writable (Fixture *f, gconstpointer data)
{
  g_autofree char *out = g_build_filename (f->out_dir, "readonly", NULL);
  g_autofree char *listing = NULL;

  g_assert_cmpint (g_mkdir (out, 0555), ==, 0);
  assert_write_fails (f, out, TRUE);
  listing = afg_test_snapshot_dir (out);
  g_assert_cmpstr (listing, ==, "");
}

static void
test_out_file_is_dir (Fixture *f, gconstpointer data)
{
  g_autofree char *target = g_build_filename (f->out_dir, "flamegraph.json", NULL);
  g_autofree char *listing = NULL;

  g_assert_cmpint (g_mkdir (target, 0755), ==, 0);
  assert_write_fails (f, f->out_dir, FALSE);
  listing = afg_test_snapshot_dir (target);
  g_assert_cmpstr (listing, ==, "");
}

static void
test_out_dir_is_file (Fixture *f, gconstpointer data)
{
  g_autofree char *out = g_build_filename (f->out_dir, "plain-file", NULL);

  afg_test_write_file (out, "keep me", -1);
  assert_write_fails (f, out, FALSE);
}

static void
test_usage (Fixture *f, gconstpointer data)
{
  const char *db = f->db->path;
  const char *o = f->out_dir;
  const char * const cases[][9] = {
    { "--export", NULL },
    { "--export", "-o", o, NULL },
    { "--export", "-o", o, db, db, NULL },
    { "--export", "-o", o, "--bogus", db, NULL },
    { "--export", "-o", o, "-f", "xml", db, NULL },
    { "--export", "-o", o, "-f", NULL },
    { "--export", db, "-o", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;

      g_test_message ("usage case %u", i);
      g_assert_cmpint (afg_test_run_cli (cases[i], FALSE, NULL, &err), ==, EXIT_USAGE);
      g_assert_true (g_str_has_prefix (err, "ascend-flamegraph: ") || g_str_has_prefix (err, "usage: "));
      assert_dir_holds (o, NULL);
    }
}

/* Rule 2: a database in a read-only directory loads for a non-root user,
 * and nothing appears beside it. */
static void
assert_loads_as_nobody (const char *db_path, const char *must_contain)
{
  g_autofree char *in_dir = g_path_get_dirname (db_path);
  g_autofree char *out_dir = afg_test_make_tmp_dir ();
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *json = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *err = NULL;
  const char *args[] = { "--export", "-o", out_dir, "-f", "json", db_path, NULL };

  g_assert_cmpint (g_chmod (out_dir, 0777), ==, 0);
  g_assert_cmpint (g_chmod (in_dir, 0555), ==, 0);
  before = afg_test_snapshot_dir (in_dir);
  g_assert_cmpint (afg_test_run_cli (args, TRUE, NULL, &err), ==, EXIT_OK);
  after = afg_test_snapshot_dir (in_dir);
  g_assert_cmpstr (after, ==, before);
  json = read_output (out_dir, "flamegraph.json");
  expected = serialize (db_path, AFG_FORMAT_JSON);
  g_assert_cmpstr (json, ==, expected);
  if (must_contain != NULL)
    g_assert_nonnull (strstr (json, must_contain));
  afg_test_rm_rf (out_dir);
}

static void
test_readonly_dir (gconstpointer data)
{
  AfgTestDb *db = afg_test_db_new (GPOINTER_TO_INT (data));

  afg_test_db_add (db, GTID (1, 1), 0, 10, "A");
  afg_test_db_close (db);
  assert_loads_as_nobody (db->path, "\"name\":\"A\"");
  afg_test_db_free (db);
}

static void
test_readonly_dir_live_wal (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_WAL);
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *copy = NULL;

  afg_test_db_add (db, GTID (1, 1), 0, 10, "in_db");
  afg_test_db_exec (db, "PRAGMA wal_checkpoint(TRUNCATE)");
  afg_test_db_add (db, GTID (1, 1), 20, 30, "in_wal");
  copy = afg_test_db_copy_live (db, dir);
  afg_test_db_close (db);
  assert_loads_as_nobody (copy, "\"name\":\"in_wal\"");
  afg_test_rm_rf (dir);
  afg_test_db_free (db);
}

static void
add_fixture_test (const char *path, void (*func) (Fixture *, gconstpointer))
{
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  add_fixture_test ("/cli/json", test_json);
  add_fixture_test ("/cli/folded", test_folded);
  add_fixture_test ("/cli/html", test_html);
  add_fixture_test ("/cli/quiet", test_quiet);
  g_test_add_func ("/cli/no-usable-rows", test_no_usable_rows);
  g_test_add_data_func ("/cli/bad-input/missing-path", make_nothing, test_bad_file);
  g_test_add_data_func ("/cli/bad-input/directory", make_directory, test_bad_file);
  g_test_add_data_func ("/cli/bad-input/fifo", make_fifo, test_bad_file);
  g_test_add_data_func ("/cli/bad-input/too-large", make_too_large, test_bad_file);
  g_test_add_data_func ("/cli/bad-input/text-file", make_text, test_bad_file);
  g_test_add_data_func ("/cli/bad-input/empty-file", make_empty, test_bad_file);
  g_test_add_func ("/cli/bad-input/unreadable", test_unreadable);
  g_test_add_data_func ("/cli/bad-input/missing-PYTORCH_API", "PYTORCH_API", test_bad_schema);
  g_test_add_data_func ("/cli/bad-input/missing-STRING_IDS", "STRING_IDS", test_bad_schema);
  g_test_add_data_func ("/cli/bad-input/missing-column", "globalTid", test_bad_schema);
  g_test_add_data_func ("/cli/bad-input/view", "view", test_bad_schema);
  add_fixture_test ("/cli/output/not-writable", test_out_not_writable);
  add_fixture_test ("/cli/output/file-is-directory", test_out_file_is_dir);
  add_fixture_test ("/cli/output/dir-is-file", test_out_dir_is_file);
  add_fixture_test ("/cli/usage", test_usage);
  g_test_add_data_func ("/cli/readonly-dir/rollback-journal", GINT_TO_POINTER (0), test_readonly_dir);
  g_test_add_data_func ("/cli/readonly-dir/wal-mode", GINT_TO_POINTER (AFG_TEST_DB_WAL),
                        test_readonly_dir);
  g_test_add_func ("/cli/readonly-dir/live-wal", test_readonly_dir_live_wal);
  return g_test_run ();
}
