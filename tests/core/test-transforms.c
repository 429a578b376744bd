/* SPDX-License-Identifier: MIT */
/* Call-tree transforms (focus, merge, drop, collapse recursion) on DBs
 * made here: each rule's tree line for line, root totals against the
 * function table, the calls' durations behind the percentiles, NPU
 * columns, composition in both orders, the threads left out, and the
 * regular expressions the C side takes or refuses. */
#include "config.h"

#include <string.h>

#include "afg-call-durations.h"
#include "afg-function-table.h"
#include "afg-path-mapper.h"
#include "afg-select.h"
#include "afg-task-kinds.h"
#include "afg-test-db.h"
#include "afg-tree-private.h"
#include "afg-tree-transform.h"

#define T1 GTID (1, 1)
#define T2 GTID (1, 2)
#define T3 GTID (1, 3)

/* 1/1: main { a { F { b { F }, c }, c }, F { F { c }, d } }: F under F
 * directly and through b. 1/2: x { y }. 1/3: solo. */
static const AfgTestEvent shape[] = {
  { T1, 0, 1000, "main" },
  { T1, 0, 400, "a" },
  { T1, 10, 210, "F" },
  { T1, 20, 120, "b" },
  { T1, 30, 80, "F" },
  { T1, 130, 200, "c" },
  { T1, 250, 350, "c" },
  { T1, 500, 900, "F" },
  { T1, 510, 610, "F" },
  { T1, 520, 560, "c" },
  { T1, 700, 800, "d" },
  { T2, 0, 100, "x" },
  { T2, 10, 50, "y" },
  { T3, 0, 30, "solo" },
};

#define T2_LINES "1/2\t1\t100\t0", "1/2;x\t1\t100\t60", "1/2;x;y\t1\t40\t40"
#define T3_LINES "1/3\t1\t30\t0", "1/3;solo\t1\t30\t30"

static AfgTree *
load_shape (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;

  afg_test_db_add_events (db, shape, G_N_ELEMENTS (shape));
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  return afg_test_build (document, NULL, AFG_TREE_DURATIONS);
}

static AfgTransformList *
list_of (const char * const *pairs)
{
  AfgTransformList *list = afg_transform_list_new ();

  for (guint i = 0; pairs[i] != NULL; i += 2)
    {
      g_autoptr(GError) error = NULL;
      AfgTransformOp op;

      g_assert_true (afg_transform_op_from_string (pairs[i], &op));
      g_assert_true (afg_transform_list_append (list, op, pairs[i + 1], &error));
      g_assert_no_error (error);
    }
  return list;
}

/* The layout of AfgNode, and each frame's calls behind its columns: as
 * many as its calls, adding up to its total, with its percentiles. */
static void
check_tree (AfgTree *tree)
{
  guint n = afg_tree_get_n_nodes (tree);
  g_autofree guint8 *marks = g_new0 (guint8, n);
  guint32 next = 1;

  g_assert_cmpuint (afg_tree_get_node (tree, AFG_TREE_ROOT)->n_children, ==, afg_tree_get_n_threads (tree));
  for (guint32 i = 0; i < n; i++)
    {
      const AfgNode *node = afg_tree_get_node (tree, i);
      g_autoptr(GArray) ns = NULL;
      gint64 sum = 0;

      g_assert_true (node->n_children == 0 || node->first_child == next);
      next += node->n_children;
      for (guint32 c = 1; c < node->n_children; c++)
        g_assert_cmpint (strcmp (afg_tree_get_node_name (tree, node->first_child + c - 1),
                                 afg_tree_get_node_name (tree, node->first_child + c)), <, 0);
      if (!afg_tree_is_frame (tree, i))
        continue;
      g_assert_cmpuint (node->thread, ==, afg_tree_get_node (tree, node->parent)->thread);
      if (!afg_tree_has_column (tree, AFG_COLUMN_DURATION_MIN))
        continue;
      marks[i] = 1;
      ns = afg_call_durations_collect (tree, marks, NULL);
      marks[i] = 0;
      g_assert_cmpint (ns->len, ==, afg_tree_get_value (tree, AFG_COLUMN_CALLS, i));
      g_array_sort (ns, afg_compare_int64);
      for (guint k = 0; k < ns->len; k++)
        sum += g_array_index (ns, gint64, k);
      g_assert_cmpint (sum, ==, afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, i));
      g_assert_cmpint (g_array_index (ns, gint64, 0), ==, afg_tree_get_value (tree, AFG_COLUMN_DURATION_MIN, i));
      g_assert_cmpint (g_array_index (ns, gint64, ns->len - 1), ==, afg_tree_get_value (tree, AFG_COLUMN_DURATION_MAX, i));
      g_assert_cmpint (g_array_index (ns, gint64, (ns->len + 1) / 2 - 1), ==,
                       afg_tree_get_value (tree, AFG_COLUMN_DURATION_P50, i));
    }
  g_assert_cmpuint (next, ==, n);
  for (guint t = 0; t < afg_tree_get_n_threads (tree); t++)
    g_assert_cmpuint (afg_tree_get_thread (tree, t)->node, ==, 1 + t);
}

static AfgTree *
transform (AfgTree *tree, const char * const *pairs)
{
  g_autoptr(AfgTransformList) list = list_of (pairs);
  g_autoptr(GError) error = NULL;
  AfgTree *result = afg_tree_transform (tree, list, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  check_tree (result);
  g_assert_cmpuint (afg_transform_list_get_length (afg_tree_get_transforms (result)), ==,
                    afg_transform_list_get_length (afg_tree_get_transforms (tree)) + g_strv_length ((char **) pairs) / 2);
  return result;
}

static void
assert_same_tree (const AfgTree *actual, const AfgTree *expected, const char *what)
{
  g_autoptr(GPtrArray) a = afg_test_render_tree (actual);
  g_autoptr(GPtrArray) e = afg_test_render_tree (expected);

  afg_test_assert_lines (a, e, what);
}

static gint64
root_total (const AfgTree *tree)
{
  return afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT);
}

static gint64
function_total (AfgTree *tree, const char *name)
{
  g_autoptr(AfgFunctionTable) table = afg_function_table_new (tree);

  return afg_function_table_get (table, afg_function_table_find (table, name))->total_ns;
}

static void
assert_durations (const AfgTree *tree, const char *path, const char *expected)
{
  g_autofree char *actual = afg_test_durations_of (tree, path);

  g_assert_cmpstr (actual, ==, expected);
}

/* The outermost F frames, merged at the top: the root total is F's
 * function-table total; threads without F are left out. */
static void
test_focus_function (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) focused = transform (tree, (const char *[]) { "focus-function", "F", NULL });

  afg_test_assert_tree (focused, (const char *[]) {
    "1/1\t2\t600\t0", "1/1;F\t2\t600\t230", "1/1;F;b\t1\t100\t50", "1/1;F;b;F\t1\t50\t50",
    "1/1;F;c\t1\t70\t70", "1/1;F;F\t1\t100\t60", "1/1;F;F;c\t1\t40\t40", "1/1;F;d\t1\t100\t100", NULL });
  g_assert_cmpint (root_total (focused), ==, function_total (tree, "F"));
  g_assert_cmpint (root_total (focused), ==, 600);
  assert_durations (focused, "1/1;F", "200 200 400 400 400");
  assert_durations (focused, "1/1;F;F", "100 100 100 100 100");
  afg_test_check_invariants (focused);
}

static void
test_focus_subtree (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) focused = transform (tree, (const char *[]) { "focus-subtree", "main;a", NULL });
  g_autoptr(AfgTree) nowhere = transform (tree, (const char *[]) { "focus-subtree", "a", NULL });
  g_autoptr(AfgTree) deep = transform (tree, (const char *[]) { "focus-subtree", "main;F;F;c", NULL });

  afg_test_assert_tree (focused, (const char *[]) {
    "1/1\t1\t400\t0", "1/1;a\t1\t400\t100", "1/1;a;F\t1\t200\t30", "1/1;a;F;b\t1\t100\t50",
    "1/1;a;F;b;F\t1\t50\t50", "1/1;a;F;c\t1\t70\t70", "1/1;a;c\t1\t100\t100", NULL });
  /* The path starts at the thread's top: `a` alone is no top frame. */
  g_assert_true (afg_tree_is_empty (nowhere));
  g_assert_cmpint (root_total (nowhere), ==, 0);
  afg_test_assert_tree (deep, (const char *[]) { "1/1\t1\t40\t0", "1/1;c\t1\t40\t40", NULL });
  afg_test_check_invariants (focused);
}

/* F frames removed, their children merged by path into the parent:
 * a;c gets the call of a;F;c; totals of threads and root unchanged. */
static void
test_merge_function (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) merged = transform (tree, (const char *[]) { "merge-function", "F", NULL });

  afg_test_assert_tree (merged, (const char *[]) {
    "1/1\t1\t1000\t0", "1/1;main\t1\t1000\t460", "1/1;main;a\t1\t400\t130", "1/1;main;a;b\t1\t100\t100",
    "1/1;main;a;c\t2\t170\t170", "1/1;main;c\t1\t40\t40", "1/1;main;d\t1\t100\t100", T2_LINES, T3_LINES, NULL });
  g_assert_cmpint (root_total (merged), ==, root_total (tree));
  assert_durations (merged, "1/1;main;a;c", "70 70 100 100 100");
  afg_test_check_invariants (merged);
}

/* A removed top frame's own time stays in its thread, which stays
 * without frames. */
static void
test_merge_top_frame (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) merged = transform (tree, (const char *[]) { "merge-function", "solo", "merge-function", "x", NULL });

  afg_test_assert_tree (merged, (const char *[]) {
    "1/1\t1\t1000\t0", "1/1;main\t1\t1000\t200", "1/1;main;a\t1\t400\t100", "1/1;main;a;F\t1\t200\t30",
    "1/1;main;a;F;b\t1\t100\t50", "1/1;main;a;F;b;F\t1\t50\t50", "1/1;main;a;F;c\t1\t70\t70",
    "1/1;main;a;c\t1\t100\t100", "1/1;main;F\t1\t400\t200", "1/1;main;F;F\t1\t100\t60",
    "1/1;main;F;F;c\t1\t40\t40", "1/1;main;F;d\t1\t100\t100",
    "1/2\t1\t100\t0", "1/2;y\t1\t40\t40", "1/3\t0\t30\t0", NULL });
  g_assert_cmpint (root_total (merged), ==, root_total (tree));
}

/* F frames go with their subtrees; every ancestor, the thread and the
 * root lose their totals: the root by F's function-table total. */
static void
test_drop_function (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) dropped = transform (tree, (const char *[]) { "drop-function", "F", NULL });
  g_autoptr(AfgTree) no_thread = transform (tree, (const char *[]) { "drop-function", "solo", NULL });

  afg_test_assert_tree (dropped, (const char *[]) {
    "1/1\t1\t400\t0", "1/1;main\t1\t400\t200", "1/1;main;a\t1\t200\t100", "1/1;main;a;c\t1\t100\t100",
    T2_LINES, T3_LINES, NULL });
  g_assert_cmpint (root_total (dropped), ==, root_total (tree) - function_total (tree, "F"));
  assert_durations (dropped, "1/1;main", "400 400 400 400 400");
  assert_durations (dropped, "1/1;main;a", "200 200 200 200 200");
  afg_test_check_invariants (dropped);
  /* A thread with nothing left is left out. */
  g_assert_cmpuint (afg_tree_get_n_threads (no_thread), ==, 2);
  g_assert_cmpint (root_total (no_thread), ==, root_total (tree) - 30);
}

/* Only F under F directly: main;F;F goes, main;a;F;b;F stays. */
static void
test_collapse_recursion (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) collapsed = transform (tree, (const char *[]) { "collapse-recursion", "F", NULL });

  afg_test_assert_tree (collapsed, (const char *[]) {
    "1/1\t1\t1000\t0", "1/1;main\t1\t1000\t200", "1/1;main;a\t1\t400\t100", "1/1;main;a;F\t1\t200\t30",
    "1/1;main;a;F;b\t1\t100\t50", "1/1;main;a;F;b;F\t1\t50\t50", "1/1;main;a;F;c\t1\t70\t70",
    "1/1;main;a;c\t1\t100\t100", "1/1;main;F\t1\t400\t260", "1/1;main;F;c\t1\t40\t40",
    "1/1;main;F;d\t1\t100\t100", T2_LINES, T3_LINES, NULL });
  /* The parent keeps its own calls: one of 400 ns. */
  assert_durations (collapsed, "1/1;main;F", "400 400 400 400 400");
  g_assert_cmpint (root_total (collapsed), ==, root_total (tree));
  afg_test_check_invariants (collapsed);
}

/* F under F through b too: b loses the inner F's 50 ns (its one call
 * now lasts 50), which stays in the outer F as self time. */
static void
test_collapse_indirect_recursion (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) collapsed = transform (tree, (const char *[]) { "collapse-indirect-recursion", "F", NULL });

  afg_test_assert_tree (collapsed, (const char *[]) {
    "1/1\t1\t1000\t0", "1/1;main\t1\t1000\t200", "1/1;main;a\t1\t400\t100", "1/1;main;a;F\t1\t200\t80",
    "1/1;main;a;F;b\t1\t50\t50", "1/1;main;a;F;c\t1\t70\t70", "1/1;main;a;c\t1\t100\t100",
    "1/1;main;F\t1\t400\t260", "1/1;main;F;c\t1\t40\t40", "1/1;main;F;d\t1\t100\t100", T2_LINES, T3_LINES, NULL });
  assert_durations (collapsed, "1/1;main;a;F;b", "50 50 50 50 50");
  g_assert_cmpint (root_total (collapsed), ==, root_total (tree));
  afg_test_check_invariants (collapsed);
}

/* After an indirect collapse, the calls it moved to the outermost F are
 * no longer below the frames between: a later drop or collapse takes
 * their time from their new ancestors only (x keeps its 100 ns; every
 * frame's calls add up to its total, check_tree() says). */
static void
test_indirect_then_more (void)
{
  static const AfgTestEvent nested[] = {
    { T1, 0, 1000, "F" }, { T1, 100, 600, "x" }, { T1, 150, 550, "F" }, { T1, 200, 500, "c" },
    { T1, 250, 350, "d" },
    { T2, 0, 1000, "G" }, { T2, 100, 600, "y" }, { T2, 150, 550, "G" }, { T2, 200, 500, "x" },
    { T2, 250, 350, "G" }, { T2, 260, 340, "e" },
  };
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgTree) dropped = NULL;
  g_autoptr(AfgTree) twice = NULL;
  g_autoptr(AfgTree) chained = NULL;

  afg_test_db_add_events (db, nested, G_N_ELEMENTS (nested));
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  dropped = transform (tree, (const char *[]) { "collapse-indirect-recursion", "F", "drop-function", "d", NULL });
  assert_durations (dropped, "1/1;F;x", "100 100 100 100 100");
  assert_durations (dropped, "1/1;F;c", "200 200 200 200 200");
  assert_durations (dropped, "1/1;F", "900 900 900 900 900");
  dropped = (afg_tree_unref (dropped), transform (tree, (const char *[]) { "collapse-indirect-recursion", "F",
                                                                          "drop-function", "c", NULL }));
  assert_durations (dropped, "1/1;F;x", "100 100 100 100 100");
  /* e, under the inner G under x, moves to the outer G: dropping it
   * takes nothing from x or y. */
  chained = transform (tree, (const char *[]) { "collapse-indirect-recursion", "G", "drop-function", "e", NULL });
  assert_durations (chained, "1/2;G;y", "100 100 100 100 100");
  assert_durations (chained, "1/2;G;x", "200 200 200 200 200");
  assert_durations (chained, "1/2;G", "920 920 920 920 920");
  /* Twice, each order: every frame's calls still add up to its total. */
  twice = transform (tree, (const char *[]) { "collapse-indirect-recursion", "/^[Gx]$/", "collapse-indirect-recursion",
                                              "/^[ye]$/", "drop-function", "c", NULL });
  g_clear_pointer (&twice, afg_tree_unref);
  twice = transform (tree, (const char *[]) { "collapse-indirect-recursion", "x", "collapse-indirect-recursion", "G",
                                              "drop-function", "e", NULL });
}

/* Whether each transform named a frame of the tree it was applied to:
 * the path F;c exists only once F is focused, F no more once F;c is, and
 * nothing is left to name once c is dropped. */
static void
test_named (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTransformList) list = list_of ((const char *[]) {
    "merge-function", "zz", "focus-function", "F", "focus-subtree", "F;c", "merge-function", "F",
    "drop-function", "/^c$/", "focus-subtree", "c", NULL });
  const gboolean expected[] = { FALSE, TRUE, TRUE, FALSE, TRUE, FALSE };
  gboolean named[G_N_ELEMENTS (expected)];
  g_autoptr(AfgTree) result = NULL;

  memset (named, 0xff, sizeof named);
  result = afg_tree_transform_named (tree, list, named, NULL, NULL);
  g_assert_nonnull (result);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpint (named[i], ==, expected[i]);
}

/* Three F frames in a chain through other frames: every inner one goes
 * to the outermost, each taking its time from the frames between. */
static void
test_indirect_chain (void)
{
  static const AfgTestEvent chain[] = {
    { T1, 0, 1000, "F" },
    { T1, 0, 900, "x" },
    { T1, 0, 800, "F" },
    { T1, 0, 700, "y" },
    { T1, 0, 600, "F" },
    { T1, 0, 500, "z" },
  };
  g_autoptr(AfgTree) tree = afg_test_load_events (AFG_TEST_DB_DEFAULT, chain, G_N_ELEMENTS (chain));
  g_autoptr(AfgTree) with_durations = NULL;
  g_autoptr(AfgTree) collapsed = NULL;
  g_autoptr(AfgDocument) document = afg_document_ref (afg_tree_get_document (tree));

  with_durations = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  collapsed = transform (with_durations, (const char *[]) { "collapse-indirect-recursion", "F", NULL });
  afg_test_assert_tree (collapsed, (const char *[]) {
    "1/1\t1\t1000\t0", "1/1;F\t1\t1000\t300", "1/1;F;x\t1\t100\t100", "1/1;F;y\t1\t100\t100",
    "1/1;F;z\t1\t500\t500", NULL });
}

/* Focus then merge keeps F's subtrees without F; merge then focus finds
 * no F left. */
static void
test_composition (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) focus_merge = transform (tree, (const char *[]) { "focus-function", "F", "merge-function", "F", NULL });
  g_autoptr(AfgTree) merge_focus = transform (tree, (const char *[]) { "merge-function", "F", "focus-function", "F", NULL });
  g_autoptr(AfgTree) drop_focus = transform (tree, (const char *[]) { "drop-function", "c", "focus-subtree", "main;F", NULL });
  g_autoptr(AfgTree) focus_drop = transform (tree, (const char *[]) { "focus-subtree", "main;F", "drop-function", "c", NULL });
  g_autoptr(AfgTree) step1 = transform (tree, (const char *[]) { "focus-function", "F", NULL });
  g_autoptr(AfgTree) step2 = transform (step1, (const char *[]) { "merge-function", "F", NULL });

  afg_test_assert_tree (focus_merge, (const char *[]) {
    "1/1\t4\t600\t0", "1/1;b\t1\t100\t100", "1/1;c\t2\t110\t110", "1/1;d\t1\t100\t100", NULL });
  assert_durations (focus_merge, "1/1;c", "40 40 70 70 70");
  g_assert_true (afg_tree_is_empty (merge_focus));
  afg_test_assert_tree (drop_focus, (const char *[]) {
    "1/1\t1\t360\t0", "1/1;F\t1\t360\t200", "1/1;F;F\t1\t60\t60", "1/1;F;d\t1\t100\t100", NULL });
  assert_same_tree (focus_drop, drop_focus, "drop then focus");
  /* One transform at a time gives what the list gives. */
  assert_same_tree (step2, focus_merge, "step by step");
  g_assert_cmpuint (afg_transform_list_get_length (afg_tree_get_transforms (step2)), ==, 2);
  g_assert_cmpstr (afg_transform_list_get (afg_tree_get_transforms (step2), 0)->arg, ==, "F");
  assert_durations (step2, "1/1;c", "40 40 70 70 70");
}

/* An unanchored search in JavaScript's syntax: /^[a-c]$/ merges a, b
 * and c; /a/ also finds "main", the outermost match of its thread. */
static void
test_regex (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) merged = transform (tree, (const char *[]) { "merge-function", "/^[a-c]$/", NULL });
  g_autoptr(AfgTree) focused = transform (tree, (const char *[]) { "focus-function", "/a/", NULL });
  g_autoptr(AfgTree) dropped = transform (tree, (const char *[]) { "drop-function", "/^[xs]/", NULL });

  afg_test_assert_tree (merged, (const char *[]) {
    "1/1\t1\t1000\t0", "1/1;main\t1\t1000\t400", "1/1;main;F\t2\t600\t350", "1/1;main;F;F\t2\t150\t150",
    "1/1;main;F;d\t1\t100\t100", T2_LINES, T3_LINES, NULL });
  assert_durations (merged, "1/1;main;F;F", "50 50 100 100 100");
  g_assert_cmpint (root_total (focused), ==, 1000);
  g_assert_cmpuint (afg_tree_get_n_threads (focused), ==, 1);
  g_assert_true (afg_tree_is_empty (dropped) == FALSE);
  g_assert_cmpuint (afg_tree_get_n_threads (dropped), ==, 1);
  g_assert_cmpint (root_total (dropped), ==, 1000);
}

/* In a time range [0, 550): rows count by their overlap; the calls'
 * durations, taken and merged, are the overlaps too. */
static void
test_scoped (void)
{
  g_autoptr(AfgTree) whole = load_shape ();
  AfgScope scope = { TRUE, 0, 550, 0, 0, 0 };
  g_autoptr(AfgTree) tree = afg_test_build (afg_tree_get_document (whole), &scope, AFG_TREE_DURATIONS);
  g_autoptr(AfgTree) dropped = transform (tree, (const char *[]) { "drop-function", "F", NULL });
  g_autoptr(AfgTree) focused = transform (tree, (const char *[]) { "focus-function", "F", NULL });

  afg_test_assert_tree (dropped, (const char *[]) {
    "1/1\t1\t300\t0", "1/1;main\t1\t300\t100", "1/1;main;a\t1\t200\t100", "1/1;main;a;c\t1\t100\t100",
    T2_LINES, T3_LINES, NULL });
  assert_durations (dropped, "1/1;main", "300 300 300 300 300");
  assert_durations (focused, "1/1;F", "50 50 200 200 200");
  g_assert_cmpint (root_total (focused), ==, function_total (tree, "F"));
}

/* A transform that finds nothing gives the same tree, durations too. */
static void
test_identity (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) same = transform (tree, (const char *[]) { "merge-function", "nowhere", "drop-function", "/^$/", NULL });
  g_autoptr(AfgTree) plain = NULL;
  g_autoptr(AfgTree) plain_same = NULL;
  g_autoptr(AfgTransformList) list = list_of ((const char *[]) { "collapse-recursion", "nowhere", NULL });

  assert_same_tree (same, tree, "identity");
  for (guint32 i = 0; i < afg_tree_get_n_nodes (tree); i++)
    for (AfgColumn c = AFG_COLUMN_DURATION_MIN; c <= AFG_COLUMN_DURATION_MAX; c++)
      g_assert_cmpint (afg_tree_get_value (same, c, i), ==, afg_tree_get_value (tree, c, i));
  /* Without durations, no rows are walked again and none are made. */
  plain = afg_test_build (afg_tree_get_document (tree), NULL, AFG_TREE_FLAGS_NONE);
  plain_same = afg_tree_transform (plain, list, NULL, NULL);
  g_assert_false (afg_tree_has_column (plain_same, AFG_COLUMN_DURATION_MIN));
  assert_same_tree (plain_same, plain, "plain");
}

/* The "NPU: path npu_total npu_self npu_tasks" of every frame. */
static GPtrArray *
render_npu (const AfgTree *tree)
{
  g_autoptr(GPtrArray) frames = afg_test_render_tree (tree);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint32 i = 1; i < afg_tree_get_n_nodes (tree); i++)
    {
      g_auto(GStrv) parts = g_strsplit (frames->pdata[i - 1], "\t", 2);

      g_ptr_array_add (lines, g_strdup_printf ("%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                                               parts[0], afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, i),
                                               afg_tree_get_value (tree, AFG_COLUMN_NPU_SELF_NS, i),
                                               afg_tree_get_value (tree, AFG_COLUMN_NPU_TASKS, i)));
    }
  return lines;
}

static void
assert_npu (const AfgTree *tree, const char * const *expected_lines)
{
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();

  for (guint i = 0; expected_lines[i] != NULL; i++)
    g_ptr_array_add (expected, (gpointer) expected_lines[i]);
  afg_test_assert_lines (render_npu (tree), expected, "npu");
}

/* f (10 ns on the NPU) { g (20) { f (40) } }: device time follows the
 * host time's rules, tasks follow the frames' own time. */
static void
test_npu_columns (void)
{
  AfgTestDb *db = afg_test_db_new_npu_recursion ();
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  g_autoptr(AfgTree) tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  g_autoptr(AfgTree) dropped = transform (tree, (const char *[]) { "drop-function", "g", NULL });
  g_autoptr(AfgTree) merged = transform (tree, (const char *[]) { "merge-function", "g", NULL });
  g_autoptr(AfgTree) collapsed = transform (tree, (const char *[]) { "collapse-indirect-recursion", "f", NULL });
  g_autoptr(AfgTree) focused = transform (tree, (const char *[]) { "focus-function", "g", NULL });

  afg_test_db_free (db);
  assert_npu (dropped, (const char *[]) { "1/1 10 0 0", "1/1;f 10 10 1", NULL });
  assert_npu (merged, (const char *[]) { "1/1 70 0 0", "1/1;f 70 30 2", "1/1;f;f 40 40 1", NULL });
  assert_npu (collapsed, (const char *[]) { "1/1 70 0 0", "1/1;f 70 50 2", "1/1;f;g 20 20 1", NULL });
  assert_npu (focused, (const char *[]) { "1/1 60 0 0", "1/1;g 60 20 1", "1/1;g;f 40 40 1", NULL });
  g_assert_cmpint (afg_tree_get_value (dropped, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT), ==, 10);
}

/* Addresses merged: F names the merged name. */
static void
test_merged_addresses (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "top" },
    { T1, 0, 30, "h at 0x7f00" },
    { T1, 40, 90, "h at 0x7f08" },
  };
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgTree) focused = NULL;
  g_autofree char *line = NULL;
  g_autofree char *path = NULL;

  afg_test_db_add_events (db, events, G_N_ELEMENTS (events));
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS | AFG_TREE_MERGE_ADDRESSES);
  g_assert_cmpuint (afg_tree_get_n_nodes (tree), ==, 4);
  focused = transform (tree, (const char *[]) { "focus-function", afg_tree_get_node_name (tree, 3), NULL });
  line = g_strdup_printf ("1/1;%s\t2\t80\t80", afg_tree_get_node_name (tree, 3));
  path = g_strdup_printf ("1/1;%s", afg_tree_get_node_name (tree, 3));
  afg_test_assert_tree (focused, (const char *[]) { "1/1\t2\t80\t0", line, NULL });
  assert_durations (focused, path, "30 30 50 50 50");
}

/* Each frame's kernel leaves add up to its own device time by kind: the
 * leaves go where the frame's own time goes. Returns how many leaves
 * frames have. */
static guint
check_kernels (const AfgTree *tree)
{
  guint leaves = 0;

  for (guint32 i = 1 + afg_tree_get_n_threads (tree); i < afg_tree_get_n_nodes (tree); i++)
    {
      guint n;
      const AfgNpuKernel *k = afg_tree_get_kernels (tree, i, &n);
      gint64 sums[5] = { 0 };

      for (guint j = 0; j < n; j++)
        {
          gboolean comm = k[j].kind == AFG_TASK_KIND_COMMUNICATION;

          sums[comm ? 2 : 0] += k[j].ns;
          sums[comm ? 3 : 1] += (gint64) k[j].count;
          sums[4] += k[j].exposed_ns;
        }
      leaves += n;
      g_assert_cmpint (sums[0], ==, afg_tree_get_value (tree, AFG_COLUMN_NPU_COMPUTE_SELF_NS, i));
      g_assert_cmpint (sums[1], ==, afg_tree_get_value (tree, AFG_COLUMN_NPU_COMPUTE_TASKS, i));
      g_assert_cmpint (sums[2], ==, afg_tree_get_value (tree, AFG_COLUMN_COMM_SELF_NS, i));
      g_assert_cmpint (sums[3], ==, afg_tree_get_value (tree, AFG_COLUMN_COMM_OPS, i));
      g_assert_cmpint (sums[4], ==, afg_tree_get_value (tree, AFG_COLUMN_COMM_EXPOSED_SELF_NS, i));
    }
  return leaves;
}

/* The total of the frames named "aten::…" with no such frame above them,
 * counted here without the matcher. */
static gint64
outermost_aten_total (const AfgTree *tree)
{
  gint64 sum = 0;

  for (guint32 i = 1 + afg_tree_get_n_threads (tree); i < afg_tree_get_n_nodes (tree); i++)
    {
      gboolean outermost = g_str_has_prefix (afg_tree_get_node_name (tree, i), "aten::");

      for (guint32 p = afg_tree_get_node (tree, i)->parent; outermost && afg_tree_is_frame (tree, p);
           p = afg_tree_get_node (tree, p)->parent)
        outermost = !g_str_has_prefix (afg_tree_get_node_name (tree, p), "aten::");
      if (outermost)
        sum += afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, i);
    }
  return sum;
}

typedef struct {
  AfgTree          *tree;
  AfgTransformList *list;
} ThreadTransform;

static gpointer
transform_on_thread (gpointer data)
{
  ThreadTransform *t = data;
  g_autoptr(GError) error = NULL;
  AfgTree *out = afg_tree_transform (t->tree, t->list, NULL, &error);

  g_assert_no_error (error);
  return out;
}

/* The window's way: in a worker thread, the same tree. */
static void
test_async (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) sync = transform (tree, (const char *[]) { "collapse-indirect-recursion", "F", NULL });
  g_autoptr(AfgTransformList) list = list_of ((const char *[]) { "collapse-indirect-recursion", "F", NULL });
  ThreadTransform t = { tree, list };
  g_autoptr(AfgTree) async = g_thread_join (g_thread_new ("test-transform", transform_on_thread, &t));

  check_tree (async);
  assert_same_tree (async, sync, "async");
  assert_durations (async, "1/1;main;a;F;b", "50 50 50 50 50");
}

/* Walking 70,000 rows again for the calls notices a cancellation. */
static void
test_cancelled (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgTree) result = NULL;
  g_autoptr(AfgTransformList) list = list_of ((const char *[]) { "merge-function", "op", NULL });
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  afg_test_db_begin (db);
  for (gint64 k = 0; k < 70000; k++)
    afg_test_db_add (db, T1, 10 * k, 10 * k + 5, k % 2 ? "op" : "other");
  afg_test_db_commit (db);
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  g_cancellable_cancel (cancellable);
  result = afg_tree_transform (tree, list, cancellable, &error);
  g_assert_null (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* The real samples: for the functions with the most self time, every
 * transform keeps the layout and the calls behind the columns, and the
 * root totals follow the function table. */
static void
test_sample (gconstpointer data)
{
  g_autofree char *path = afg_test_sample_path (data, ".db");
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgTree) loaded = afg_test_load_tree (path, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgFunctionTable) table = NULL;

  g_assert_no_error (error);
  tree = afg_test_build (afg_tree_get_document (loaded), NULL, AFG_TREE_DURATIONS | AFG_TREE_MERGE_ADDRESSES);
  table = afg_function_table_new (tree);
  g_assert_cmpuint (check_kernels (tree), >, 100);
  for (guint k = 0; k < 3; k++)
    {
      g_autofree char *f = afg_frame_matcher_quote_name (afg_function_table_get_name (table, k));
      gint64 f_total = afg_function_table_get (table, k)->total_ns;
      static const char * const ops[] = { "focus-function", "merge-function", "drop-function", "collapse-recursion",
                                          "collapse-indirect-recursion" };

      for (guint o = 0; o < G_N_ELEMENTS (ops); o++)
        {
          g_autoptr(AfgTree) result = transform (tree, (const char *[]) { ops[o], f, NULL });

          check_kernels (result);
          if (o == 0)
            g_assert_cmpint (root_total (result), ==, f_total);
          else if (o == 2)
            g_assert_cmpint (root_total (result), ==, root_total (tree) - f_total);
          else
            g_assert_cmpint (root_total (result), ==, root_total (tree));
        }
    }
  /* With a regex, F's total counts the matching frames with no matching
   * ancestor. */
  {
    g_autoptr(AfgTree) focused = transform (tree, (const char *[]) { "focus-function", "/^aten::/", NULL });
    g_autoptr(AfgTree) dropped = transform (tree, (const char *[]) { "drop-function", "/^aten::/", NULL });

    g_assert_cmpint (outermost_aten_total (tree), >, 0);
    g_assert_cmpuint (check_kernels (focused), >, 0);
    check_kernels (dropped);
    g_assert_cmpint (root_total (focused), ==, outermost_aten_total (tree));
    g_assert_cmpint (root_total (dropped), ==, root_total (tree) - outermost_aten_total (tree));
  }
  /* A drop after an indirect collapse (level1: 53 frames whose calls no
   * longer added up to their totals): transform() checks every frame. */
  {
    g_autoptr(AfgTree) sequence = transform (tree, (const char *[]) { "collapse-indirect-recursion", "/forward/",
                                                                      "drop-function", "Enqueue", NULL });

    check_kernels (sequence);
  }
}

static void
assert_refused (const char *arg, AfgTransformError code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgFrameMatcher) matcher = afg_frame_matcher_new (arg, &error);

  g_assert_null (matcher);
  g_assert_error (error, AFG_TRANSFORM_ERROR, (gint) code);
  g_assert_nonnull (strstr (error->message, arg));
}

#define EMOJI "\xf0\x9f\x98\x80"

static gboolean
matches (const char *arg, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgFrameMatcher) matcher = afg_frame_matcher_new (arg, &error);

  g_assert_no_error (error);
  return afg_frame_matcher_matches (matcher, name);
}

/* What JavaScript reads the same way is taken, and matches as it would
 * there; the rest is refused, naming the argument. */
static void
test_matcher (void)
{
  g_assert_true (matches ("/^torch\\//", "torch/nn/modules/module.py(1501): _call_impl"));
  g_assert_false (matches ("/^torch\\//", "xtorch/nn"));
  g_assert_true (matches ("aten::to", "aten::to"));
  g_assert_false (matches ("aten::to", "aten::to_copy"));
  g_assert_true (matches ("//x", "/x"));
  g_assert_false (matches ("//x", "//x"));
  /* $ is the end, not before a final newline; . is no line break. */
  g_assert_false (matches ("/x$/", "x\n"));
  g_assert_false (matches ("/a.c/", "a\nc"));
  g_assert_true (matches ("/a.c/", "a\xc3\xa9" "c"));
  g_assert_true (matches ("/a.c/", "abc"));
  /* \d and \w are ASCII, as in JavaScript without the u flag. */
  g_assert_false (matches ("/^\\d$/", "\xd9\xa3"));
  g_assert_false (matches ("/^\\w$/", "\xc3\xa9"));
  g_assert_true (matches ("/\\bto\\b/", "aten::to"));
  g_assert_false (matches ("/\\bto\\b/", "aten::tox"));
  g_assert_true (matches ("/^(?:ab)+(?=c)[^x]{1,2}$/", "ababc"));
  g_assert_true (matches ("/\\u00e9/", "caf\xc3\xa9"));
  g_assert_true (matches ("/[\\]a-]/", "-"));
  /* Past U+FFFF a character is two units, as JavaScript without the u
   * flag reads it (each case as node answers it). */
  for (guint i = 0; i < 13; i++)
    {
      static const struct { const char *arg, *name; gboolean js; } units[] = {
        { "/^.$/", EMOJI, FALSE },           { "/^..$/", EMOJI, TRUE },
        { "/^[^x]$/", EMOJI, FALSE },        { "/^[^x]{2}$/", EMOJI, TRUE },
        { "/^\\S\\S$/", EMOJI, TRUE },       { "/^\\W$/", EMOJI, FALSE },
        { "/^" EMOJI "$/", EMOJI, TRUE },    { "/^" EMOJI "+$/", EMOJI EMOJI, FALSE },
        { "/a.b/", "a" EMOJI "b", FALSE },   { "/a..b/", "a" EMOJI "b", TRUE },
        { "/" EMOJI "/", "x" EMOJI "y", TRUE }, { "/^.{3}$/", "a" EMOJI, TRUE },
        { "/^\xf3\xb0\x80\x80$/", "\xf3\xb0\x80\x80", TRUE },
      };

      g_assert_cmpint (matches (units[i].arg, units[i].name), ==, units[i].js);
    }
  /* \D, \W and \S inside [ ], [\b] a backspace, \0 a NUL, and UTF-16
   * units by \u escape, alone, in pairs and in ranges (each as node
   * answers). */
  for (guint i = 0; i < 26; i++)
    {
      static const struct { const char *arg, *name; gboolean js; } cases[] = {
        { "/^[\\s\\S]$/", "a", TRUE },            { "/^[\\s\\S]$/", EMOJI, FALSE },
        { "/^[\\s\\S]{2}$/", EMOJI, TRUE },       { "/^[^\\S]$/", " ", TRUE },
        { "/^[^\\S]$/", "a", FALSE },              { "/^[a\\D]$/", "b", TRUE },
        { "/^[a\\D]$/", "5", FALSE },              { "/^[a\\D]$/", "a", TRUE },
        { "/^[^a\\D]$/", "5", TRUE },              { "/^[^a\\D]$/", "a", FALSE },
        { "/^[^a\\D]$/", "b", FALSE },             { "/[\\b]/", "a\bb", TRUE },
        { "/[\\b]/", "ab", FALSE },                { "/\\uD83D\\uDE00/", EMOJI, TRUE },
        { "/^\\uD83D/", "x" EMOJI, FALSE },        { "/^\\uD83D/", EMOJI, TRUE },
        { "/^[\\uD800-\\uDBFF]/", EMOJI, TRUE },  { "/^[\\uD800-\\uDBFF]/", "a", FALSE },
        { "/^[\\u0000-\\uFFFF]{2}$/", EMOJI, TRUE }, { "/^[^\\uDE00]{2}$/", EMOJI, FALSE },
        { "/^[\\uD7FF-\\uE000]$/", "\xee\x80\x80", TRUE }, { "/^[\\uD7FF-\\uE000]+$/", EMOJI, TRUE },
        { "/\\0/", "0", FALSE },                 { "/[\\0]/", "0", FALSE },
        { "/a\\0?b/", "ab", TRUE },              { "/^[^\\0]$/", "0", TRUE },
      };

      g_assert_cmpint (matches (cases[i].arg, cases[i].name), ==, cases[i].js);
    }
  assert_refused ("/abc", AFG_TRANSFORM_ERROR_NAME);
  assert_refused ("/", AFG_TRANSFORM_ERROR_NAME);
  for (guint i = 0; i < 14; i++)
    {
      static const char * const refused[] = {
        "/(?i)a/", "/\\p{L}/", "/a{/", "/[]/", "/[^]/", "/\\1/", "/a**/", "/(?<=a)b/", "/a)/", "/(a/",
        "/[[:alpha:]]/", "/\\Qa/", "/[\\B]/", "/[\\S-x]/",
      };

      assert_refused (refused[i], AFG_TRANSFORM_ERROR_REGEX);
    }
}

/* What a frame's menu appends: its name, or its path from the top. */
static void
test_arg_for_node (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "/top;x" },
    { T1, 0, 50, "a\\b" },
  };
  g_autoptr(AfgTree) tree = afg_test_load_events (AFG_TEST_DB_DEFAULT, events, G_N_ELEMENTS (events));
  g_autofree char *name = afg_tree_transform_arg_for_node (tree, AFG_TRANSFORM_MERGE_FUNCTION, 3);
  g_autofree char *path = afg_tree_transform_arg_for_node (tree, AFG_TRANSFORM_FOCUS_SUBTREE, 3);
  g_autoptr(AfgTree) focused = transform (tree, (const char *[]) { "focus-subtree", path, NULL });
  g_autoptr(AfgTree) merged = NULL;

  g_assert_cmpstr (name, ==, "a\\b");
  g_assert_cmpstr (path, ==, "/top\\;x;a\\\\b");
  afg_test_assert_tree (focused, (const char *[]) { "1/1\t1\t50\t0", "1/1;a\\b\t1\t50\t50", NULL });
  g_free (name);
  name = afg_tree_transform_arg_for_node (tree, AFG_TRANSFORM_MERGE_FUNCTION, 2);
  g_assert_cmpstr (name, ==, "//top;x");
  merged = transform (tree, (const char *[]) { "merge-function", name, NULL });
  afg_test_assert_tree (merged, (const char *[]) { "1/1\t1\t100\t0", "1/1;a\\b\t1\t50\t50", NULL });
}

/* A frame named "" has a path too (Alt+F on it focuses it). */
static void
test_arg_for_empty_name (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "" },
    { T1, 0, 50, "" },
  };
  g_autoptr(AfgTree) tree = afg_test_load_events (AFG_TEST_DB_DEFAULT, events, G_N_ELEMENTS (events));
  g_autofree char *path = afg_tree_transform_arg_for_node (tree, AFG_TRANSFORM_FOCUS_SUBTREE, 3);
  g_autoptr(AfgTree) focused = transform (tree, (const char *[]) { "focus-subtree", path, NULL });

  g_assert_cmpstr (path, ==, ";");
  afg_test_assert_tree (focused, (const char *[]) { "1/1\t1\t50\t0", "1/1;\t1\t50\t50", NULL });
}

/* A transformed tree built without durations still gives its frames'
 * calls (the histogram's), made again with them. */
static void
test_calls_without_durations (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  g_autoptr(AfgTree) plain = afg_test_build (afg_tree_get_document (tree), NULL, AFG_TREE_FLAGS_NONE);
  g_autoptr(AfgTree) focused = transform (plain, (const char *[]) { "focus-function", "F", NULL });
  g_autofree guint8 *marks = g_new0 (guint8, afg_tree_get_n_nodes (focused));
  g_autoptr(GArray) ns = NULL;

  marks[afg_test_find_node (focused, "1/1;F")] = 1;
  ns = afg_call_durations_collect (focused, marks, NULL);
  g_array_sort (ns, afg_compare_int64);
  g_assert_cmpuint (ns->len, ==, 2);
  g_assert_cmpint (g_array_index (ns, gint64, 0), ==, 200);
  g_assert_cmpint (g_array_index (ns, gint64, 1), ==, 400);
}

static void
test_paths (void)
{
  g_auto(GStrv) names = afg_transform_path_split ("a\\;b;c\\\\;d", NULL);
  g_autofree char *joined = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (g_strv_length (names), ==, 3);
  g_assert_cmpstr (names[0], ==, "a;b");
  g_assert_cmpstr (names[1], ==, "c\\");
  g_assert_cmpstr (names[2], ==, "d");
  joined = afg_transform_path_join ((const char * const *) names);
  g_assert_cmpstr (joined, ==, "a\\;b;c\\\\;d");
  g_assert_null (afg_transform_path_split ("a\\n", &error));
  g_assert_error (error, AFG_TRANSFORM_ERROR, AFG_TRANSFORM_ERROR_PATH);
  /* Empty names, as a frame's may be: every list of names joins into a
   * path that splits back into it. */
  {
    const char * const lists[][4] = { { "a", "", "b", NULL }, { "", NULL }, { "a", "", NULL }, { "", ";", "", NULL } };
    const char * const paths[] = { "a;;b", "", "a;", ";\\;;" };

    for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
      {
        g_auto(GStrv) split = afg_transform_path_split (paths[i], NULL);
        g_autofree char *path = afg_transform_path_join (lists[i]);

        g_assert_cmpstr (path, ==, paths[i]);
        g_assert_nonnull (split);
        g_assert_true (g_strv_equal ((const char * const *) split, lists[i]));
      }
  }
}

/* The node at @names below @from, AFG_NODE_NONE when there is none. */
static guint32
node_at_path (const AfgTree *tree, guint32 from, GPtrArray *names)
{
  guint32 node = from;

  for (guint k = 0; k < names->len && node != AFG_NODE_NONE; k++)
    {
      const AfgNode *parent = afg_tree_get_node (tree, node);

      node = AFG_NODE_NONE;
      for (guint32 c = 0; c < parent->n_children; c++)
        if (strcmp (afg_tree_get_node_name (tree, parent->first_child + c), g_ptr_array_index (names, k)) == 0)
          node = parent->first_child + c;
    }
  return node;
}

/* @names: the frame's names from its thread's top. */
static void
frame_path (const AfgTree *tree, guint32 node, GPtrArray *names)
{
  g_ptr_array_set_size (names, 0);
  for (; afg_tree_is_frame (tree, node); node = afg_tree_get_node (tree, node)->parent)
    g_ptr_array_insert (names, 0, (gpointer) afg_tree_get_node_name (tree, node));
}

static guint32
thread_node_of (const AfgTree *tree, gint64 global_tid)
{
  for (guint t = 0; t < afg_tree_get_n_threads (tree); t++)
    if (afg_tree_get_thread (tree, t)->global_tid == global_tid)
      return afg_tree_get_thread (tree, t)->node;
  return AFG_NODE_NONE;
}

/* Every frame's mapped path is a frame of the transformed tree (or its
 * thread), and every frame of that tree is where some frame lands. */
static void
check_mapper (AfgTree *tree, const char * const *pairs)
{
  g_autoptr(AfgTransformList) list = list_of (pairs);
  g_autoptr(AfgTree) result = transform (tree, pairs);
  g_autoptr(AfgPathMapper) mapper = afg_path_mapper_new (list);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autofree guint8 *reached = g_new0 (guint8, afg_tree_get_n_nodes (result));

  g_assert_nonnull (mapper);
  for (guint32 n = 0; n < afg_tree_get_n_nodes (tree); n++)
    {
      const AfgNode *node = afg_tree_get_node (tree, n);
      guint32 thread, found;

      if (!afg_tree_is_frame (tree, n))
        continue;
      frame_path (tree, n, names);
      if (!afg_path_mapper_map (mapper, names))
        continue;
      thread = thread_node_of (result, afg_tree_get_thread (tree, node->thread)->global_tid);
      g_assert_cmpuint (thread, !=, AFG_NODE_NONE);
      found = node_at_path (result, thread, names);
      g_assert_cmpuint (found, !=, AFG_NODE_NONE);
      reached[found] = 1;
    }
  for (guint32 n = 0; n < afg_tree_get_n_nodes (result); n++)
    if (afg_tree_is_frame (result, n) && !reached[n])
      g_error ("%s %s: no frame lands in node %u (%s)", pairs[0], pairs[1], n, afg_tree_get_node_name (result, n));
}

static void
assert_maps (const char * const *pairs, const char *from, const char *to)
{
  g_autoptr(AfgTransformList) list = list_of (pairs);
  g_autoptr(AfgPathMapper) mapper = afg_path_mapper_new (list);
  g_auto(GStrv) parts = g_strsplit (from, ";", -1);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autofree char *mapped = NULL;

  for (guint i = 0; parts[i] != NULL; i++)
    g_ptr_array_add (names, parts[i]);
  if (!afg_path_mapper_map (mapper, names))
    {
      g_assert_null (to);
      return;
    }
  g_ptr_array_add (names, NULL);
  mapped = g_strjoinv (";", (char **) names->pdata);
  g_assert_cmpstr (mapped, ==, to);
}

/* The stack chart finds a row's frame after the transforms by mapping
 * its path: the same place the tree's transform puts it. */
static void
test_path_mapper (void)
{
  g_autoptr(AfgTree) tree = load_shape ();
  const char * const *lists[] = {
    (const char *[]) { "focus-function", "F", NULL },
    (const char *[]) { "focus-function", "/a/", NULL },
    (const char *[]) { "focus-subtree", "main;F", NULL },
    (const char *[]) { "focus-subtree", "main;a;F;b", NULL },
    (const char *[]) { "merge-function", "F", NULL },
    (const char *[]) { "merge-function", "main", NULL },
    (const char *[]) { "merge-function", "/^[a-c]$/", NULL },
    (const char *[]) { "drop-function", "c", NULL },
    (const char *[]) { "collapse-recursion", "F", NULL },
    (const char *[]) { "collapse-indirect-recursion", "F", NULL },
    (const char *[]) { "focus-function", "F", "merge-function", "F", NULL },
    (const char *[]) { "drop-function", "c", "focus-subtree", "main;F", NULL },
    (const char *[]) { "collapse-indirect-recursion", "F", "merge-function", "a", "collapse-recursion", "F", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    check_mapper (tree, lists[i]);
  assert_maps ((const char *[]) { "merge-function", "F", NULL }, "main;a;F;b", "main;a;b");
  assert_maps ((const char *[]) { "merge-function", "F", NULL }, "main;F", "main");
  assert_maps ((const char *[]) { "merge-function", "main", NULL }, "main", "");
  assert_maps ((const char *[]) { "collapse-recursion", "F", NULL }, "main;F;F;c", "main;F;c");
  assert_maps ((const char *[]) { "collapse-indirect-recursion", "F", NULL }, "main;a;F;b;F;c", "main;a;F;c");
  assert_maps ((const char *[]) { "collapse-indirect-recursion", "F", NULL }, "main;a;F;b;F", "main;a;F");
  assert_maps ((const char *[]) { "focus-subtree", "main;F", NULL }, "main;F;F;c", "F;F;c");
  assert_maps ((const char *[]) { "focus-subtree", "main;F", NULL }, "main;a;F", NULL);
  assert_maps ((const char *[]) { "focus-function", "F", NULL }, "main;a;F;b;F", "F;b;F");
  assert_maps ((const char *[]) { "focus-function", "F", NULL }, "main;a", NULL);
  assert_maps ((const char *[]) { "drop-function", "b", NULL }, "main;a;F;b;F", NULL);
}

/* Random stacks of names that the transforms' arguments name, match by
 * regex, hold a ';' or a '\\', or look like a regex themselves. */
static const char * const random_names[] = { "a", "b", "F", "Fx", "c", "/x", "a;b", "a\\b", "F at 0x1f" };
static const char * const random_args[] = { "a", "b", "F", "Fx", "c", "/^F/", "/x|b/", "/a/", "///x", "a;b",
                                            "/;/", "/0x[0-9a-f]+/" };

static void
add_random_rows (AfgTestDb *db, GRand *rand, gint64 tid, gint64 start, gint64 end, guint depth)
{
  gint64 span, at = start + 1;
  gint32 n;

  if (depth >= 6 || end - start < 8 || (n = g_rand_int_range (rand, 0, depth == 0 ? 3 : 4)) == 0)
    return;
  span = (end - start - 2) / n;
  for (gint32 i = 0; i < n && span > 4; i++, at += span)
    {
      afg_test_db_add (db, tid, at + 1, at + span - 1, random_names[g_rand_int_range (rand, 0, G_N_ELEMENTS (random_names))]);
      add_random_rows (db, rand, tid, at + 1, at + span - 1, depth + 1);
    }
}

static AfgTransformList *
random_list (GRand *rand, AfgTree *tree)
{
  AfgTransformList *list = afg_transform_list_new ();
  gint32 n = g_rand_int_range (rand, 1, 4);

  for (gint32 i = 0; i < n; i++)
    {
      AfgTransformOp op = g_rand_int_range (rand, 0, AFG_N_TRANSFORM_OPS);
      g_autofree char *arg = NULL;

      if (op == AFG_TRANSFORM_FOCUS_SUBTREE && afg_tree_get_n_nodes (tree) > tree->first_frame)
        arg = afg_tree_transform_arg_for_node (tree, op, g_rand_int_range (rand, tree->first_frame,
                                                                           afg_tree_get_n_nodes (tree)));
      else
        arg = g_strdup (random_args[g_rand_int_range (rand, 0, G_N_ELEMENTS (random_args))]);
      g_assert_true (afg_transform_list_append (list, op == AFG_TRANSFORM_FOCUS_SUBTREE && arg[0] == '\0'
                                                        ? AFG_TRANSFORM_MERGE_FUNCTION : op, arg, NULL));
    }
  return list;
}

static char *
join_names (GPtrArray *names)
{
  GString *joined = g_string_new (NULL);

  /* A separator no name holds: names may hold ';'. */
  for (guint k = 0; k < names->len; k++)
    g_string_append_printf (joined, "%s%s", k > 0 ? "\x1f" : "", (const char *) g_ptr_array_index (names, k));
  return g_string_free (joined, FALSE);
}

/* Where one frame's time lands, traced by a kernel leaf given to it
 * alone: the path of the frame of the transformed tree holding the leaf,
 * NULL when none does. */
static char *
leaf_home (AfgTree *tree, const AfgTransformList *list, guint32 frame)
{
  AfgNodeKernel leaf = { { .name = afg_tree_get_node (tree, frame)->name, .ns = 1 }, frame };
  g_autoptr(AfgTree) result = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  guint32 home = AFG_NODE_NONE;

  afg_tree_set_kernels (tree, &leaf, 1, NULL);
  result = afg_tree_transform (tree, list, NULL, NULL);
  g_assert_nonnull (result);
  for (guint32 n = 0; n < afg_tree_get_n_nodes (result); n++)
    {
      guint k;

      afg_tree_get_kernels (result, n, &k);
      if (k > 0)
        home = n;
    }
  if (home == AFG_NODE_NONE || !afg_tree_is_frame (result, home))
    return NULL;
  frame_path (result, home, names);
  return join_names (names);
}

/* On random trees and lists of one to three transforms, every frame's
 * mapped path is where its time goes: a leaf given to that frame alone
 * lands on the frame of the mapped path, and nowhere when the mapper
 * leaves the frame out. */
static void
test_path_mapper_random (void)
{
  guint checked = 0;

  for (guint32 seed = 1; seed <= 300; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
      g_autoptr(AfgDocument) document = NULL;
      g_autoptr(AfgTree) tree = NULL;
      g_autoptr(AfgTransformList) list = NULL;
      g_autoptr(AfgPathMapper) mapper = NULL;
      g_autoptr(GPtrArray) names = g_ptr_array_new ();

      add_random_rows (db, rand, GTID (1, 1), 0, 100000, 0);
      add_random_rows (db, rand, GTID (1, 2), 0, 100000, 0);
      document = afg_test_db_load_document (db);
      afg_test_db_free (db);
      tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
      list = random_list (rand, tree);
      mapper = afg_path_mapper_new (list);
      g_assert_nonnull (mapper);
      for (guint32 frame = tree->first_frame; frame < afg_tree_get_n_nodes (tree); frame++)
        {
          g_autofree char *home = leaf_home (tree, list, frame);
          g_autofree char *mapped = NULL;

          frame_path (tree, frame, names);
          /* An empty path is the thread's: no frame holds the leaf. */
          if (afg_path_mapper_map (mapper, names) && names->len > 0)
            mapped = join_names (names);
          if (g_strcmp0 (home, mapped) != 0)
            g_error ("seed %u, frame %u: mapped to '%s', its time lands in '%s'", seed, frame,
                     mapped ? mapped : "(nothing)", home ? home : "(nothing)");
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, 1000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transforms/focus-function", test_focus_function);
  g_test_add_func ("/transforms/focus-subtree", test_focus_subtree);
  g_test_add_func ("/transforms/merge-function", test_merge_function);
  g_test_add_func ("/transforms/merge-top-frame", test_merge_top_frame);
  g_test_add_func ("/transforms/drop-function", test_drop_function);
  g_test_add_func ("/transforms/collapse-recursion", test_collapse_recursion);
  g_test_add_func ("/transforms/collapse-indirect-recursion", test_collapse_indirect_recursion);
  g_test_add_func ("/transforms/indirect-chain", test_indirect_chain);
  g_test_add_func ("/transforms/indirect-then-more", test_indirect_then_more);
  g_test_add_func ("/transforms/named", test_named);
  g_test_add_func ("/transforms/composition", test_composition);
  g_test_add_func ("/transforms/regex", test_regex);
  g_test_add_func ("/transforms/identity", test_identity);
  g_test_add_func ("/transforms/scoped", test_scoped);
  g_test_add_func ("/transforms/npu-columns", test_npu_columns);
  g_test_add_func ("/transforms/merged-addresses", test_merged_addresses);
  g_test_add_func ("/transforms/matcher", test_matcher);
  g_test_add_func ("/transforms/async", test_async);
  g_test_add_func ("/transforms/cancelled", test_cancelled);
  g_test_add_data_func ("/transforms/sample/level0", "ascend_pytorch_profiler_level0_rank0", test_sample);
  g_test_add_data_func ("/transforms/sample/level1", "ascend_pytorch_profiler_level1_rank0", test_sample);
  g_test_add_func ("/transforms/paths", test_paths);
  g_test_add_func ("/transforms/path-mapper", test_path_mapper);
  g_test_add_func ("/transforms/path-mapper-random", test_path_mapper_random);
  g_test_add_func ("/transforms/arg-for-node", test_arg_for_node);
  g_test_add_func ("/transforms/arg-for-empty-name", test_arg_for_empty_name);
  g_test_add_func ("/transforms/calls-without-durations", test_calls_without_durations);
  return g_test_run ();
}
