/* SPDX-License-Identifier: MIT */
/* Steps. Where steps come from (ProfilerStep#N rows, else
 * STEP_TIME), scopes of steps A–B and the trees built for them, the
 * --steps option and what JSON and the page carry about steps. */
#include "config.h"

#include <string.h>

#include "afg-loader.h"
#include "afg-test-db.h"
#include "afg-writers.h"

#define T1 GTID (1, 1)
#define T2 GTID (1, 2)

enum { EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE };

typedef enum {
  STEPS_FROM_ROWS,
  STEPS_FROM_TABLE,
  STEPS_NONE,
} StepSource;

/* Three steps of unequal length, the last one slow: 1 [0, 100),
 * 2 [100, 250), 3 [250, 1000). "train" began before every step but the
 * first; "span" runs across steps 1 and 2; "fwd" crosses from step 2
 * into 3, one child in each; thread 1/2 only runs in step 1. */
static AfgTestDb *
new_steps_db (StepSource source)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 1000, "train" },
    { T1, 50, 150, "span" },
    { T1, 200, 300, "fwd" },
    { T1, 210, 240, "c1" },
    { T1, 260, 290, "c2" },
    { T1, 400, 500, "late" },
    { T2, 0, 50, "other" },
  };
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);

  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  if (source == STEPS_FROM_ROWS)
    {
      afg_test_db_add (db, T1, 0, 100, "ProfilerStep#1");
      afg_test_db_add (db, T1, 100, 250, "ProfilerStep#2");
      afg_test_db_add (db, T1, 250, 1000, "ProfilerStep#3");
    }
  else if (source == STEPS_FROM_TABLE)
    afg_test_db_exec (db, "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
                          "INSERT INTO STEP_TIME VALUES (1, 0, 100), (2, 100, 250), (3, 250, 1000)");
  return db;
}

static AfgDocument *
load_steps_document (StepSource source)
{
  AfgTestDb *db = new_steps_db (source);
  AfgDocument *document = afg_test_db_load_document (db);

  afg_test_db_free (db);
  return document;
}

static AfgTree *
build_steps_with (AfgDocument *document, gint64 first, gint64 last, AfgTreeFlags flags)
{
  g_autoptr(GError) error = NULL;
  AfgScope scope;

  g_assert_true (afg_scope_init_steps (&scope, document, first, last, &error));
  g_assert_no_error (error);
  return afg_test_build (document, &scope, flags);
}

static AfgTree *
build_steps (AfgDocument *document, gint64 first, gint64 last)
{
  return build_steps_with (document, first, last, AFG_TREE_FLAGS_NONE);
}

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
assert_steps_tree (AfgDocument *document, gint64 first, gint64 last, const char * const *expected)
{
  g_autoptr(AfgTree) tree = build_steps (document, first, last);
  g_autoptr(GPtrArray) actual = afg_test_render_tree (tree);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();

  for (guint i = 0; expected[i] != NULL; i++)
    g_ptr_array_add (sorted, (gpointer) expected[i]);
  g_ptr_array_sort (sorted, compare_lines);
  afg_test_assert_lines (actual, sorted, "steps tree");
}

/* Step 2 alone: train keeps its place and gets the step's 150 ns; span
 * gets its 50 ns inside step 2; fwd is cut at the step's end, so c2 is
 * absent and fwd's self is 50 - 30; thread 1/2 is absent. */
static const char * const step2_lines[] = {
  "1/1\t1\t150\t0",
  "1/1;train\t1\t150\t50",
  "1/1;train;fwd\t1\t50\t20",
  "1/1;train;fwd;c1\t1\t30\t30",
  "1/1;train;span\t1\t50\t50",
  NULL
};

static void
test_one_step (void)
{
  g_autoptr(AfgDocument) document = load_steps_document (STEPS_FROM_ROWS);

  assert_steps_tree (document, 2, 2, step2_lines);
}

/* A row spanning two steps has its share in each. */
static void
test_row_spanning_steps (void)
{
  static const char * const step1[] = {
    "1/1\t1\t100\t0",
    "1/1;train\t1\t100\t50",
    "1/1;train;span\t1\t50\t50",
    "1/2\t1\t50\t0",
    "1/2;other\t1\t50\t50",
    NULL
  };
  g_autoptr(AfgDocument) document = load_steps_document (STEPS_FROM_ROWS);
  g_autoptr(AfgTree) both = build_steps (document, 1, 2);

  assert_steps_tree (document, 1, 1, step1);
  g_assert_cmpint (afg_tree_get_value (both, AFG_COLUMN_TOTAL_NS, afg_test_find_node (both, "1/1;train;span")),
                   ==, 100);
}

/* Steps 2–3: [100, 1000); the frame that began before the range keeps
 * its place; the whole range of all steps is the unscoped tree. */
static void
test_range (void)
{
  static const char * const lines[] = {
    "1/1\t1\t900\t0",
    "1/1;train\t1\t900\t650",
    "1/1;train;fwd\t1\t100\t40",
    "1/1;train;fwd;c1\t1\t30\t30",
    "1/1;train;fwd;c2\t1\t30\t30",
    "1/1;train;late\t1\t100\t100",
    "1/1;train;span\t1\t50\t50",
    NULL
  };
  g_autoptr(AfgDocument) document = load_steps_document (STEPS_FROM_ROWS);
  g_autoptr(AfgTree) all_steps = build_steps (document, 1, 3);
  g_autoptr(AfgTree) whole = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_autoptr(GPtrArray) a = afg_test_render_tree (all_steps);
  g_autoptr(GPtrArray) b = afg_test_render_tree (whole);
  const AfgScope *scope = afg_tree_get_scope (all_steps);

  assert_steps_tree (document, 2, 3, lines);
  afg_test_assert_lines (a, b, "steps 1-3 vs whole");
  g_assert_true (scope->bounded);
  g_assert_cmpint (scope->start_ns, ==, 0);
  g_assert_cmpint (scope->end_ns, ==, 1000);
  g_assert_cmpint (scope->first_step, ==, 1);
  g_assert_cmpint (scope->last_step, ==, 3);
}

/* Without ProfilerStep# rows the steps of STEP_TIME scope alike. */
static void
test_step_time_only (void)
{
  g_autoptr(AfgDocument) document = load_steps_document (STEPS_FROM_TABLE);
  guint n;

  afg_document_get_steps (document, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (afg_document_get_load_stats (document)->profiler_steps, ==, 0);
  assert_steps_tree (document, 2, 2, step2_lines);
}

/* Two rows of step 2: the later row (higher rowid) is the step, also
 * when it is shorter and comes from another thread. */
static void
test_duplicate_step (void)
{
  static const char * const lines[] = {
    "1/1\t1\t130\t0",
    "1/1;train\t1\t130\t50",
    "1/1;train;fwd\t1\t50\t20",
    "1/1;train;fwd;c1\t1\t30\t30",
    "1/1;train;span\t1\t30\t30",
    NULL
  };
  AfgTestDb *db = new_steps_db (STEPS_FROM_ROWS);
  g_autoptr(AfgDocument) document = NULL;

  afg_test_db_add (db, T2, 120, 250, "ProfilerStep#2");
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  g_assert_cmpint (afg_document_find_step (document, 2)->start_ns, ==, 120);
  assert_steps_tree (document, 2, 2, lines);
}

/* No steps: --steps has nothing to name, "per step" nothing to divide by. */
static void
test_no_steps (void)
{
  g_autoptr(AfgDocument) document = load_steps_document (STEPS_NONE);
  g_autoptr(GError) error = NULL;
  g_autofree char *described = afg_scope_describe_steps (document);
  AfgScope scope = { 0 };

  g_assert_false (afg_scope_init_steps (&scope, document, 1, 1, &error));
  g_assert_error (error, AFG_SCOPE_ERROR, AFG_SCOPE_ERROR_NO_STEPS);
  g_assert_nonnull (strstr (error->message, "/ascend_pytorch_profiler_0.db: "));
  g_assert_nonnull (strstr (error->message, "no steps"));
  g_assert_false (scope.bounded);
  g_assert_cmpstr (described, ==, "no steps");
  g_assert_cmpuint (afg_scope_count_steps (NULL, document), ==, 0);
}

/* A reversed range and a step the DB lacks fail, naming the DB's steps. */
static void
test_bad_ranges (void)
{
  static const struct { gint64 first, last; AfgScopeError code; const char *what; } cases[] = {
    { 3, 2, AFG_SCOPE_ERROR_REVERSED, "steps 3\xe2\x80\x93" "2 are reversed; the profile has steps 1\xe2\x80\x93" "3" },
    { 7, 7, AFG_SCOPE_ERROR_UNKNOWN_STEP, "no step 7; the profile has steps 1\xe2\x80\x93" "3" },
    { 0, 2, AFG_SCOPE_ERROR_UNKNOWN_STEP, "no step 0;" },
    { 2, 9, AFG_SCOPE_ERROR_UNKNOWN_STEP, "no step 9;" },
  };
  g_autoptr(AfgDocument) document = load_steps_document (STEPS_FROM_ROWS);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      AfgScope scope;

      g_assert_false (afg_scope_init_steps (&scope, document, cases[i].first, cases[i].last, &error));
      g_assert_error (error, AFG_SCOPE_ERROR, (gint) cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].what));
    }
}

/* "Per step" divides by the steps in scope: all the DB's steps without one. */
static void
test_count_steps (void)
{
  g_autoptr(AfgDocument) document = load_steps_document (STEPS_FROM_ROWS);
  g_autoptr(AfgTree) range = build_steps (document, 2, 3);
  AfgScope bare = { TRUE, 0, 10 };

  g_assert_cmpuint (afg_scope_count_steps (NULL, document), ==, 3);
  g_assert_cmpuint (afg_scope_count_steps (afg_tree_get_scope (range), document), ==, 2);
  g_assert_cmpuint (afg_scope_count_steps (&bare, document), ==, 0);
}

/* One row and a STEP_TIME of @values. */
static AfgTestDb *
new_step_table_db (const char *values)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *sql = g_strconcat ("CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
                                      "INSERT INTO STEP_TIME VALUES ", values, NULL);

  afg_test_db_add (db, T1, 0, 10, "x");
  afg_test_db_exec (db, sql);
  return db;
}

static AfgDocument *
load_step_table (const char *values)
{
  AfgTestDb *db = new_step_table_db (values);
  AfgDocument *document;

  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  return document;
}

/* A STEP_TIME WITHOUT ROWID has no rowid to order by: its steps are read
 * in its key's order, not dropped. */
static void
test_step_time_without_rowid (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  guint n = 0;

  afg_test_db_add (db, T1, 0, 10, "x");
  afg_test_db_exec (db, "CREATE TABLE STEP_TIME (id INTEGER PRIMARY KEY, startNs INTEGER, endNs INTEGER) WITHOUT ROWID;"
                        "INSERT INTO STEP_TIME VALUES (2, 5, 10), (1, 0, 5)");
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  afg_document_get_steps (document, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (afg_document_find_step (document, 2)->start_ns, ==, 5);
}

/* Step numbers that are not contiguous are listed, or summed up. */
static void
test_describe (void)
{
  g_autoptr(AfgDocument) few = load_step_table ("(9, 20, 30), (1, 0, 10), (4, 10, 20)");
  g_autoptr(AfgDocument) many = load_step_table ("(1, 0, 1), (3, 1, 2), (5, 2, 3), (7, 3, 4), (9, 4, 5),"
                                                 " (11, 5, 6), (13, 6, 7), (15, 7, 8), (30, 8, 9)");
  g_autoptr(AfgDocument) one = load_step_table ("(50, 0, 9)");
  /* Ids 2^64 - 1 apart (their difference, signed, would overflow). */
  g_autoptr(AfgDocument) apart = load_step_table ("(-9223372036854775808, 0, 1), (9223372036854775807, 1, 2)");
  g_autofree char *apart_text = afg_scope_describe_steps (apart);
  g_autofree char *few_text = afg_scope_describe_steps (few);
  g_autofree char *many_text = afg_scope_describe_steps (many);
  g_autofree char *one_text = afg_scope_describe_steps (one);
  g_autoptr(GError) error = NULL;
  AfgScope scope;

  g_assert_cmpstr (few_text, ==, "steps 1, 4, 9");
  g_assert_cmpstr (many_text, ==, "9 steps from 1 to 30");
  g_assert_cmpstr (one_text, ==, "step 50");
  g_assert_cmpstr (apart_text, ==, "steps -9223372036854775808, 9223372036854775807");
  /* A range over a gap counts only the steps there are. */
  g_assert_true (afg_scope_init_steps (&scope, few, 1, 9, &error));
  g_assert_cmpuint (scope.n_steps, ==, 3);
  g_assert_true (afg_scope_init_steps (&scope, few, 4, 4, &error));
  g_assert_cmpuint (scope.n_steps, ==, 1);
}

static void
test_parse (void)
{
  static const struct { const char *text; gboolean ok; gint64 first, last; } cases[] = {
    { "5", TRUE, 5, 5 },
    { "5-20", TRUE, 5, 20 },
    { "20-5", TRUE, 20, 5 },      /* reversed: refused later, naming the steps */
    { "007-8", TRUE, 7, 8 },
    { "", FALSE }, { "-", FALSE }, { "5-", FALSE }, { "-5", FALSE }, { "a", FALSE },
    { "5-6-7", FALSE }, { "+5", FALSE }, { " 5", FALSE }, { "5 ", FALSE }, { "1e3", FALSE },
    { "99999999999999999999", FALSE },
    /* the en dash of the messages' ranges ("steps 3–5"), pasted back */
    { "5\xe2\x80\x93" "6", TRUE, 5, 6 }, { "5\xe2\x80\x93", FALSE }, { "\xe2\x80\x93" "5", FALSE },
    { "5\xe2\x80\x93" "6\xe2\x80\x93" "7", FALSE }, { "5-\xe2\x80\x93" "6", FALSE }, { "5\xe2\x80" "6", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 first = -1, last = -1;

      g_assert_cmpint (afg_scope_parse_steps (cases[i].text, &first, &last), ==, cases[i].ok);
      if (cases[i].ok)
        {
          g_assert_cmpint (first, ==, cases[i].first);
          g_assert_cmpint (last, ==, cases[i].last);
        }
    }
}

/* A ProfilerStep# row whose globalTid is NULL still marks its step. */
static void
test_step_row_without_thread (void)
{
  AfgTestDb *db = new_steps_db (STEPS_FROM_ROWS);
  g_autofree char *sql = g_strdup_printf ("INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type)"
                                          " VALUES ('1000', '1100', NULL, %" G_GINT64_FORMAT ", 50001)",
                                          afg_test_db_name (db, "ProfilerStep#4"));
  g_autoptr(AfgDocument) document = NULL;

  afg_test_db_exec (db, sql);
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  g_assert_nonnull (afg_document_find_step (document, 4));
  g_assert_cmpint (afg_document_find_step (document, 4)->end_ns, ==, 1100);
  g_assert_cmpuint (afg_document_get_load_stats (document)->skipped_null, ==, 1);
}

/* The hook the NPU columns use: a task counts for a scope when the host
 * row that launched it starts inside the range (the real sample's
 * /steps/sample test checks the NPU columns it gives). */
static void
test_npu_launch_start (void)
{
  AfgScope whole = { 0 };
  AfgScope step = { TRUE, 100, 250, 2, 2, 1 };

  g_assert_true (afg_scope_contains_start (&whole, G_MININT64));
  g_assert_true (afg_scope_contains_start (&step, 100));
  g_assert_true (afg_scope_contains_start (&step, 249));
  g_assert_false (afg_scope_contains_start (&step, 250));
  g_assert_false (afg_scope_contains_start (&step, 99));
}

/* ---------- the command line ---------- */

typedef struct {
  AfgTestDb *db;
  char      *out_dir;
} CliFixture;

static void
cli_set_up (CliFixture *f, gconstpointer data)
{
  f->db = new_steps_db (GPOINTER_TO_INT (data));
  afg_test_db_close (f->db);
  f->out_dir = afg_test_make_tmp_dir ();
}

static void
cli_tear_down (CliFixture *f, gconstpointer data)
{
  afg_test_rm_rf (f->out_dir);
  g_free (f->out_dir);
  afg_test_db_free (f->db);
}

static int
run_steps (CliFixture *f, const char *format, const char *steps, char **err)
{
  const char *args[] = { "--export", "-o", f->out_dir, "-f", format, "--steps", steps, f->db->path, NULL };

  return afg_test_run_cli (args, FALSE, NULL, err);
}

static char *
read_output (CliFixture *f, const char *name)
{
  g_autofree char *path = g_build_filename (f->out_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static char *
serialize_steps (const char *path, gint64 first, gint64 last, AfgFormat format)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) tree = NULL;
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  tree = build_steps_with (document, first, last, AFG_TREE_DURATIONS);  /* as exports are */
  if (format == AFG_FORMAT_JSON)
    afg_json_write (tree, out);
  else
    afg_folded_write (tree, AFG_COLUMN_SELF_NS, out);
  return g_string_free (out, FALSE);
}

/* Every format takes --steps and writes the scoped tree; JSON v2 names
 * the scope and lists all the DB's steps. */
static void
test_cli_formats (CliFixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json_expected = serialize_steps (f->db->path, 2, 3, AFG_FORMAT_JSON);
  g_autofree char *folded = NULL;
  g_autofree char *folded_expected = serialize_steps (f->db->path, 2, 2, AFG_FORMAT_FOLDED);
  g_autofree char *html = NULL;

  g_assert_cmpint (run_steps (f, "json", "2-3", &err), ==, EXIT_OK);
  json = read_output (f, "flamegraph.json");
  g_assert_cmpstr (json, ==, json_expected);
  g_assert_nonnull (strstr (json, "\"version\":3,"));
  g_assert_nonnull (strstr (json, ",\"scope\":{\"steps\":[2,3],\"start_ns\":100,\"end_ns\":1000},"
                                  "\"steps\":[{\"id\":1,\"start_ns\":0,\"end_ns\":100,\"device\":null},"
                                  "{\"id\":2,\"start_ns\":100,\"end_ns\":250,\"device\":null},"
                                  "{\"id\":3,\"start_ns\":250,\"end_ns\":1000,\"device\":null}],"
                                  "\"device_timeline\":null,\"npu\":null,\"functions\":["));
  g_assert_null (strstr (json, "\"label\":\"1/2\""));
  g_assert_cmpint (run_steps (f, "folded", "2", NULL), ==, EXIT_OK);
  folded = read_output (f, "flamegraph.folded");
  g_assert_cmpstr (folded, ==, folded_expected);
  g_assert_nonnull (strstr (folded, "1/1;train;fwd 20\n"));
  g_assert_cmpint (run_steps (f, "html", "1", NULL), ==, EXIT_OK);
  html = read_output (f, "flamegraph.html");
  g_assert_nonnull (strstr (html, "\"scope\":{\"steps\":[1,1],\"start_ns\":0,\"end_ns\":100},\"steps\":[{\"id\":1,"));
}

/* Without --steps: "scope":null, the steps still listed. */
static void
test_cli_no_scope (CliFixture *f, gconstpointer data)
{
  const char *args[] = { "--export", "-q", "-o", f->out_dir, "-f", "json", f->db->path, NULL };
  g_autofree char *json = NULL;

  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, NULL), ==, EXIT_OK);
  json = read_output (f, "flamegraph.json");
  g_assert_nonnull (strstr (json, ",\"scope\":null,\"steps\":[{\"id\":1,"));
}

/* The output directory is left empty by a refused export. */
static void
assert_no_output (CliFixture *f)
{
  g_autoptr(GDir) dir = g_dir_open (f->out_dir, 0, NULL);

  g_assert_null (g_dir_read_name (dir));
}

static void
assert_one_error (const char *err, const char *what, gboolean with_hint)
{
  g_auto(GStrv) lines = g_strsplit (err, "\n", -1);

  g_assert_true (g_str_has_prefix (lines[0], "ascend-flamegraph: error: "));
  g_assert_nonnull (strstr (lines[0], what));
  if (with_hint)
    g_assert_true (g_str_has_prefix (lines[1], "ascend-flamegraph: hint: "));
  g_assert_cmpstr (lines[with_hint ? 2 : 1], ==, "");
}

/* A step the DB lacks or a reversed range: exit 1, naming the DB's steps
 * (LC_ALL=C prints the en dash of "steps 1–3" as '?'). */
static void
test_cli_bad_steps (CliFixture *f, gconstpointer data)
{
  static const char * const cases[][2] = {
    { "7", "ascend_pytorch_profiler_0.db: no step 7; the profile has steps 1" },
    { "2-9", "no step 9; the profile has steps 1" },
    { "3-2", "2 are reversed; the profile has steps 1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;
      g_auto(GStrv) lines = NULL;

      g_assert_cmpint (run_steps (f, "json", cases[i][0], &err), ==, EXIT_BAD_INPUT);
      assert_one_error (err, cases[i][1], TRUE);
      lines = g_strsplit (err, "\n", 2);
      g_assert_true (g_regex_match_simple ("profile has steps 1(\\?|\xe2\x80\x93)3$", lines[0], 0, 0));
      g_assert_nonnull (strstr (err, "--steps 1-3"));
      assert_no_output (f);
    }
}

/* --steps takes no negative number, so the hint of a step the DB lacks
 * names only the DB's steps from 0 up, or none. */
static void
test_cli_negative_steps (CliFixture *f, gconstpointer data)
{
  static const char * const cases[][2] = {
    { "(-3, 0, 5), (-2, 5, 10)", "hint: the profile numbers its steps below 0, which --steps cannot name" },
    { "(-1, 0, 5), (0, 5, 10), (1, 10, 15)", "hint: choose steps the profile has, e.g. --steps 0 or --steps 0-1\n" },
    { "(-1, 0, 5), (4, 5, 10)", "hint: choose a step the profile has, e.g. --steps 4\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      AfgTestDb *db = new_step_table_db (cases[i][0]);
      const char *args[] = { "--export", "-o", f->out_dir, "-f", "json", "--steps", "7", db->path, NULL };
      g_autofree char *err = NULL;

      afg_test_db_close (db);
      g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, EXIT_BAD_INPUT);
      assert_one_error (err, "no step 7", TRUE);
      g_assert_nonnull (strstr (err, cases[i][1]));
      assert_no_output (f);
      afg_test_db_free (db);
    }
}

static void
test_cli_no_steps (CliFixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;

  g_assert_cmpint (run_steps (f, "html", "1", &err), ==, EXIT_BAD_INPUT);
  assert_one_error (err, "the profile has no steps", TRUE);
  assert_no_output (f);
}

/* Not a step number or range: a usage error, before the DB is read. */
static void
test_cli_malformed (CliFixture *f, gconstpointer data)
{
  static const char * const cases[] = { "", "x", "1-", "-1", "1-2-3", "1..3" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;
      g_autofree char *what = g_strdup_printf ("invalid --steps '%s'", cases[i]);

      g_assert_cmpint (run_steps (f, "json", cases[i], &err), ==, EXIT_USAGE);
      assert_one_error (err, what, TRUE);
      assert_no_output (f);
    }
}

/* ---------- the real sample ---------- */

static char *
sample_path (const char *suffix)
{
  return afg_test_sample_path ("ascend_pytorch_profiler_level1_rank0", suffix);
}

/* The .npu.expected format: the host columns, then npu_total_ns,
 * npu_self_ns and npu_tasks (0 0 on thread lines). */
static GPtrArray *
render_npu_tree (const AfgTree *tree)
{
  g_autoptr(GPtrArray) host = afg_test_render_tree (tree);
  GPtrArray *lines = g_ptr_array_new_full (host->len, g_free);

  g_assert_true (afg_tree_has_column (tree, AFG_COLUMN_NPU_TOTAL_NS));
  /* afg_test_render_tree has one line per node from node 1 on, in order. */
  for (guint32 i = 1; i < afg_tree_get_n_nodes (tree); i++)
    g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT,
                                             (const char *) g_ptr_array_index (host, i - 1),
                                             afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, i),
                                             afg_tree_get_value (tree, AFG_COLUMN_NPU_SELF_NS, i),
                                             afg_tree_get_value (tree, AFG_COLUMN_NPU_TASKS, i)));
  g_ptr_array_sort (lines, compare_lines);
  return lines;
}

/* --steps 50, the sample's only step: every column of .step50.expected,
 * the host ones clipped to the step, NPU tasks by their launching row's
 * start. */
static void
test_sample_step50 (void)
{
  g_autofree char *db_path = sample_path (".db");
  g_autofree char *expected_path = sample_path (".step50.expected");
  g_autoptr(GPtrArray) expected = afg_test_read_lines (expected_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (db_path, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GPtrArray) actual = NULL;
  g_autofree char *described = NULL;

  g_assert_no_error (error);
  described = afg_scope_describe_steps (document);
  g_assert_cmpstr (described, ==, "step 50");
  g_assert_cmpuint (expected->len, >, 1000);
  tree = build_steps (document, 50, 50);
  actual = render_npu_tree (tree);
  afg_test_assert_lines (actual, expected, "step50");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/steps/scope/one-step", test_one_step);
  g_test_add_func ("/steps/scope/row-spanning-two-steps", test_row_spanning_steps);
  g_test_add_func ("/steps/scope/range", test_range);
  g_test_add_func ("/steps/source/step-time-only", test_step_time_only);
  g_test_add_func ("/steps/source/duplicate-step", test_duplicate_step);
  g_test_add_func ("/steps/source/no-steps", test_no_steps);
  g_test_add_func ("/steps/source/step-time-without-rowid", test_step_time_without_rowid);
  g_test_add_func ("/steps/source/row-without-thread", test_step_row_without_thread);
  g_test_add_func ("/steps/scope/bad-ranges", test_bad_ranges);
  g_test_add_func ("/steps/scope/count", test_count_steps);
  g_test_add_func ("/steps/scope/describe", test_describe);
  g_test_add_func ("/steps/scope/parse", test_parse);
  g_test_add_func ("/steps/npu/launch-start", test_npu_launch_start);
  g_test_add_func ("/steps/sample/level1_rank0/step50", test_sample_step50);
  g_test_add ("/steps/cli/formats", CliFixture, GINT_TO_POINTER (STEPS_FROM_ROWS), cli_set_up, test_cli_formats, cli_tear_down);
  g_test_add ("/steps/cli/no-scope", CliFixture, GINT_TO_POINTER (STEPS_FROM_ROWS), cli_set_up, test_cli_no_scope, cli_tear_down);
  g_test_add ("/steps/cli/bad-steps", CliFixture, GINT_TO_POINTER (STEPS_FROM_TABLE), cli_set_up, test_cli_bad_steps, cli_tear_down);
  g_test_add ("/steps/cli/negative-steps", CliFixture, GINT_TO_POINTER (STEPS_NONE), cli_set_up, test_cli_negative_steps, cli_tear_down);
  g_test_add ("/steps/cli/no-steps", CliFixture, GINT_TO_POINTER (STEPS_NONE), cli_set_up, test_cli_no_steps, cli_tear_down);
  g_test_add ("/steps/cli/malformed", CliFixture, GINT_TO_POINTER (STEPS_FROM_ROWS), cli_set_up, test_cli_malformed, cli_tear_down);
  return g_test_run ();
}
