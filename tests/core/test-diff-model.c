/* SPDX-License-Identifier: MIT */
/* The diff of two profiles: each side's threads merged into
 * one root by name, the union of both sides' paths, a and b values per
 * frame with zeros where a side lacks it, children by name. */
#include "config.h"

#include <string.h>

#include "afg-diff-shape.h"
#include "afg-test-db.h"

#define MAIN "main.py(1): main"
#define FWD "model.py(5): forward"

/* The nodes and names, through B's tree (A's has the same). */
static guint
n_nodes (AfgDiffShape *diff)
{
  return afg_tree_get_n_nodes (afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B));
}

static const AfgNode *
node_at (AfgDiffShape *diff, guint32 node)
{
  return afg_tree_get_node (afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B), node);
}

static const char *
node_name (AfgDiffShape *diff, guint32 node)
{
  return afg_tree_get_node_name (afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B), node);
}

static AfgCategory
node_category (AfgDiffShape *diff, guint32 node)
{
  return afg_tree_get_node_category (afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B), node);
}

/* One side's values: self from the merged totals, zeros where absent,
 * the root the sum of the top frames' totals, without calls or self. */
static void
check_side_values (AfgDiffShape *diff, AfgDiffSide side)
{
  guint n = n_nodes (diff);
  g_autofree gint64 *children = g_new0 (gint64, n);
  AfgDiffValues v;

  for (guint32 i = 1; i < n; i++)
    {
      afg_diff_shape_get_values (diff, side, i, &v);
      children[node_at (diff, i)->parent] += v.total_ns;
      g_assert_true (afg_diff_shape_has_node (diff, side, i) == (v.calls > 0));
      if (v.calls == 0)
        g_assert_true (v.total_ns == 0 && v.self_ns == 0);
    }
  for (guint32 i = 1; i < n; i++)
    {
      afg_diff_shape_get_values (diff, side, i, &v);
      g_assert_cmpint (v.self_ns, ==, MAX (0, v.total_ns - children[i]));
    }
  afg_diff_shape_get_values (diff, side, AFG_TREE_ROOT, &v);
  g_assert_cmpint (v.total_ns, ==, children[AFG_TREE_ROOT]);
  g_assert_cmpint (v.calls, ==, 0);
  g_assert_cmpint (v.self_ns, ==, 0);
}

/* AfgNode's order: breadth-first, children contiguous and by name (byte
 * order, each name once), both side trees the same nodes; every frame on
 * one side at least. */
static void
check_shape (AfgDiffShape *diff)
{
  guint n = n_nodes (diff);
  const AfgTree *a = afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_A);
  const AfgTree *b = afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B);
  guint32 next_child = 1;

  g_assert_cmpuint (afg_tree_get_n_nodes (a), ==, n);
  g_assert_cmpuint (afg_tree_get_n_nodes (b), ==, n);
  g_assert_cmpuint (afg_tree_get_n_threads (a), ==, 0);
  g_assert_true (memcmp (afg_tree_get_nodes (a), afg_tree_get_nodes (b), n * sizeof (AfgNode)) == 0);
  g_assert_cmpuint (node_at (diff, AFG_TREE_ROOT)->parent, ==, AFG_NODE_NONE);
  for (guint32 i = 0; i < n; i++)
    {
      const AfgNode *node = node_at (diff, i);

      if (i > 0)
        g_assert_true (afg_diff_shape_has_node (diff, AFG_DIFF_SIDE_A, i)
                       || afg_diff_shape_has_node (diff, AFG_DIFF_SIDE_B, i));
      g_assert_cmpuint (node->thread, ==, AFG_THREAD_NONE);
      if (node->n_children == 0)
        continue;
      g_assert_cmpuint (node->first_child, ==, next_child);
      next_child += node->n_children;
      for (guint32 c = node->first_child; c < node->first_child + node->n_children; c++)
        {
          g_assert_cmpuint (node_at (diff, c)->parent, ==, i);
          g_assert_cmpuint (node_at (diff, c)->depth, ==, node->depth + 1);
          if (c > node->first_child)
            g_assert_cmpint (strcmp (node_name (diff, c - 1),
                                     node_name (diff, c)), <, 0);
        }
    }
  g_assert_cmpuint (next_child, ==, n);
  check_side_values (diff, AFG_DIFF_SIDE_A);
  check_side_values (diff, AFG_DIFF_SIDE_B);
}

static AfgDiffShape *
diff_of (AfgTree *a, AfgTree *b)
{
  AfgDiffShape *diff = afg_diff_shape_new (a, b, "a \xe2\x86\x94 b", NULL);

  g_assert_nonnull (diff);
  check_shape (diff);
  g_assert_true (afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_A) == a);
  g_assert_true (afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_B) == b);
  return diff;
}

static void
assert_diff (AfgDiffShape *diff, const char * const *expected_lines)
{
  g_autoptr(GPtrArray) actual = afg_test_render_diff (diff);
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();

  for (guint i = 0; expected_lines[i] != NULL; i++)
    g_ptr_array_add (expected, (gpointer) expected_lines[i]);
  afg_test_assert_lines (actual, expected, "diff");
}

static AfgTree *
load_sample (const char *name, AfgTreeFlags flags)
{
  g_autofree char *path = afg_test_sample_path (name, ".db");
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return afg_test_build (document, NULL, flags);
}

/* The two real samples, addresses merged: the expected file line for line. */
static void
test_samples (void)
{
  g_autoptr(AfgTree) a = load_sample ("ascend_pytorch_profiler_level0_rank0", AFG_TREE_MERGE_ADDRESSES);
  g_autoptr(AfgTree) b = load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_MERGE_ADDRESSES);
  g_autoptr(AfgDiffShape) diff = diff_of (a, b);
  g_autofree char *expected_path = afg_test_sample_path ("level0_rank0-vs-level1_rank0", ".diff.expected");
  g_autoptr(GPtrArray) expected = afg_test_read_lines (expected_path);
  g_autoptr(GPtrArray) actual = afg_test_render_diff (diff);

  g_assert_cmpuint (expected->len, >, 1000);
  afg_test_assert_lines (actual, expected, "level0_rank0-vs-level1_rank0");
}

/* A DB against itself: both sides equal everywhere, every thread-free
 * path once. */
static void
test_self (void)
{
  g_autoptr(AfgTree) a = load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_MERGE_ADDRESSES);
  g_autoptr(AfgDiffShape) diff = diff_of (a, a);
  g_autoptr(GHashTable) paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) lines = afg_test_render_diff (diff);

  for (guint i = 0; i < lines->len; i++)
    {
      g_auto(GStrv) f = g_strsplit (g_ptr_array_index (lines, i), "\t", -1);

      g_assert_cmpuint (g_strv_length (f), ==, 7);
      g_assert_cmpstr (f[1], ==, f[4]);
      g_assert_cmpstr (f[2], ==, f[5]);
      g_assert_cmpstr (f[3], ==, f[6]);
      g_assert_cmpstr (f[1], !=, "0");
    }
  for (guint32 n = 1 + afg_tree_get_n_threads (a); n < afg_tree_get_n_nodes (a); n++)
    {
      GString *path = g_string_new (afg_tree_get_node_name (a, n));

      for (guint32 p = afg_tree_get_node (a, n)->parent; afg_tree_get_node (a, p)->depth >= 2;
           p = afg_tree_get_node (a, p)->parent)
        {
          g_string_prepend_c (path, ';');
          g_string_prepend (path, afg_tree_get_node_name (a, p));
        }
      g_hash_table_add (paths, g_string_free (path, FALSE));
    }
  g_assert_cmpuint (lines->len, ==, g_hash_table_size (paths));
}

/* Thread 1: main > forward > matmul; thread 2: main > forward > add and
 * main > backward; thread 3 recurses: main > main. Merged by name at
 * every level, calls and totals added, self from the merged totals. */
static void
test_merged_threads (void)
{
  static const AfgTestEvent events[] = {
    { GTID (1, 1), 0, 100, MAIN },
    { GTID (1, 1), 10, 60, FWD },
    { GTID (1, 1), 20, 50, "aten::matmul" },
    { GTID (1, 2), 0, 200, MAIN },
    { GTID (1, 2), 0, 40, FWD },
    { GTID (1, 2), 5, 15, "aten::add" },
    { GTID (1, 2), 50, 170, "backward" },
    { GTID (2, 3), 1000, 1300, MAIN },
    { GTID (2, 3), 1100, 1200, MAIN },
  };
  static const char * const expected[] = {
    MAIN "\t3\t600\t290\t0\t0\t0",
    MAIN ";" FWD "\t2\t90\t50\t0\t0\t0",
    MAIN ";" FWD ";aten::add\t1\t10\t10\t0\t0\t0",
    MAIN ";" FWD ";aten::matmul\t1\t30\t30\t0\t0\t0",
    MAIN ";" MAIN "\t1\t100\t100\t0\t0\t0",
    MAIN ";backward\t1\t120\t120\t0\t0\t0",
    NULL
  };
  g_autoptr(AfgTree) a = afg_test_load_events (0, events, G_N_ELEMENTS (events));
  static const AfgTestEvent steps_only[] = { { GTID (1, 1), 0, 100, "ProfilerStep#1" } };
  g_autoptr(AfgTree) b = afg_test_load_events (0, steps_only, G_N_ELEMENTS (steps_only));
  g_autoptr(AfgDiffShape) diff = NULL;
  AfgDiffValues root;

  g_assert_true (afg_tree_is_empty (b));
  diff = diff_of (a, b);
  assert_diff (diff, expected);
  afg_diff_shape_get_values (diff, AFG_DIFF_SIDE_A, AFG_TREE_ROOT, &root);
  g_assert_cmpint (root.total_ns, ==, 600);
  g_assert_cmpint (root.calls, ==, 0);
  afg_diff_shape_get_values (diff, AFG_DIFF_SIDE_B, AFG_TREE_ROOT, &root);
  g_assert_true (root.calls == 0 && root.total_ns == 0);
}

/* Frames that one side lacks: zeros on that side, in either direction. */
static void
test_one_side_only (void)
{
  static const AfgTestEvent a_events[] = {
    { GTID (1, 1), 0, 100, MAIN },
    { GTID (1, 1), 10, 40, "only_in_a" },
    { GTID (1, 1), 50, 90, "both" },
  };
  static const AfgTestEvent b_events[] = {
    { GTID (7, 7), 500, 800, MAIN },
    { GTID (7, 7), 510, 530, "both" },
    { GTID (7, 7), 600, 700, "only_in_b" },
    { GTID (7, 7), 610, 620, "aten::zero_" },
  };
  static const char * const a_vs_b[] = {
    MAIN "\t1\t100\t30\t1\t300\t180",
    MAIN ";both\t1\t40\t40\t1\t20\t20",
    MAIN ";only_in_a\t1\t30\t30\t0\t0\t0",
    MAIN ";only_in_b\t0\t0\t0\t1\t100\t90",
    MAIN ";only_in_b;aten::zero_\t0\t0\t0\t1\t10\t10",
    NULL
  };
  static const char * const b_vs_a[] = {
    MAIN "\t1\t300\t180\t1\t100\t30",
    MAIN ";both\t1\t20\t20\t1\t40\t40",
    MAIN ";only_in_a\t0\t0\t0\t1\t30\t30",
    MAIN ";only_in_b\t1\t100\t90\t0\t0\t0",
    MAIN ";only_in_b;aten::zero_\t1\t10\t10\t0\t0\t0",
    NULL
  };
  g_autoptr(AfgTree) a = afg_test_load_events (0, a_events, G_N_ELEMENTS (a_events));
  g_autoptr(AfgTree) b = afg_test_load_events (0, b_events, G_N_ELEMENTS (b_events));
  g_autoptr(AfgDiffShape) forward = diff_of (a, b);
  g_autoptr(AfgDiffShape) backward = diff_of (b, a);

  assert_diff (forward, a_vs_b);
  assert_diff (backward, b_vs_a);
}

#define ITEM "<built-in method item of Tensor object at 0x"

/* No two processes share addresses: merged, the variants line up; not
 * merged, each is a frame of its side only. */
static void
test_address_variants (void)
{
  static const AfgTestEvent a_events[] = {
    { GTID (1, 1), 0, 100, MAIN },
    { GTID (1, 1), 10, 20, ITEM "ffff8342ae0>" },
    { GTID (1, 1), 30, 60, ITEM "ffff8342b10>" },
  };
  static const AfgTestEvent b_events[] = {
    { GTID (2, 2), 0, 100, MAIN },
    { GTID (2, 2), 10, 15, ITEM "ffff0000a10>" },
  };
  static const char * const merged[] = {
    MAIN "\t1\t100\t60\t1\t100\t95",
    MAIN ";" ITEM "\xe2\x80\xa6>\t2\t40\t40\t1\t5\t5",
    NULL
  };
  static const char * const plain[] = {
    MAIN "\t1\t100\t60\t1\t100\t95",
    MAIN ";" ITEM "ffff0000a10>\t0\t0\t0\t1\t5\t5",
    MAIN ";" ITEM "ffff8342ae0>\t1\t10\t10\t0\t0\t0",
    MAIN ";" ITEM "ffff8342b10>\t1\t30\t30\t0\t0\t0",
    NULL
  };
  AfgTestDb *a_db = afg_test_db_new (0);
  AfgTestDb *b_db = afg_test_db_new (0);
  g_autoptr(AfgDocument) a_doc = NULL;
  g_autoptr(AfgDocument) b_doc = NULL;

  afg_test_db_add_events (a_db, a_events, G_N_ELEMENTS (a_events));
  afg_test_db_add_events (b_db, b_events, G_N_ELEMENTS (b_events));
  a_doc = afg_test_db_load_document (a_db);
  b_doc = afg_test_db_load_document (b_db);
  for (guint merge = 0; merge < 2; merge++)
    {
      AfgTreeFlags flags = merge ? AFG_TREE_MERGE_ADDRESSES : AFG_TREE_FLAGS_NONE;
      g_autoptr(AfgTree) a = afg_test_build (a_doc, NULL, flags);
      g_autoptr(AfgTree) b = afg_test_build (b_doc, NULL, flags);
      g_autoptr(AfgDiffShape) diff = diff_of (a, b);

      assert_diff (diff, merge ? merged : plain);
      g_assert_cmpint (node_category (diff, 2), ==, AFG_CATEGORY_PYTHON);
    }
  afg_test_db_free (a_db);
  afg_test_db_free (b_db);
}

/* An empty side (no usable rows) against a profile, and two empty ones. */
static void
test_empty_side (void)
{
  static const AfgTestEvent events[] = {
    { GTID (1, 1), 0, 100, MAIN },
    { GTID (1, 1), 10, 40, FWD },
    { GTID (1, 1), 0, 100, "ProfilerStep#1" },
  };
  static const AfgTestEvent steps_only[] = {
    { GTID (1, 1), 0, 100, "ProfilerStep#1" },
  };
  static const char * const expected[] = {
    MAIN "\t0\t0\t0\t1\t100\t70",
    MAIN ";" FWD "\t0\t0\t0\t1\t30\t30",
    NULL
  };
  g_autoptr(AfgTree) full = afg_test_load_events (0, events, G_N_ELEMENTS (events));
  g_autoptr(AfgTree) empty = afg_test_load_events (0, steps_only, G_N_ELEMENTS (steps_only));
  g_autoptr(AfgDiffShape) diff = diff_of (empty, full);
  g_autoptr(AfgDiffShape) nothing = diff_of (empty, empty);

  g_assert_true (afg_tree_is_empty (empty));
  assert_diff (diff, expected);
  g_assert_cmpuint (n_nodes (nothing), ==, 1);
  g_assert_cmpuint (node_at (nothing, AFG_TREE_ROOT)->n_children, ==, 0);
}

/* Two step scopes of one DB (step 1 against step 2) and their step
 * counts; rows are cut to each side's scope. */
static void
test_steps (void)
{
  static const AfgTestEvent events[] = {
    { GTID (1, 1), 0, 100, "ProfilerStep#1" },
    { GTID (1, 1), 100, 300, "ProfilerStep#2" },
    { GTID (1, 1), 0, 300, MAIN },
    { GTID (1, 1), 10, 30, FWD },
    { GTID (1, 1), 90, 150, "aten::copy_" },
    { GTID (1, 1), 200, 260, FWD },
  };
  static const char * const expected[] = {
    MAIN "\t1\t100\t70\t1\t200\t90",
    MAIN ";" FWD "\t1\t20\t20\t1\t60\t60",
    MAIN ";aten::copy_\t1\t10\t10\t1\t50\t50",
    NULL
  };
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) whole = NULL;
  g_autoptr(AfgTree) one = NULL;
  g_autoptr(AfgTree) two = NULL;
  g_autoptr(AfgDiffShape) diff = NULL;
  g_autoptr(AfgDiffShape) whole_diff = NULL;
  g_autoptr(GError) error = NULL;
  AfgScope scope_one, scope_two;

  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  document = afg_test_db_load_document (db);
  g_assert_true (afg_scope_init_steps (&scope_one, document, 1, 1, &error));
  g_assert_true (afg_scope_init_steps (&scope_two, document, 2, 2, &error));
  one = afg_test_build (document, &scope_one, AFG_TREE_FLAGS_NONE);
  two = afg_test_build (document, &scope_two, AFG_TREE_FLAGS_NONE);
  whole = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  diff = diff_of (one, two);
  assert_diff (diff, expected);
  g_assert_cmpuint (afg_diff_shape_get_step_count (diff, AFG_DIFF_SIDE_A), ==, 1);
  whole_diff = diff_of (whole, one);
  g_assert_cmpuint (afg_diff_shape_get_step_count (whole_diff, AFG_DIFF_SIDE_A), ==, 2);
  g_assert_cmpuint (afg_diff_shape_get_step_count (whole_diff, AFG_DIFF_SIDE_B), ==, 1);
  afg_test_db_free (db);
}

/* A side without steps still divides by 1. */
static void
test_no_steps_count (void)
{
  static const AfgTestEvent events[] = { { GTID (1, 1), 0, 100, MAIN } };
  g_autoptr(AfgTree) a = afg_test_load_events (0, events, G_N_ELEMENTS (events));
  g_autoptr(AfgDiffShape) diff = diff_of (a, a);

  g_assert_cmpuint (afg_diff_shape_get_step_count (diff, AFG_DIFF_SIDE_A), ==, 1);
}

/* The side trees are the diff's values as trees: node for node. */
static void
test_side_trees (void)
{
  g_autoptr(AfgTree) a = load_sample ("ascend_pytorch_profiler_level0_rank0", AFG_TREE_MERGE_ADDRESSES);
  g_autoptr(AfgTree) b = load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_MERGE_ADDRESSES);
  g_autoptr(AfgDiffShape) diff = diff_of (a, b);

  for (AfgDiffSide side = AFG_DIFF_SIDE_A; side <= AFG_DIFF_SIDE_B; side++)
    {
      const AfgTree *tree = afg_diff_shape_get_tree (diff, side);

      g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), ==,
                       afg_tree_get_value (afg_diff_shape_get_source (diff, side), AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT));
      for (guint32 i = 0; i < n_nodes (diff); i++)
        {
          AfgDiffValues v;

          afg_diff_shape_get_values (diff, side, i, &v);
          g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_CALLS, i), ==, v.calls);
          g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, i), ==, v.total_ns);
          g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_SELF_NS, i), ==, v.self_ns);
          g_assert_cmpstr (afg_tree_get_node_name (tree, i), ==, node_name (diff, i));
        }
    }
}

/* More frames than one look at the cancellable covers: a cancelled diff
 * is NULL. */
static void
test_cancelled (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  afg_test_db_begin (db);
  for (guint i = 0; i < 5000; i++)
    {
      g_autofree char *name = g_strdup_printf ("frame_%u", i);

      afg_test_db_add (db, GTID (1, 1), 10 * i, 10 * i + 5, name);
    }
  afg_test_db_commit (db);
  tree = afg_test_db_load (db);
  g_cancellable_cancel (cancellable);
  g_assert_null (afg_diff_shape_new (tree, tree, "x", cancellable));
  afg_test_db_free (db);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diff-model/samples", test_samples);
  g_test_add_func ("/diff-model/self", test_self);
  g_test_add_func ("/diff-model/merged-threads", test_merged_threads);
  g_test_add_func ("/diff-model/one-side-only", test_one_side_only);
  g_test_add_func ("/diff-model/address-variants", test_address_variants);
  g_test_add_func ("/diff-model/empty-side", test_empty_side);
  g_test_add_func ("/diff-model/steps", test_steps);
  g_test_add_func ("/diff-model/steps/none", test_no_steps_count);
  g_test_add_func ("/diff-model/side-trees", test_side_trees);
  g_test_add_func ("/diff-model/cancelled", test_cancelled);
  return g_test_run ();
}
