/* SPDX-License-Identifier: MIT */
/* Threads named by what their rows tell: the one with the ProfilerStep#
 * rows "main", one with autograd::engine… rows "autograd", one with
 * Dequeue… rows "dequeue"; one thread per role, one role per thread. */
#include "config.h"

#include <string.h>

#include "afg-json-writer.h"
#include "afg-test-db.h"
#include "afg-writers.h"

/* The role of each thread of the whole-profile tree, by global tid. */
static void
assert_roles (AfgTree *tree, const gint64 *tids, const AfgThreadRole *roles, guint n)
{
  g_assert_cmpuint (afg_tree_get_n_threads (tree), ==, n);
  for (guint i = 0; i < n; i++)
    {
      const AfgThread *t = afg_tree_get_thread (tree, i);

      g_assert_cmpint (t->global_tid, ==, tids[i]);
      g_assert_cmpint (t->role, ==, roles[i]);
    }
}

static AfgTree *
load (AfgTestDb *db)
{
  AfgTree *tree = afg_test_db_load (db);

  afg_test_db_free (db);
  return tree;
}

static void
test_three_roles (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  const gint64 tids[] = { GTID (7, 1), GTID (7, 2), GTID (7, 3), GTID (7, 4) };
  const AfgThreadRole roles[] = { AFG_THREAD_ROLE_MAIN, AFG_THREAD_ROLE_DEQUEUE, AFG_THREAD_ROLE_AUTOGRAD,
                                  AFG_THREAD_ROLE_NONE };
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GString) json = g_string_new (NULL);

  afg_test_db_add (db, tids[0], 0, 100, "ProfilerStep#1");
  afg_test_db_add (db, tids[0], 10, 20, "aten::add");
  afg_test_db_add (db, tids[1], 10, 20, "Dequeue@aclnnAdd");
  afg_test_db_add (db, tids[2], 10, 20, "autograd::engine::evaluate_function: AddBackward0");
  afg_test_db_add (db, tids[3], 10, 20, "aten::mul");
  tree = load (db);
  assert_roles (tree, tids, roles, 4);
  afg_json_write (tree, json);
  g_assert_nonnull (strstr (json->str, "\"label\":\"7/1\",\"role\":\"main\","));
  g_assert_nonnull (strstr (json->str, "\"label\":\"7/2\",\"role\":\"dequeue\","));
  g_assert_nonnull (strstr (json->str, "\"label\":\"7/3\",\"role\":\"autograd\","));
  /* No role, no field: the bytes of a thread without one are as before. */
  g_assert_nonnull (strstr (json->str, "\"label\":\"7/4\",\"total_ns\""));
}

/* Only names that start with the prefix, case and all, count. */
static void
test_prefix_only (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  const gint64 tids[] = { GTID (1, 1), GTID (1, 2) };
  const AfgThreadRole roles[] = { AFG_THREAD_ROLE_NONE, AFG_THREAD_ROLE_NONE };
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_add (db, tids[0], 0, 10, "call autograd::engine");
  afg_test_db_add (db, tids[0], 20, 30, "dequeue@x");
  afg_test_db_add (db, tids[1], 0, 10, "Enqueue@Dequeue");
  afg_test_db_add (db, tids[1], 20, 30, "ProfilerStepX");
  tree = load (db);
  assert_roles (tree, tids, roles, 2);
}

/* The most rows win; on a tie the lowest global tid. */
static void
test_most_rows_then_lowest_tid (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  const gint64 tids[] = { GTID (1, 1), GTID (1, 2), GTID (1, 3), GTID (1, 4) };
  const AfgThreadRole roles[] = { AFG_THREAD_ROLE_DEQUEUE, AFG_THREAD_ROLE_MAIN, AFG_THREAD_ROLE_NONE,
                                  AFG_THREAD_ROLE_NONE };
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_add (db, tids[0], 0, 100, "ProfilerStep#1");
  afg_test_db_add (db, tids[0], 1, 2, "Dequeue@a");
  afg_test_db_add (db, tids[1], 100, 200, "ProfilerStep#2");
  afg_test_db_add (db, tids[1], 200, 300, "ProfilerStep#3");
  afg_test_db_add (db, tids[1], 101, 102, "aten::add");
  /* Dequeue: threads 1, 3 and 4 have one row each; 1 is the lowest. */
  afg_test_db_add (db, tids[2], 1, 2, "Dequeue@b");
  afg_test_db_add (db, tids[3], 1, 2, "Dequeue@c");
  tree = load (db);
  assert_roles (tree, tids, roles, 4);
}

/* A thread that qualifies for two roles takes the first of main,
 * autograd, dequeue; the other goes to the next thread with its rows,
 * or to none. */
static void
test_one_role_per_thread (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  const gint64 tids[] = { GTID (1, 1), GTID (1, 2) };
  const AfgThreadRole roles[] = { AFG_THREAD_ROLE_MAIN, AFG_THREAD_ROLE_AUTOGRAD };
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_add (db, tids[0], 0, 100, "ProfilerStep#1");
  afg_test_db_add (db, tids[0], 1, 2, "autograd::engine::a");
  afg_test_db_add (db, tids[0], 3, 4, "autograd::engine::b");
  afg_test_db_add (db, tids[0], 5, 6, "Dequeue@a");
  afg_test_db_add (db, tids[1], 1, 2, "autograd::engine::c");
  tree = load (db);
  assert_roles (tree, tids, roles, 2);
}

/* The ProfilerStep# rows of a thread that has no other row make no
 * thread, and no other thread is "main" for them; a step row skipped
 * for its NULL globalTid counts for no thread. */
static void
test_main_needs_a_thread (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  const gint64 tids[] = { GTID (1, 2) };
  const AfgThreadRole roles[] = { AFG_THREAD_ROLE_NONE };
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_add (db, GTID (1, 1), 0, 100, "ProfilerStep#1");
  afg_test_db_add (db, AFG_TEST_NULL, 100, 200, "ProfilerStep#2");
  afg_test_db_add (db, tids[0], 1, 2, "aten::add");
  tree = load (db);
  assert_roles (tree, tids, roles, 1);
}

/* Every ProfilerStep# row of a thread counts for main, as every one
 * makes a step: of a type that is not read, or with times that are not
 * (a non-positive one, NULL, text), as well as a used one. */
static void
test_main_counts_every_step_row (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  const gint64 tids[] = { GTID (1, 1), GTID (1, 2) };
  const AfgThreadRole roles[] = { AFG_THREAD_ROLE_NONE, AFG_THREAD_ROLE_MAIN };
  g_autoptr(AfgTree) tree = NULL;

  afg_test_db_add (db, tids[0], 0, 100, "ProfilerStep#1");
  afg_test_db_add (db, tids[0], 10, 20, "aten::add");
  afg_test_db_add_typed (db, tids[1], 100, 200, "ProfilerStep#2", TYPE_MSTX);
  afg_test_db_add (db, tids[1], 300, 300, "ProfilerStep#3");
  afg_test_db_add (db, tids[1], 110, 120, "aten::mul");
  tree = load (db);
  assert_roles (tree, tids, roles, 2);

  db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  afg_test_db_add (db, tids[0], 0, 100, "ProfilerStep#1");
  afg_test_db_add (db, tids[0], 10, 20, "aten::add");
  afg_test_db_add (db, tids[1], 100, 200, "ProfilerStep#2");
  afg_test_db_add (db, tids[1], 110, 120, "aten::mul");
  afg_test_db_exec (db, "INSERT INTO PYTORCH_API SELECT NULL, 'x', globalTid, connectionId, name, sequenceNumber,"
                        " fwdThreadId, inputDtypes, inputShapes, callchainId, type FROM PYTORCH_API WHERE rowid = 3");
  g_clear_pointer (&tree, afg_tree_unref);
  tree = load (db);
  assert_roles (tree, tids, roles, 2);
}

/* A role is the document's: a step's tree keeps it, even for a thread
 * whose step rows lie outside the step. */
static void
test_scope_keeps_roles (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  const gint64 tids[] = { GTID (1, 1), GTID (1, 2) };
  const AfgThreadRole roles[] = { AFG_THREAD_ROLE_MAIN, AFG_THREAD_ROLE_DEQUEUE };
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  AfgScope scope;

  afg_test_db_add (db, tids[0], 0, 100, "ProfilerStep#1");
  afg_test_db_add (db, tids[0], 200, 300, "ProfilerStep#2");
  afg_test_db_add (db, tids[0], 210, 220, "aten::add");
  afg_test_db_add (db, tids[1], 210, 220, "Dequeue@a");
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  g_assert_true (afg_scope_init_steps (&scope, document, 2, 2, &error));
  tree = afg_test_build (document, &scope, AFG_TREE_FLAGS_NONE);
  assert_roles (tree, tids, roles, 2);
}

static void
test_labels (void)
{
  g_autofree char *main_thread = afg_thread_role_describe (AFG_THREAD_ROLE_MAIN, "1/2");
  g_autofree char *plain = afg_thread_role_describe (AFG_THREAD_ROLE_NONE, "1/3");

  g_assert_cmpstr (main_thread, ==, "main · 1/2");
  g_assert_cmpstr (plain, ==, "1/3");
  g_assert_cmpstr (afg_thread_role_to_key (AFG_THREAD_ROLE_DEQUEUE), ==, "dequeue");
  g_assert_null (afg_thread_role_to_key (AFG_THREAD_ROLE_NONE));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/roles/three", test_three_roles);
  g_test_add_func ("/roles/prefix-only", test_prefix_only);
  g_test_add_func ("/roles/most-rows-then-lowest-tid", test_most_rows_then_lowest_tid);
  g_test_add_func ("/roles/one-role-per-thread", test_one_role_per_thread);
  g_test_add_func ("/roles/main-needs-a-thread", test_main_needs_a_thread);
  g_test_add_func ("/roles/main-counts-every-step-row", test_main_counts_every_step_row);
  g_test_add_func ("/roles/scope-keeps-roles", test_scope_keeps_roles);
  g_test_add_func ("/roles/labels", test_labels);
  return g_test_run ();
}
