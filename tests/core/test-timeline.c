/* SPDX-License-Identifier: MIT */
/* The device timeline and the NPU-idle scope: each step's split into
 * compute, communication, other and free time, the whole profile's, and
 * the host tree scoped to the free instants, on DBs made for each rule
 * and on the real samples' .breakdown.expected and .idle.expected. */
#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "afg-document-timeline.h"
#include "afg-loader.h"
#include "afg-test-db.h"
#include "afg-tree-builder.h"
#include "afg-writers.h"

/* Host: thread 1/1 f [0,1000) > g [100,300) (g launches the compute
 * task), thread 1/2 h [600,700). Device: compute AI_CORE [100,200); a
 * collective [150,400) and one of its tasks [350,450) (communication);
 * EVENT_RECORD [500,550) (other); a PROFILING_ENABLE marker [2000,2100)
 * (other, outside every window, and no bound of the profile's window).
 * With @steps, STEP_TIME steps 1 [0,500) and 2 [500,1000). */
static AfgTestDb *
make_db (gboolean steps)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);

  afg_test_db_add_with_connection (db, GTID (1, 1), 0, 1000, "f", AFG_TEST_NULL);
  afg_test_db_add_with_connection (db, GTID (1, 1), 100, 300, "g", 1);
  afg_test_db_add_with_connection (db, GTID (1, 2), 600, 700, "h", AFG_TEST_NULL);
  afg_test_db_link (db, 1, 11);
  afg_test_db_add_typed_task (db, 100, 200, 11, "AI_CORE");
  afg_test_db_add_collective (db, 150, 400, 7, "hcom_allReduce__1_0_1");
  afg_test_db_add_typed_task (db, 350, 450, 7, "Notify Wait");
  afg_test_db_add_typed_task (db, 500, 550, AFG_TEST_NO_LINK, "EVENT_RECORD");
  afg_test_db_add_typed_task (db, 2000, 2100, AFG_TEST_NO_LINK, "PROFILING_ENABLE");
  if (steps)
    {
      afg_test_db_add_step_time (db, 1, 0, 500);
      afg_test_db_add_step_time (db, 2, 500, 1000);
    }
  return db;
}

static void
assert_split (const AfgDocument *document, gint64 start, gint64 end, gint64 compute, gint64 comm,
              gint64 other, gint64 free_ns)
{
  AfgDeviceSplit split;

  afg_device_timeline_split (afg_document_get_timeline (document), start, end, &split);
  g_assert_cmpint (split.compute_ns, ==, compute);
  g_assert_cmpint (split.comm_ns, ==, comm);
  g_assert_cmpint (split.other_ns, ==, other);
  g_assert_cmpint (split.free_ns, ==, free_ns);
}

/* Compute before communication before other; the collective's own
 * interval is communication too. */
static void
test_split_steps (void)
{
  g_autoptr(AfgTestDb) db = make_db (TRUE);
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  gint64 start, end;

  g_assert_nonnull (afg_document_get_timeline (document));
  assert_split (document, 0, 500, 100, 250, 0, 150);
  assert_split (document, 500, 1000, 0, 0, 50, 450);
  g_assert_true (afg_document_get_profile_window (document, &start, &end));
  g_assert_cmpint (start, ==, 0);
  g_assert_cmpint (end, ==, 1000);
}

/* Steps numbered against time (step 1 after step 2, as a hostile DB may
 * number them): the window still runs from the earliest start to the
 * latest end, and its four sums fill it. */
static void
test_steps_out_of_order (void)
{
  g_autoptr(AfgTestDb) db = make_db (FALSE);
  g_autoptr(AfgDocument) document = NULL;
  gint64 start, end;

  afg_test_db_add_step_time (db, 1, 500, 1000);
  afg_test_db_add_step_time (db, 2, 0, 500);
  document = afg_test_db_load_document (db);
  g_assert_true (afg_document_get_profile_window (document, &start, &end));
  g_assert_cmpint (start, ==, 0);
  g_assert_cmpint (end, ==, 1000);
  assert_split (document, start, end, 100, 250, 50, 600);
}

/* Without steps the profile's window is the hull of the tasks and
 * collectives, PROFILING_* markers left out. */
static void
test_split_no_steps (void)
{
  g_autoptr(AfgTestDb) db = make_db (FALSE);
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  gint64 start, end;

  g_assert_true (afg_document_get_profile_window (document, &start, &end));
  g_assert_cmpint (start, ==, 100);
  g_assert_cmpint (end, ==, 550);
  assert_split (document, start, end, 100, 250, 50, 50);
}

/* A task of COMMUNICATION_TASK_INFO is communication on the timeline by
 * itself, outside every collective's interval and linked to nothing; it
 * bounds the profile's window too. */
static void
test_split_comm_task_info (void)
{
  g_autoptr(AfgTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  gint64 start, end;

  afg_test_db_add_with_connection (db, GTID (1, 1), 0, 1000, "f", 1);
  afg_test_db_link (db, 1, 11);
  afg_test_db_add_typed_task (db, 100, 200, 11, "AI_CORE");
  afg_test_db_add_comm_task_info (db, afg_test_db_add_typed_task (db, 300, 500, AFG_TEST_NO_LINK, "Notify Wait"));
  document = afg_test_db_load_document (db);
  g_assert_true (afg_document_get_profile_window (document, &start, &end));
  g_assert_cmpint (start, ==, 100);
  g_assert_cmpint (end, ==, 500);
  assert_split (document, 100, 500, 100, 200, 0, 100);
  assert_split (document, 0, 1000, 100, 200, 0, 700);
}

static AfgTree *
idle_tree (AfgDocument *document, gboolean has_steps, gint64 first, gint64 last)
{
  g_autoptr(GError) error = NULL;
  AfgScope scope;

  g_assert_true (afg_scope_init_npu_idle (&scope, document, has_steps, first, last, &error));
  g_assert_no_error (error);
  g_assert_true (scope.npu_idle);
  return afg_test_build (document, &scope, AFG_TREE_FLAGS_NONE);
}

static void
assert_spans (const AfgSpans *set, const AfgSpan *want, gsize n_want)
{
  gsize n;
  const AfgSpan *spans = afg_spans_get (set, &n);

  g_assert_cmpuint (n, ==, n_want);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpint (spans[i].start, ==, want[i].start);
      g_assert_cmpint (spans[i].end, ==, want[i].end);
    }
}

/* The free instants of the whole profile's window take in the gaps
 * between steps, which the NPU-idle scope leaves out: steps [0,300) and
 * [600,1000), busy over [100,450) and [500,550). */
static void
test_free_spans (void)
{
  g_autoptr(AfgTestDb) db = make_db (FALSE);
  g_autoptr(AfgDocument) document = NULL;
  static const AfgSpan steps_idle[] = { { 0, 100 }, { 600, 1000 } };
  static const AfgSpan window_free[] = { { 0, 100 }, { 450, 500 }, { 550, 1000 } };

  afg_test_db_add_step_time (db, 1, 0, 300);
  afg_test_db_add_step_time (db, 2, 600, 1000);
  document = afg_test_db_load_document (db);
  assert_spans (afg_document_get_idle_spans (document, 0, 1), steps_idle, G_N_ELEMENTS (steps_idle));
  assert_spans (afg_document_get_free_spans (document), window_free, G_N_ELEMENTS (window_free));
}

/* The idle tree of both steps: free instants [0,100), [450,500) of step 1
 * and [550,1000) of step 2 (and, with wider steps, whatever lies outside
 * [0,1000), where no row is). f counts its overlap with them, g (all
 * busy) is left out; nesting is that of the unclipped rows. */
static const char * const idle_all_steps[] = {
  "1/1\t1\t600\t0",
  "1/1;f\t1\t600\t600",
  "1/2\t1\t100\t0",
  "1/2;h\t1\t100\t100",
  NULL,
};

static void
test_idle_all_steps (void)
{
  g_autoptr(AfgTestDb) db = make_db (TRUE);
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  g_autoptr(AfgTree) tree = idle_tree (document, FALSE, 0, 0);

  afg_test_assert_tree (tree, idle_all_steps);
  /* Host time only: no NPU columns. */
  g_assert_false (afg_tree_has_column (tree, AFG_COLUMN_NPU_TOTAL_NS));
}

/* --steps 1: its own window only; thread 1/2 has nothing there. */
static void
test_idle_one_step (void)
{
  g_autoptr(AfgTestDb) db = make_db (TRUE);
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  g_autoptr(AfgTree) tree = idle_tree (document, TRUE, 1, 1);
  const char * const expected[] = {
    "1/1\t1\t150\t0",
    "1/1;f\t1\t150\t150",
    NULL,
  };

  afg_test_assert_tree (tree, expected);
  g_assert_cmpint (afg_tree_get_scope (tree)->first_step, ==, 1);
  g_assert_cmpint (afg_tree_get_scope (tree)->last_step, ==, 1);
}

/* Narrowed to [50,620) (the stack chart's Sync range): the idle instants
 * within it only, [50,100), [450,500) and [550,620) for f, [600,620) for
 * h; narrowed past the instants, nothing. */
static void
test_idle_narrowed (void)
{
  g_autoptr(AfgTestDb) db = make_db (TRUE);
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgTree) outside = NULL;
  AfgScope scope, past;
  const char * const expected[] = {
    "1/1\t1\t170\t0",
    "1/1;f\t1\t170\t170",
    "1/2\t1\t20\t0",
    "1/2;h\t1\t20\t20",
    NULL,
  };

  g_assert_true (afg_scope_init_npu_idle (&scope, document, FALSE, 0, 0, &error));
  g_assert_no_error (error);
  past = scope;
  afg_scope_narrow (&scope, 50, 620);
  g_assert_true (scope.bounded && scope.npu_idle);
  g_assert_cmpuint (scope.n_steps, ==, 0);
  g_assert_cmpint (scope.start_ns, ==, 50);
  g_assert_cmpint (scope.end_ns, ==, 620);
  g_assert_cmpint (afg_scope_overlap_ns (&scope, 0, 1000), ==, 170);
  tree = afg_test_build (document, &scope, AFG_TREE_FLAGS_NONE);
  afg_test_assert_tree (tree, expected);
  afg_scope_narrow (&past, 2000, 3000);
  g_assert_cmpint (past.start_ns, ==, past.end_ns);
  outside = afg_test_build (document, &past, AFG_TREE_FLAGS_NONE);
  g_assert_true (afg_tree_is_empty (outside));
}

/* No steps: the profile's window [100,550) has one free span, [450,500). */
static void
test_idle_no_steps (void)
{
  g_autoptr(AfgTestDb) db = make_db (FALSE);
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  g_autoptr(AfgTree) tree = idle_tree (document, FALSE, 0, 0);
  const char * const expected[] = {
    "1/1\t1\t50\t0",
    "1/1;f\t1\t50\t50",
    NULL,
  };
  g_autoptr(GError) error = NULL;
  AfgScope scope;

  afg_test_assert_tree (tree, expected);
  g_assert_false (afg_scope_init_npu_idle (&scope, document, TRUE, 1, 1, &error));
  g_assert_error (error, AFG_SCOPE_ERROR, AFG_SCOPE_ERROR_NO_STEPS);
}

/* Steps about as wide as gint64 goes (a hostile STEP_TIME): 1 [G_MININT64
 * + 1, 500) and 2 [500, G_MAXINT64) (G_MININT64 is the test DB's NULL).
 * Each split and the idle tree are those of the DB's own times, a length
 * past G_MAXINT64 saturated: step 1's free time is 2^63 + 149 ns, step
 * 2's G_MAXINT64 - 500 less its 150 ns of other (the event and the
 * PROFILING_ENABLE marker). */
static void
test_extreme_windows (void)
{
  g_autoptr(AfgTestDb) db = make_db (FALSE);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_add_step_time (db, 1, G_MININT64 + 1, 500);
  afg_test_db_add_step_time (db, 2, 500, G_MAXINT64);
  document = afg_test_db_load_document (db);
  assert_split (document, G_MININT64 + 1, 500, 100, 250, 0, G_MAXINT64);
  assert_split (document, 500, G_MAXINT64, 0, 0, 150, G_MAXINT64 - 500 - 150);
  assert_split (document, G_MININT64 + 1, G_MAXINT64, 100, 250, 150, G_MAXINT64);
  tree = idle_tree (document, FALSE, 0, 0);
  afg_test_assert_tree (tree, idle_all_steps);
}

/* A usable TASK table without a usable row: the device was free all the
 * time, each step is idle whole; without steps the profile has no window.
 * A collective alone is communication. */
static void
test_empty_task (void)
{
  g_autoptr(AfgTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgTestDb) bare = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgTestDb) comm = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgDocument) bare_document = NULL;
  g_autoptr(AfgDocument) comm_document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  gint64 start, end;

  afg_test_db_add (db, GTID (1, 1), 0, 100, "f");
  afg_test_db_exec (db, "INSERT INTO TASK (startNs, endNs) VALUES (10.5, 20.5)");  /* REAL: not usable */
  afg_test_db_add_step_time (db, 1, 0, 100);
  document = afg_test_db_load_document (db);
  g_assert_nonnull (afg_document_get_timeline (document));
  assert_split (document, 0, 100, 0, 0, 0, 100);
  tree = idle_tree (document, FALSE, 0, 0);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), ==, 100);
  afg_test_db_add (bare, GTID (1, 1), 0, 100, "f");
  bare_document = afg_test_db_load_document (bare);
  g_assert_nonnull (afg_document_get_timeline (bare_document));
  g_assert_false (afg_document_get_profile_window (bare_document, &start, &end));
  afg_test_db_add (comm, GTID (1, 1), 0, 100, "f");
  afg_test_db_add_collective (comm, 40, 60, AFG_TEST_NO_LINK, "hcom_allReduce__1_0_1");
  afg_test_db_add_step_time (comm, 1, 0, 100);
  comm_document = afg_test_db_load_document (comm);
  assert_split (comm_document, 0, 100, 0, 20, 0, 80);
}

/* The export's summary gives the timeline's split, and no NPU time. */
static void
assert_cli_split_only (AfgTestDb *db)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  const char * const argv[] = { "--export", "-f", "json", "-o", dir, db->path, NULL };
  g_autofree char *err = NULL;

  afg_test_db_close (db);
  g_assert_cmpint (afg_test_run_cli (argv, FALSE, NULL, &err), ==, 0);
  g_assert_nonnull (strstr (err, "NPU timeline: compute 10.0%, communication 25.0%, other 5.0%, free 60.0%\n"));
  g_assert_null (strstr (err, "ascend-flamegraph: NPU device time"));
  g_assert_null (strstr (err, "NPU: compute"));
  afg_test_rm_rf (dir);
}

/* The timeline needs no link to the host: a DB whose TASK cannot be
 * linked (no CONNECTION_IDS, one that is a view, no
 * PYTORCH_API.connectionId) has the same timeline and collectives, and
 * no NPU time: the frames' device fields stay absent. Both readers agree. */
static void
test_without_links (void)
{
  for (guint i = 0; i < AFG_TEST_N_UNLINKS; i++)
    {
      g_autoptr(AfgTestDb) db = make_db (TRUE);
      g_autoptr(AfgDocument) document = NULL;
      g_autofree char *json = NULL;
      gsize n_collectives;
      guint fast, fallbacks;

      afg_test_db_exec (db, afg_test_unlinks[i]);
      document = afg_test_db_load_document (db);
      g_assert_nonnull (afg_document_get_timeline (document));
      assert_split (document, 0, 500, 100, 250, 0, 150);
      assert_split (document, 500, 1000, 0, 0, 50, 450);
      g_assert_null (afg_document_get_npu_stats (document));
      g_assert_null (afg_document_get_npu_kind_stats (document));
      g_assert_cmpint (afg_document_get_npu_warning (document) != NULL, ==, i > 0);
      g_assert_nonnull (afg_document_get_collectives (document, &n_collectives));
      g_assert_cmpuint (n_collectives, ==, 1);
      json = afg_test_load_both (db->path, &fast, &fallbacks);
      g_assert_null (strstr (json, "\"device_timeline\":null"));
      g_assert_null (strstr (json, "npu_total_ns"));
      g_assert_null (strstr (json, "comm_total_ns"));
      assert_cli_split_only (db);
    }
}

/* Collectives need only COMMUNICATION_OP: without a usable TASK they
 * are there all the same, and the timeline is not (it is of TASK's rows). */
static void
test_collectives_without_task (void)
{
  static const char * const sql[] = {
    "DROP TABLE TASK",
    "ALTER TABLE TASK DROP COLUMN endNs",
  };

  for (guint i = 0; i < G_N_ELEMENTS (sql); i++)
    {
      g_autoptr(AfgTestDb) db = make_db (TRUE);
      g_autoptr(AfgDocument) document = NULL;
      g_autofree char *json = NULL;
      const AfgDocCollective *ops;
      gsize n;
      guint fast, fallbacks;

      afg_test_db_exec (db, sql[i]);
      document = afg_test_db_load_document (db);
      g_assert_null (afg_document_get_timeline (document));
      g_assert_null (afg_document_get_npu_stats (document));
      ops = afg_document_get_collectives (document, &n);
      g_assert_cmpuint (n, ==, 1);
      g_assert_cmpint (ops[0].ns, ==, 250);
      json = afg_test_load_both (db->path, &fast, &fallbacks);
      g_assert_nonnull (strstr (json, "\"device_timeline\":null"));
    }
}

/* Without a TASK table there is no timeline and no idle scope. */
static void
test_no_device (void)
{
  g_autoptr(AfgTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  AfgScope scope;
  gint64 start, end;

  afg_test_db_add (db, GTID (1, 1), 0, 100, "f");
  document = afg_test_db_load_document (db);
  g_assert_null (afg_document_get_timeline (document));
  g_assert_false (afg_document_get_profile_window (document, &start, &end));
  g_assert_false (afg_scope_init_npu_idle (&scope, document, FALSE, 0, 0, &error));
  g_assert_error (error, AFG_SCOPE_ERROR, AFG_SCOPE_ERROR_NO_DEVICE);
}

static JsonObject *
export_json (const char *db_path, const char * const *extra, JsonParser *parser)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (args, "--export");
  g_ptr_array_add (args, "-q");
  g_ptr_array_add (args, "-f");
  g_ptr_array_add (args, "json");
  g_ptr_array_add (args, "-o");
  g_ptr_array_add (args, dir);
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) extra[i]);
  g_ptr_array_add (args, (gpointer) db_path);
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (afg_test_run_cli ((const char * const *) args->pdata, FALSE, NULL, NULL), ==, 0);
  json = afg_test_read_output (dir, "flamegraph.json");
  afg_test_rm_rf (dir);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* "compute comm other free" of a JSON device object. */
static char *
device_words (JsonObject *device)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                          json_object_get_int_member (device, "compute_ns"),
                          json_object_get_int_member (device, "comm_ns"),
                          json_object_get_int_member (device, "other_ns"),
                          json_object_get_int_member (device, "free_ns"));
}

/* The text of the page's <script> block with id @id, or NULL. */
static char *
page_block (const GString *page, const char *id)
{
  g_autofree char *open = g_strdup_printf ("<script type=\"application/json\" id=\"%s\">", id);
  const char *at = strstr (page->str, open);
  const char *end;

  if (at == NULL)
    return NULL;
  at += strlen (open);
  end = strstr (at, "</script>");
  g_assert_nonnull (end);
  return g_strndup (at, end - at);
}

static GString *
write_page (AfgTree *tree)
{
  g_autoptr(GError) error = NULL;
  GString *page = g_string_new (NULL);

  g_assert_true (afg_html_write (tree, page, &error));
  g_assert_no_error (error);
  return page;
}

/* The page of an NPU-idle tree carries the tree without that scope (of
 * the same steps) as its data and the idle tree as a second block; any
 * other page has no second block. */
static void
test_html (void)
{
  g_autoptr(AfgTestDb) db = make_db (TRUE);
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  g_autoptr(AfgTree) all = idle_tree (document, FALSE, 0, 0);
  g_autoptr(AfgTree) step2 = idle_tree (document, TRUE, 2, 2);
  g_autoptr(AfgTree) plain = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_autoptr(GString) all_page = write_page (all);
  g_autoptr(GString) step2_page = write_page (step2);
  g_autoptr(GString) plain_page = write_page (plain);
  g_autofree char *all_data = page_block (all_page, "afg-data");
  g_autofree char *all_idle = page_block (all_page, "afg-idle-data");
  g_autofree char *step2_data = page_block (step2_page, "afg-data");
  g_autofree char *step2_idle = page_block (step2_page, "afg-idle-data");
  g_autofree char *plain_data = page_block (plain_page, "afg-data");

  g_assert_cmpstr (all_data, ==, plain_data);
  g_assert_nonnull (strstr (all_idle, "\"scope\":{\"steps\":[1,2],\"start_ns\":0,\"end_ns\":1000,"
                                     "\"npu_idle\":true,\"idle_ns\":600},"));
  g_assert_nonnull (strstr (all_idle, "\"label\":\"1/1\",\"calls\":1,\"total_ns\":600,\"children\":1}"));
  g_assert_null (strstr (all_idle, "npu_total_ns"));
  g_assert_nonnull (strstr (step2_data, "\"scope\":{\"steps\":[2,2],\"start_ns\":500,\"end_ns\":1000}"));
  g_assert_nonnull (strstr (step2_idle, "\"scope\":{\"steps\":[2,2],"));
  g_assert_null (page_block (plain_page, "afg-idle-data"));
  g_assert_null (strstr (plain_page->str, "@AFG_"));
}

/* JSON: steps[].device and device_timeline whatever the scope; the scope
 * of --npu-idle says so, with the idle time. */
static void
test_json (void)
{
  g_autoptr(AfgTestDb) db = make_db (TRUE);
  g_autofree char *path = afg_test_db_keep (g_steal_pointer (&db));
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) idle_parser = json_parser_new ();
  const char * const idle_args[] = { "--npu-idle", "--steps", "2", NULL };
  JsonObject *root = export_json (path, NULL, parser);
  JsonObject *idle = export_json (path, idle_args, idle_parser);
  JsonArray *steps = json_object_get_array_member (root, "steps");
  JsonObject *scope = json_object_get_object_member (idle, "scope");
  g_autofree char *step1 = device_words (json_object_get_object_member (json_array_get_object_element (steps, 0), "device"));
  g_autofree char *step2 = device_words (json_object_get_object_member (json_array_get_object_element (steps, 1), "device"));
  g_autofree char *all = device_words (json_object_get_object_member (root, "device_timeline"));
  g_autofree char *idle_all = device_words (json_object_get_object_member (idle, "device_timeline"));

  g_assert_cmpstr (step1, ==, "100 250 0 150");
  g_assert_cmpstr (step2, ==, "0 0 50 450");
  g_assert_cmpstr (all, ==, "100 250 50 600");
  g_assert_cmpstr (idle_all, ==, all);
  g_assert_true (json_object_get_boolean_member (scope, "npu_idle"));
  g_assert_cmpint (json_object_get_int_member (scope, "idle_ns"), ==, 450);
  /* The whole profile's scope is null, as before. */
  g_assert_true (json_object_get_null_member (root, "scope"));
  afg_test_rm_rf (path);
}

/* Without TASK, both are null. */
static void
test_json_no_device (void)
{
  g_autoptr(AfgTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *path = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;

  afg_test_db_add (db, GTID (1, 1), 0, 100, "ProfilerStep#3");
  afg_test_db_add (db, GTID (1, 1), 10, 90, "f");
  path = afg_test_db_keep (g_steal_pointer (&db));
  root = export_json (path, NULL, parser);
  g_assert_true (json_object_get_null_member (root, "device_timeline"));
  g_assert_true (json_object_get_null_member (json_array_get_object_element (
    json_object_get_array_member (root, "steps"), 0), "device"));
  afg_test_rm_rf (path);
}

/* -f trace and a device weight refuse --npu-idle as usage errors. */
static void
test_cli_refusals (void)
{
  g_autoptr(AfgTestDb) db = make_db (TRUE);
  g_autofree char *path = afg_test_db_keep (g_steal_pointer (&db));
  g_autofree char *dir = afg_test_make_tmp_dir ();
  const char * const trace[] = { "--export", "-f", "trace", "--npu-idle", "-o", dir, path, NULL };
  const char * const weight[] = { "--export", "--weight", "npu", "--npu-idle", "-o", dir, path, NULL };
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;

  g_assert_cmpint (afg_test_run_cli (trace, FALSE, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--npu-idle"));
  g_assert_cmpint (afg_test_run_cli (weight, FALSE, NULL, &err2), ==, 2);
  g_assert_nonnull (strstr (err2, "--npu-idle"));
  afg_test_assert_dir_holds (dir, NULL);
  afg_test_rm_rf (dir);
  afg_test_rm_rf (path);
}

/* Without device tasks --npu-idle fails, and its hint is about the
 * device, not about steps the user did not name. */
static void
test_cli_idle_without_device (void)
{
  g_autoptr(AfgTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *path = NULL;
  g_autofree char *dir = afg_test_make_tmp_dir ();
  const char *args[] = { "--export", "--npu-idle", "-o", dir, NULL, NULL };
  g_autofree char *err = NULL;

  afg_test_db_add (db, GTID (1, 1), 0, 1000, "f");
  path = afg_test_db_keep (g_steal_pointer (&db));
  args[4] = path;
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, 1);
  g_assert_nonnull (strstr (err, "no NPU-idle time"));
  g_assert_nonnull (strstr (err, "hint: export without --npu-idle"));
  g_assert_null (strstr (err, "--steps"));
  afg_test_rm_rf (dir);
  afg_test_rm_rf (path);
}

/* An idle scope with no host time in it warns of the idle time, naming
 * steps only when the DB has them: the host row [10, 20) runs while the
 * NPU computes; the NPU is idle in [20, 30). */
static void
test_cli_idle_empty (void)
{
  const char *args[] = { "--export", "-f", "json", "--npu-idle", "-o", NULL, NULL, NULL };

  for (guint with_steps = 0; with_steps < 2; with_steps++)
    {
      g_autoptr(AfgTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
      g_autofree char *path = NULL;
      g_autofree char *dir = afg_test_make_tmp_dir ();
      g_autofree char *err = NULL;

      afg_test_db_add (db, GTID (1, 1), 10, 20, "f");
      afg_test_db_add_typed_task (db, 10, 20, AFG_TEST_NO_LINK, "AI_CORE");
      afg_test_db_add_typed_task (db, 30, 40, AFG_TEST_NO_LINK, "EVENT_RECORD");
      if (with_steps)
        afg_test_db_add_step_time (db, 7, 0, 40);
      path = afg_test_db_keep (g_steal_pointer (&db));
      args[5] = dir;
      args[6] = path;
      g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, 0);
      /* The dash between the steps is the locale's. */
      g_assert_nonnull (strstr (err, with_steps ? "warning: no usable rows while the NPU is idle in step 7\n"
                                                : "warning: no usable rows while the NPU is idle\n"));
      g_assert_null (strstr (err, "steps 0"));
      /* One row, one of the plural forms. */
      g_assert_nonnull (strstr (err, ": 1 row, 0 used;"));
      afg_test_rm_rf (dir);
      afg_test_rm_rf (path);
    }
}

static char *
run_ok (const char * const *args)
{
  char *out = NULL;
  g_autofree char *err = NULL;

  if (afg_test_run_cli (args, FALSE, &out, &err) != 0)
    g_error ("the CLI failed: %s", err);
  return out;
}

/* --top weighs the same idle tree: f with its 600 ns, h, never g. */
static void
test_cli_top (void)
{
  g_autoptr(AfgTestDb) db = make_db (TRUE);
  g_autofree char *path = afg_test_db_keep (g_steal_pointer (&db));
  const char * const args[] = { "--top", "10", "--npu-idle", path, NULL };
  g_autofree char *out = run_ok (args);

  g_assert_nonnull (strstr (out, "600 ns"));
  g_assert_nonnull (strstr (out, "  f\n"));
  g_assert_nonnull (strstr (out, "  h\n"));
  g_assert_null (strstr (out, "  g\n"));
  afg_test_rm_rf (path);
}

/* --diff scopes both sides: a DB against itself in its idle instants. */
static void
test_cli_diff (void)
{
  g_autoptr(AfgTestDb) db = make_db (TRUE);
  g_autofree char *path = afg_test_db_keep (g_steal_pointer (&db));
  g_autofree char *dir = afg_test_make_tmp_dir ();
  const char * const args[] = { "--diff", path, path, "--export", "-q", "-f", "folded", "--npu-idle", "-o", dir, NULL };
  g_autofree char *out = run_ok (args);
  g_autofree char *folded = afg_test_read_output (dir, "flamegraph-diff.folded");

  g_assert_cmpstr (folded, ==, "f 600 600\nh 100 100\n");
  afg_test_rm_rf (dir);
  afg_test_rm_rf (path);
}

/* A job folder's ranks are each scoped the same way. */
static void
test_cli_job (void)
{
  g_autoptr(AfgTestDb) db = make_db (TRUE);
  g_autofree char *path = afg_test_db_keep (g_steal_pointer (&db));
  g_autofree char *root = afg_test_make_tmp_dir ();
  g_autofree char *out_dir = afg_test_make_tmp_dir ();
  g_autofree char *rank_dir = g_build_filename (root, "rank0_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *rank_db = g_build_filename (rank_dir, "ascend_pytorch_profiler_0.db", NULL);
  g_autofree char *rank_out = g_build_filename (out_dir, "rank0", NULL);
  g_autofree char *data = NULL;
  gsize len;
  const char * const args[] = { "--export", "-q", "-f", "json", "--npu-idle", "-o", out_dir, root, NULL };
  g_autofree char *out = NULL;
  g_autofree char *json = NULL;

  g_assert_cmpint (g_mkdir_with_parents (rank_dir, 0755), ==, 0);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  afg_test_write_file (rank_db, data, (gssize) len);
  out = run_ok (args);
  json = afg_test_read_output (rank_out, "flamegraph.json");
  g_assert_nonnull (strstr (json, "\"npu_idle\":true,\"idle_ns\":600}"));
  afg_test_rm_rf (root);
  afg_test_rm_rf (out_dir);
  afg_test_rm_rf (path);
}

/* The samples: .breakdown.expected from the JSON export, .idle.expected
 * from the tree and from the JSON of --npu-idle. */
static void
test_sample_breakdown (gconstpointer data)
{
  const char *name = data;
  g_autofree char *db = afg_test_sample_path (name, ".db");
  g_autofree char *expected_path = afg_test_sample_path (name, ".breakdown.expected");
  g_autoptr(GPtrArray) expected = afg_test_read_lines (expected_path);
  g_autoptr(GPtrArray) actual = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root = export_json (db, NULL, parser);
  JsonArray *steps = json_object_get_array_member (root, "steps");
  g_autofree char *all = device_words (json_object_get_object_member (root, "device_timeline"));

  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);
      g_autofree char *words = device_words (json_object_get_object_member (step, "device"));

      g_ptr_array_add (actual, g_strdup_printf ("%" G_GINT64_FORMAT " %s", json_object_get_int_member (step, "id"), words));
    }
  g_ptr_array_add (actual, g_strdup_printf ("all %s", all));
  for (guint i = 0; i < actual->len; i++)
    g_strdelimit (g_ptr_array_index (actual, i), " ", '\t');
  afg_test_assert_lines (actual, expected, name);
}

static void
test_sample_idle (gconstpointer data)
{
  const char *name = data;
  g_autofree char *db = afg_test_sample_path (name, ".db");
  g_autofree char *expected_path = afg_test_sample_path (name, ".idle.expected");
  g_autoptr(GPtrArray) expected = afg_test_read_lines (expected_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (db, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GPtrArray) actual = NULL;

  g_assert_no_error (error);
  tree = idle_tree (document, FALSE, 0, 0);
  actual = afg_test_render_tree (tree);
  afg_test_assert_lines (actual, expected, name);
}

int
main (int argc, char *argv[])
{
  static const char * const samples[] = {
    "ascend_pytorch_profiler_level0_rank0",
    "ascend_pytorch_profiler_level1_rank0",
  };

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timeline/split/steps", test_split_steps);
  g_test_add_func ("/timeline/split/no-steps", test_split_no_steps);
  g_test_add_func ("/timeline/split/steps-out-of-order", test_steps_out_of_order);
  g_test_add_func ("/timeline/split/comm-task-info", test_split_comm_task_info);
  g_test_add_func ("/timeline/idle/all-steps", test_idle_all_steps);
  g_test_add_func ("/timeline/idle/one-step", test_idle_one_step);
  g_test_add_func ("/timeline/idle/no-steps", test_idle_no_steps);
  g_test_add_func ("/timeline/idle/narrowed", test_idle_narrowed);
  g_test_add_func ("/timeline/extreme-windows", test_extreme_windows);
  g_test_add_func ("/timeline/empty-task", test_empty_task);
  g_test_add_func ("/timeline/without-links", test_without_links);
  g_test_add_func ("/timeline/free-spans", test_free_spans);
  g_test_add_func ("/timeline/collectives-without-task", test_collectives_without_task);
  g_test_add_func ("/timeline/no-device", test_no_device);
  g_test_add_func ("/timeline/json", test_json);
  g_test_add_func ("/timeline/html", test_html);
  g_test_add_func ("/timeline/json-no-device", test_json_no_device);
  g_test_add_func ("/timeline/cli-refusals", test_cli_refusals);
  g_test_add_func ("/timeline/cli-idle-without-device", test_cli_idle_without_device);
  g_test_add_func ("/timeline/cli-idle-empty", test_cli_idle_empty);
  g_test_add_func ("/timeline/cli-top", test_cli_top);
  g_test_add_func ("/timeline/cli-diff", test_cli_diff);
  g_test_add_func ("/timeline/cli-job", test_cli_job);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *breakdown = g_strconcat ("/timeline/sample/breakdown/", samples[i], NULL);
      g_autofree char *idle = g_strconcat ("/timeline/sample/idle/", samples[i], NULL);

      g_test_add_data_func (breakdown, samples[i], test_sample_breakdown);
      g_test_add_data_func (idle, samples[i], test_sample_idle);
    }
  return g_test_run ();
}
