/* SPDX-License-Identifier: MIT */
/* A rank's summary is taken from its exported tree alone; its
 * figures must be those of the trees it no longer builds (one per step,
 * one with addresses merged). */
#include "config.h"

#include "afg-function-table.h"
#include "afg-math.h"
#include "afg-rank-summary.h"
#include "afg-scope-totals.h"
#include "afg-test-db.h"

#define SAMPLE0 "ascend_pytorch_profiler_level0_rank0"
#define SAMPLE1 "ascend_pytorch_profiler_level1_rank0"

typedef struct {
  gint64      global_tid;
  gint64      start;
  gint64      end;
  const char *name;
  gint64      task_ns;  /* device time launched, 0 for none */
} Row;

/* Nesting, recursion through two addresses of one name, partial
 * overlaps (h leaves g, m leaves k), a zero-length row, two threads,
 * device time on rows at every depth. */
static const Row rows[] = {
  { GTID (1, 1), 0, 1000, "f at 0x1", 7 },
  { GTID (1, 1), 100, 500, "g", 11 },
  { GTID (1, 1), 200, 300, "f at 0x2", 13 },
  { GTID (1, 1), 450, 700, "h", 17 },
  { GTID (1, 1), 700, 700, "z", 19 },
  { GTID (1, 1), 1000, 1500, "k", 0 },
  { GTID (1, 1), 1200, 1800, "m", 23 },
  { GTID (1, 1), 1250, 1260, "f at 0x3", 29 },
  { GTID (1, 1), 2000, 2100, "n", 31 },
  { GTID (1, 2), 50, 950, "f at 0x4", 37 },
  { GTID (1, 2), 60, 70, "q", 0 },
  { GTID (1, 2), 960, 2500, "r", 41 },
};

static AfgDocument *
load_rows (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  AfgDocument *document;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      gint64 k = i + 1;

      afg_test_db_add_with_connection (db, rows[i].global_tid, rows[i].start, rows[i].end, rows[i].name, k);
      if (rows[i].task_ns == 0)
        continue;
      afg_test_db_link (db, k, 100 + k);
      afg_test_db_add_task (db, 5000, 5000 + rows[i].task_ns, 100 + k);
    }
  afg_test_db_add_step_time (db, 1, 0, 1000);
  afg_test_db_add_step_time (db, 2, 1000, 2000);
  afg_test_db_add_step_time (db, 3, 2000, 3000);
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  return document;
}

static gint64
root_value (const AfgTree *tree, AfgColumn column)
{
  return afg_tree_has_column (tree, column) ? afg_tree_get_value (tree, column, AFG_TREE_ROOT) : 0;
}

/* Each scope's totals against the root of a tree built for it. */
static void
assert_scope_totals (AfgDocument *document, const AfgScope *scopes, guint n)
{
  g_autofree gint64 *host_ns = g_new (gint64, n);
  g_autofree gint64 *npu_ns = g_new (gint64, n);

  afg_scope_totals_compute (document, scopes, n, host_ns, npu_ns);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AfgTree) tree = afg_test_build (document, &scopes[i], AFG_TREE_FLAGS_NONE);

      g_assert_cmpint (host_ns[i], ==, root_value (tree, AFG_COLUMN_TOTAL_NS));
      g_assert_cmpint (npu_ns[i], ==, root_value (tree, AFG_COLUMN_NPU_TOTAL_NS));
    }
}

/* Every range between two of the rows' times, ± 1 ns: 0-length, reversed
 * and overlapping ranges among them, in no particular order. */
static void
test_totals_rows (void)
{
  g_autoptr(AfgDocument) document = load_rows ();
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) scopes = g_array_new (FALSE, FALSE, sizeof (AfgScope));
  gint64 host = 0;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    for (int d = -1; d <= 1; d++)
      {
        gint64 a = rows[i].start + d, b = rows[i].end + d;

        g_array_append_val (times, a);
        g_array_append_val (times, b);
      }
  for (guint i = 0; i < times->len; i += 3)
    for (guint j = 0; j < times->len; j += 2)
      {
        AfgScope scope = { TRUE, g_array_index (times, gint64, i), g_array_index (times, gint64, j), 0, 0, 0 };

        g_array_append_val (scopes, scope);
      }
  assert_scope_totals (document, (AfgScope *) scopes->data, scopes->len);
  afg_scope_totals_compute (document, &(AfgScope) { TRUE, 100, 1300, 0, 0, 0 }, 1, &host, &(gint64) { 0 });
  /* f at 0x1 from 100; k, and m (it left k) to 1300; f at 0x4 from 100; r from 960. */
  g_assert_cmpint (host, ==, 900 + 300 + 100 + 850 + 340);
}

/* The real samples: each step, and twelve windows over the profile. */
static void
test_totals_sample (gconstpointer data)
{
  g_autofree char *path = afg_test_sample_path (data, ".db");
  g_autoptr(AfgTree) whole = afg_test_load_tree (path, NULL, NULL, NULL, NULL);
  AfgDocument *document = afg_tree_get_document (whole);
  g_autoptr(GArray) scopes = g_array_new (FALSE, FALSE, sizeof (AfgScope));
  guint n;
  const AfgStep *steps = afg_document_get_steps (document, &n);
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  for (guint i = 0; i < n; i++)
    {
      AfgScope scope;

      g_assert_true (afg_scope_init_steps (&scope, document, steps[i].id, steps[i].id, NULL));
      g_array_append_val (scopes, scope);
    }
  for (guint t = 0; t < afg_event_store_get_n_threads (afg_document_get_events (document)); t++)
    {
      AfgEventCursor cursor;
      AfgEvent ev;

      afg_event_cursor_init (&cursor, afg_event_store_get_thread (afg_document_get_events (document), t));
      while (afg_event_cursor_next (&cursor, &ev))
        {
          lo = MIN (lo, ev.start);
          hi = MAX (hi, ev.end);
        }
    }
  for (guint i = 0; i < 12; i++)
    {
      AfgScope scope = { TRUE, lo + (hi - lo) / 12 * i, lo + (hi - lo) / 12 * (i + 3), 0, 0, 0 };

      g_array_append_val (scopes, scope);
    }
  assert_scope_totals (document, (AfgScope *) scopes->data, scopes->len);
}

/* The summary's frames against the function table of a merged tree. */
static void
assert_frames (AfgTree *tree)
{
  g_autoptr(AfgRankSummary) summary = afg_rank_summary_new (0, "x.db");
  g_autoptr(AfgTree) merged = afg_test_build (afg_tree_get_document (tree), afg_tree_get_scope (tree),
                                              AFG_TREE_MERGE_ADDRESSES);
  g_autoptr(AfgFunctionTable) table = afg_function_table_new (merged);

  afg_rank_summary_fill (summary, tree);
  g_assert_cmpuint (g_hash_table_size (summary->frames), ==, afg_function_table_get_n_functions (table));
  for (guint i = 0; i < afg_function_table_get_n_functions (table); i++)
    {
      const char *name = afg_function_table_get_name (table, i);

      g_assert_true (g_hash_table_contains (summary->frames, name));
      g_assert_cmpint (afg_rank_summary_frame_ns (summary, name), ==, afg_function_table_get (table, i)->total_ns);
    }
}

static void
test_frames (void)
{
  g_autoptr(AfgDocument) document = load_rows ();
  AfgScope nothing = { TRUE, 3000, 4000, 0, 0, 0 };
  AfgScope step2 = { 0 };
  g_autoptr(AfgTree) plain = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  g_autoptr(AfgTree) merged = afg_test_build (document, NULL, AFG_TREE_MERGE_ADDRESSES);
  g_autoptr(AfgTree) empty = afg_test_build (document, &nothing, AFG_TREE_FLAGS_NONE);
  g_autoptr(AfgTree) scoped = NULL;
  g_autoptr(AfgRankSummary) summary = afg_rank_summary_new (0, "x.db");

  g_assert_true (afg_scope_init_steps (&step2, document, 2, 2, NULL));
  scoped = afg_test_build (document, &step2, AFG_TREE_FLAGS_NONE);
  assert_frames (plain);
  assert_frames (merged);
  assert_frames (empty);
  assert_frames (scoped);
  /* f at 0x1 holds f at 0x2: counted once; f at 0x3 (under m) and f at 0x4 (another thread) add. */
  afg_rank_summary_fill (summary, plain);
  g_assert_cmpint (afg_rank_summary_frame_ns (summary, "f at 0x…"), ==, 1000 + 10 + 900);
}

static void
test_frames_sample (gconstpointer data)
{
  g_autofree char *path = afg_test_sample_path (data, ".db");
  g_autoptr(AfgTree) tree = afg_test_load_tree (path, NULL, NULL, NULL, NULL);

  assert_frames (tree);
}

/* A tree scoped to steps 2–3 keeps those two steps, each as its own tree totals it. */
static void
test_steps_in_scope (void)
{
  g_autoptr(AfgDocument) document = load_rows ();
  g_autoptr(AfgRankSummary) summary = afg_rank_summary_new (0, "x.db");
  g_autoptr(AfgRankSummary) all = afg_rank_summary_new (0, "x.db");
  AfgScope scope;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgTree) whole = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);

  g_assert_true (afg_scope_init_steps (&scope, document, 2, 3, NULL));
  tree = afg_test_build (document, &scope, AFG_TREE_FLAGS_NONE);
  afg_rank_summary_fill (summary, tree);
  g_assert_cmpuint (summary->steps->len, ==, 2);
  g_assert_cmpint (summary->host_ns, ==, root_value (tree, AFG_COLUMN_TOTAL_NS));
  g_assert_cmpint (summary->npu_ns, ==, root_value (tree, AFG_COLUMN_NPU_TOTAL_NS));
  for (guint i = 0; i < 2; i++)
    {
      const AfgRankStep *step = &g_array_index (summary->steps, AfgRankStep, i);
      AfgScope one;
      g_autoptr(AfgTree) alone = NULL;

      g_assert_cmpint (step->id, ==, 2 + i);
      g_assert_true (afg_scope_init_steps (&one, document, step->id, step->id, NULL));
      alone = afg_test_build (document, &one, AFG_TREE_FLAGS_NONE);
      g_assert_cmpint (step->host_ns, ==, root_value (alone, AFG_COLUMN_TOTAL_NS));
      g_assert_cmpint (step->npu_ns, ==, root_value (alone, AFG_COLUMN_NPU_TOTAL_NS));
      g_assert_cmpint (step->npu_ns, >, 0);
    }
  afg_rank_summary_fill (all, whole);
  g_assert_cmpuint (all->steps->len, ==, 3);
}

/* In the NPU-idle scope each step's totals are those of the tree of that
 * step's idle instants (--npu-idle --steps N): host time only. */
static void
test_steps_idle (gconstpointer data)
{
  g_autofree char *path = afg_test_sample_path (data, ".db");
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, NULL);
  g_autoptr(AfgRankSummary) summary = afg_rank_summary_new (0, "x.db");
  g_autoptr(AfgTree) tree = NULL;
  AfgScope scope;

  g_assert_true (afg_scope_init_request (&scope, document, FALSE, 0, 0, TRUE, NULL));
  tree = afg_test_build (document, &scope, AFG_TREE_FLAGS_NONE);
  afg_rank_summary_fill (summary, tree);
  g_assert_cmpuint (summary->steps->len, >, 0);
  for (guint i = 0; i < summary->steps->len; i++)
    {
      const AfgRankStep *step = &g_array_index (summary->steps, AfgRankStep, i);
      const AfgStep *whole = afg_document_find_step (document, step->id);
      AfgScope one;
      g_autoptr(AfgTree) alone = NULL;

      g_assert_true (afg_scope_init_request (&one, document, TRUE, step->id, step->id, TRUE, NULL));
      alone = afg_test_build (document, &one, AFG_TREE_FLAGS_NONE);
      g_assert_cmpint (step->host_ns, ==, root_value (alone, AFG_COLUMN_TOTAL_NS));
      g_assert_cmpint (step->host_ns, <, afg_span_length (whole->start_ns, whole->end_ns));
      g_assert_cmpint (step->npu_ns, ==, 0);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rank-summary/totals/rows", test_totals_rows);
  g_test_add_data_func ("/rank-summary/totals/sample0", SAMPLE0, test_totals_sample);
  g_test_add_data_func ("/rank-summary/totals/sample1", SAMPLE1, test_totals_sample);
  g_test_add_func ("/rank-summary/frames/rows", test_frames);
  g_test_add_data_func ("/rank-summary/frames/sample0", SAMPLE0, test_frames_sample);
  g_test_add_data_func ("/rank-summary/frames/sample1", SAMPLE1, test_frames_sample);
  g_test_add_func ("/rank-summary/steps-in-scope", test_steps_in_scope);
  g_test_add_data_func ("/rank-summary/steps-idle/sample0", SAMPLE0, test_steps_idle);
  g_test_add_data_func ("/rank-summary/steps-idle/sample1", SAMPLE1, test_steps_idle);
  return g_test_run ();
}
