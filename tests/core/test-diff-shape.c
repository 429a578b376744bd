/* SPDX-License-Identifier: MIT */
/* The diff the window draws (AfgDiffShape), the diff colour rule, and
 * the two sides read side by side (afg_diff_load). */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "afg-diff-color.h"
#include "afg-diff-load.h"
#include "afg-diff-shape.h"
#include "afg-test-db.h"

static const AfgDiffNoise noise = { AFG_DIFF_DEFAULT_MIN_NS, AFG_DIFF_DEFAULT_MIN_PERCENT };

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* The lines of the .diff.expected format, sorted. */
static GPtrArray *
render_shape (AfgDiffShape *shape)
{
  GPtrArray *lines = afg_test_render_diff (shape);

  g_ptr_array_sort (lines, compare_lines);
  return lines;
}

static AfgTree *
load_sample (const char *name)
{
  g_autofree char *path = afg_test_sample_path (name, ".db");
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(GError) error = NULL;

  document = afg_document_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return afg_test_build (document, NULL, AFG_TREE_MERGE_ADDRESSES);
}

static void
test_samples (void)
{
  g_autoptr(AfgTree) a = load_sample ("ascend_pytorch_profiler_level0_rank0");
  g_autoptr(AfgTree) b = load_sample ("ascend_pytorch_profiler_level1_rank0");
  g_autoptr(AfgDiffShape) shape = afg_diff_shape_new (a, b, "a ↔ b", NULL);
  g_autofree char *expected_path = afg_test_sample_path ("level0_rank0-vs-level1_rank0", ".diff.expected");
  g_autoptr(GPtrArray) expected = afg_test_read_lines (expected_path);
  g_autoptr(GPtrArray) actual = render_shape (shape);

  g_ptr_array_sort (expected, compare_lines);
  afg_test_assert_lines (actual, expected, "diff of the samples");
}

static AfgTree *
load_events (const AfgTestEvent *events, gsize n_events)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  AfgTree *tree;

  afg_test_db_add_events (db, events, n_events);
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_MERGE_ADDRESSES);
  afg_test_db_free (db);
  return tree;
}

static void
test_sides (void)
{
  /* A: two threads both calling f (merged), g only in A, an address
   * variant; B: f, h only in B, another address of the same call. */
  static const AfgTestEvent ea[] = {
    { GTID (1, 1), 0, 100, "f" }, { GTID (1, 1), 10, 30, "g" },
    { GTID (1, 2), 0, 50, "f" },
    { GTID (1, 2), 60, 70, "<m at 0xffff1234>" },
  };
  static const AfgTestEvent eb[] = {
    { GTID (2, 7), 0, 300, "f" }, { GTID (2, 7), 20, 60, "h" },
    { GTID (2, 7), 400, 420, "<m at 0xabc>" },
  };
  g_autoptr(AfgTree) a = NULL, b = NULL;
  g_autoptr(AfgDiffShape) shape = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  const char *expected[] = {
    "<m at 0x…>\t1\t10\t10\t1\t20\t20",
    "f\t2\t150\t130\t1\t300\t260",
    "f;g\t1\t20\t20\t0\t0\t0",
    "f;h\t0\t0\t0\t1\t40\t40",
  };
  a = load_events (ea, G_N_ELEMENTS (ea));
  b = load_events (eb, G_N_ELEMENTS (eb));
  shape = afg_diff_shape_new (a, b, "a ↔ b", NULL);
  lines = render_shape (shape);
  g_assert_cmpuint (lines->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < lines->len; i++)
    g_assert_cmpstr (lines->pdata[i], ==, expected[i]);
  /* The root: sums, no calls, no self. */
  g_assert_cmpint (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS, 0), ==, 160);
  g_assert_cmpint (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, 0), ==, 320);
  g_assert_cmpint (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, AFG_COLUMN_SELF_NS, 0), ==, 0);
  g_assert_cmpuint (afg_tree_get_n_threads (afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_B)), ==, 0);
  g_assert_true (afg_diff_shape_has_node (shape, AFG_DIFF_SIDE_B, 0));
}

static void
test_against_itself (void)
{
  g_autoptr(AfgTree) a = load_sample ("ascend_pytorch_profiler_level0_rank0");
  g_autoptr(AfgDiffShape) shape = afg_diff_shape_new (a, a, "a ↔ a", NULL);
  AfgTree *tree = afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_B);
  AfgDiffNoise exact = { 0, 0 };

  g_assert_cmpuint (afg_tree_get_n_nodes (tree), >, 100);
  for (guint32 n = 0; n < afg_tree_get_n_nodes (tree); n++)
    for (AfgColumn c = AFG_COLUMN_CALLS; c <= AFG_COLUMN_SELF_NS; c++)
      {
        gint64 va = afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_A, c, n);
        gint64 vb = afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, c, n);

        g_assert_cmpint (va, ==, vb);
        g_assert_cmpint (afg_diff_classify (va, vb, TRUE, TRUE, &exact), ==, AFG_DIFF_SAME);
      }
}

static void
test_empty_side (void)
{
  g_autoptr(AfgTree) a = load_events (NULL, 0);
  g_autoptr(AfgTree) b = load_sample ("ascend_pytorch_profiler_level0_rank0");
  g_autoptr(AfgDiffShape) shape = afg_diff_shape_new (a, b, "empty ↔ b", NULL);
  AfgTree *tree = afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_A);

  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, 0), ==, 0);
  for (guint32 n = 1; n < afg_tree_get_n_nodes (tree); n++)
    g_assert_false (afg_diff_shape_has_node (shape, AFG_DIFF_SIDE_A, n));
  g_assert_cmpint (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, 0), ==,
                   afg_tree_get_value (b, AFG_COLUMN_TOTAL_NS, 0));
}

/* 5000 frames, more than are merged between two looks at the
 * cancellable: a cancelled diff gives NULL, the same uncancelled does not. */
static void
test_cancelled (void)
{
  g_autofree AfgTestEvent *events = g_new (AfgTestEvent, 5000);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AfgTree) a = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(AfgDiffShape) shape = NULL;

  for (guint i = 0; i < 5000; i++)
    {
      g_ptr_array_add (names, g_strdup_printf ("f%u", i));
      events[i] = (AfgTestEvent) { GTID (1, 1), i * 10, i * 10 + 5, names->pdata[i] };
    }
  a = load_events (events, 5000);
  shape = afg_diff_shape_new (a, a, "x", cancellable);
  g_assert_nonnull (shape);
  g_assert_cmpuint (afg_tree_get_n_nodes (afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_A)), ==, 5001);
  g_cancellable_cancel (cancellable);
  g_assert_null (afg_diff_shape_new (a, a, "x", cancellable));
}

static void
assert_hsl (double a, double b, gboolean in_a, gboolean in_b, guint hue, guint sat, guint light)
{
  AfgFlameHsl hsl;

  afg_diff_hsl (a, b, in_a, in_b, &noise, &hsl);
  g_assert_cmpuint (hsl.hue, ==, hue);
  g_assert_cmpuint (hsl.saturation, ==, sat);
  g_assert_cmpuint (hsl.lightness, ==, light);
}

static void
test_color_rule (void)
{
  /* Grey: equal, under the ns floor, under the percent floor. */
  assert_hsl (5e6, 5e6, TRUE, TRUE, 0, 0, 80);
  assert_hsl (1000, 1000 + 99999, TRUE, TRUE, 0, 0, 80);
  assert_hsl (1e9, 1e9 + 4.9e7, TRUE, TRUE, 0, 0, 80);
  /* A 0-vs-1-call frame of a few µs does not glow. */
  assert_hsl (0, 3000, FALSE, TRUE, 0, 0, 80);
  assert_hsl (3000, 0, TRUE, FALSE, 0, 0, 80);
  /* Red grew, blue shrank, saturation ∝ |Δ%| (90 at 100%), capped. */
  assert_hsl (1e6, 1.5e6, TRUE, TRUE, 0, 45, 62);
  assert_hsl (1e6, 0.5e6, TRUE, TRUE, 220, 45, 62);
  assert_hsl (1e6, 2e6, TRUE, TRUE, 0, 90, 62);
  assert_hsl (1e6, 9e6, TRUE, TRUE, 0, 90, 62);
  /* Just over the floor: still told from grey. */
  assert_hsl (1e7, 1.06e7, TRUE, TRUE, 0, 15, 62);
  /* From zero self (present on both sides): a full change. */
  assert_hsl (0, 1e6, TRUE, TRUE, 0, 90, 62);
  /* One side only, over the floor: its own hue. */
  assert_hsl (0, 1e6, FALSE, TRUE, 285, 90, 62);
  assert_hsl (1e6, 0, TRUE, FALSE, 175, 90, 62);
}

static void
test_norm (void)
{
  double sa, sb;

  afg_diff_norm_scales (AFG_DIFF_NORM_RAW, 100, 300, 4, 2, &sa, &sb);
  g_assert_cmpfloat (sa, ==, 1);
  g_assert_cmpfloat (sb, ==, 1);
  afg_diff_norm_scales (AFG_DIFF_NORM_PER_STEP, 100, 300, 4, 0, &sa, &sb);
  g_assert_cmpfloat (sa, ==, 0.25);
  g_assert_cmpfloat (sb, ==, 1);
  afg_diff_norm_scales (AFG_DIFF_NORM_EQUAL_TOTALS, 100, 300, 4, 2, &sa, &sb);
  g_assert_cmpfloat (sa, ==, 3);
  g_assert_cmpfloat (sb, ==, 1);
  afg_diff_norm_scales (AFG_DIFF_NORM_EQUAL_TOTALS, 0, 300, 4, 2, &sa, &sb);
  g_assert_cmpfloat (sa, ==, 1);
}

/* Like a step comparison that lost 74 %: every frame's own time moves
 * by less than the floor (60 µs of 80 µs, 3 µs of 10 µs) while the
 * totals of all but the leaf move past it: those frames are coloured by
 * their totals' change (blue), only the leaf stays grey. A frame whose
 * total moved under the floor too stays grey. */
static void
test_total_moved (void)
{
  static const AfgTestEvent a_events[] = {
    { GTID (1, 1), 0, 330, "step" }, { GTID (1, 1), 80, 330, "f1" },
    { GTID (1, 1), 160, 330, "f2" }, { GTID (1, 1), 240, 330, "f3" }, { GTID (1, 1), 320, 330, "tiny" },
  };
  static const AfgTestEvent b_events[] = {
    { GTID (1, 1), 0, 87, "step" }, { GTID (1, 1), 20, 87, "f1" },
    { GTID (1, 1), 40, 87, "f2" }, { GTID (1, 1), 60, 87, "f3" }, { GTID (1, 1), 80, 87, "tiny" },
  };
  static const struct { const char *name; AfgDiffKind kind; } want[] = {
    { "step", AFG_DIFF_SHRANK }, { "f1", AFG_DIFF_SHRANK }, { "f2", AFG_DIFF_SHRANK },
    { "f3", AFG_DIFF_SAME }, { "tiny", AFG_DIFF_SAME },
  };
  AfgTestEvent a_us[G_N_ELEMENTS (a_events)], b_us[G_N_ELEMENTS (b_events)];
  g_autoptr(AfgTree) a = NULL;
  g_autoptr(AfgTree) b = NULL;
  g_autoptr(AfgDiffShape) shape = NULL;
  AfgTree *tree;
  guint checked = 0;

  /* Microseconds, as the rows' nanoseconds. */
  for (guint i = 0; i < G_N_ELEMENTS (a_events); i++)
    {
      a_us[i] = a_events[i];
      a_us[i].start *= 1000, a_us[i].end *= 1000;
      b_us[i] = b_events[i];
      b_us[i].start *= 1000, b_us[i].end *= 1000;
    }
  a = load_events (a_us, G_N_ELEMENTS (a_us));
  b = load_events (b_us, G_N_ELEMENTS (b_us));
  shape = afg_diff_shape_new (a, b, "a ↔ b", NULL);
  tree = afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_B);
  g_assert_cmpint (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT) * 100
                   / afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), ==, 26);
  for (guint32 n = 1; n < afg_tree_get_n_nodes (tree); n++)
    for (guint k = 0; k < G_N_ELEMENTS (want); k++)
      if (strcmp (afg_tree_get_node_name (tree, n), want[k].name) == 0)
        {
          double sa = afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_A, AFG_COLUMN_SELF_NS, n);
          double sb = afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, AFG_COLUMN_SELF_NS, n);

          /* Self time alone: all grey. */
          g_assert_cmpint (afg_diff_classify (sa, sb, TRUE, TRUE, &noise), ==, AFG_DIFF_SAME);
          afg_diff_compared (&sa, &sb, afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS, n),
                             afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, n), &noise);
          g_assert_cmpint (afg_diff_classify (sa, sb, TRUE, TRUE, &noise), ==, want[k].kind);
          checked++;
        }
  g_assert_cmpuint (checked, ==, G_N_ELEMENTS (want));
}

/* A DB of two steps: in step 1 f calls g and aten::add, in step 2 f calls
 * h; @scale stretches the times. */
static AfgTestDb *
steps_db (gint64 scale)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  const AfgTestEvent events[] = {
    { GTID (1, 1), 0, 100 * scale, "f" },
    { GTID (1, 1), 10 * scale, 30 * scale, "g" },
    { GTID (1, 1), 40 * scale, 50 * scale, "aten::add" },
    { GTID (1, 1), 200 * scale, 300 * scale, "f" },
    { GTID (1, 1), 210 * scale, 260 * scale, "h" },
  };

  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  afg_test_db_add_step_time (db, 1, 0, 150 * scale);
  afg_test_db_add_step_time (db, 2, 150 * scale, 400 * scale);
  return db;
}

/* What afg_diff_load must give for @path: the tree built by itself. */
static GPtrArray *
expected_side (const char *path, const AfgDiffLoadOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) tree = NULL;
  AfgScope scope;

  g_assert_no_error (error);
  g_assert_true (afg_scope_init_request (&scope, document, options->has_steps, options->first_step,
                                         options->last_step, options->npu_idle, &error));
  tree = afg_test_build (document, &scope, options->flags);
  return afg_test_render_tree (tree);
}

static void
count_progress (AfgLoadPhase phase, guint64 rows, guint64 total, gpointer data)
{
  g_atomic_int_inc ((int *) data);
}

static void
test_load_sides (void)
{
  g_autofree char *a = afg_test_db_keep (steps_db (1));
  g_autofree char *b = afg_test_db_keep (steps_db (3));
  const char * const paths[2] = { a, b };
  int calls[2] = { 0, 0 };
  AfgDiffLoadOptions options = { .flags = AFG_TREE_MERGE_ADDRESSES, .has_steps = TRUE, .first_step = 1,
                                 .last_step = 1, .progress = count_progress,
                                 .progress_data = { &calls[0], &calls[1] } };
  AfgDiffSideLoad sides[2];

  afg_diff_load (paths, &options, NULL, sides);
  for (guint s = 0; s < 2; s++)
    {
      g_autoptr(GPtrArray) expected = expected_side (paths[s], &options);
      g_autoptr(GPtrArray) actual = NULL;

      g_assert_no_error (sides[s].error);
      g_assert_cmpstr (afg_document_get_source_path (sides[s].document), ==, paths[s]);
      g_assert_true (afg_tree_get_document (sides[s].tree) == sides[s].document);
      g_assert_cmpint (afg_tree_get_scope (sides[s].tree)->first_step, ==, 1);
      actual = afg_test_render_tree (sides[s].tree);
      afg_test_assert_lines (actual, expected, s == 0 ? "side A" : "side B");
      /* Each side reports to its own data. */
      g_assert_cmpint (calls[s], >, 0);
      afg_diff_side_load_clear (&sides[s]);
    }
  g_unlink (a);
  g_unlink (b);
}

/* Records, per side, the thread @finish ran on and the tree it saw. */
typedef struct {
  GThread *threads[2];
  AfgTree *trees[2];
  guint    calls;
} Finished;

static void
note_finish (AfgDiffSideLoad *side, gpointer data)
{
  Finished *f = data;
  guint call = g_atomic_int_add (&f->calls, 1);

  g_assert_cmpuint (call, <, 2);
  f->threads[call] = g_thread_self ();
  f->trees[call] = side->tree;
}

/* The finish function runs once per side, after its tree is built, on
 * the side's own thread: A's on the caller's, B's on another. */
static void
test_load_finish (void)
{
  g_autofree char *a = afg_test_db_keep (steps_db (1));
  g_autofree char *b = afg_test_db_keep (steps_db (3));
  const char * const paths[2] = { a, b };
  Finished finished = { { NULL }, { NULL }, 0 };
  AfgDiffLoadOptions options = { .flags = AFG_TREE_FLAGS_NONE, .finish = note_finish, .finish_data = &finished };
  AfgDiffSideLoad sides[2];
  guint on_caller = 0;

  afg_diff_load (paths, &options, NULL, sides);
  g_assert_cmpuint (finished.calls, ==, 2);
  g_assert_true (finished.threads[0] != finished.threads[1]);
  for (guint c = 0; c < 2; c++)
    {
      on_caller += finished.threads[c] == g_thread_self ();
      g_assert_true (finished.trees[c] == sides[0].tree || finished.trees[c] == sides[1].tree);
      g_assert_nonnull (finished.trees[c]);
    }
  g_assert_cmpuint (on_caller, ==, 1);
  g_assert_true (finished.trees[0] != finished.trees[1]);
  for (guint s = 0; s < 2; s++)
    afg_diff_side_load_clear (&sides[s]);
  g_unlink (a);
  g_unlink (b);
}

/* A DB that cannot be read leaves no document; a step it lacks leaves
 * the document and the error; the other side is read all the same. */
static void
test_load_errors (void)
{
  g_autofree char *db = afg_test_db_keep (steps_db (1));
  g_autofree char *missing = g_build_filename (g_get_tmp_dir (), "afg-no-such-dir", "none.db", NULL);
  const char * const unread[2] = { missing, db };
  const char * const both[2] = { db, db };
  AfgDiffLoadOptions options = { .flags = AFG_TREE_FLAGS_NONE };
  AfgDiffSideLoad sides[2];

  afg_diff_load (unread, &options, NULL, sides);
  g_assert_nonnull (sides[0].error);
  g_assert_null (sides[0].document);
  g_assert_null (sides[0].tree);
  g_assert_no_error (sides[1].error);
  g_assert_nonnull (sides[1].tree);
  for (guint s = 0; s < 2; s++)
    afg_diff_side_load_clear (&sides[s]);

  options = (AfgDiffLoadOptions) { .has_steps = TRUE, .first_step = 7, .last_step = 7 };
  afg_diff_load (both, &options, NULL, sides);
  for (guint s = 0; s < 2; s++)
    {
      g_assert_error (sides[s].error, AFG_SCOPE_ERROR, AFG_SCOPE_ERROR_UNKNOWN_STEP);
      g_assert_nonnull (sides[s].document);
      g_assert_null (sides[s].tree);
      afg_diff_side_load_clear (&sides[s]);
    }
  g_unlink (db);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diff-shape/samples", test_samples);
  g_test_add_func ("/diff-shape/sides", test_sides);
  g_test_add_func ("/diff-shape/against-itself", test_against_itself);
  g_test_add_func ("/diff-shape/empty-side", test_empty_side);
  g_test_add_func ("/diff-shape/cancelled", test_cancelled);
  g_test_add_func ("/diff-shape/color-rule", test_color_rule);
  g_test_add_func ("/diff-shape/norm", test_norm);
  g_test_add_func ("/diff-shape/total-moved", test_total_moved);
  g_test_add_func ("/diff-load/sides", test_load_sides);
  g_test_add_func ("/diff-load/errors", test_load_errors);
  g_test_add_func ("/diff-load/finish", test_load_finish);
  return g_test_run ();
}
