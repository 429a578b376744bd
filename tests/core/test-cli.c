/* SPDX-License-Identifier: MIT */
/* The headless exporter: `ascend-flamegraph --export [-o DIR] [-f FORMAT] [-q] DB`.
 * Exit 0 ok, 1 bad input, 2 usage, 3 cannot write output. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <locale.h>

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
  g_autoptr(AfgTree) tree = NULL;
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  /* What the CLI builds: with the durations. */
  tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  if (format == AFG_FORMAT_JSON)
    afg_json_write (tree, out);
  else
    afg_folded_write (tree, AFG_COLUMN_SELF_NS, out);
  return g_string_free (out, FALSE);
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
  afg_test_assert_dir_holds (f->out_dir, file_name);
  written = afg_test_read_output (f->out_dir, file_name);
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
  afg_test_assert_dir_holds (f->out_dir, "flamegraph.json");
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
  json = afg_test_read_output (out_dir, "flamegraph.json");
  g_assert_nonnull (strstr (json, "\"threads\":[]"));
  afg_test_rm_rf (out_dir);
  afg_test_db_free (db);
}

/* One of a thing is one: a row skipped, a frame, a thread, an overlap;
 * the plural where there are more. */
static void
test_singulars (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  AfgTestDb *one = afg_test_db_new (0);
  g_autofree char *out_dir = afg_test_make_tmp_dir ();
  const char *args[] = { "--export", "-o", out_dir, "-f", "json", db->path, NULL };
  const char *diff[] = { "--diff", one->path, db->path, "--export", "-o", out_dir, "-f", "json", NULL };
  g_autofree char *err = NULL;

  afg_test_db_add (db, GTID (1, 1), 0, 10, "main");
  afg_test_db_add (db, GTID (1, 1), 5, 20, "late");
  afg_test_db_add (db, GTID (1, 1), 30, 30, "empty");
  afg_test_db_close (db);
  afg_test_db_add (one, GTID (1, 1), 0, 10, "main");
  afg_test_db_close (one);
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, EXIT_OK);
  g_assert_nonnull (strstr (err, "warning: 1 row with endNs <= startNs was skipped\n"));
  g_assert_nonnull (strstr (err, "; 1 thread, 2 frames, 1 partial overlap, "));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (afg_test_run_cli (diff, FALSE, NULL, &err), ==, EXIT_OK);
  g_assert_nonnull (strstr (err, ": 2 frames, 0 only in A, 1 only in B; "));
  diff[2] = one->path;
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (afg_test_run_cli (diff, FALSE, NULL, &err), ==, EXIT_OK);
  g_assert_nonnull (strstr (err, ": 1 frame, 0 only in A, 0 only in B; "));
  afg_test_rm_rf (out_dir);
  afg_test_db_free (db);
  afg_test_db_free (one);
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
  afg_test_assert_dir_holds (out_dir, NULL);
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

/* Said plainly, before the DB is read, and the file is left alone. */
static void
test_out_dir_is_file (Fixture *f, gconstpointer data)
{
  g_autofree char *out = g_build_filename (f->out_dir, "plain-file", NULL);
  g_autofree char *expected = g_strdup_printf (ERROR_PREFIX "%s: -o takes a directory; %s is a file\n"
                                               HINT_PREFIX "give -o the directory that receives"
                                               " flamegraph.html, .json or .folded\n", out, out);
  const char *args[] = { "--export", "-o", out, f->db->path, NULL };
  g_autofree char *err = NULL;
  g_autofree char *kept = NULL;

  afg_test_write_file (out, "keep me", -1);
  assert_write_fails (f, out, FALSE);
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, EXIT_WRITE_FAILED);
  g_assert_cmpstr (err, ==, expected);
  kept = afg_test_read_output (f->out_dir, "plain-file");
  g_assert_cmpstr (kept, ==, "keep me");
}

/* With or without --export: a bad command line is exit 2 and two lines,
 * never GLib's bare message, and nothing is written. */
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
    { "--bogus", NULL },
    { "--bogus", db, NULL },
    { "-x", db, NULL },
    { "-o", o, db, NULL },
    { "-f", "json", db, NULL },
    { "-q", db, NULL },
    { db, "-q", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_test_message ("usage case %u", i);
      g_assert_cmpint (afg_test_run_cli (cases[i], FALSE, &out, &err), ==, EXIT_USAGE);
      afg_test_assert_error_and_hint (err);
      g_assert_cmpstr (out, ==, "");
      afg_test_assert_dir_holds (o, NULL);
    }
}

/* The window takes a DB alone: the error names the first option given
 * that needs --export, and whether --top takes it too; --top alone
 * writes nothing, so -o and -f with it are refused, not ignored. */
static void
test_usage_needs_export (Fixture *f, gconstpointer data)
{
  struct {
    const char *args[6];
    const char *message;
  } cases[] = {
    { { "-o", f->out_dir, "-f", "json", f->db->path }, "-o works only with --export" },
    { { "--steps", "1", "-f", "json", f->db->path }, "-f works only with --export" },
    { { "--steps", "1", f->db->path }, "--steps works only with --export or --top" },
    { { "-q", "--weight", "npu", f->db->path }, "-q works only with --export or --top" },
    { { "--job-root", f->out_dir, f->db->path }, "--job-root goes with --export -f summary" },
    { { "--top", "2", "-o", f->out_dir, f->db->path }, "-o works only with --export: --top alone prints its table" },
    { { "--top", "2", "-f", "json", f->db->path }, "-f works only with --export: --top alone prints its table" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;
      g_autofree char *expected = g_strconcat (ERROR_PREFIX, cases[i].message, "\n", HINT_PREFIX, "usage: ", NULL);

      if (!HAVE_GUI && strcmp (cases[i].args[0], "--top") != 0)
        continue;  /* the export is implied */
      g_test_message ("case %u", i);
      g_assert_cmpint (afg_test_run_cli (cases[i].args, FALSE, NULL, &err), ==, EXIT_USAGE);
      g_assert_true (g_str_has_prefix (err, expected));
      afg_test_assert_dir_holds (f->out_dir, NULL);
    }
}

/* "--steps DB" takes the DB as the steps: the error says so, not "no
 * database given". */
static void
test_usage_steps_took_db (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--export", "--steps", f->db->path, NULL };
  g_autofree char *err = NULL;
  g_autofree char *expected = g_strdup_printf (ERROR_PREFIX "invalid --steps '%s'\n", f->db->path);

  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, EXIT_USAGE);
  g_assert_true (g_str_has_prefix (err, expected));
}

/* A transform given to the window's start names the transforms, not the
 * export's options. */
static void
test_usage_transform_needs_export (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--focus-function=main", f->db->path, NULL };
  g_autofree char *err = NULL;

  if (!HAVE_GUI)
    {
      g_test_skip ("built without the window (-Dgui=disabled): the export is implied");
      return;
    }
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, EXIT_USAGE);
  /* The ellipsis is "?" in the C locale's charset. */
  g_assert_true (g_str_has_prefix (err, ERROR_PREFIX "the transforms (--focus-function, --merge-function, "));
  g_assert_nonnull (strstr (err, ") work only with --export, --top or --diff\n" HINT_PREFIX));
}

/* --help tells the whole usage, the export options included. */
static void
test_help (gconstpointer data)
{
  const char *args[] = { data, "--help", NULL };
  const char * const needles[] = {
    "Usage:\n  ascend-flamegraph [OPTION", "--export", "-o, --output=DIR", "-f, --format=FORMAT",
    "-q, --quiet", "--version", "--steps=A[-B]", "\n  ascend-flamegraph [DB|FOLDER",
    "ascend-flamegraph --export [-o DIR] [-f html|json|folded|trace] [--weight host|npu|compute|comm|exposed [--kernels]] [--steps A[-B]] [--npu-idle] [--merge-addresses] [-q] DB|FOLDER\n",
    "--merge-addresses",
    "Exit status: 0 ok, 1 bad input, 2 usage or no display, 3 the output cannot be written.",
  };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (*(const char *) data == '\0')
    args[0] = "--help", args[1] = NULL;
  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, &err), ==, EXIT_OK);
  for (guint i = 0; i < G_N_ELEMENTS (needles); i++)
    if (strstr (out, needles[i]) == NULL)
      g_test_fail_printf ("--help lacks \"%s\":\n%s", needles[i], out);
  g_assert_cmpstr (err, ==, "");
}

static void
test_version (void)
{
  const char *args[] = { "--version", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, &err), ==, EXIT_OK);
  g_assert_cmpstr (out, ==, "ascend-flamegraph " PACKAGE_VERSION "\n");
  g_assert_cmpstr (out, ==, "ascend-flamegraph 0.1.0\n");
  g_assert_cmpstr (err, ==, "");
}

/* -f takes its value in any case. */
static void
test_format_any_case (Fixture *f, gconstpointer data)
{
  export_ok (f, "JSON", "flamegraph.json", AFG_FORMAT_JSON);
  afg_test_rm_rf (f->out_dir);
  g_assert_cmpint (g_mkdir (f->out_dir, 0777), ==, 0);
  export_ok (f, "Folded", "flamegraph.folded", AFG_FORMAT_FOLDED);
}

/* The environment of afg_test_run_cli(), for the tests that change it. */
static char **
cli_environ (void)
{
  char **env = g_get_environ ();

  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  return g_environ_unsetenv (env, "LANGUAGE");
}

static int
run_in_env (const char * const *args, char **env, char **out_stderr)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) g_getenv ("AFG_EXE"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync ("/", (char **) argv->pdata, env, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                out_stderr, &status, &error);
  g_assert_no_error (error);
  g_test_message ("cli stderr: %s", *out_stderr);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* Everything a GDK backend could find a display through. */
static char **
no_display_environ (void)
{
  static const char * const vars[] = { "DISPLAY", "WAYLAND_DISPLAY", "GDK_BACKEND", "BROADWAY_DISPLAY",
                                       "WAYLAND_SOCKET" };
  char **env = cli_environ ();

  for (guint i = 0; i < G_N_ELEMENTS (vars); i++)
    env = g_environ_unsetenv (env, vars[i]);
  return env;
}

/* The window without a display: one line saying so, a hint at --export,
 * exit 2; no Gtk-WARNING. */
static void
test_no_display (Fixture *f, gconstpointer data)
{
  const char *args[] = { f->db->path, NULL };
  g_auto(GStrv) env = no_display_environ ();
  g_auto(GStrv) lines = NULL;
  g_autofree char *err = NULL;

  if (!HAVE_GUI)
    {
      g_test_skip ("built without the window (-Dgui=disabled)");
      return;
    }
  if (data != NULL)
    env = g_environ_setenv (env, "DISPLAY", data, TRUE);
  g_assert_cmpint (run_in_env (args, env, &err), ==, EXIT_USAGE);
  afg_test_assert_error_and_hint (err);
  lines = g_strsplit (err, "\n", -1);
  if (data == NULL)
    g_assert_cmpstr (lines[0], ==, ERROR_PREFIX "no display: DISPLAY and WAYLAND_DISPLAY are not set");
  else
    g_assert_cmpstr (lines[0], ==, ERROR_PREFIX "no display: cannot open display ':31999'");
  g_assert_nonnull (strstr (lines[1], "ascend-flamegraph --export"));
  afg_test_assert_dir_holds (f->out_dir, NULL);
}

/* A DB with enough rows for the loader to report progress (every 16,384
 * rows of a reader). */
static AfgTestDb *
make_big_db (guint rows)
{
  AfgTestDb *db = afg_test_db_new (0);

  afg_test_db_begin (db);
  for (guint i = 0; i < rows; i++)
    afg_test_db_add (db, GTID (1, 1 + i % 4), 10 * (gint64) i, 10 * (gint64) i + 5,
                     i % 2 ? "aten::add" : "aclnnAdd");
  afg_test_db_commit (db);
  afg_test_db_close (db);
  return db;
}

/* Runs the CLI with its stderr on a pseudo-terminal, as a user sees it;
 * returns what the terminal received. */
static char *
run_on_tty (const char * const *args, char **env, int *exit_status)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GString *seen = g_string_new (NULL);
  int master = posix_openpt (O_RDWR | O_NOCTTY);
  int slave, status = 0;
  char buf[4096];
  ssize_t n;
  GPid pid;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  slave = open (ptsname (master), O_RDWR | O_NOCTTY);
  g_assert_cmpint (slave, >=, 0);
  g_ptr_array_add (argv, (gpointer) g_getenv ("AFG_EXE"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_async_with_pipes_and_fds ("/", (const char * const *) argv->pdata, (const char * const *) env,
                                    G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                    -1, -1, slave, NULL, NULL, 0, &pid, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  close (slave);
  /* EIO once the child has exited and the terminal is drained. */
  while ((n = read (master, buf, sizeof buf)) > 0)
    g_string_append_len (seen, buf, n);
  close (master);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  *exit_status = WEXITSTATUS (status);
  g_test_message ("terminal: %s", seen->str);
  return g_string_free (seen, FALSE);
}

/* Progress and summary numbers are grouped as LC_NUMERIC says: 3,211,264
 * in zh_CN (and en_US), 3211264 in C. */
static void
test_grouped_numbers (void)
{
  AfgTestDb *db = make_big_db (40000);
  g_autofree char *out_dir = afg_test_make_tmp_dir ();
  const char *args[] = { "--export", "-f", "json", "-o", out_dir, db->path, NULL };
  g_auto(GStrv) env = cli_environ ();
  g_autofree char *plain = NULL;
  g_autofree char *grouped = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  if (setlocale (LC_NUMERIC, "zh_CN.UTF-8") == NULL)
    g_test_fail_printf ("the zh_CN.UTF-8 locale is missing (tools/install-deps.sh test generates it)");
  setlocale (LC_NUMERIC, "C");
  plain = run_on_tty (args, env, &status);
  g_assert_cmpint (status, ==, EXIT_OK);
  g_assert_true (g_regex_match_simple ("reading rows: [0-9]{5} of ~40000", plain, 0, 0));
  g_assert_nonnull (strstr (plain, ": 40000 rows, 40000 used;"));

  env = g_environ_unsetenv (env, "LC_ALL");
  env = g_environ_setenv (env, "LANG", "C", TRUE);
  env = g_environ_setenv (env, "LC_NUMERIC", "zh_CN.UTF-8", TRUE);
  grouped = run_on_tty (args, env, &status);
  g_assert_cmpint (status, ==, EXIT_OK);
  g_assert_true (g_regex_match_simple ("reading rows: [0-9]{2},[0-9]{3} of ~40,000", grouped, 0, 0));
  g_assert_nonnull (strstr (grouped, ": 40,000 rows, 40,000 used;"));
  /* Without a terminal the summary is grouped too, and no progress shows. */
  g_assert_cmpint (run_in_env (args, env, &err), ==, EXIT_OK);
  g_assert_nonnull (strstr (err, ": 40,000 rows, 40,000 used;"));
  g_assert_null (strstr (err, "reading rows"));
  afg_test_rm_rf (out_dir);
  afg_test_db_free (db);
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
  json = afg_test_read_output (out_dir, "flamegraph.json");
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
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *copy = afg_test_live_wal_copy (dir);

  assert_loads_as_nobody (copy, "\"name\":\"in_wal\"");
  afg_test_rm_rf (dir);
}

/* A -wal is replayed on a private copy in the temporary folder: a folder
 * that cannot hold it is said to be the cause, not the profile. */
static void
test_temp_copy_fails (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", NULL);
  g_autofree char *out_dir = g_build_filename (dir, "out", NULL);
  g_autofree char *copy = afg_test_live_wal_copy (dir);
  g_autofree char *err = NULL;
  g_autofree char *saved = g_strdup (g_getenv ("TMPDIR"));
  const char *args[] = { "--export", "-f", "json", "-o", out_dir, copy, NULL };

  g_setenv ("TMPDIR", missing, TRUE);
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, EXIT_BAD_INPUT);
  if (saved != NULL)
    g_setenv ("TMPDIR", saved, TRUE);
  else
    g_unsetenv ("TMPDIR");
  g_assert_nonnull (strstr (err, "set TMPDIR"));
  g_assert_null (strstr (err, "expected the SQLite database"));
  afg_test_rm_rf (dir);
}

#define ITEM_AT(addr) "item of Tensor object at 0x" addr
#define ITEM_MERGED "item of Tensor object at 0x\xe2\x80\xa6"

/* --merge-addresses, every format: the two calls at other addresses are
 * one frame (2 calls, 250 ns) with the ellipsis; without it, two. */
static void
test_merge_addresses (gconstpointer data)
{
  const char *format = data;
  AfgTestDb *db = afg_test_db_new (0);
  g_autofree char *out_dir = afg_test_make_tmp_dir ();
  g_autofree char *merged = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *merged_top = NULL;
  g_autofree char *plain_top = NULL;
  AfgFormat afg_format;

  afg_test_db_add (db, GTID (10, 11), 0, 1000, "main.py(1): main");
  afg_test_db_add (db, GTID (10, 11), 100, 200, ITEM_AT ("7f3a01"));
  afg_test_db_add (db, GTID (10, 11), 300, 450, ITEM_AT ("7f3a02"));
  afg_test_db_close (db);
  g_assert_true (afg_format_from_string (format, &afg_format));
  for (guint merge = 0; merge < 2; merge++)
    {
      const char *args[] = { "--export", "-q", "--top", "3", "-f", format, "-o", out_dir, db->path,
                             merge ? "--merge-addresses" : NULL, NULL };
      g_autofree char *out = NULL;

      g_assert_cmpint (afg_test_run_cli (args, FALSE, &out, NULL), ==, EXIT_OK);
      *(merge ? &merged_top : &plain_top) = g_steal_pointer (&out);
      *(merge ? &merged : &plain) = afg_test_read_output (out_dir, afg_format_file_name (afg_format));
    }
  g_assert_nonnull (strstr (merged, ITEM_MERGED));
  g_assert_null (strstr (merged, ITEM_AT ("7f3a01")));
  g_assert_null (strstr (plain, ITEM_MERGED));
  g_assert_nonnull (strstr (plain, ITEM_AT ("7f3a01")));
  /* The page front-codes its names: the second only adds "2". */
  if (afg_format != AFG_FORMAT_HTML)
    g_assert_nonnull (strstr (plain, ITEM_AT ("7f3a02")));
  g_assert_true (g_regex_match_simple ("\\b2\\b.*" ITEM_MERGED, merged_top, 0, 0));
  g_assert_nonnull (strstr (plain_top, ITEM_AT ("7f3a02")));
  if (afg_format == AFG_FORMAT_FOLDED)
    g_assert_nonnull (strstr (merged, "10/11;main.py(1): main;" ITEM_MERGED " 250\n"));
  if (afg_format == AFG_FORMAT_JSON)
    g_assert_nonnull (strstr (merged, "{\"name\":\"" ITEM_MERGED "\",\"category\":\"unknown\",\"calls\":2,\"total_ns\":250,"));
  afg_test_rm_rf (out_dir);
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
  g_test_add_func ("/cli/singulars", test_singulars);
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
  add_fixture_test ("/cli/usage/needs-export", test_usage_needs_export);
  add_fixture_test ("/cli/usage/steps-took-db", test_usage_steps_took_db);
  add_fixture_test ("/cli/usage/transform-needs-export", test_usage_transform_needs_export);
  g_test_add_data_func ("/cli/help", "", test_help);
  g_test_add_data_func ("/cli/help/with-export", "--export", test_help);
  g_test_add_func ("/cli/version", test_version);
  add_fixture_test ("/cli/format-any-case", test_format_any_case);
  g_test_add ("/cli/no-display/unset", Fixture, NULL, fixture_set_up, test_no_display, fixture_tear_down);
  g_test_add ("/cli/no-display/unreachable", Fixture, ":31999", fixture_set_up, test_no_display,
              fixture_tear_down);
  g_test_add_func ("/cli/grouped-numbers", test_grouped_numbers);
  g_test_add_data_func ("/cli/readonly-dir/rollback-journal", GINT_TO_POINTER (0), test_readonly_dir);
  g_test_add_data_func ("/cli/readonly-dir/wal-mode", GINT_TO_POINTER (AFG_TEST_DB_WAL),
                        test_readonly_dir);
  g_test_add_func ("/cli/readonly-dir/live-wal", test_readonly_dir_live_wal);
  g_test_add_func ("/cli/temp-copy-fails", test_temp_copy_fails);
  g_test_add_data_func ("/cli/merge-addresses/html", "html", test_merge_addresses);
  g_test_add_data_func ("/cli/merge-addresses/json", "json", test_merge_addresses);
  g_test_add_data_func ("/cli/merge-addresses/folded", "folded", test_merge_addresses);
  g_test_add_data_func ("/cli/merge-addresses/trace", "trace", test_merge_addresses);
  return g_test_run ();
}
