/* SPDX-License-Identifier: MIT */
/* Each difference from MindStudio Insight's flamegraph.py that
 * docs/flamegraph-py.md lists, pinned on a DB built for
 * it (equal starts: /rules/same-start-longer-is-parent in test-rules.c).
 * The comments say what the script makes of the same rows. */
#include "config.h"

#include <string.h>

#include "afg-loader.h"
#include "afg-test-db.h"
#include "afg-writers.h"

#define T1 GTID (1, 1)

/* The shape of the real samples: the Python frame that opens a
 * record_function range calls the 160 µs builtin, and the range starts
 * inside that call but lasts far longer. The script keeps the builtin open
 * until its end and hangs the whole range (and all it calls) under it:
 * fwd;enter;DistributedDataParallel.forward;aten::conv. */
static void
test_partial_overlap (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 1000, "distributed.py(1513): forward" },
    { T1, 100, 260, "<built-in method _record_function_enter_new>" },
    { T1, 118, 900, "DistributedDataParallel.forward" },
    { T1, 300, 400, "aten::conv" },
  };
  static const char * const expected[] = {
    "1/1\t1\t1000\t0",
    "1/1;distributed.py(1513): forward\t1\t1000\t58",
    "1/1;distributed.py(1513): forward;<built-in method _record_function_enter_new>\t1\t160\t160",
    "1/1;distributed.py(1513): forward;DistributedDataParallel.forward\t1\t782\t682",
    "1/1;distributed.py(1513): forward;DistributedDataParallel.forward;aten::conv\t1\t100\t100",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));

  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->partial_overlaps, ==, 1);
}

/* The script adds one to every open ancestor for each call: its train
 * would have 7 calls, each step 6. Ours count the frame's own calls. */
static void
test_calls (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "main.py(375): train" },
    { T1, 10, 20, "step" }, { T1, 11, 12, "aten::add" },
    { T1, 30, 40, "step" }, { T1, 31, 32, "aten::add" },
    { T1, 50, 60, "step" }, { T1, 51, 52, "aten::add" },
  };
  static const char * const expected[] = {
    "1/1\t1\t100\t0",
    "1/1;main.py(375): train\t1\t100\t70",
    "1/1;main.py(375): train;step\t3\t30\t27",
    "1/1;main.py(375): train;step;aten::add\t3\t3\t3",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));

  afg_test_assert_tree (p, expected);
}

/* 1001 nested frames. We keep depths 1-1000 and count the row below as
 * depth_truncated, its time in the self time of the frame above. The script
 * builds everything but writes 999 frame levels under a thread, and the
 * last one's self time leaves out its hidden children. */
static void
test_depth (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  const AfgNode *deepest = NULL;

  afg_test_db_begin (db);
  for (int k = 0; k <= AFG_MAX_DEPTH; k++)
    {
      g_autofree char *name = g_strdup_printf ("f%04d", k);
      afg_test_db_add (db, T1, k, 10000 - k, name);
    }
  afg_test_db_commit (db);
  p = afg_test_db_load (db);
  afg_test_db_free (db);

  for (guint32 i = 0; i < afg_tree_get_n_nodes (p); i++)
    if (deepest == NULL || afg_tree_get_node (p, i)->depth > deepest->depth)
      deepest = afg_tree_get_node (p, i);
  g_assert_cmpuint (deepest->depth, ==, 1001);  /* calls start at depth 2, under the thread */
  g_assert_cmpstr (afg_tree_get_node_name (p, deepest - afg_tree_get_nodes (p)), ==, "f0999");
  g_assert_cmpint (afg_tree_get_value (p, AFG_COLUMN_SELF_NS, deepest - afg_tree_get_nodes (p)), ==,
                   afg_tree_get_value (p, AFG_COLUMN_TOTAL_NS, deepest - afg_tree_get_nodes (p)));
  g_assert_cmpuint (afg_tree_get_stats (p)->depth_truncated, ==, 1);
}

/* The script's LEFT JOIN turns every missing, NULL or empty name into one
 * frame "unknown", merged with a real frame of that name. Ours keep the id:
 * rows of different missing ids stay apart, and apart from "unknown"; an
 * empty string stays an empty name. */
static void
test_missing_names (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  static const char * const expected[] = {
    "1/1\t6\t60\t0",
    "1/1;\t1\t10\t10",
    "1/1;<unknown:7>\t1\t10\t10",
    "1/1;<unknown:8>\t1\t10\t10",
    "1/1;<unknown:9>\t1\t10\t10",
    "1/1;<unknown:NULL>\t1\t10\t10",
    "1/1;unknown\t1\t10\t10",
    NULL
  };

  afg_test_db_add (db, T1, 0, 10, "unknown");
  afg_test_db_exec (db, "INSERT INTO STRING_IDS VALUES (9, NULL), (10, '');"
                        "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
                        " ('10', '20', 4294967297, 7, 50001),"
                        " ('20', '30', 4294967297, 8, 50001),"
                        " ('30', '40', 4294967297, 9, 50001),"
                        " ('40', '50', 4294967297, NULL, 50001),"
                        " ('50', '60', 4294967297, 10, 50001)");
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  afg_test_assert_tree (p, expected);
}

/* The script lists a thread for the NULL globalTid (an empty
 * "thread_None (globalTid: None)") whose rows no query then returns. Ours
 * skip such rows as skipped_null and show no thread for them. */
static void
test_null_global_tid (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;

  afg_test_db_add (db, T1, 0, 10, "a");
  afg_test_db_exec (db, "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
                        " ('0', '10', NULL, 1, 50001)");
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  g_assert_cmpuint (afg_tree_get_n_threads (p), ==, 1);
  g_assert_cmpuint (afg_tree_get_stats (p)->skipped_null, ==, 1);
  g_assert_cmpuint (afg_tree_get_stats (p)->used, ==, 1);
}

/* The script reads every type: an mstx range nests like a call and can
 * become the parent of the ops inside it. Ours read op, queue and trace. */
static void
test_types (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  static const char * const expected[] = {
    "1/1\t1\t40\t0",
    "1/1;aten::add\t1\t40\t30",
    "1/1;aten::add;Enqueue\t1\t10\t0",
    "1/1;aten::add;Enqueue;aclnnAdd\t1\t10\t10",
    NULL
  };

  afg_test_db_add_typed (db, T1, 0, 100, "mstx range", TYPE_MSTX);
  afg_test_db_add_typed (db, T1, 10, 50, "aten::add", TYPE_OP);
  afg_test_db_add_typed (db, T1, 20, 30, "Enqueue", TYPE_QUEUE);
  afg_test_db_add_typed (db, T1, 20, 30, "aclnnAdd", TYPE_TRACE);
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->skipped_type, ==, 1);
}

/* The script sums float microseconds and rounds them to 0.01: 1 ns shows as
 * 0.0, three 5 ns calls as 0.01 or 0.02. Ours are integer nanoseconds. */
static void
test_nanoseconds (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 1, "one" },
    { T1, 10, 15, "five" }, { T1, 20, 25, "five" }, { T1, 30, 35, "five" },
    { T1, 100, 1234667, "long" },
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));
  g_autoptr(GString) json = g_string_new (NULL);

  afg_json_write (p, json);
  g_assert_nonnull (strstr (json->str, "{\"name\":\"one\",\"category\":\"unknown\",\"calls\":1,"
                                       "\"total_ns\":1,\"self_ns\":1,"));
  g_assert_nonnull (strstr (json->str, "{\"name\":\"five\",\"category\":\"unknown\",\"calls\":3,"
                                       "\"total_ns\":15,\"self_ns\":15,"));
  g_assert_nonnull (strstr (json->str, "\"total_ns\":1234567,"));
}

/* The script's NOT LIKE 'ProfilerStep#%' ignores case; torch_npu writes
 * exactly "ProfilerStep#", so another spelling is a range of the user's. */
static void
test_profiler_step_case (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "ProfilerStep#1" },
    { T1, 200, 300, "profilerstep#2" },
  };
  static const char * const expected[] = {
    "1/1\t1\t100\t0",
    "1/1;profilerstep#2\t1\t100\t100",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));

  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->profiler_steps, ==, 1);
}

/* The script CASTs to INTEGER: 'abc' becomes 0 (an interval from the epoch
 * that encloses the whole run), '1e3' becomes 1, 25.9 becomes 25. Ours
 * skip such rows as skipped_malformed. */
static void
test_malformed_times (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  static const char * const expected[] = {
    "1/1\t1\t10\t0",
    "1/1;a\t1\t10\t10",
    NULL
  };

  afg_test_db_add (db, T1, 20, 30, "a");
  afg_test_db_exec (db, "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
                        " ('abc', '40', 4294967297, 1, 50001),"
                        " ('1e3', '2000', 4294967297, 1, 50001),"
                        " (10, 25.9, 4294967297, 1, 50001)");
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->skipped_malformed, ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/differences/partial-overlap", test_partial_overlap);
  g_test_add_func ("/differences/calls", test_calls);
  g_test_add_func ("/differences/depth", test_depth);
  g_test_add_func ("/differences/missing-names", test_missing_names);
  g_test_add_func ("/differences/null-global-tid", test_null_global_tid);
  g_test_add_func ("/differences/types", test_types);
  g_test_add_func ("/differences/nanoseconds", test_nanoseconds);
  g_test_add_func ("/differences/profiler-step-case", test_profiler_step_case);
  g_test_add_func ("/differences/malformed-times", test_malformed_times);
  return g_test_run ();
}
