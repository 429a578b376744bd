/* SPDX-License-Identifier: MIT */
/* The function table (one row per distinct frame name, recursion counted
 * once), its sandwich trees, the per-frame duration percentiles (nearest
 * rank) and --top, against hand-made DBs and the real samples. */
#include "config.h"

#include <string.h>

#include "afg-diff-functions.h"
#include "afg-function-table.h"
#include "afg-palette.h"
#include "afg-test-db.h"

#define T1 GTID (1, 1)
#define T2 GTID (1, 2)

enum { EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE };

static AfgTree *
build_tree (AfgTestDb *db, const AfgScope *scope, AfgTreeFlags flags)
{
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  AfgTree *tree = afg_test_build (document, scope, flags | AFG_TREE_DURATIONS);

  afg_test_db_free (db);
  return tree;
}

/* "name calls self_ns total_ns", the .functions.expected format. */
static GPtrArray *
render_functions (const AfgFunctionTable *table)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint k = 0; k < afg_function_table_get_n_functions (table); k++)
    {
      const AfgFunction *f = afg_function_table_get (table, k);

      g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT,
                                               afg_function_table_get_name (table, k),
                                               f->calls, f->self_ns, f->total_ns));
    }
  return lines;
}

static void
assert_functions (AfgTree *tree, const char * const *expected_lines)
{
  g_autoptr(AfgFunctionTable) table = afg_function_table_new (tree);
  g_autoptr(GPtrArray) actual = render_functions (table);
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();

  for (guint i = 0; expected_lines[i] != NULL; i++)
    g_ptr_array_add (expected, (gpointer) expected_lines[i]);
  afg_test_assert_lines (actual, expected, "functions");
}

static const AfgColumn host_columns[] = { AFG_COLUMN_CALLS, AFG_COLUMN_TOTAL_NS, AFG_COLUMN_SELF_NS };
static const AfgColumn npu_columns[] = { AFG_COLUMN_NPU_TOTAL_NS, AFG_COLUMN_NPU_SELF_NS, AFG_COLUMN_NPU_TASKS };

/* A sandwich tree as "path value value value" lines from its root, the
 * values of @columns (three). */
static GPtrArray *
render_sandwich (const AfgTree *tree, const AfgColumn *columns)
{
  guint n = afg_tree_get_n_nodes (tree);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint k = 0; k < 3; k++)
    g_assert_true (afg_tree_has_column (tree, columns[k]));
  for (guint32 i = 0; i < n; i++)
    {
      const AfgNode *node = afg_tree_get_node (tree, i);
      const char *name = afg_tree_get_node_name (tree, i);
      char *path = i == 0 ? g_strdup (name) : g_strconcat (paths->pdata[node->parent], ";", name, NULL);

      g_assert_cmpuint (node->depth, ==, i == 0 ? 0 : afg_tree_get_node (tree, node->parent)->depth + 1);
      g_ptr_array_add (paths, path);
      g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT,
                                               path, afg_tree_get_value (tree, columns[0], i),
                                               afg_tree_get_value (tree, columns[1], i),
                                               afg_tree_get_value (tree, columns[2], i)));
    }
  return lines;
}

static void
assert_columns (AfgTree *tree, const AfgColumn *columns, const char * const *expected_lines)
{
  g_autoptr(GPtrArray) actual = render_sandwich (tree, columns);
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();

  for (guint i = 0; expected_lines[i] != NULL; i++)
    g_ptr_array_add (expected, (gpointer) expected_lines[i]);
  afg_test_assert_lines (actual, expected, "sandwich");
  afg_tree_unref (tree);
}

/* "path calls total self" */
static void
assert_sandwich (AfgTree *tree, const char * const *expected_lines)
{
  assert_columns (tree, host_columns, expected_lines);
}

/* "path npu_total npu_self npu_tasks" */
static void
assert_npu_sandwich (AfgTree *tree, const char * const *expected_lines)
{
  assert_columns (tree, npu_columns, expected_lines);
}

/* A -> B -> A -> C: the inner A is in A's calls and self time, but its
 * time is already inside the outer A's total. */
static AfgTree *
recursion_tree (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);

  afg_test_db_add (db, T1, 0, 100, "A");
  afg_test_db_add (db, T1, 10, 90, "B");
  afg_test_db_add (db, T1, 20, 80, "A");
  afg_test_db_add (db, T1, 30, 40, "C");
  return build_tree (db, NULL, AFG_TREE_FLAGS_NONE);
}

static void
test_recursion (void)
{
  g_autoptr(AfgTree) tree = recursion_tree ();
  static const char * const expected[] = {
    "A\t2\t70\t100", "B\t1\t20\t80", "C\t1\t10\t10", NULL,
  };

  assert_functions (tree, expected);
}

static void
test_recursion_sandwich (void)
{
  g_autoptr(AfgTree) tree = recursion_tree ();
  static const char * const callees[] = {
    "A\t1\t100\t20", "A;B\t1\t80\t20", "A;B;A\t1\t60\t50", "A;B;A;C\t1\t10\t10", NULL,
  };
  static const char * const callers_a[] = { "A\t1\t100\t100", NULL };
  static const char * const callers_c[] = {
    "C\t1\t10\t0", "C;A\t1\t10\t0", "C;A;B\t1\t10\t0", "C;A;B;A\t1\t10\t10", NULL,
  };

  assert_sandwich (afg_function_table_callees (tree, "A"), callees);
  assert_sandwich (afg_function_table_callers (tree, "A"), callers_a);
  assert_sandwich (afg_function_table_callers (tree, "C"), callers_c);
  g_assert_null (afg_function_table_callers (tree, "missing"));
  /* Thread labels are not functions. */
  g_assert_null (afg_function_table_callees (tree, "1/1"));
}

/* f [0,1000) launches 10 ns, g inside it 20 ns, f inside g 40 ns: callees
 * merge the device time of the subtrees; callers give each level the
 * outermost frame's device time, as self (with the tasks below it) at the
 * thread's top level. */
static void
test_npu_sandwich (void)
{
  g_autoptr(AfgTree) tree = build_tree (afg_test_db_new_npu_recursion (), NULL, AFG_TREE_FLAGS_NONE);
  static const char * const callees_f[] = { "f\t70\t10\t1", "f;g\t60\t20\t1", "f;g;f\t40\t40\t1", NULL };
  static const char * const callers_f[] = { "f\t70\t70\t3", NULL };
  static const char * const callees_g[] = { "g\t60\t20\t1", "g;f\t40\t40\t1", NULL };
  static const char * const callers_g[] = { "g\t60\t0\t0", "g;f\t60\t60\t2", NULL };

  assert_npu_sandwich (afg_function_table_callees (tree, "f"), callees_f);
  assert_npu_sandwich (afg_function_table_callers (tree, "f"), callers_f);
  assert_npu_sandwich (afg_function_table_callees (tree, "g"), callees_g);
  assert_npu_sandwich (afg_function_table_callers (tree, "g"), callers_g);
}

/* Without NPU data the sandwich has no NPU columns either. */
static void
test_host_sandwich_no_npu (void)
{
  g_autoptr(AfgTree) tree = recursion_tree ();
  g_autoptr(AfgTree) callers = afg_function_table_callers (tree, "A");
  g_autoptr(AfgTree) callees = afg_function_table_callees (tree, "A");

  g_assert_false (afg_tree_has_column (callers, AFG_COLUMN_NPU_TOTAL_NS));
  g_assert_false (afg_tree_has_column (callees, AFG_COLUMN_NPU_TOTAL_NS));
}

static gint64
sum_column (const AfgTree *tree, AfgColumn column)
{
  gint64 sum = 0;

  for (guint32 i = 0; i < afg_tree_get_n_nodes (tree); i++)
    sum += afg_tree_get_value (tree, column, i);
  return sum;
}

/* Every function of the level 1 sample, in each device weight (all
 * tasks, compute, collectives, exposed): both halves' roots hold the
 * device time of its outermost frames; the callees keep every frame's own
 * device time and tasks below them; the callers' top level holds it all
 * as self. */
static void
test_npu_sandwich_sample (void)
{
  g_autofree char *path = afg_test_sample_path ("ascend_pytorch_profiler_level1_rank0", ".db");
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgFunctionTable) table = NULL;
  guint checked = 0;

  g_assert_no_error (error);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  table = afg_function_table_new (tree);
  for (guint k = 0; k < afg_function_table_get_n_functions (table); k++)
    {
      const char *name = afg_function_table_get_name (table, k);
      g_autoptr(AfgTree) callers = afg_function_table_callers (tree, name);
      g_autoptr(AfgTree) callees = afg_function_table_callees (tree, name);
      static const AfgColumn totals[] = { AFG_COLUMN_NPU_TOTAL_NS, AFG_COLUMN_NPU_COMPUTE_TOTAL_NS,
                                          AFG_COLUMN_COMM_TOTAL_NS, AFG_COLUMN_COMM_EXPOSED_TOTAL_NS };

      for (guint w = 0; w < G_N_ELEMENTS (totals); w++)
        {
          gint64 outer = afg_tree_get_value (callees, totals[w], AFG_TREE_ROOT);

          g_assert_cmpint (afg_tree_get_value (callers, totals[w], AFG_TREE_ROOT), ==, outer);
          g_assert_cmpint (sum_column (callers, totals[w] + 1), ==, outer);
          g_assert_cmpint (sum_column (callees, totals[w] + 1), ==, outer);
          checked += outer > 0;
        }
      g_assert_cmpint (sum_column (callers, AFG_COLUMN_NPU_TASKS), ==, sum_column (callees, AFG_COLUMN_NPU_TASKS));
      g_assert_cmpint (sum_column (callers, AFG_COLUMN_NPU_COMPUTE_TASKS), ==,
                       sum_column (callees, AFG_COLUMN_NPU_COMPUTE_TASKS));
      g_assert_cmpint (sum_column (callers, AFG_COLUMN_COMM_OPS), ==, sum_column (callees, AFG_COLUMN_COMM_OPS));
    }
  g_assert_cmpuint (checked, >, 20);
}

static gboolean
is_structure_grey (const AfgFlameColor *c)
{
  return c->red == AFG_FLAME_STRUCTURE_RED && c->green == AFG_FLAME_STRUCTURE_GREEN && c->blue == AFG_FLAME_STRUCTURE_BLUE;
}

/* Every node of a sandwich is a frame, coloured by its name as the page
 * colours it (the function at the root, its direct callers below it);
 * a profile's root and threads stay structure grey. */
static void
test_sandwich_colors (void)
{
  g_autoptr(AfgTree) tree = recursion_tree ();
  g_autoptr(AfgTree) callers = afg_function_table_callers (tree, "C");
  AfgFlameColor color, expected;

  for (guint32 n = 0; n < afg_tree_get_n_nodes (callers); n++)
    {
      g_assert_true (afg_tree_is_frame (callers, n));
      afg_flame_color_for_node (callers, n, &color);
      afg_flame_color_for_name (afg_tree_get_node_name (callers, n), afg_tree_get_node_category (callers, n), &expected);
      g_assert_true (memcmp (&color, &expected, sizeof color) == 0);
      g_assert_false (is_structure_grey (&color));
    }
  for (guint32 n = 0; n < 2; n++)
    {
      g_assert_false (afg_tree_is_frame (tree, n));
      afg_flame_color_for_node (tree, n, &color);
      g_assert_true (is_structure_grey (&color));
    }
  g_assert_true (afg_tree_is_frame (tree, 2));
}

/* X in two threads, called from two places in one of them. */
static AfgTree *
two_threads_tree (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);

  afg_test_db_add (db, T1, 0, 30, "X");
  afg_test_db_add (db, T2, 0, 100, "main");
  afg_test_db_add (db, T2, 10, 30, "X");
  afg_test_db_add (db, T2, 40, 45, "X");
  afg_test_db_add (db, T2, 50, 90, "helper");
  afg_test_db_add (db, T2, 60, 62, "X");
  return build_tree (db, NULL, AFG_TREE_FLAGS_NONE);
}

static void
test_two_threads (void)
{
  g_autoptr(AfgTree) tree = two_threads_tree ();
  g_autoptr(AfgFunctionTable) table = afg_function_table_new (tree);
  static const char * const expected[] = {
    "X\t4\t57\t57", "main\t1\t35\t100", "helper\t1\t38\t40", NULL,
  };
  static const char * const callers[] = {
    "X\t4\t57\t30", "X;main\t2\t25\t25", "X;helper\t1\t2\t0", "X;helper;main\t1\t2\t2", NULL,
  };
  guint x = afg_function_table_find (table, "X");
  guint n_frames;
  const guint32 *frames;
  g_autofree char *d = NULL;

  assert_functions (tree, expected);
  g_assert_cmpuint (x, ==, 0);  /* most self time first */
  g_assert_cmpint (afg_function_table_get (table, x)->category, ==, AFG_CATEGORY_UNKNOWN);
  frames = afg_function_table_get_frames (table, x, &n_frames);
  g_assert_cmpuint (n_frames, ==, 3);
  g_assert_cmpuint (frames[0], ==, afg_test_find_node (tree, "1/1;X"));
  g_assert_cmpuint (frames[1], ==, afg_test_find_node (tree, "1/2;main;X"));
  g_assert_cmpuint (frames[2], ==, afg_test_find_node (tree, "1/2;main;helper;X"));
  for (guint k = 0; k < n_frames; k++)
    g_assert_cmpuint (afg_function_table_find_node (table, frames[k]), ==, x);
  g_assert_cmpuint (afg_function_table_find_node (table, AFG_TREE_ROOT), ==, AFG_FUNCTION_NONE);
  g_assert_cmpint (afg_function_table_get_all_ns (table), ==, 130);
  d = afg_test_durations_of (tree, "1/2;main;X");
  g_assert_cmpstr (d, ==, "5 5 20 20 20");
  assert_sandwich (afg_function_table_callers (tree, "X"), callers);
}

static void
test_sort (void)
{
  g_autoptr(AfgTree) tree = two_threads_tree ();
  g_autoptr(AfgFunctionTable) table = afg_function_table_new (tree);
  static const struct { AfgFunctionSort key; gboolean descending; const char *order; } cases[] = {
    { AFG_FUNCTION_SORT_NAME, FALSE, "X helper main" },
    { AFG_FUNCTION_SORT_NAME, TRUE, "main helper X" },
    { AFG_FUNCTION_SORT_CALLS, TRUE, "X helper main" },
    { AFG_FUNCTION_SORT_SELF, FALSE, "main helper X" },
    { AFG_FUNCTION_SORT_TOTAL, TRUE, "main X helper" },
    { AFG_FUNCTION_SORT_CATEGORY, FALSE, "X helper main" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree guint *order = afg_function_table_sort (table, cases[c].key, cases[c].descending);
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint k = 0; k < afg_function_table_get_n_functions (table); k++)
        g_string_append_printf (names, "%s%s", k ? " " : "", afg_function_table_get_name (table, order[k]));
      g_assert_cmpstr (names->str, ==, cases[c].order);
    }
}

/* n calls of one frame with the given durations, in that order. */
static char *
percentiles_of (const gint64 *durations, guint n)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgTree) tree = NULL;
  gint64 at = 0;

  afg_test_db_begin (db);
  for (guint i = 0; i < n; i++, at += 1000)
    afg_test_db_add (db, T1, at, at + durations[i], "f");
  afg_test_db_commit (db);
  tree = build_tree (db, NULL, AFG_TREE_FLAGS_NONE);
  return afg_test_durations_of (tree, "1/1;f");
}

static void
test_percentiles (void)
{
  gint64 one[] = { 42 }, two[] = { 7, 3 }, hundred[100];
  g_autofree char *p1 = percentiles_of (one, 1);
  g_autofree char *p2 = percentiles_of (two, 2);
  g_autofree char *p100 = NULL;

  /* 1..100 shuffled: the k-th smallest is k. */
  for (guint i = 0; i < 100; i++)
    hundred[i] = (i * 37) % 100 + 1;
  p100 = percentiles_of (hundred, 100);
  g_assert_cmpstr (p1, ==, "42 42 42 42 42");
  /* ceil(0.5*2) = 1st, ceil(0.9*2) = 2nd. */
  g_assert_cmpstr (p2, ==, "3 3 7 7 7");
  g_assert_cmpstr (p100, ==, "1 50 90 99 100");
}

/* In a step scope a call's duration is its overlap with the step. */
static void
test_durations_scoped (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  AfgScope scope = { TRUE, 50, 200 };
  g_autoptr(AfgTree) tree = NULL;
  g_autofree char *d = NULL;

  afg_test_db_add (db, T1, 0, 100, "f");
  afg_test_db_add (db, T1, 120, 130, "f");
  afg_test_db_add (db, T1, 190, 300, "f");
  afg_test_db_add (db, T1, 400, 500, "f");
  tree = build_tree (db, &scope, AFG_TREE_FLAGS_NONE);
  d = afg_test_durations_of (tree, "1/1;f");
  g_assert_cmpstr (d, ==, "10 10 50 50 50");
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_CALLS, afg_test_find_node (tree, "1/1;f")), ==, 3);
}

/* Without the flag the tree has no duration columns (and JSON none). */
static void
test_durations_opt_in (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_add (db, T1, 0, 100, "f");
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_assert_false (afg_tree_has_column (tree, AFG_COLUMN_DURATION_MIN));
  afg_test_db_free (db);
}

static void
test_merge_addresses (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgTree) tree = NULL;
  static const char * const expected[] = {
    "<built-in method f of X object at 0x…>\t2\t30\t30", NULL,
  };
  g_autofree char *d = NULL;

  afg_test_db_add (db, T1, 0, 10, "<built-in method f of X object at 0xfffd01>");
  afg_test_db_add (db, T1, 20, 40, "<built-in method f of X object at 0xfffd02>");
  tree = build_tree (db, NULL, AFG_TREE_MERGE_ADDRESSES);
  assert_functions (tree, expected);
  d = afg_test_durations_of (tree, "1/1;<built-in method f of X object at 0x…>");
  g_assert_cmpstr (d, ==, "10 10 20 20 20");
}


/* Frames only: ".expected" lines with the five durations appended. */
static GPtrArray *
render_durations (const AfgTree *tree)
{
  g_autoptr(GPtrArray) nodes = afg_test_render_tree (tree);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  /* afg_test_render_tree renders node i + 1 as line i. */
  for (guint32 i = 1 + afg_tree_get_n_threads (tree); i < afg_tree_get_n_nodes (tree); i++)
    {
      GString *line = g_string_new (nodes->pdata[i - 1]);

      for (guint k = 0; k < AFG_N_DURATION_COLUMNS; k++)
        g_string_append_printf (line, "\t%" G_GINT64_FORMAT, afg_tree_get_value (tree, AFG_COLUMN_DURATION_MIN + k, i));
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  return lines;
}

static void
test_sample (gconstpointer data)
{
  const char *name = data;
  g_autofree char *db_path = afg_test_sample_path (name, ".db");
  g_autofree char *functions_path = afg_test_sample_path (name, ".functions.expected");
  g_autofree char *durations_path = afg_test_sample_path (name, ".durations.expected");
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (db_path, NULL, NULL, NULL, &error);
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(AfgFunctionTable) table = NULL;
  g_autoptr(GPtrArray) expected_functions = afg_test_read_lines (functions_path);
  g_autoptr(GPtrArray) expected_durations = afg_test_read_lines (durations_path);
  g_autoptr(GPtrArray) functions = NULL;
  g_autoptr(GPtrArray) durations = NULL;

  g_assert_no_error (error);
  tree = afg_test_build (document, NULL, AFG_TREE_DURATIONS);
  table = afg_function_table_new (tree);
  g_assert_cmpuint (expected_functions->len, >, 500);
  functions = render_functions (table);
  afg_test_assert_lines (functions, expected_functions, name);
  durations = render_durations (tree);
  afg_test_assert_lines (durations, expected_durations, name);
}

static void
test_cli_top (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  const char *top2[] = { "--top", "2", NULL, NULL };
  const char *zero[] = { "--top=0", NULL, NULL };

  afg_test_db_add (db, T1, 0, 3000000, "main");
  afg_test_db_add (db, T1, 0, 2000000, "aten::copy_\x1b[2J");
  afg_test_db_add (db, T1, 2500000, 2500500, "tiny");
  path = afg_test_db_keep (db);
  top2[2] = path;
  g_assert_cmpint (afg_test_run_cli (top2, FALSE, &out, &err), ==, EXIT_OK);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);  /* header, two rows, "" */
  g_assert_nonnull (strstr (lines[0], "calls"));
  /* The escape is not passed to the terminal. */
  g_assert_cmpstr (lines[1], ==, "           1      2.00 ms      2.00 ms    66.7%  aten::copy_\xef\xbf\xbd[2J");
  g_assert_cmpstr (lines[2], ==, "           1     999.5 µs      3.00 ms    33.3%  main");
  g_assert_cmpstr (lines[3], ==, "");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  zero[1] = path;
  g_assert_cmpint (afg_test_run_cli (zero, FALSE, &out, &err), ==, EXIT_USAGE);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "--top"));
  {
    g_autofree char *dir = g_path_get_dirname (path);
    afg_test_rm_rf (dir);
  }
}

/* --top with --weight npu: by NPU self time, NPU times, % of the device
 * time; f launched 10 + 40 ns (70 with g's 20 below it), g 20 ns. */
static void
test_cli_top_npu (void)
{
  g_autofree char *path = afg_test_db_keep (afg_test_db_new_npu_recursion ());
  g_autofree char *dir = g_path_get_dirname (path);
  const char *argv[] = { "--top", "5", "--weight", "npu", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (afg_test_run_cli (argv, FALSE, &out, &err), ==, EXIT_OK);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_nonnull (strstr (lines[0], "NPU self"));
  g_assert_nonnull (strstr (lines[0], "NPU total"));
  g_assert_cmpstr (lines[1], ==, "           2        50 ns        70 ns    71.4%  f");
  g_assert_cmpstr (lines[2], ==, "           1        20 ns        60 ns    28.6%  g");
  afg_test_rm_rf (dir);
}

/* A diff's functions: each side's calls and self time over its frames,
 * its total over the outermost frames (g calls itself in A: its total
 * 30, not 50), threads merged as the diff merges them; ordered by
 * |Δ self|: main +150, h +60, g −10. */
static void
test_diff (void)
{
  static const AfgTestEvent a_events[] = {
    { T1, 0, 100, "main" }, { T1, 10, 40, "g" }, { T1, 15, 35, "g" }, { T1, 50, 90, "h" },
  };
  static const AfgTestEvent b_events[] = {
    { T2, 500, 800, "main" }, { T2, 510, 530, "g" }, { T2, 600, 700, "h" },
  };
  static const struct {
    const char *name;
    gint64 calls[2], self_ns[2], total_ns[2];
  } want[] = {
    { "main", { 1, 1 }, { 30, 180 }, { 100, 300 } },
    { "h", { 1, 1 }, { 40, 100 }, { 40, 100 } },
    { "g", { 2, 1 }, { 30, 20 }, { 30, 20 } },
  };
  g_autoptr(AfgTree) a = afg_test_load_events (AFG_TEST_DB_DEFAULT, a_events, G_N_ELEMENTS (a_events));
  g_autoptr(AfgTree) b = afg_test_load_events (AFG_TEST_DB_DEFAULT, b_events, G_N_ELEMENTS (b_events));
  g_autoptr(AfgDiffShape) shape = afg_diff_shape_new (a, b, "a ↔ b", NULL);
  g_autoptr(AfgDiffFunctions) functions = afg_diff_functions_new (shape);

  g_assert_cmpuint (afg_diff_functions_get_n (functions), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      const AfgDiffFunction *f = afg_diff_functions_get (functions, i);

      g_assert_cmpstr (afg_diff_functions_get_name (functions, i), ==, want[i].name);
      for (AfgDiffSide s = AFG_DIFF_SIDE_A; s <= AFG_DIFF_SIDE_B; s++)
        {
          g_assert_cmpint (f->calls[s], ==, want[i].calls[s]);
          g_assert_cmpint (f->self_ns[s], ==, want[i].self_ns[s]);
          g_assert_cmpint (f->total_ns[s], ==, want[i].total_ns[s]);
        }
    }
}

static AfgTree *
load_sample_tree (const char *name, AfgTreeFlags flags)
{
  g_autofree char *path = afg_test_sample_path (name, ".db");
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return afg_test_build (document, NULL, flags);
}

/* On the samples, each function's sums against a plain reading of the
 * diff's nodes: every frame of its name for calls and self time, those
 * with no ancestor of its name (a walk up the parents) for the total;
 * the order by |Δ self|. */
static gboolean
has_ancestor_named (AfgTree *tree, guint32 node, guint32 name)
{
  for (guint32 p = afg_tree_get_node (tree, node)->parent; p != AFG_TREE_ROOT && p != AFG_NODE_NONE;
       p = afg_tree_get_node (tree, p)->parent)
    if (afg_tree_get_node (tree, p)->name == name)
      return TRUE;
  return FALSE;
}

static void
test_diff_samples (void)
{
  g_autoptr(AfgTree) a = load_sample_tree ("ascend_pytorch_profiler_level0_rank0", AFG_TREE_MERGE_ADDRESSES);
  g_autoptr(AfgTree) b = load_sample_tree ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_MERGE_ADDRESSES);
  g_autoptr(AfgDiffShape) shape = afg_diff_shape_new (a, b, "a ↔ b", NULL);
  g_autoptr(AfgDiffFunctions) functions = afg_diff_functions_new (shape);
  AfgTree *tree = afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_B);
  gint64 last = G_MAXINT64;

  g_assert_cmpuint (afg_diff_functions_get_n (functions), >, 100);
  for (guint i = 0; i < afg_diff_functions_get_n (functions); i++)
    {
      const AfgDiffFunction *f = afg_diff_functions_get (functions, i);
      gint64 want[3][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
      gint64 delta = ABS (f->self_ns[1] - f->self_ns[0]);

      g_assert_cmpint (delta, <=, last);
      last = delta;
      for (guint32 n = 1; n < afg_tree_get_n_nodes (tree); n++)
        if (afg_tree_get_node (tree, n)->name == f->name)
          for (AfgDiffSide s = AFG_DIFF_SIDE_A; s <= AFG_DIFF_SIDE_B; s++)
            {
              want[0][s] += afg_diff_shape_get_value (shape, s, AFG_COLUMN_CALLS, n);
              want[1][s] += afg_diff_shape_get_value (shape, s, AFG_COLUMN_SELF_NS, n);
              if (!has_ancestor_named (tree, n, f->name))
                want[2][s] += afg_diff_shape_get_value (shape, s, AFG_COLUMN_TOTAL_NS, n);
            }
      for (AfgDiffSide s = AFG_DIFF_SIDE_A; s <= AFG_DIFF_SIDE_B; s++)
        {
          g_assert_cmpint (f->calls[s], ==, want[0][s]);
          g_assert_cmpint (f->self_ns[s], ==, want[1][s]);
          g_assert_cmpint (f->total_ns[s], ==, want[2][s]);
        }
    }
}

int
main (int argc, char **argv)
{
  static const char * const samples[] = {
    "ascend_pytorch_profiler_level0_rank0",
    "ascend_pytorch_profiler_level1_rank0",
  };

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/functions/recursion", test_recursion);
  g_test_add_func ("/functions/recursion-sandwich", test_recursion_sandwich);
  g_test_add_func ("/functions/two-threads", test_two_threads);
  g_test_add_func ("/functions/npu-sandwich", test_npu_sandwich);
  g_test_add_func ("/functions/sandwich-colors", test_sandwich_colors);
  g_test_add_func ("/functions/npu-sandwich-absent", test_host_sandwich_no_npu);
  g_test_add_func ("/functions/npu-sandwich-sample", test_npu_sandwich_sample);
  g_test_add_func ("/functions/sort", test_sort);
  g_test_add_func ("/functions/merge-addresses", test_merge_addresses);
  g_test_add_func ("/durations/percentiles", test_percentiles);
  g_test_add_func ("/durations/scoped", test_durations_scoped);
  g_test_add_func ("/durations/opt-in", test_durations_opt_in);
  g_test_add_func ("/functions/diff", test_diff);
  g_test_add_func ("/functions/diff/samples", test_diff_samples);
  g_test_add_func ("/functions/cli-top", test_cli_top);
  g_test_add_func ("/functions/cli-top-npu", test_cli_top_npu);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = g_strconcat ("/functions/samples/", samples[i], NULL);

      g_test_add_data_func (path, samples[i], test_sample);
    }
  return g_test_run ();
}
