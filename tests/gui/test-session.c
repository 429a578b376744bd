/* SPDX-License-Identifier: MIT */
/* AfgSession, the window's state without widgets: the column the widths
 * follow is the chosen weight only where the tree has it and no
 * comparison is shown, and each property notifies once per change. */
#include "config.h"

#include "afg-gui-test-tree.h"
#include "afg-loader.h"
#include "afg-session.h"
#include "afg-tree-builder.h"

static void
count_notify (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

/* @count lives as long as @session. */
static void
watch (AfgSession *session, const char *property, guint *count)
{
  g_autofree char *signal = g_strconcat ("notify::", property, NULL);

  g_signal_connect (session, signal, G_CALLBACK (count_notify), count);
}

static void
test_column (AfgGuiTreeFixture *f, gconstpointer data)
{
  guint n_columns = 0, n_weights = 0;
  guint *columns = &n_columns, *weights = &n_weights;
  g_autoptr(AfgSession) session = afg_session_new ();
  g_autoptr(AfgTree) npu = afg_gui_test_load_sample ("ascend_pytorch_profiler_level1_rank0", AFG_TREE_FLAGS_NONE);

  watch (session, "column", columns);
  watch (session, "weight", weights);

  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_TOTAL_NS);
  afg_session_set_weight (session, AFG_SESSION_WEIGHT_NPU);
  afg_session_set_weight (session, AFG_SESSION_WEIGHT_NPU);
  g_assert_cmpuint (*weights, ==, 1);
  /* No tree: host time, whatever was chosen. */
  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_TOTAL_NS);
  g_assert_cmpuint (*columns, ==, 0);

  afg_session_set_tree (session, npu);
  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_NPU_TOTAL_NS);
  g_assert_cmpuint (*columns, ==, 1);
  /* A comparison weighs host time, and the choice is kept for after. */
  afg_session_set_comparing (session, TRUE);
  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_TOTAL_NS);
  afg_session_set_comparing (session, FALSE);
  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_NPU_TOTAL_NS);
  g_assert_cmpuint (*columns, ==, 3);

  /* A tree without NPU time shows host time; the choice stays NPU. */
  g_assert_false (afg_tree_has_column (f->tree, AFG_COLUMN_NPU_TOTAL_NS));
  afg_session_set_tree (session, f->tree);
  g_assert_cmpint (afg_session_get_column (session), ==, AFG_COLUMN_TOTAL_NS);
  g_assert_cmpint (afg_session_get_weight (session), ==, AFG_SESSION_WEIGHT_NPU);
  g_assert_cmpint (afg_session_column_for (session, npu), ==, AFG_COLUMN_NPU_TOTAL_NS);
}

/* The session holds a reference: the tree outlives its last other owner. */
static void
test_tree_ref (AfgGuiTreeFixture *f, gconstpointer data)
{
  guint n_trees = 0, *trees = &n_trees;
  g_autoptr(AfgSession) session = afg_session_new ();
  AfgTree *tree = afg_tree_ref (f->tree);

  watch (session, "tree", trees);

  afg_session_set_tree (session, tree);
  afg_session_set_tree (session, tree);
  g_assert_cmpuint (*trees, ==, 1);
  afg_tree_unref (tree);
  g_assert_true (afg_session_get_tree (session) == f->tree);
  afg_session_set_tree (session, NULL);
  g_assert_null (afg_session_get_tree (session));
  g_assert_cmpuint (*trees, ==, 2);
}

/* merge-addresses is on by default and gives the tree flags. */
static void
test_merge (void)
{
  guint n_merges = 0, *merges = &n_merges;
  g_autoptr(AfgSession) session = afg_session_new ();

  watch (session, "merge-addresses", merges);

  g_assert_cmpint (afg_session_get_tree_flags (session), ==, AFG_TREE_MERGE_ADDRESSES);
  g_object_set (session, "merge-addresses", FALSE, NULL);
  g_assert_cmpint (afg_session_get_tree_flags (session), ==, AFG_TREE_FLAGS_NONE);
  g_assert_cmpuint (*merges, ==, 1);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/session/column", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_column,
              afg_gui_tree_fixture_tear_down);
  g_test_add ("/session/tree-ref", AfgGuiTreeFixture, NULL, afg_gui_tree_fixture_set_up, test_tree_ref,
              afg_gui_tree_fixture_tear_down);
  g_test_add_func ("/session/merge", test_merge);
  return g_test_run ();
}
