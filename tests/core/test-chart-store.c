/* SPDX-License-Identifier: MIT */
/* The stack chart's store: rows nested as the tree nests them, tasks by
 * lane without the profiler's markers, collectives one box each, a
 * step's boxes equal to the rows and tasks SQLite finds overlapping it,
 * and the tasks a window's load keeps equal to what the trace reader
 * reads from the DB again. */
#include "config.h"

#include <sys/wait.h>

#include <sqlite3.h>

#include "afg-chart-outline.h"
#include "afg-chart-store.h"
#include "afg-document-timeline.h"
#include "afg-loader.h"
#include "afg-task-kinds.h"
#include "afg-test-db.h"
#include "afg-trace-reader.h"
#include "afg-tree.h"

typedef AfgTestDb ChartTestDb;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChartTestDb, afg_test_db_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgChartStore, afg_chart_store_unref)

/* As the window loads it: the tasks kept. */
static AfgDocument *
load_keeping (const char *path)
{
  g_autoptr(GError) error = NULL;
  AfgDocument *document = afg_document_load_with_flags (path, AFG_LOAD_KEEP_TASKS, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (afg_document_get_chart_tasks (document));
  return document;
}

static AfgDocument *
load_test_db (ChartTestDb *db)
{
  afg_test_db_close (db);
  return load_keeping (db->path);
}

static gboolean
collect_any (const AfgChartTask *task, gpointer data)
{
  g_array_append_val ((GArray *) data, *task);
  return TRUE;
}

static void
assert_lanes_equal (const AfgChartStore *a, const AfgChartStore *b, guint lane)
{
  g_autoptr(GArray) ta = g_array_new (FALSE, FALSE, sizeof (AfgChartTask));
  g_autoptr(GArray) tb = g_array_new (FALSE, FALSE, sizeof (AfgChartTask));
  const AfgChartLane *la = afg_chart_store_get_lane (a, lane), *lb = afg_chart_store_get_lane (b, lane);

  g_assert_cmpint (la->device_id, ==, lb->device_id);
  g_assert_cmpint (la->stream_id, ==, lb->stream_id);
  g_assert_cmpint (la->collectives, ==, lb->collectives);
  afg_chart_store_visit_tasks (a, lane, G_MININT64, G_MAXINT64, collect_any, ta);
  afg_chart_store_visit_tasks (b, lane, G_MININT64, G_MAXINT64, collect_any, tb);
  g_assert_cmpuint (ta->len, ==, tb->len);
  for (guint i = 0; i < ta->len; i++)
    {
      const AfgChartTask *x = &g_array_index (ta, AfgChartTask, i), *y = &g_array_index (tb, AfgChartTask, i);

      g_assert_cmpint (x->start, ==, y->start);
      g_assert_cmpint (x->end, ==, y->end);
      g_assert_cmpuint (x->name, ==, y->name);
      g_assert_cmpuint (x->kind, ==, y->kind);
      g_assert_cmpuint (x->launch_thread, ==, y->launch_thread);
      g_assert_cmpuint (x->launch_event, ==, y->launch_event);
    }
}

/* The store of the tasks the load kept against the store of those the
 * trace reader reads again: every lane, every task, every launch. */
static AfgChartStore *
assert_kept_equal (AfgDocument *document, const AfgChartStore *read)
{
  AfgChartStore *kept = afg_chart_store_new_kept (document);

  g_assert_cmpuint (afg_chart_store_get_n_lanes (kept), ==, afg_chart_store_get_n_lanes (read));
  g_assert_cmpuint (afg_chart_store_get_n_tasks (kept), ==, afg_chart_store_get_n_tasks (read));
  for (guint l = 0; l < afg_chart_store_get_n_lanes (read); l++)
    assert_lanes_equal (kept, read, l);
  return kept;
}

static AfgChartStore *
load_store (const char *path, AfgDocument **document)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDeviceTasks) tasks = NULL;

  *document = load_keeping (path);
  tasks = afg_trace_reader_read (*document, NULL, &error);
  g_assert_no_error (error);
  return afg_chart_store_new (*document, tasks);
}

/* ---- what the store finds ---- */

static gboolean
count_row (guint64 event, const AfgChartRow *row, gpointer data)
{
  (*(guint64 *) data)++;
  return TRUE;
}

static gboolean
count_task (const AfgChartTask *task, gpointer data)
{
  (*(guint64 *) data)++;
  return TRUE;
}

/* "global_tid count" per thread with rows in [t0, t1). */
static GPtrArray *
store_rows (const AfgChartStore *store, gint64 t0, gint64 t1)
{
  const AfgEventStore *events = afg_document_get_events (afg_chart_store_get_document (store));
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint t = 0; t < afg_chart_store_get_n_threads (store); t++)
    {
      guint64 n = 0;

      for (guint d = 0; d < afg_chart_store_get_n_depths (store, t); d++)
        afg_chart_store_visit_rows (store, t, d, t0, t1, count_row, &n);
      if (n > 0)
        g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT,
                                                 afg_event_store_get_thread (events, t)->global_tid, n));
    }
  return lines;
}

/* "device/stream count" per lane with tasks in [t0, t1), "ops count"
 * for the collectives. */
static GPtrArray *
store_tasks (const AfgChartStore *store, gint64 t0, gint64 t1)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint l = 0; l < afg_chart_store_get_n_lanes (store); l++)
    {
      const AfgChartLane *lane = afg_chart_store_get_lane (store, l);
      guint64 n = 0, n_boxes = 0;

      afg_chart_store_visit_tasks (store, l, t0, t1, count_task, &n);
      afg_chart_store_visit_task_boxes (store, l, t0, t1, count_task, &n_boxes);
      g_assert_cmpuint (n_boxes, ==, n);
      if (n == 0)
        continue;
      if (lane->collectives)
        g_ptr_array_add (lines, g_strdup_printf ("ops %" G_GUINT64_FORMAT, n));
      else
        g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT,
                                                 lane->device_id, lane->stream_id, n));
    }
  return lines;
}

/* ---- what SQLite finds ---- */

static GPtrArray *
query_lines (sqlite3 *db, const char *sql, gint64 t0, gint64 t1)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_int64 (stmt, 1, t0);
  sqlite3_bind_int64 (stmt, 2, t1);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_ptr_array_add (lines, g_strdup ((const char *) sqlite3_column_text (stmt, 0)));
  sqlite3_finalize (stmt);
  return lines;
}

/* The loader's used rows: accepted types, integer times, a length, not a
 * step marker. */
static const char sql_rows[] =
  "WITH r AS (SELECT CAST(startNs AS INTEGER) s, CAST(endNs AS INTEGER) e, globalTid g, name, type"
  "           FROM PYTORCH_API)"
  " SELECT g || ' ' || count(*) FROM r"
  " WHERE e > s AND s < ?2 AND e > ?1"
  "   AND type IN (SELECT id FROM ENUM_API_TYPE WHERE lower(name) IN ('op','queue','trace','python_trace'))"
  "   AND name NOT IN (SELECT id FROM STRING_IDS WHERE value LIKE 'ProfilerStep#%')"
  " GROUP BY g";

static const char sql_tasks[] =
  "SELECT deviceId || '/' || streamId || ' ' || count(*) FROM TASK t"
  " LEFT JOIN STRING_IDS s ON s.id = t.taskType"
  " WHERE typeof(startNs) = 'integer' AND typeof(endNs) = 'integer' AND endNs >= startNs"
  "   AND startNs < ?2 AND max(endNs, startNs + 1) > ?1"
  "   AND upper(replace(coalesce(s.value, ''), ' ', '_')) NOT LIKE 'PROFILING\\_%' ESCAPE '\\'"
  " GROUP BY deviceId, streamId HAVING count(*) > 0";

static const char sql_ops[] =
  "SELECT 'ops ' || count(*) FROM COMMUNICATION_OP"
  " WHERE typeof(startNs) = 'integer' AND typeof(endNs) = 'integer' AND endNs >= startNs"
  "   AND startNs < ?2 AND max(endNs, startNs + 1) > ?1 HAVING count(*) > 0";

static void
check_window (const AfgChartStore *store, sqlite3 *db, gint64 t0, gint64 t1, const char *what)
{
  g_autoptr(GPtrArray) rows = store_rows (store, t0, t1);
  g_autoptr(GPtrArray) rows_sql = query_lines (db, sql_rows, t0, t1);
  g_autoptr(GPtrArray) tasks = store_tasks (store, t0, t1);
  g_autoptr(GPtrArray) tasks_sql = query_lines (db, sql_tasks, t0, t1);
  g_autoptr(GPtrArray) ops_sql = query_lines (db, sql_ops, t0, t1);

  g_ptr_array_extend_and_steal (tasks_sql, g_steal_pointer (&ops_sql));
  afg_test_assert_lines (rows, rows_sql, what);
  afg_test_assert_lines (tasks, tasks_sql, what);
}

/* Every step, a piece of a step and the whole profile. */
static void
check_db (const char *path)
{
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgChartStore) read = load_store (path, &document);
  g_autoptr(AfgChartStore) store = assert_kept_equal (document, read);
  sqlite3 *db = NULL;
  guint n_steps;
  const AfgStep *steps = afg_document_get_steps (document, &n_steps);
  gint64 start, end;
  g_autofree char *uri = g_strdup_printf ("file:%s?immutable=1", path);

  /* Immutable: a sample in WAL mode opened read-only would still get
   * its -shm and -wal beside it. */
  g_assert_cmpint (sqlite3_open_v2 (uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), ==, SQLITE_OK);
  g_assert_cmpuint (n_steps, >, 0);
  g_assert_cmpuint (afg_chart_store_get_n_tasks (store), >, 0);
  for (guint i = 0; i < n_steps; i++)
    {
      gint64 third = (steps[i].end_ns - steps[i].start_ns) / 3;

      check_window (store, db, steps[i].start_ns, steps[i].end_ns, path);
      check_window (store, db, steps[i].start_ns + third, steps[i].end_ns - third, path);
    }
  g_assert_true (afg_document_get_profile_window (document, &start, &end));
  check_window (store, db, start, end, path);
  check_window (store, db, G_MININT64 / 2, G_MAXINT64 / 2, path);
  sqlite3_close (db);
}

static void
test_sample (gconstpointer data)
{
  g_autofree char *path = afg_test_sample_path (data, ".db");

  check_db (path);
}

static void
test_generated (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "gen.db", NULL);
  const char *argv[] = { g_getenv ("AFG_GEN_DB"), "--steps", "4", path, "30000", NULL };
  g_autoptr(GError) error = NULL;
  int status;

  g_assert_nonnull (argv[0]);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  check_db (path);
  afg_test_rm_rf (dir);
}

/* ---- the rules on a DB made for them ---- */

typedef struct {
  GArray *tasks;  /* AfgChartTask */
} Collect;

static gboolean
collect_task (const AfgChartTask *task, gpointer data)
{
  g_array_append_val (((Collect *) data)->tasks, *task);
  return TRUE;
}

static ChartTestDb *
rules_db (void)
{
  ChartTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autofree char *sql = NULL;
  gint64 launch, marker;

  /* a [0,100) > b [10,40) > c [20,30); b again [50,90); d [95,150)
   * outlives a: it leaves a and takes depth 0; e [200,300) the same path
   * as the first b's parent. */
  afg_test_db_add (db, GTID (1, 1), 0, 100, "a");
  afg_test_db_add (db, GTID (1, 1), 10, 40, "b");
  afg_test_db_add (db, GTID (1, 1), 20, 30, "c");
  launch = afg_test_db_add_with_connection (db, GTID (1, 1), 50, 90, "b", 7);
  afg_test_db_add (db, GTID (1, 1), 95, 150, "d");
  afg_test_db_add (db, GTID (1, 1), 200, 300, "a");
  afg_test_db_add (db, GTID (1, 1), 210, 220, "b");
  g_assert_cmpint (launch, >, 0);
  afg_test_db_link (db, 7, 70);
  afg_test_db_add_task_on (db, 60, 70, 70, 0, 2);
  afg_test_db_add_task_on (db, 5000000000, 5000000000 + 6000000000, AFG_TEST_NULL, 0, 2);
  afg_test_db_add_task_on (db, 80, 80, AFG_TEST_NULL, 1, 5);
  afg_test_db_add_typed_task (db, 40, 45, AFG_TEST_NULL, "PROFILING_ENABLE");
  marker = afg_test_db_add_typed_task (db, 50, 55, AFG_TEST_NULL, "PROFILING_DISABLE");
  sql = g_strdup_printf ("UPDATE TASK SET streamId = 9 WHERE globalTaskId = %" G_GINT64_FORMAT, marker);
  afg_test_db_exec (db, sql);
  afg_test_db_add_collective (db, 100, 400, 70, "hcom_allReduce__1_0_1");
  return db;
}

/* The kept tasks' store, checked against the trace reader's. */
static AfgChartStore *
store_of (ChartTestDb *db, AfgDocument **document)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDeviceTasks) tasks = NULL;
  g_autoptr(AfgChartStore) read = NULL;

  *document = load_test_db (db);
  tasks = afg_trace_reader_read (*document, NULL, &error);
  g_assert_no_error (error);
  read = afg_chart_store_new (*document, tasks);
  return assert_kept_equal (*document, read);
}

static AfgChartStore *
rules_store (AfgDocument **document)
{
  g_autoptr(ChartTestDb) db = rules_db ();

  return store_of (db, document);
}

/* Without links to the host (the timeline then reads TASK alone) the
 * streams and the collectives are drawn all the same, none launched by
 * a row. */
static void
test_without_links (void)
{
  g_autoptr(AfgDocument) linked_document = NULL;
  g_autoptr(AfgChartStore) linked = rules_store (&linked_document);

  for (guint i = 0; i < AFG_TEST_N_UNLINKS; i++)
    {
      g_autoptr(ChartTestDb) db = rules_db ();
      g_autoptr(AfgDocument) document = NULL;
      g_autoptr(AfgChartStore) store = NULL;

      afg_test_db_exec (db, afg_test_unlinks[i]);
      store = store_of (db, &document);
      g_assert_cmpuint (afg_chart_store_get_n_lanes (store), ==, afg_chart_store_get_n_lanes (linked));
      g_assert_cmpuint (afg_chart_store_get_n_tasks (store), ==, afg_chart_store_get_n_tasks (linked));
      for (guint l = 0; l < afg_chart_store_get_n_lanes (store); l++)
        {
          g_autoptr(GArray) tasks = g_array_new (FALSE, FALSE, sizeof (AfgChartTask));
          g_autoptr(GArray) linked_tasks = g_array_new (FALSE, FALSE, sizeof (AfgChartTask));

          afg_chart_store_visit_tasks (store, l, G_MININT64, G_MAXINT64, collect_any, tasks);
          afg_chart_store_visit_tasks (linked, l, G_MININT64, G_MAXINT64, collect_any, linked_tasks);
          g_assert_cmpuint (tasks->len, ==, linked_tasks->len);
          for (guint t = 0; t < tasks->len; t++)
            {
              g_assert_cmpint (g_array_index (tasks, AfgChartTask, t).start, ==,
                               g_array_index (linked_tasks, AfgChartTask, t).start);
              g_assert_cmpuint (g_array_index (tasks, AfgChartTask, t).launch_thread, ==, AFG_CHART_NONE);
            }
        }
    }
}

static void
test_rows (void)
{
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgChartStore) store = rules_store (&document);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) found = NULL;
  const AfgChartRow *rows;
  guint64 n;

  g_assert_cmpuint (afg_chart_store_get_n_threads (store), ==, 1);
  rows = afg_chart_store_get_rows (store, 0, &n);
  g_assert_cmpuint (n, ==, 7);
  g_assert_cmpuint (afg_chart_store_get_n_depths (store, 0), ==, 3);
  /* Event order: a b c b d a b. */
  g_assert_cmpuint (rows[0].depth, ==, 0);
  g_assert_cmpuint (rows[1].depth, ==, 1);
  g_assert_cmpuint (rows[2].depth, ==, 2);
  g_assert_cmpuint (rows[2].parent, ==, 1);
  g_assert_cmpuint (rows[3].depth, ==, 1);
  g_assert_cmpuint (rows[3].parent, ==, 0);
  g_assert_cmpuint (rows[4].depth, ==, 0);
  g_assert_cmpuint (rows[4].parent, ==, AFG_CHART_NONE);
  g_assert_cmpuint (afg_chart_store_get_path (store, 0, 2, FALSE, path), ==, 3);
  g_assert_cmpstr (afg_document_get_string (document, g_array_index (path, guint32, 0)), ==, "a");
  g_assert_cmpstr (afg_document_get_string (document, g_array_index (path, guint32, 2)), ==, "c");
  afg_chart_store_get_path (store, 0, 1, FALSE, path);
  found = afg_chart_store_find_rows (store, 0, (guint32 *) path->data, path->len, FALSE, G_MININT64, G_MAXINT64);
  g_assert_cmpuint (found->len, ==, 3);
  g_assert_cmpuint (g_array_index (found, guint64, 0), ==, 1);
  g_assert_cmpuint (g_array_index (found, guint64, 1), ==, 3);
  g_assert_cmpuint (g_array_index (found, guint64, 2), ==, 6);
  /* Within a window: the rows that overlap it (half-open at both ends). */
  g_clear_pointer (&found, g_array_unref);
  found = afg_chart_store_find_rows (store, 0, (guint32 *) path->data, path->len, FALSE, rows[3].end, rows[6].end);
  g_assert_cmpuint (found->len, ==, 1);
  g_assert_cmpuint (g_array_index (found, guint64, 0), ==, 6);
  g_clear_pointer (&found, g_array_unref);
  found = afg_chart_store_find_rows (store, 0, (guint32 *) path->data, path->len, FALSE, rows[1].start,
                                     rows[1].start + 1);
  g_assert_cmpuint (found->len, ==, 1);
  g_assert_cmpuint (g_array_index (found, guint64, 0), ==, 1);
}

typedef struct {
  AfgDocument *document;
  const char  *last;   /* the path's last name wanted, or "c|d" */
  guint        asked;
} LastName;

static gboolean
last_is (const guint32 *names, guint n, gpointer data)
{
  LastName *want = data;
  const char *last = afg_document_get_string (want->document, names[n - 1]);

  want->asked++;
  return g_strcmp0 (want->last, "c|d") == 0 ? g_str_equal (last, "c") || g_str_equal (last, "d")
                                           : g_str_equal (last, want->last);
}

/* Rows found by what their path is, whatever its depth: asked once per
 * path (a, a;b, a;b;c, d), the rows in start order. */
static void
test_rows_by_path (void)
{
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgChartStore) store = rules_store (&document);
  LastName b = { document, "b" }, cd = { document, "c|d" };
  g_autoptr(GArray) found_b = afg_chart_store_find_rows_by_path (store, 0, FALSE, G_MININT64, G_MAXINT64, last_is, &b, NULL);
  g_autoptr(GArray) found_cd = afg_chart_store_find_rows_by_path (store, 0, FALSE, G_MININT64, G_MAXINT64, last_is, &cd, NULL);
  g_autoptr(GArray) within = NULL;
  guint64 n;
  const AfgChartRow *rows = afg_chart_store_get_rows (store, 0, &n);

  g_assert_cmpuint (b.asked, ==, 4);
  g_assert_cmpuint (found_b->len, ==, 3);
  g_assert_cmpuint (g_array_index (found_b, guint64, 0), ==, 1);
  g_assert_cmpuint (g_array_index (found_b, guint64, 1), ==, 3);
  g_assert_cmpuint (g_array_index (found_b, guint64, 2), ==, 6);
  g_assert_cmpuint (found_cd->len, ==, 2);
  g_assert_cmpuint (g_array_index (found_cd, guint64, 0), ==, 2);
  g_assert_cmpuint (g_array_index (found_cd, guint64, 1), ==, 4);
  within = afg_chart_store_find_rows_by_path (store, 0, FALSE, rows[3].end, rows[6].end, last_is, &b, NULL);
  g_assert_cmpuint (within->len, ==, 1);
  g_assert_cmpuint (g_array_index (within, guint64, 0), ==, 6);
}

/* outline TRANSFORM ARG TARGET T0: the rows the transform brings to the
 * ';'-joined TARGET from T0 on, as "1,3,6". */
static AfgChartOutline *
new_outline (AfgChartStore *store, AfgTransformOp op, const char *arg, const char *target, gint64 t0)
{
  g_autoptr(AfgTransformList) list = afg_transform_list_new ();
  g_auto(GStrv) names = g_strsplit (target, ";", -1);

  g_assert_true (afg_transform_list_append (list, op, arg, NULL));
  /* It keeps what it needs: the caller's list goes at once. */
  return afg_chart_outline_new (store, 0, FALSE, t0, G_MAXINT64, list, (const char * const *) names,
                                g_strv_length (names));
}

static char *
outline (AfgChartStore *store, AfgTransformOp op, const char *arg, const char *target, gint64 t0)
{
  g_autoptr(AfgChartOutline) outline = new_outline (store, op, arg, target, t0);
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  g_assert_cmpuint (afg_chart_outline_get_thread (outline), ==, 0);
  rows = afg_chart_outline_run (outline, NULL);
  for (guint i = 0; i < rows->len; i++)
    g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, i ? "," : "", g_array_index (rows, guint64, i));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The rows a transformed tree brings to one node, from any depth: a (0,
 * 5) merged away brings every b (1, 3, 6) to the top and c (2) under
 * them; dropped, b takes c with it; focused on b, a is left out. Within
 * a range, the rows overlapping it. */
static void
test_outline (void)
{
  g_autoptr(AfgDocument) document = NULL;
  AfgChartStore *store = rules_store (&document);
  struct { AfgTransformOp op; const char *arg, *target; gint64 t0; const char *rows; } cases[] = {
    { AFG_TRANSFORM_MERGE_FUNCTION, "a", "b", G_MININT64, "1,3,6" },
    { AFG_TRANSFORM_MERGE_FUNCTION, "a", "b;c", G_MININT64, "2" },
    { AFG_TRANSFORM_MERGE_FUNCTION, "a", "a", G_MININT64, "" },
    { AFG_TRANSFORM_MERGE_FUNCTION, "a", "b", 200, "6" },
    { AFG_TRANSFORM_DROP_FUNCTION, "b", "a", G_MININT64, "0,5" },
    { AFG_TRANSFORM_DROP_FUNCTION, "b", "a;b", G_MININT64, "" },
    { AFG_TRANSFORM_DROP_FUNCTION, "b", "d", G_MININT64, "4" },
    { AFG_TRANSFORM_FOCUS_FUNCTION, "b", "b;c", G_MININT64, "2" },
    { AFG_TRANSFORM_FOCUS_FUNCTION, "b", "a", G_MININT64, "" },
    { AFG_TRANSFORM_FOCUS_FUNCTION, "/^[bd]$/", "d", G_MININT64, "4" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *rows = outline (store, cases[i].op, cases[i].arg, cases[i].target, cases[i].t0);

      g_assert_cmpstr (rows, ==, cases[i].rows);
    }
  /* Cancelled, the walk stops before the first row. */
  {
    g_autoptr(AfgChartOutline) stopped = new_outline (store, AFG_TRANSFORM_MERGE_FUNCTION, "a", "b", G_MININT64);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autoptr(GArray) rows = NULL;

    g_cancellable_cancel (cancellable);
    rows = afg_chart_outline_run (stopped, cancellable);
    g_assert_cmpuint (rows->len, ==, 0);
  }
  /* A running outline keeps the store the chart let go. */
  {
    g_autoptr(AfgChartOutline) kept = new_outline (store, AFG_TRANSFORM_MERGE_FUNCTION, "a", "b", G_MININT64);
    g_autoptr(GArray) rows = NULL;

    g_clear_pointer (&store, afg_chart_store_unref);
    rows = afg_chart_outline_run (kept, NULL);
    g_assert_cmpuint (rows->len, ==, 3);
  }
}

/* Under the pointer, the box drawn on top: d, which outlived a and took
 * depth 0, covers a's end; a task inside a longer one on its stream
 * covers it. Near no box holding the instant, the last box near it. */
static void
test_point_at (void)
{
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgChartStore) store = rules_store (&document);
  g_autoptr(ChartTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) nested_document = NULL;
  g_autoptr(AfgChartStore) nested = NULL;
  AfgChartTask task;
  guint64 event = G_MAXUINT64;

  g_assert_true (afg_chart_store_row_at (store, 0, 0, 50, 0, &event));
  g_assert_cmpuint (event, ==, 0);
  g_assert_true (afg_chart_store_row_at (store, 0, 0, 97, 0, &event));
  g_assert_cmpuint (event, ==, 4);
  g_assert_true (afg_chart_store_row_at (store, 0, 0, 97, 10, &event));
  g_assert_cmpuint (event, ==, 4);
  g_assert_true (afg_chart_store_row_at (store, 0, 0, 160, 20, &event));
  g_assert_cmpuint (event, ==, 4);
  g_assert_false (afg_chart_store_row_at (store, 0, 0, 180, 10, &event));
  g_assert_false (afg_chart_store_row_at (store, 0, 9, 50, 0, &event));

  afg_test_db_add (db, GTID (1, 1), 0, 500, "main");
  afg_test_db_add_task_on (db, 100, 400, AFG_TEST_NULL, 0, 2);
  afg_test_db_add_task_on (db, 150, 200, AFG_TEST_NULL, 0, 2);
  nested = store_of (db, &nested_document);
  g_assert_true (afg_chart_store_task_at (nested, 0, 170, 0, &task));
  g_assert_cmpint (task.start, ==, 150);
  g_assert_true (afg_chart_store_task_at (nested, 0, 220, 0, &task));
  g_assert_cmpint (task.start, ==, 100);
  g_assert_true (afg_chart_store_task_at (nested, 0, 120, 40, &task));
  g_assert_cmpint (task.start, ==, 100);
  g_assert_true (afg_chart_store_task_at (nested, 0, 199, 5, &task));
  g_assert_cmpint (task.start, ==, 150);
  g_assert_false (afg_chart_store_task_at (nested, 0, 450, 10, &task));
}

static void
test_tasks (void)
{
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgChartStore) store = rules_store (&document);
  Collect c = { g_array_new (FALSE, FALSE, sizeof (AfgChartTask)) };
  const AfgChartTask *t;

  /* Lanes: 0/2, 1/5, then the collectives; the markers are left out,
   * and so is stream 0/9, which has only a marker. */
  g_assert_cmpuint (afg_chart_store_get_n_lanes (store), ==, 3);
  g_assert_cmpint (afg_chart_store_get_lane (store, 0)->stream_id, ==, 2);
  g_assert_cmpint (afg_chart_store_get_lane (store, 1)->device_id, ==, 1);
  g_assert_true (afg_chart_store_get_lane (store, 2)->collectives);
  g_assert_cmpuint (afg_chart_store_get_n_tasks (store), ==, 4);
  afg_chart_store_visit_tasks (store, 0, 0, G_MAXINT64, collect_task, &c);
  g_assert_cmpuint (c.tasks->len, ==, 2);
  t = &g_array_index (c.tasks, AfgChartTask, 0);
  g_assert_cmpint (t->start, ==, 60);
  g_assert_cmpint (t->end, ==, 70);
  g_assert_cmpuint (t->launch_thread, ==, 0);
  g_assert_cmpuint (t->launch_event, ==, 3);
  /* Longer than 32 bits of ns, and far from the first: still exact. */
  t = &g_array_index (c.tasks, AfgChartTask, 1);
  g_assert_cmpint (t->start, ==, 5000000000);
  g_assert_cmpint (t->end, ==, 11000000000);
  g_assert_cmpuint (t->launch_thread, ==, AFG_CHART_NONE);
  /* Found by a range inside it only (it started long before). */
  g_array_set_size (c.tasks, 0);
  afg_chart_store_visit_tasks (store, 0, 10000000000, 10000000001, collect_task, &c);
  g_assert_cmpuint (c.tasks->len, ==, 1);
  /* A task of no length counts at its start. */
  g_array_set_size (c.tasks, 0);
  afg_chart_store_visit_tasks (store, 1, 80, 81, collect_task, &c);
  afg_chart_store_visit_tasks (store, 1, 81, 90, collect_task, &c);
  g_assert_cmpuint (c.tasks->len, ==, 1);
  g_array_set_size (c.tasks, 0);
  afg_chart_store_visit_tasks (store, 2, 0, 1000, collect_task, &c);
  g_assert_cmpuint (c.tasks->len, ==, 1);
  g_assert_cmpstr (afg_document_get_string (document, g_array_index (c.tasks, AfgChartTask, 0).name), ==,
                   "hcom_allReduce__1_0_1");
  g_assert_cmpuint (g_array_index (c.tasks, AfgChartTask, 0).kind, ==, AFG_TASK_KIND_COMMUNICATION);
  /* Launched by the row its connection id reaches, as its tasks are. */
  g_assert_cmpuint (g_array_index (c.tasks, AfgChartTask, 0).launch_event, ==, 3);
  g_assert_cmpuint (afg_chart_store_get_task_bytes (store), <, 4 * 16 + 4 * 24 + 64);
  g_array_unref (c.tasks);
}

/* The launching row of a task on lane @lane (the only task there). */
static const AfgChartRow *
launcher (const AfgChartStore *store, guint lane, guint *thread)
{
  Collect c = { g_array_new (FALSE, FALSE, sizeof (AfgChartTask)) };
  const AfgChartRow *rows;
  guint64 n, event;

  afg_chart_store_visit_tasks (store, lane, 0, G_MAXINT64, collect_task, &c);
  g_assert_cmpuint (c.tasks->len, ==, 1);
  *thread = g_array_index (c.tasks, AfgChartTask, 0).launch_thread;
  event = g_array_index (c.tasks, AfgChartTask, 0).launch_event;
  g_array_unref (c.tasks);
  g_assert_cmpuint (*thread, <, afg_chart_store_get_n_threads (store));
  rows = afg_chart_store_get_rows (store, *thread, &n);
  g_assert_cmpuint (event, <, n);
  return &rows[event];
}

/* Launching rows found whatever their order in TASK, on two threads,
 * two of one thread starting together; the store built in two steps
 * (rows, then tasks); more streams than are compared in
 * place, each its own lane in order. */
static void
test_launches (void)
{
  g_autoptr(ChartTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgChartStore) store = NULL;
  g_autoptr(AfgChartStore) read = NULL;
  g_autoptr(AfgDeviceTasks) tasks = NULL;
  g_autoptr(GError) error = NULL;
  const AfgChartRow *row;
  guint thread;

  afg_test_db_add_with_connection (db, GTID (1, 1), 0, 100, "a", 1);
  afg_test_db_add_with_connection (db, GTID (1, 1), 0, 50, "b", 2);
  afg_test_db_add_with_connection (db, GTID (1, 1), 200, 300, "c", 3);
  afg_test_db_add_with_connection (db, GTID (1, 2), 0, 100, "x", 4);
  for (gint64 id = 1; id <= 4; id++)
    afg_test_db_link (db, id, id * 10);
  /* Streams 20 down to 1: c's task first, then b's, a's, x's. */
  afg_test_db_add_task_on (db, 250, 260, 30, 0, 20);
  afg_test_db_add_task_on (db, 40, 45, 20, 0, 19);
  afg_test_db_add_task_on (db, 60, 70, 10, 0, 18);
  afg_test_db_add_task_on (db, 80, 90, 40, 0, 17);
  for (gint64 stream = 16; stream >= 1; stream--)
    afg_test_db_add_task_on (db, stream, stream + 1, AFG_TEST_NULL, 0, stream);
  document = load_test_db (db);
  tasks = afg_trace_reader_read (document, NULL, &error);
  g_assert_no_error (error);
  read = afg_chart_store_new_rows (document);
  g_assert_cmpuint (afg_chart_store_get_n_lanes (read), ==, 0);
  afg_chart_store_add_tasks (read, tasks);
  store = assert_kept_equal (document, read);
  g_assert_cmpuint (afg_chart_store_get_n_lanes (store), ==, 20);
  for (guint lane = 0; lane < 20; lane++)
    g_assert_cmpint (afg_chart_store_get_lane (store, lane)->stream_id, ==, lane + 1);
  row = launcher (store, 19, &thread);
  g_assert_cmpuint (thread, ==, 0);
  g_assert_cmpint (row->start, ==, 200);
  row = launcher (store, 18, &thread);
  g_assert_cmpuint (thread, ==, 0);
  g_assert_cmpint (row->end, ==, 50);
  row = launcher (store, 17, &thread);
  g_assert_cmpuint (thread, ==, 0);
  g_assert_cmpint (row->end, ==, 100);
  row = launcher (store, 16, &thread);
  g_assert_cmpuint (thread, ==, 1);
  g_assert_cmpint (row->end, ==, 100);
  g_assert_cmpuint (afg_chart_store_get_n_tasks (store), ==, 20);
}

/* A task launched by a row past the depth limit, which is not drawn, is
 * the frame's at the cut, as the flame graph gives it. */
static void
test_cut_launch (void)
{
  g_autoptr(ChartTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgChartStore) store = NULL;
  g_autoptr(GArray) boxes = NULL;
  const AfgChartRow *row;
  const AfgChartTask *task;
  guint thread;

  for (guint i = 0; i < AFG_MAX_DEPTH + 2; i++)
    if (i == AFG_MAX_DEPTH + 1)
      afg_test_db_add_with_connection (db, GTID (1, 1), i, 10000 - i, "deep", 1);
    else
      afg_test_db_add (db, GTID (1, 1), i, 10000 - i, "deep");
  afg_test_db_link (db, 1, 10);
  afg_test_db_add_task_on (db, 5000, 5010, 10, 0, 1);
  store = store_of (db, &document);
  row = launcher (store, 0, &thread);
  g_assert_cmpuint (thread, ==, 0);
  g_assert_cmpuint (row->depth, ==, AFG_MAX_DEPTH - 1);
  g_assert_cmpint (row->start, ==, AFG_MAX_DEPTH - 1);
  /* Drawn, the same task with its launch as kept: the cut row. */
  boxes = g_array_new (FALSE, FALSE, sizeof (AfgChartTask));
  afg_chart_store_visit_task_boxes (store, 0, G_MININT64, G_MAXINT64, collect_any, boxes);
  g_assert_cmpuint (boxes->len, ==, 1);
  task = &g_array_index (boxes, AfgChartTask, 0);
  g_assert_cmpint (task->start, ==, 5000);
  g_assert_cmpint (task->end, ==, 5010);
  g_assert_cmpuint (task->launch_thread, ==, 0);
  g_assert_cmpuint (task->launch_event, ==, AFG_MAX_DEPTH + 1);
}

/* No TASK table: rows only, no device lane; rows past the depth limit
 * are cut as the tree cuts them. */
static void
test_no_device (void)
{
  g_autoptr(ChartTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgChartStore) store = NULL;
  g_autoptr(AfgChartStore) read = NULL;
  g_autoptr(AfgDeviceTasks) tasks = NULL;
  g_autoptr(GError) error = NULL;
  const AfgChartRow *rows;
  guint64 n;

  for (guint i = 0; i < AFG_MAX_DEPTH + 2; i++)
    afg_test_db_add (db, GTID (1, 1), i, 10000 - i, "deep");
  document = load_test_db (db);
  tasks = afg_trace_reader_read (document, NULL, &error);
  g_assert_no_error (error);
  read = afg_chart_store_new (document, tasks);
  store = assert_kept_equal (document, read);
  g_assert_cmpuint (afg_chart_store_get_n_lanes (store), ==, 0);
  g_assert_cmpuint (afg_chart_store_get_n_tasks (store), ==, 0);
  g_assert_cmpuint (afg_chart_store_get_n_depths (store, 0), ==, AFG_MAX_DEPTH);
  rows = afg_chart_store_get_rows (store, 0, &n);
  g_assert_cmpuint (n, ==, AFG_MAX_DEPTH + 2);
  g_assert_cmpuint (rows[AFG_MAX_DEPTH - 1].depth, ==, AFG_MAX_DEPTH - 1);
  g_assert_cmpuint (rows[AFG_MAX_DEPTH].depth, ==, AFG_CHART_NONE);
  g_assert_cmpuint (rows[AFG_MAX_DEPTH + 1].depth, ==, AFG_CHART_NONE);
}

/* The rows' span: what a profile of neither steps nor tasks shows. */
static void
test_row_span (void)
{
  g_autoptr(ChartTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(ChartTestDb) empty_db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgDocument) empty = NULL;
  g_autoptr(AfgChartStore) store = NULL;
  g_autoptr(AfgChartStore) none = NULL;
  gint64 start = 0, end = 0;

  afg_test_db_add (db, GTID (1, 1), 2000, 6000, "q");
  afg_test_db_add (db, GTID (1, 2), 500, 1000, "p");
  afg_test_db_add (db, GTID (1, 2), 7000, 7000, "zero");
  document = load_test_db (db);
  store = afg_chart_store_new_rows (document);
  g_assert_true (afg_chart_store_get_row_span (store, &start, &end));
  g_assert_cmpint (start, ==, 500);
  g_assert_cmpint (end, ==, 6000);
  afg_test_db_add (empty_db, GTID (1, 1), 10, 10, "zero");
  empty = load_test_db (empty_db);
  none = afg_chart_store_new_rows (empty);
  g_assert_false (afg_chart_store_get_row_span (none, &start, &end));
}

static gboolean
collect_event (guint64 event, const AfgChartRow *row, gpointer data)
{
  g_array_append_val ((GArray *) data, event);
  return TRUE;
}

/* Rows that partly overlap the one above them leave a depth whose ends
 * fall (b ends before the x before it at its depth), so a depth's index
 * cannot bisect its rows by their ends: a window's visits are still every
 * row of the depth that overlaps it, in order, as a walk of all the rows
 * finds them. */
static void
test_falling_ends (void)
{
  g_autoptr(ChartTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgChartStore) store = NULL;
  const AfgChartRow *rows;
  guint64 n, n_falling = 0;

  for (gint64 i = 0; i < 600; i++)
    {
      gint64 t = i * 100;

      if (i % 5 == 0)
        {
          /* r > x, then p outlives r: it pops both, and b, under p, ends
           * before x. */
          afg_test_db_add (db, GTID (1, 1), t, t + 50, "r");
          afg_test_db_add (db, GTID (1, 1), t + 1, t + 40, "x");
          afg_test_db_add (db, GTID (1, 1), t + 2, t + 60, "p");
          afg_test_db_add (db, GTID (1, 1), t + 3, t + 5, "b");
        }
      else
        {
          afg_test_db_add (db, GTID (1, 1), t, t + 90, "r");
          afg_test_db_add (db, GTID (1, 1), t + 10, t + 80 - i % 7, "x");
        }
    }
  document = load_test_db (db);
  store = afg_chart_store_new (document, NULL);
  rows = afg_chart_store_get_rows (store, 0, &n);
  for (guint64 e = 1; e < n; e++)
    n_falling += rows[e].depth == 1 && rows[e - 1].depth == 0 && e >= 3 && rows[e].end < rows[e - 2].end;
  g_assert_cmpuint (n_falling, >, 0);
  for (gint64 t0 = -7; t0 < 60000; t0 += 37)
    for (gint64 width = 1; width < 30000; width = width * 3 + 1)
      for (guint d = 0; d < afg_chart_store_get_n_depths (store, 0); d++)
        {
          g_autoptr(GArray) visited = g_array_new (FALSE, FALSE, sizeof (guint64));
          g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (guint64));

          afg_chart_store_visit_rows (store, 0, d, t0, t0 + width, collect_event, visited);
          for (guint64 e = 0; e < n; e++)
            if (rows[e].depth == d && rows[e].end > t0 && rows[e].start < t0 + width)
              g_array_append_val (expected, e);
          g_assert_cmpuint (visited->len, ==, expected->len);
          g_assert_cmpmem (visited->data, visited->len * sizeof (guint64), expected->data,
                           expected->len * sizeof (guint64));
        }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/chart-store/rows", test_rows);
  g_test_add_func ("/chart-store/rows-by-path", test_rows_by_path);
  g_test_add_func ("/chart-store/outline", test_outline);
  g_test_add_func ("/chart-store/point-at", test_point_at);
  g_test_add_func ("/chart-store/falling-ends", test_falling_ends);
  g_test_add_func ("/chart-store/tasks", test_tasks);
  g_test_add_func ("/chart-store/launches", test_launches);
  g_test_add_func ("/chart-store/no-device", test_no_device);
  g_test_add_func ("/chart-store/row-span", test_row_span);
  g_test_add_func ("/chart-store/without-links", test_without_links);
  g_test_add_func ("/chart-store/cut-launch", test_cut_launch);
  g_test_add_data_func ("/chart-store/sample/level0", "ascend_pytorch_profiler_level0_rank0", test_sample);
  g_test_add_data_func ("/chart-store/sample/level1", "ascend_pytorch_profiler_level1_rank0", test_sample);
  g_test_add_func ("/chart-store/generated", test_generated);
  return g_test_run ();
}
