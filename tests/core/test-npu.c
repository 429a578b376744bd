/* SPDX-License-Identifier: MIT */
/* The rules for the NPU device time of each host frame, each on a
 * DB made for it, and the real samples' .npu.expected. */
#include "config.h"

#include <string.h>

#include "afg-json-writer.h"
#include "afg-loader.h"
#include "afg-test-db.h"
#include "afg-writers.h"

#define T1 GTID (1, 1)
#define EXIT_USAGE 2

/* Its own name: afg-test-db.h may gain a cleanup for AfgTestDb. */
typedef AfgTestDb NpuTestDb;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NpuTestDb, afg_test_db_free)

/* A PYTORCH_API op row; @conn is SQL (a number, NULL, a string). */
static void
add_api (AfgTestDb *db, gint64 tid, gint64 start, gint64 end, const char *name, const char *conn)
{
  g_autofree char *sql = g_strdup_printf ("INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type,"
                                          " connectionId) VALUES ('%" G_GINT64_FORMAT "', '%" G_GINT64_FORMAT
                                          "', %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %d, %s)",
                                          start, end, tid, afg_test_db_name (db, name), TYPE_OP, conn);
  afg_test_db_exec (db, sql);
}

static void
add_task (AfgTestDb *db, const char *start, const char *end, const char *conn)
{
  g_autofree char *sql = g_strdup_printf ("INSERT INTO TASK (startNs, endNs, connectionId) VALUES (%s, %s, %s)",
                                          start, end, conn);
  afg_test_db_exec (db, sql);
}

static void
add_link (AfgTestDb *db, const char *api_id, const char *task_id)
{
  g_autofree char *sql = g_strdup_printf ("INSERT INTO CONNECTION_IDS (id, connectionId) VALUES (%s, %s)",
                                          api_id, task_id);
  afg_test_db_exec (db, sql);
}

/* Shaped like torch_npu's: more columns than are read. */
static AfgTestDb *
npu_db_new (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);

  afg_test_db_exec (db, "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,"
                        " connectionId INTEGER, globalTaskId INTEGER, taskType INTEGER);"
                        "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER)");
  return db;
}

static gint64
value_at (const AfgTree *tree, AfgColumn column, const char *path)
{
  guint32 node = afg_test_find_node (tree, path);

  g_assert_cmpuint (node, !=, AFG_NODE_NONE);
  return afg_tree_get_value (tree, column, node);
}

/* The .npu.expected line format. */
static GPtrArray *
render_npu (const AfgTree *tree)
{
  g_autoptr(GPtrArray) host = afg_test_render_tree (tree);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < host->len; i++)
    {
      const char *line = g_ptr_array_index (host, i);
      g_autofree char *path = g_strndup (line, strchr (line, '\t') - line);
      guint32 node = afg_test_find_node (tree, path);

      g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT,
                                               line, afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, node),
                                               afg_tree_get_value (tree, AFG_COLUMN_NPU_SELF_NS, node),
                                               afg_tree_get_value (tree, AFG_COLUMN_NPU_TASKS, node)));
    }
  g_ptr_array_sort (lines, (GCompareFunc) g_strcmp0);
  return lines;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static GPtrArray *
read_sample_lines (const char *name, const char *suffix)
{
  g_autofree char *file = g_strconcat (name, suffix, NULL);
  g_autofree char *path = g_build_filename (g_getenv ("AFG_SAMPLES_DIR"), file, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (out, g_strdup (lines[i]));
  g_ptr_array_sort (out, compare_strings);
  return out;
}

static AfgDocument *
load_sample (const char *name)
{
  g_autofree char *file = g_strconcat (name, ".db", NULL);
  g_autofree char *path = g_build_filename (g_getenv ("AFG_SAMPLES_DIR"), file, NULL);
  g_autoptr(GError) error = NULL;
  AfgDocument *document = afg_document_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return document;
}

static void
test_sample (gconstpointer data)
{
  const char *name = data;
  g_autoptr(AfgDocument) document = load_sample (name);
  g_autoptr(AfgTree) tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_autoptr(GPtrArray) expected = read_sample_lines (name, ".npu.expected");
  g_autoptr(GPtrArray) actual = render_npu (tree);
  const AfgNpuStats *npu = afg_document_get_npu_stats (document);

  g_assert_nonnull (npu);
  g_assert_null (afg_document_get_npu_warning (document));
  afg_test_assert_lines (actual, expected, name);
  g_assert_cmpuint (npu->tasks - npu->unlinked_tasks, ==, 500);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT), ==, npu->ns - npu->unlinked_ns);
}

/* Scoped to step 50: tasks count when their launching row starts in it. */
static void
test_sample_step (void)
{
  const char *name = "ascend_pytorch_profiler_level1_rank0";
  g_autoptr(AfgDocument) document = load_sample (name);
  const AfgStep *step = afg_document_find_step (document, 50);
  AfgScope scope = { TRUE, 0, 0 };
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GPtrArray) expected = read_sample_lines (name, ".step50.expected");
  g_autoptr(GPtrArray) actual = NULL;

  g_assert_nonnull (step);
  scope.start_ns = step->start_ns;
  scope.end_ns = step->end_ns;
  tree = afg_test_build (document, &scope, AFG_TREE_FLAGS_NONE);
  actual = render_npu (tree);
  afg_test_assert_lines (actual, expected, "step 50");
}

/* One op launches through two connection ids, its child through one; a
 * parent's total holds its children's, the thread's its frames'. */
static void
test_link_basic (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  const AfgNpuStats *npu;

  add_api (db, T1, 0, 100, "outer", "1");
  add_api (db, T1, 10, 20, "inner", "2");
  add_link (db, "1", "100");
  add_link (db, "1", "101");
  add_link (db, "2", "200");
  add_task (db, "150", "160", "100");
  add_task (db, "160", "165", "101");
  add_task (db, "165", "165", "101");  /* zero length: a task of 0 ns */
  add_task (db, "170", "177", "200");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  npu = afg_document_get_npu_stats (document);
  g_assert_nonnull (npu);
  g_assert_cmpuint (npu->tasks, ==, 4);
  g_assert_cmpint (npu->ns, ==, 22);
  g_assert_cmpuint (npu->unlinked_tasks, ==, 0);
  g_assert_cmpuint (npu->skipped, ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;outer"), ==, 15);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_TASKS, "1/1;outer"), ==, 3);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_TOTAL_NS, "1/1;outer"), ==, 22);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;outer;inner"), ==, 7);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_TOTAL_NS, "1/1;outer;inner"), ==, 7);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_TOTAL_NS, "1/1"), ==, 22);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1"), ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_TASKS, "1/1"), ==, 0);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT), ==, 22);
}

/* Several used rows share an id, or a task is reached through several
 * ids: the row with the lowest rowid takes it, whatever the time order. */
static void
test_lowest_rowid (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;

  add_api (db, T1, 500, 600, "first_row", "7");
  add_api (db, T1, 100, 200, "second_row", "7");   /* earlier in time */
  add_api (db, T1, 300, 400, "third_row", "8");
  add_api (db, T1, 700, 800, "fourth_row", "9");
  add_link (db, "7", "70");
  add_link (db, "9", "90");
  add_link (db, "8", "90");   /* rows 3 and 4 reach task 90: row 3 wins */
  add_task (db, "1000", "1010", "70");
  add_task (db, "1000", "1003", "90");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;first_row"), ==, 10);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;second_row"), ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;third_row"), ==, 3);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;fourth_row"), ==, 0);
}

/* "The one with the lowest rowid" is among the used rows: a lower rowid
 * that became no frame (a ProfilerStep# marker, a non-positive interval,
 * an mstx row) does not keep the task from a used row sharing its id. */
static void
test_lowest_used_rowid (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  const AfgNpuStats *npu;

  add_api (db, T1, 0, 1000, "ProfilerStep#1", "5");
  add_api (db, T1, 100, 100, "empty", "5");
  add_api (db, T1, 200, 300, "marker", "5");
  add_api (db, T1, 400, 500, "launcher", "5");
  add_api (db, T1, 600, 700, "later", "5");
  afg_test_db_exec (db, "UPDATE PYTORCH_API SET type = 50004 WHERE rowid = 3");  /* mstx */
  add_link (db, "5", "50");
  add_task (db, "2000", "2040", "50");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  npu = afg_document_get_npu_stats (document);
  g_assert_cmpuint (npu->unlinked_tasks, ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;launcher"), ==, 40);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;later"), ==, 0);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT), ==, 40);
}

/* Ids far apart on both sides (negative, past 2^32, near 2^62) are
 * looked up by search, not as a dense run: the same rules hold, and an
 * id between two known ones finds nothing. */
static void
test_sparse_ids (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  const AfgNpuStats *npu;

  add_api (db, T1, 500, 600, "first_row", "-5");
  add_api (db, T1, 100, 200, "second_row", "-5");
  add_api (db, T1, 300, 400, "big", "9000000000000");
  add_api (db, T1, 700, 800, "between", "9000000000001");
  add_api (db, T1, 900, 950, "huge", "4611686018427387904");
  add_link (db, "-5", "-3000000000000");
  add_link (db, "9000000000000", "1099511627776");
  add_link (db, "4611686018427387904", "77");
  add_link (db, "4611686018427387904", "1099511627776");  /* "big" has the lower rowid */
  add_link (db, "9000000000002", "78");                   /* no row, no task */
  add_task (db, "1000", "1010", "-3000000000000");
  add_task (db, "1000", "1003", "1099511627776");
  add_task (db, "1000", "1100", "77");
  add_task (db, "1000", "1001", "1099511627777");         /* no pair: unlinked */
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  npu = afg_document_get_npu_stats (document);
  g_assert_cmpuint (npu->tasks, ==, 4);
  g_assert_cmpuint (npu->unlinked_tasks, ==, 1);
  g_assert_cmpint (npu->unlinked_ns, ==, 1);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;first_row"), ==, 10);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;second_row"), ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;big"), ==, 3);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;between"), ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;huge"), ==, 100);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_TASKS, "1/1;huge"), ==, 1);
}

/* Over the parallel split too: reader 0 holds the lower rowids. */
static void
test_lowest_rowid_parallel (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_begin (db);
  add_api (db, GTID (1, 2), 5000000, 5000010, "low_rowid", "42");
  for (gint64 i = 0; i < 120000; i++)
    afg_test_db_add (db, T1, i * 10, i * 10 + 5, "filler");
  add_api (db, GTID (1, 2), 10, 20, "high_rowid", "42");
  add_link (db, "42", "4200");
  add_task (db, "1", "31", "4200");
  afg_test_db_commit (db);
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/2;low_rowid"), ==, 30);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/2;high_rowid"), ==, 0);
}

/* A row cut at depth 1000 gives its tasks to the frame at the cut. */
static void
test_depth_cut (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  const AfgNode *nodes;
  guint32 deepest = AFG_NODE_NONE;

  afg_test_db_begin (db);
  for (gint64 d = 0; d < AFG_MAX_DEPTH + 2; d++)
    add_api (db, T1, d, 10000 - d, "f", d == AFG_MAX_DEPTH + 1 ? "5" : "NULL");
  add_link (db, "5", "50");
  add_task (db, "20000", "20123", "50");
  afg_test_db_commit (db);
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_assert_cmpuint (afg_tree_get_stats (tree)->depth_truncated, ==, 2);
  nodes = afg_tree_get_nodes (tree);
  for (guint32 i = 0; i < afg_tree_get_n_nodes (tree); i++)
    if (nodes[i].depth == AFG_MAX_DEPTH + 1)
      deepest = i;
  g_assert_cmpuint (deepest, !=, AFG_NODE_NONE);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_NPU_SELF_NS, deepest), ==, 123);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_NPU_TASKS, deepest), ==, 1);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT), ==, 123);
}

/* NULL end, text times, end < start, REAL: skipped; never counted as tasks. */
static void
test_skipped_tasks (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  const AfgNpuStats *npu;

  add_api (db, T1, 0, 100, "op", "1");
  add_link (db, "1", "10");
  add_task (db, "200", "NULL", "10");
  add_task (db, "NULL", "300", "10");
  add_task (db, "'200ns'", "300", "10");  /* INTEGER affinity keeps only non-numbers as text */
  add_task (db, "200", "'abc'", "10");
  add_task (db, "300", "200", "10");
  add_task (db, "200.5", "300", "10");
  add_task (db, "x'00'", "300", "10");
  add_task (db, "-9223372036854775807", "9223372036854775807", "10");  /* overflows */
  add_task (db, "200", "204", "10");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  npu = afg_document_get_npu_stats (document);
  g_assert_cmpuint (npu->skipped, ==, 8);
  g_assert_cmpuint (npu->tasks, ==, 1);
  g_assert_cmpint (npu->ns, ==, 4);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;op"), ==, 4);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_TASKS, "1/1;op"), ==, 1);
}

/* torch_npu-like TEXT columns: numbers stored as text are not integers. */
static void
test_text_times (void)
{
  g_autoptr(NpuTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  const AfgNpuStats *npu;

  afg_test_db_exec (db, "CREATE TABLE TASK (startNs TEXT, endNs TEXT, connectionId TEXT);"
                        "CREATE TABLE CONNECTION_IDS (id TEXT, connectionId TEXT)");
  add_api (db, T1, 0, 100, "op", "1");
  add_link (db, "'1'", "'10'");
  add_task (db, "'200'", "'300'", "'10'");
  add_task (db, "200", "CAST (300 AS INTEGER)", "'10'");
  document = afg_test_db_load_document (db);
  npu = afg_document_get_npu_stats (document);
  g_assert_cmpuint (npu->skipped, ==, 2);
  g_assert_cmpuint (npu->tasks, ==, 0);
}

/* Every way a task can reach no used row. */
static void
test_unlinked (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  const AfgNpuStats *npu;

  add_api (db, T1, 0, 100, "op", "1");
  add_api (db, T1, 0, 1000, "ProfilerStep#3", "2");
  add_api (db, T1, 200, 200, "empty", "3");       /* non-positive: skipped */
  add_api (db, T1, 300, 400, "no_id", "NULL");
  add_api (db, T1, 500, 600, "minus_one", "-1");
  add_api (db, T1, 700, 800, "max_u32", "4294967295");
  add_api (db, T1, 900, 950, "text_id", "'abc'");
  afg_test_db_exec (db, "UPDATE PYTORCH_API SET type = 50004 WHERE rowid = 1");  /* mstx */
  add_link (db, "1", "11");
  add_link (db, "2", "12");
  add_link (db, "3", "13");
  add_link (db, "-1", "14");
  add_link (db, "4294967295", "15");
  add_link (db, "77", "16");          /* no such PYTORCH_API row */
  add_link (db, "'abc'", "17");
  add_task (db, "1", "2", "11");
  add_task (db, "1", "3", "12");
  add_task (db, "1", "4", "13");
  add_task (db, "1", "5", "14");
  add_task (db, "1", "6", "15");
  add_task (db, "1", "7", "16");
  add_task (db, "1", "8", "17");
  add_task (db, "1", "9", "-1");
  add_task (db, "1", "10", "4294967295");
  add_task (db, "1", "11", "NULL");
  add_task (db, "1", "12", "999");    /* in no CONNECTION_IDS row */
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  npu = afg_document_get_npu_stats (document);
  g_assert_cmpuint (npu->tasks, ==, 11);
  g_assert_cmpuint (npu->unlinked_tasks, ==, 11);
  g_assert_cmpint (npu->unlinked_ns, ==, npu->ns);
  g_assert_cmpint (npu->ns, ==, 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT), ==, 0);
}

/* A -1 on the PYTORCH_API side never links, even to a task id -1 would match. */
static void
test_no_link_ids (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;

  add_api (db, T1, 0, 100, "minus_one", "-1");
  add_api (db, T1, 200, 300, "max_u32", "4294967295");
  add_link (db, "-1", "-1");
  add_link (db, "4294967295", "4294967295");
  add_task (db, "1", "5", "-1");
  add_task (db, "1", "5", "4294967295");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_assert_cmpuint (afg_document_get_npu_stats (document)->unlinked_tasks, ==, 2);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT), ==, 0);
}

/* Bounded: a row that overlaps the scope but starts before it keeps its
 * host time in the scope, not its device time. */
static void
test_scope (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  AfgScope scope = { TRUE, 100, 200 };

  add_api (db, T1, 50, 150, "before", "1");
  add_api (db, T1, 160, 250, "inside", "2");
  add_api (db, T1, 200, 300, "after", "3");
  add_link (db, "1", "10");
  add_link (db, "2", "20");
  add_link (db, "3", "30");
  add_task (db, "1000", "1001", "10");
  add_task (db, "1000", "1002", "20");
  add_task (db, "1000", "1004", "30");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, &scope, AFG_TREE_FLAGS_NONE);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_TOTAL_NS, "1/1;before"), ==, 50);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;before"), ==, 0);
  g_assert_cmpint (value_at (tree, AFG_COLUMN_NPU_SELF_NS, "1/1;inside"), ==, 2);
  g_assert_cmpuint (afg_test_find_node (tree, "1/1;after"), ==, AFG_NODE_NONE);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT), ==, 2);
}

static AfgTree *
load_without_npu (AfgTestDb *db, const char *warning_part)
{
  g_autoptr(AfgDocument) document = NULL;
  AfgTree *tree;

  add_api (db, T1, 0, 100, "op", "1");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_assert_null (afg_document_get_npu_stats (document));
  g_assert_false (afg_tree_has_column (tree, AFG_COLUMN_NPU_TOTAL_NS));
  g_assert_false (afg_tree_has_column (tree, AFG_COLUMN_NPU_SELF_NS));
  g_assert_false (afg_tree_has_column (tree, AFG_COLUMN_NPU_TASKS));
  g_assert_cmpint (value_at (tree, AFG_COLUMN_TOTAL_NS, "1/1;op"), ==, 100);
  if (warning_part == NULL)
    g_assert_null (afg_document_get_npu_warning (document));
  else
    {
      g_assert_nonnull (afg_document_get_npu_warning (document));
      g_assert_nonnull (strstr (afg_document_get_npu_warning (document), warning_part));
    }
  return tree;
}

static void
test_no_tables (void)
{
  g_autoptr(NpuTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgTree) tree = load_without_npu (db, NULL);
  g_autoptr(GString) json = g_string_new (NULL);

  afg_json_write (tree, json);
  g_assert_nonnull (strstr (json->str, ",\"npu\":null,\"functions\":"));
  g_assert_null (strstr (json->str, "npu_"));
}

static void
test_task_only (void)
{
  g_autoptr(NpuTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_exec (db, "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, connectionId INTEGER);"
                        "INSERT INTO TASK VALUES (1, 2, 1)");
  tree = load_without_npu (db, NULL);
}

static void
test_view_named_task (void)
{
  g_autoptr(NpuTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_exec (db, "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
                        "CREATE VIEW TASK AS SELECT 1 AS startNs, 2 AS endNs, 3 AS connectionId");
  tree = load_without_npu (db, "TASK is a view");
}

static void
test_trigger_on_connection_ids (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_exec (db, "CREATE TRIGGER t AFTER INSERT ON CONNECTION_IDS BEGIN DELETE FROM TASK; END");
  tree = load_without_npu (db, "CONNECTION_IDS is a view or has triggers");
}

static void
test_missing_column (void)
{
  g_autoptr(NpuTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_exec (db, "CREATE TABLE TASK (startNs INTEGER, connectionId INTEGER);"
                        "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER)");
  tree = load_without_npu (db, "TASK has no column endNs");
}

static void
test_api_without_connection_id (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_exec (db, "ALTER TABLE PYTORCH_API DROP COLUMN connectionId");
  afg_test_db_add (db, T1, 0, 100, "op");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_assert_null (afg_document_get_npu_stats (document));
  g_assert_nonnull (strstr (afg_document_get_npu_warning (document), "connectionId"));
  g_assert_cmpint (value_at (tree, AFG_COLUMN_TOTAL_NS, "1/1;op"), ==, 100);
}

/* JSON v2: the npu object after stats, node and thread fields after the host ones. */
static void
test_json (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GString) json = g_string_new (NULL);

  add_api (db, T1, 0, 100, "op", "1");
  add_link (db, "1", "10");
  add_task (db, "1000", "1007", "10");
  add_task (db, "1000", "1002", "11");
  add_task (db, "1000", "NULL", "10");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  afg_json_write (tree, json);
  g_assert_true (g_str_has_prefix (json->str, "{\"format\":\"ascend-flamegraph\",\"version\":3,"));
  g_assert_nonnull (strstr (json->str, "\"depth_truncated\":0},\"scope\":null,\"steps\":[],"
                                       "\"device_timeline\":{\"compute_ns\":0,\"comm_ns\":0,\"other_ns\":7,\"free_ns\":0},"
                                       "\"npu\":{\"tasks\":2,\"ns\":9,"
                                       "\"unlinked_tasks\":1,\"unlinked_ns\":2,\"skipped\":1},\"functions\":["));
  g_assert_nonnull (strstr (json->str, "\"label\":\"1/1\",\"total_ns\":100,\"npu_total_ns\":7,"
                                       "\"npu_compute_total_ns\":0,\"comm_total_ns\":0,\"comm_exposed_total_ns\":0,"
                                       "\"children\":["));
  g_assert_nonnull (strstr (json->str, "\"calls\":1,\"total_ns\":100,\"self_ns\":100,\"npu_total_ns\":7,"
                                       "\"npu_self_ns\":7,\"npu_tasks\":1,\"npu_compute_total_ns\":0,"
                                       "\"npu_compute_self_ns\":0,\"npu_compute_tasks\":0,\"comm_total_ns\":0,"
                                       "\"comm_self_ns\":0,\"comm_ops\":0,\"comm_exposed_total_ns\":0,"
                                       "\"comm_exposed_self_ns\":0,\"kernels\":[],\"children\":[]"));
}

static char *
run_export (AfgTestDb *db, const char *format, const char *weight, int expected_status, char **err)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *file = g_strconcat ("flamegraph.", format, NULL);
  g_autofree char *out_path = g_build_filename (dir, file, NULL);
  const char *args[] = { "--export", "-f", format, "-o", dir, "--weight", weight, db->path, NULL };
  char *text = NULL;

  afg_test_db_close (db);
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, err), ==, expected_status);
  if (expected_status == 0)
    g_assert_true (g_file_get_contents (out_path, &text, NULL, NULL));
  afg_test_rm_rf (dir);
  return text;
}

/* --weight npu: each stack's npu_self_ns, zero stacks left out; the
 * summary gives linked and unlinked device time. */
static void
test_cli_folded (void)
{
  g_autoptr(NpuTestDb) db = npu_db_new ();
  g_autofree char *folded = NULL;
  g_autofree char *host = NULL;
  g_autofree char *err = NULL;

  add_api (db, T1, 0, 100, "outer", "1");
  add_api (db, T1, 10, 20, "inner", "2");
  add_api (db, T1, 30, 40, "quiet", "NULL");
  add_link (db, "1", "10");
  add_link (db, "2", "20");
  add_task (db, "1000", "1007", "10");
  add_task (db, "1000", "1003", "20");
  add_task (db, "1000", "1500", "-1");
  folded = run_export (db, "folded", "npu", 0, &err);
  g_assert_cmpstr (folded, ==, "1/1;outer 7\n1/1;outer;inner 3\n");
  g_assert_nonnull (strstr (err, "NPU device time: 10 ns linked (2 tasks), 500 ns unlinked (1 task); 0 TASK rows"));
  g_assert_nonnull (strstr (err, ": 3 rows, 3 used;"));
  g_clear_pointer (&err, g_free);
  host = run_export (db, "folded", "host", 0, NULL);
  g_assert_cmpstr (host, ==, "1/1;outer 80\n1/1;outer;inner 10\n1/1;outer;quiet 10\n");
  g_assert_null (run_export (db, "folded", "gpu", EXIT_USAGE, &err));
  g_assert_nonnull (strstr (err, "error: unknown weight 'gpu'"));
}

static void
test_cli_warnings (void)
{
  g_autoptr(NpuTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(NpuTestDb) plain = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *json = NULL;
  g_autofree char *folded = NULL;
  g_autofree char *err = NULL;
  g_autofree char *plain_err = NULL;

  afg_test_db_exec (db, "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
                        "CREATE VIEW TASK AS SELECT 1 AS startNs, 2 AS endNs, 3 AS connectionId");
  add_api (db, T1, 0, 100, "op", "1");
  json = run_export (db, "json", "host", 0, &err);
  g_assert_nonnull (strstr (json, "\"npu\":null"));
  g_assert_nonnull (strstr (err, "ascend-flamegraph: warning: no NPU device time: TASK is a view"));
  g_assert_null (strstr (err, "NPU device time:  "));
  add_api (plain, T1, 0, 100, "op", "1");
  folded = run_export (plain, "folded", "npu", 0, &plain_err);
  g_assert_cmpstr (folded, ==, "");
  g_assert_nonnull (strstr (plain_err, "warning: the profile has no NPU device time"));
  g_assert_null (strstr (plain_err, "linked"));
}

int
main (int argc, char **argv)
{
  static const char * const samples[] = {
    "ascend_pytorch_profiler_level0_rank0",
    "ascend_pytorch_profiler_level1_rank0",
  };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = g_strconcat ("/npu/sample/", samples[i], NULL);
      g_test_add_data_func (path, samples[i], test_sample);
    }
  g_test_add_func ("/npu/sample-step-50", test_sample_step);
  g_test_add_func ("/npu/link-basic", test_link_basic);
  g_test_add_func ("/npu/lowest-rowid", test_lowest_rowid);
  g_test_add_func ("/npu/lowest-rowid-parallel", test_lowest_rowid_parallel);
  g_test_add_func ("/npu/lowest-used-rowid", test_lowest_used_rowid);
  g_test_add_func ("/npu/sparse-ids", test_sparse_ids);
  g_test_add_func ("/npu/depth-cut", test_depth_cut);
  g_test_add_func ("/npu/skipped-tasks", test_skipped_tasks);
  g_test_add_func ("/npu/text-times", test_text_times);
  g_test_add_func ("/npu/unlinked", test_unlinked);
  g_test_add_func ("/npu/no-link-ids", test_no_link_ids);
  g_test_add_func ("/npu/scope", test_scope);
  g_test_add_func ("/npu/no-tables", test_no_tables);
  g_test_add_func ("/npu/task-only", test_task_only);
  g_test_add_func ("/npu/view-named-task", test_view_named_task);
  g_test_add_func ("/npu/trigger", test_trigger_on_connection_ids);
  g_test_add_func ("/npu/missing-column", test_missing_column);
  g_test_add_func ("/npu/api-without-connection-id", test_api_without_connection_id);
  g_test_add_func ("/npu/json", test_json);
  g_test_add_func ("/npu/cli-folded", test_cli_folded);
  g_test_add_func ("/npu/cli-warnings", test_cli_warnings);
  return g_test_run ();
}
