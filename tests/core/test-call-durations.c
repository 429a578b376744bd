/* SPDX-License-Identifier: MIT */
/* Every call's duration of a frame, walked again from the event store
 * (for the window's histogram), against the tree's own percentiles and
 * call counts; the log-scale buckets it is drawn in; and the function
 * table's NPU sums the window's panel shows under the NPU weight. */
#include "config.h"

#include "afg-call-durations.h"
#include "afg-function-table.h"
#include "afg-log-histogram.h"
#include "afg-test-db.h"

#define T1 GTID (1, 1)
#define T2 GTID (1, 2)

static int
compare_ns (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static gint64
nearest_rank (const GArray *sorted, guint p)
{
  guint64 rank = ((guint64) p * sorted->len + 99) / 100;

  return g_array_index (sorted, gint64, MAX (rank, 1) - 1);
}

/* For each frame alone: as many durations as calls, and the same five
 * percentiles as the tree's columns. Returns how many frames had calls. */
static guint
assert_every_frame (AfgTree *tree)
{
  guint n = afg_tree_get_n_nodes (tree);
  g_autofree guint8 *marks = g_new0 (guint8, n);
  static const guint percents[] = { 50, 90, 99 };
  guint checked = 0;

  for (guint32 i = 1 + afg_tree_get_n_threads (tree); i < n; i++)
    {
      g_autoptr(GArray) ns = NULL;

      marks[i] = 1;
      ns = afg_call_durations_collect (tree, marks, NULL);
      marks[i] = 0;
      g_assert_cmpint (ns->len, ==, afg_tree_get_value (tree, AFG_COLUMN_CALLS, i));
      if (ns->len == 0)
        continue;
      g_array_sort (ns, compare_ns);
      g_assert_cmpint (g_array_index (ns, gint64, 0), ==, afg_tree_get_value (tree, AFG_COLUMN_DURATION_MIN, i));
      for (guint k = 0; k < G_N_ELEMENTS (percents); k++)
        g_assert_cmpint (nearest_rank (ns, percents[k]), ==,
                         afg_tree_get_value (tree, AFG_COLUMN_DURATION_P50 + k, i));
      g_assert_cmpint (g_array_index (ns, gint64, ns->len - 1), ==,
                       afg_tree_get_value (tree, AFG_COLUMN_DURATION_MAX, i));
      checked++;
    }
  return checked;
}

/* Recursion through another name, a name in two threads, a partial
 * overlap, a frame with 100 calls of 1..100 ns. */
static AfgDocument *
make_document (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  AfgDocument *document;

  afg_test_db_begin (db);
  afg_test_db_add (db, T1, 0, 1000, "f");
  afg_test_db_add (db, T1, 10, 500, "g");
  afg_test_db_add (db, T1, 20, 400, "f");
  afg_test_db_add (db, T1, 30, 50, "h 0x7f00");
  afg_test_db_add (db, T1, 450, 700, "h 0x7f08");
  afg_test_db_add (db, T2, 100, 180, "f");
  afg_test_db_add (db, T2, 2000, 100000, "loop");
  for (gint64 k = 1; k <= 100; k++)
    afg_test_db_add (db, T2, 2000 + k * 200, 2000 + k * 200 + k, "op");
  afg_test_db_commit (db);
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  return document;
}

static void
test_matches_tree (void)
{
  g_autoptr(AfgDocument) document = make_document ();
  g_autoptr(AfgTree) tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  g_autoptr(AfgTree) merged = afg_test_build (document, NULL, AFG_TREE_DURATIONS | AFG_TREE_MERGE_ADDRESSES);
  AfgScope scope = { TRUE, 300, 2700 };
  g_autoptr(AfgTree) scoped = afg_test_build (document, &scope, AFG_TREE_DURATIONS);

  g_assert_cmpuint (assert_every_frame (tree), ==, afg_tree_get_n_nodes (tree) - 3);
  g_assert_cmpuint (assert_every_frame (merged), ==, afg_tree_get_n_nodes (merged) - 3);
  g_assert_cmpuint (assert_every_frame (scoped), ==, afg_tree_get_n_nodes (scoped) - 3);
}

/* Marking every frame named f: the calls of both threads, recursion too. */
static void
test_function_marks (void)
{
  g_autoptr(AfgDocument) document = make_document ();
  g_autoptr(AfgTree) tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  g_autofree guint8 *marks = g_new0 (guint8, afg_tree_get_n_nodes (tree));
  g_autoptr(GArray) ns = NULL;

  marks[afg_test_find_node (tree, "1/1;f")] = 1;
  marks[afg_test_find_node (tree, "1/1;f;g;f")] = 1;
  marks[afg_test_find_node (tree, "1/2;f")] = 1;
  ns = afg_call_durations_collect (tree, marks, NULL);
  g_array_sort (ns, compare_ns);
  g_assert_cmpuint (ns->len, ==, 3);
  g_assert_cmpint (g_array_index (ns, gint64, 0), ==, 80);
  g_assert_cmpint (g_array_index (ns, gint64, 1), ==, 380);
  g_assert_cmpint (g_array_index (ns, gint64, 2), ==, 1000);
}

static void
test_cancelled (void)
{
  g_autoptr(AfgDocument) document = make_document ();
  g_autoptr(AfgTree) tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  g_autofree guint8 *marks = g_new0 (guint8, afg_tree_get_n_nodes (tree));
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GArray) ns = NULL;

  /* A thread of under 65,536 rows finishes before the first check. */
  marks[afg_test_find_node (tree, "1/2;loop;op")] = 1;
  g_cancellable_cancel (cancellable);
  ns = afg_call_durations_collect (tree, marks, cancellable);
  g_assert_nonnull (ns);
  g_assert_cmpuint (ns->len, ==, 100);
}

static void
test_sample (gconstpointer data)
{
  g_autofree char *path = afg_test_sample_path (data, ".db");
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) tree = NULL;

  g_assert_no_error (error);
  tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  g_assert_cmpuint (assert_every_frame (tree), >, 1000);
}

static void
test_histogram_buckets (void)
{
  static const gint64 ns[] = { 1, 5, 10, 17, 18, 1000 };
  g_autoptr(AfgLogHistogram) h = afg_log_histogram_new (ns, G_N_ELEMENTS (ns));
  static const guint64 counts[] = { 1, 0, 1, 0, 2, 1, 0, 0, 0, 0, 0, 0, 1 };
  static const gint64 lower[] = { 1, 2, 4, 6, 10, 18, 32, 57, 100 };

  g_assert_cmpint (h->first, ==, 0);
  g_assert_cmpuint (h->n_buckets, ==, G_N_ELEMENTS (counts));
  g_assert_cmpuint (h->max_count, ==, 2);
  g_assert_cmpuint (h->n_values, ==, 6);
  for (guint k = 0; k < G_N_ELEMENTS (counts); k++)
    g_assert_cmpuint (h->counts[k], ==, counts[k]);
  for (guint k = 0; k < G_N_ELEMENTS (lower); k++)
    g_assert_cmpint (afg_log_histogram_lower (h, k), ==, lower[k]);
  g_assert_cmpint (afg_log_histogram_lower (h, 13), ==, 1779);
}

/* Every value lands in the bucket whose bounds hold it, exactly at the
 * bounds too, up to the largest int64. */
static void
test_histogram_bounds (void)
{
  static const gint64 one[] = { 1000000 };
  g_autoptr(AfgLogHistogram) single = afg_log_histogram_new (one, 1);
  g_autoptr(AfgLogHistogram) empty = afg_log_histogram_new (NULL, 0);

  g_assert_cmpuint (single->n_buckets, ==, 1);
  g_assert_cmpint (single->first, ==, 24);
  g_assert_cmpint (afg_log_histogram_lower (single, 0), ==, 1000000);
  g_assert_cmpint (afg_log_histogram_lower (single, 1), ==, 1778280);
  g_assert_cmpuint (empty->n_buckets, ==, 0);
  g_assert_cmpuint (empty->n_values, ==, 0);
  for (gint64 v = 1; v > 0 && v < G_MAXINT64 / 3; v = v * 3 + 1)
    {
      g_autoptr(AfgLogHistogram) h = afg_log_histogram_new (&v, 1);

      g_assert_cmpint (afg_log_histogram_lower (h, 0), <=, v);
      g_assert_cmpint (v, <, afg_log_histogram_lower (h, 1));
      g_assert_cmpint (afg_log_histogram_index (afg_log_histogram_lower (h, 0)), ==, h->first);
      if (h->first > 0)
        g_assert_cmpint (afg_log_histogram_index (afg_log_histogram_lower (h, 0) - 1), ==, h->first - 1);
    }
  g_assert_cmpint (afg_log_histogram_index (G_MAXINT64), ==, 72);
}

/* afg_test_db_new_npu_recursion (): f launches 10 ns, g 20, the inner f 40:
 * NPU self adds up over both f frames (50), NPU total counts the
 * recursion once (the outer f's 70). */
static void
test_function_npu (void)
{
  AfgTestDb *db = afg_test_db_new_npu_recursion ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgFunctionTable) table = NULL;
  const AfgFunction *f, *g;

  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  table = afg_function_table_new (tree);
  f = afg_function_table_get (table, afg_function_table_find (table, "f"));
  g = afg_function_table_get (table, afg_function_table_find (table, "g"));
  g_assert_cmpint (f->npu_self_ns, ==, 50);
  g_assert_cmpint (f->npu_total_ns, ==, 70);
  g_assert_cmpint (g->npu_self_ns, ==, 20);
  g_assert_cmpint (g->npu_total_ns, ==, 60);
  g_assert_cmpint (afg_function_table_get_all (table, AFG_COLUMN_NPU_TOTAL_NS), ==, 70);
  g_assert_cmpint (afg_function_table_get_all (table, AFG_COLUMN_TOTAL_NS), ==, 1000);
}

/* A DB without NPU data: the NPU sums stay 0. */
static void
test_function_no_npu (void)
{
  g_autoptr(AfgDocument) document = make_document ();
  g_autoptr(AfgTree) tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_autoptr(AfgFunctionTable) table = afg_function_table_new (tree);

  for (guint k = 0; k < afg_function_table_get_n_functions (table); k++)
    {
      g_assert_cmpint (afg_function_table_get (table, k)->npu_self_ns, ==, 0);
      g_assert_cmpint (afg_function_table_get (table, k)->npu_total_ns, ==, 0);
    }
  g_assert_cmpint (afg_function_table_get_all (table, AFG_COLUMN_NPU_TOTAL_NS), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/call-durations/matches-tree", test_matches_tree);
  g_test_add_func ("/call-durations/function-marks", test_function_marks);
  g_test_add_func ("/call-durations/cancelled", test_cancelled);
  g_test_add_data_func ("/call-durations/sample/level0", "ascend_pytorch_profiler_level0_rank0", test_sample);
  g_test_add_data_func ("/call-durations/sample/level1", "ascend_pytorch_profiler_level1_rank0", test_sample);
  g_test_add_func ("/log-histogram/buckets", test_histogram_buckets);
  g_test_add_func ("/log-histogram/bounds", test_histogram_bounds);
  g_test_add_func ("/function-table/npu", test_function_npu);
  g_test_add_func ("/function-table/no-npu", test_function_no_npu);
  return g_test_run ();
}
