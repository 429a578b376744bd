/* SPDX-License-Identifier: MIT */
/* The loading rules (the categories are test-categories.c's): what
 * the loader makes of the rows of a database that each test builds itself. */
#include "config.h"

#include <string.h>

#include "afg-loader.h"
#include "afg-test-db.h"

#define T1 GTID (1, 1)

/* Rows in scrambled order; a child inserted before its parent. */
static void
test_nesting (void)
{
  static const AfgTestEvent events[] = {
    { T1, 20, 30, "D" },
    { T1, 50, 90, "C" },
    { T1, 0, 100, "A" },
    { T1, 10, 40, "B" },
  };
  static const char * const expected[] = {
    "1/1\t1\t100\t0",
    "1/1;A\t1\t100\t30",
    "1/1;A;B\t1\t30\t20",
    "1/1;A;B;D\t1\t10\t10",
    "1/1;A;C\t1\t40\t40",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));
  const AfgStats *s = afg_tree_get_stats (p);

  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (s->rows, ==, 4);
  g_assert_cmpuint (s->used, ==, 4);
  g_assert_cmpuint (s->partial_overlaps, ==, 0);
  g_assert_cmpuint (afg_tree_get_n_threads (p), ==, 1);
  g_assert_cmpint (afg_tree_get_value (p, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), ==, 100);
}

/* Rule 7: start ascending, then end descending: the longer of two events
 * that start together is the parent, whatever the row order. */
static void
test_same_start_longer_is_parent (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 50, "short" },
    { T1, 0, 100, "long" },
  };
  static const char * const expected[] = {
    "1/1\t1\t100\t0",
    "1/1;long\t1\t100\t50",
    "1/1;long;short\t1\t50\t50",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));

  afg_test_assert_tree (p, expected);
}

/* Rule 7: equal intervals nest in rowid order, not name order. */
static void
test_equal_intervals (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "A" },
    { T1, 0, 100, "B" },
    { T1, 200, 300, "D" },
    { T1, 200, 300, "C" },
  };
  static const char * const expected[] = {
    "1/1\t2\t200\t0",
    "1/1;A\t1\t100\t0",
    "1/1;A;B\t1\t100\t100",
    "1/1;D\t1\t100\t0",
    "1/1;D;C\t1\t100\t100",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));

  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->partial_overlaps, ==, 0);
}

/* Rule 7: an event that starts inside the top but ends after it becomes
 * its sibling; one partial overlap per frame it started inside. Touching
 * intervals are not overlaps. */
static void
test_partial_overlap (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "A" },
    { T1, 50, 150, "B" },
    { T1, 200, 300, "C" },
    { T1, 300, 400, "D" },
    { T1, 1000, 2000, "E" },
    { T1, 1100, 1500, "F" },
    { T1, 1400, 2500, "G" },
  };
  static const char * const expected[] = {
    "1/1\t6\t2500\t0",
    "1/1;A\t1\t100\t100",
    "1/1;B\t1\t100\t100",
    "1/1;C\t1\t100\t100",
    "1/1;D\t1\t100\t100",
    "1/1;E\t1\t1000\t600",
    "1/1;E;F\t1\t400\t400",
    "1/1;G\t1\t1100\t1100",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));

  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->partial_overlaps, ==, 3);
  g_assert_cmpuint (afg_tree_get_stats (p)->used, ==, 7);
}

/* Rule 9: a partial overlap inside a parent can make the children sum to
 * more than the parent: self time is clamped at 0. */
static void
test_self_clamped (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "A" },
    { T1, 0, 60, "B" },
    { T1, 50, 100, "C" },
  };
  static const char * const expected[] = {
    "1/1\t1\t100\t0",
    "1/1;A\t1\t100\t0",
    "1/1;A;B\t1\t60\t60",
    "1/1;A;C\t1\t50\t50",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));

  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->partial_overlaps, ==, 1);
}

/* Rule 9: same-named siblings merge, also across parents that merged. */
static void
test_merge_siblings (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 10, "A" },
    { T1, 1, 3, "B" },
    { T1, 20, 35, "A" },
    { T1, 21, 25, "B" },
    { T1, 30, 31, "C" },
    { T1, 40, 41, "A" },
    { T1, 50, 60, "B" },
  };
  static const char * const expected[] = {
    "1/1\t4\t36\t0",
    "1/1;A\t3\t26\t19",
    "1/1;A;B\t2\t6\t6",
    "1/1;A;C\t1\t1\t1",
    "1/1;B\t1\t10\t10",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));

  afg_test_assert_tree (p, expected);
}

/* Rule 9: globalTid = pid << 32 | tid; threads ascending by global tid,
 * each with its own tree. Children sorted in byte order. */
static void
test_threads (void)
{
  const AfgTestEvent events[] = {
    { GTID (3136493, 3136500), 0, 10, "b" },
    { GTID (3136493, 3136500), 20, 30, "B" },
    { GTID (3136493, 3136500), 40, 50, "a" },
    { GTID (2, 100), 0, 5, "x" },
    { GTID (0, 7), 0, 3, "y" },
    { GTID (3136493, 3136493), 0, 1, "z" },
  };
  static const char * const expected[] = {
    "0/7\t1\t3\t0",
    "0/7;y\t1\t3\t3",
    "2/100\t1\t5\t0",
    "2/100;x\t1\t5\t5",
    "3136493/3136493\t1\t1\t0",
    "3136493/3136493;z\t1\t1\t1",
    "3136493/3136500\t3\t30\t0",
    "3136493/3136500;B\t1\t10\t10",
    "3136493/3136500;a\t1\t10\t10",
    "3136493/3136500;b\t1\t10\t10",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));
  const AfgThread *t;
  const AfgNode *root;

  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_n_threads (p), ==, 4);
  t = afg_tree_get_thread (p, 3);
  g_assert_cmpint (t->global_tid, ==, GTID (3136493, 3136500));
  g_assert_cmpuint (t->pid, ==, 3136493);
  g_assert_cmpuint (t->tid, ==, 3136500);
  g_assert_cmpstr (t->label, ==, "3136493/3136500");
  root = afg_tree_get_node (p, t->node);
  g_assert_cmpuint (root->n_children, ==, 3);
  g_assert_cmpstr (afg_tree_get_node_name (p, root->first_child), ==, "B");
  g_assert_cmpstr (afg_tree_get_node_name (p, root->first_child + 1), ==, "a");
  g_assert_cmpstr (afg_tree_get_node_name (p, root->first_child + 2), ==, "b");
  g_assert_cmpint (afg_tree_get_value (p, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), ==, 3 + 5 + 1 + 30);
}

/* Rule 8: top-level calls are depth 1; depth 1001 and below is cut, its
 * time left in the depth-1000 frame's self time. */
static void
test_depth_limit (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  const AfgStats *s;
  const AfgNode *deepest = NULL;
  guint32 max_depth = 0;

  afg_test_db_begin (db);
  for (int k = 0; k <= 1001; k++)
    {
      g_autofree char *name = g_strdup_printf ("f%04d", k);
      afg_test_db_add (db, T1, k, 10000 - k, name);
    }
  afg_test_db_add (db, T1, 20000, 20010, "after");
  afg_test_db_commit (db);
  p = afg_test_db_load (db);
  afg_test_db_free (db);

  s = afg_tree_get_stats (p);
  g_assert_cmpuint (s->rows, ==, 1003);
  g_assert_cmpuint (s->depth_truncated, ==, 2);
  g_assert_cmpuint (s->used, ==, 1001);
  g_assert_cmpuint (afg_tree_get_n_nodes (p), ==, 1 + 1 + 1000 + 1);  /* root, thread, frames, after */
  for (guint32 i = 0; i < afg_tree_get_n_nodes (p); i++)
    if (afg_tree_get_node (p, i)->depth > max_depth)
      {
        deepest = afg_tree_get_node (p, i);
        max_depth = deepest->depth;
      }
  g_assert_cmpuint (max_depth, ==, AFG_MAX_DEPTH + 1);  /* the thread is depth 1 */
  g_assert_cmpstr (afg_tree_get_node_name (p, deepest - afg_tree_get_nodes (p)), ==, "f0999");
  g_assert_cmpint (afg_tree_get_value (p, AFG_COLUMN_TOTAL_NS, deepest - afg_tree_get_nodes (p)), ==, (10000 - 999) - 999);
  g_assert_cmpint (afg_tree_get_value (p, AFG_COLUMN_SELF_NS, deepest - afg_tree_get_nodes (p)), ==, (10000 - 999) - 999);
  g_assert_cmpuint (afg_test_find_node (p, "1/1;after"), !=, AFG_NODE_NONE);
  g_assert_cmpint (afg_tree_get_value (p, AFG_COLUMN_TOTAL_NS, 0), ==, 10000 + 10);
  g_assert_cmpuint ((guint64) afg_tree_get_value (p, AFG_COLUMN_CALLS, 0), ==, 2);
}

/* Rule 6: endNs - startNs <= 0 is skipped and counted. */
static void
test_nonpositive (void)
{
  static const AfgTestEvent events[] = {
    { T1, 10, 10, "zero" },
    { T1, 20, 5, "negative" },
    { T1, 0, 100, "ok" },
  };
  static const char * const expected[] = {
    "1/1\t1\t100\t0",
    "1/1;ok\t1\t100\t100",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));
  const AfgStats *s = afg_tree_get_stats (p);

  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (s->rows, ==, 3);
  g_assert_cmpuint (s->used, ==, 1);
  g_assert_cmpuint (s->skipped_nonpositive, ==, 2);
}

/* Rule 4: NULL startNs, endNs or globalTid is skipped and counted. */
static void
test_nulls (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  static const char * const expected[] = {
    "1/1\t1\t10\t0",
    "1/1;ok\t1\t10\t10",
    NULL
  };
  const AfgStats *s;

  afg_test_db_add (db, T1, 0, 10, "ok");
  afg_test_db_exec (db, "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
                        " (NULL, '10', 4294967297, 1, 50001),"
                        " ('0', NULL, 4294967297, 1, 50001),"
                        " ('0', '10', NULL, 1, 50001),"
                        " (NULL, NULL, NULL, 1, 50001)");
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  s = afg_tree_get_stats (p);
  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (s->rows, ==, 5);
  g_assert_cmpuint (s->used, ==, 1);
  g_assert_cmpuint (s->skipped_null, ==, 4);
  g_assert_cmpuint (s->skipped_malformed, ==, 0);
}

/* Rule 4: a value that is not a whole int64 is malformed; the extremes of
 * int64 are fine. */
static void
test_malformed (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  static const char * const expected[] = {
    "0/5\t1\t1\t0",
    "0/5;max\t1\t1\t1",
    "1/1\t1\t10\t0",
    "1/1;neg\t1\t10\t10",
    NULL
  };
  const AfgStats *s;

  afg_test_db_name (db, "bad");
  afg_test_db_name (db, "neg");
  afg_test_db_name (db, "max");
  afg_test_db_exec (db, "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
                        " ('abc', '10', 4294967297, 1, 50001),"
                        " ('0', '1e3', 4294967297, 1, 50001),"
                        " ('0', '18446744073709551616', 4294967297, 1, 50001),"
                        " ('9223372036854775808', '9223372036854775809', 4294967297, 1, 50001),"
                        " ('', '10', 4294967297, 1, 50001),"
                        " ('12abc', '20', 4294967297, 1, 50001),"
                        " ('1.5', '20', 4294967297, 1, 50001),"
                        " ('0', '10', 1.5, 1, 50001),"
                        " ('0', '10', 'tid', 1, 50001),"
                        " ('0', '10', 18446744073709551616, 1, 50001),"
                        " ('-5', '5', 4294967297, 2, 50001),"
                        " ('9223372036854775806', '9223372036854775807', 5, 3, 50001)");
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  s = afg_tree_get_stats (p);
  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (s->rows, ==, 12);
  g_assert_cmpuint (s->skipped_malformed, ==, 10);
  g_assert_cmpuint (s->skipped_null, ==, 0);
  g_assert_cmpuint (s->used, ==, 2);
}

/* Rule 4: two whole int64 times more than 2^63-1 ns apart make a used
 * row; its length shows as 2^63-1 and what it holds nests under it. */
static void
test_widest_rows (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  static const char * const expected[] = {
    "0/5\t1\t9223372036854775807\t0",
    "0/5;a\t1\t9223372036854775807\t9223372036854775707",
    "0/5;a;b\t1\t100\t100",
    "1/1\t1\t9223372036854775807\t0",
    "1/1;whole\t1\t9223372036854775807\t9223372036854775807",
    NULL
  };
  const AfgStats *s;

  afg_test_db_name (db, "a");
  afg_test_db_name (db, "b");
  afg_test_db_name (db, "whole");
  afg_test_db_exec (db, "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
                        " ('-1', '9223372036854775807', 5, 1, 50001),"
                        " ('0', '100', 5, 2, 50001),"
                        " ('-9223372036854775808', '9223372036854775807', 4294967297, 3, 50001)");
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  s = afg_tree_get_stats (p);
  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (s->used, ==, 3);
  g_assert_cmpuint (s->skipped_malformed, ==, 0);
}

static const AfgTestEvent timestamp_events[] = {
  { T1, G_GINT64_CONSTANT (1733140000123456789), G_GINT64_CONSTANT (1733140000123456790), "one_ns" },
  { T1, G_GINT64_CONSTANT (1733140000000000000), G_GINT64_CONSTANT (1733140001000000000), "second" },
  { T1, G_GINT64_CONSTANT (1733140000500000000), G_GINT64_CONSTANT (1733140000500000333), "child" },
};

static const char * const timestamp_expected[] = {
  "1/1\t1\t1000000000\t0",
  "1/1;second\t1\t1000000000\t999999666",
  "1/1;second;child\t1\t333\t333",
  "1/1;second;one_ns\t1\t1\t1",
  NULL
};

static void
assert_storage_class (AfgTestDb *db, const char *expected)
{
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db->db, "SELECT DISTINCT typeof(startNs) || typeof(endNs)"
                                                " FROM PYTORCH_API", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, expected);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  sqlite3_finalize (stmt);
}

/* Rule 4: TEXT timestamps (as torch_npu writes them) and INTEGER ones give
 * the same tree, exactly to the nanosecond at realistic epoch values. */
static void
test_timestamps (gconstpointer data)
{
  AfgTestDbFlags flags = GPOINTER_TO_INT (data);
  AfgTestDb *db = afg_test_db_new (flags);
  g_autoptr(AfgTree) p = NULL;

  afg_test_db_add_events (db, timestamp_events, G_N_ELEMENTS (timestamp_events));
  assert_storage_class (db, (flags & AFG_TEST_DB_INTEGER_TIME) ? "integerinteger" : "texttext");
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  afg_test_assert_tree (p, timestamp_expected);
}

/* Rule 5: an id with no string is <unknown:ID>. */
static void
test_unknown_string_id (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  static const char * const expected[] = {
    "1/1\t3\t30\t0",
    "1/1;<unknown:424242>\t1\t10\t10",
    "1/1;<unknown:77>\t1\t10\t10",
    "1/1;known\t1\t10\t10",
    NULL
  };

  afg_test_db_add (db, T1, 0, 10, "known");
  afg_test_db_exec (db, "INSERT INTO STRING_IDS VALUES (77, NULL);"
                        "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
                        " ('20', '30', 4294967297, 424242, 50001),"
                        " ('40', '50', 4294967297, 77, 50001)");
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  afg_test_assert_tree (p, expected);
}

/* STRING_IDS without a key (a hand-made DB): ids out of rowid order,
 * one repeated (the first row wins), sparse (too many runs to index by
 * run) and dense ones all name their rows; the loader takes a shortcut
 * while ids ascend and must agree with the map it falls back to. */
static void
test_string_ids_order (gconstpointer data)
{
  guint shape = GPOINTER_TO_UINT (data);
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NO_STRING_IDS);
  g_autoptr(GString) sql = g_string_new ("CREATE TABLE STRING_IDS (id INTEGER, value TEXT);");
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AfgTree) p = NULL;
  guint n = shape == 0 ? 4 : 600;

  /* shape 0: 10, 11, 5 (out of order), 10 again, 12; 1: 600 ids two
   * apart, ascending; 2: the same descending; 3: dense, ascending. */
  if (shape == 0)
    g_string_append (sql, "INSERT INTO STRING_IDS VALUES (10, 'a'), (11, 'b'), (5, 'c'), (10, 'dup'), (12, 'd');");
  else
    for (guint k = 0; k < n; k++)
      {
        guint i = shape == 2 ? n - 1 - k : k;

        g_string_append_printf (sql, "INSERT INTO STRING_IDS VALUES (%u, 'f%04u');", shape == 3 ? 1000 + i : 2 * i, i);
      }
  for (guint k = 0; k < n; k++)
    {
      guint id = shape == 0 ? (guint[]) { 10, 11, 5, 12 }[k] : shape == 3 ? 1000 + k : 2 * k;

      g_string_append_printf (sql, "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
                                   " ('%u', '%u', 4294967297, %u, 50001);", 100 * k, 100 * k + 10, id);
    }
  afg_test_db_exec (db, sql->str);
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  g_ptr_array_add (expected, g_strdup_printf ("1/1\t%u\t%u\t0", n, 10 * n));
  if (shape == 0)
    {
      static const char * const names[] = { "a", "b", "c", "d" };

      for (guint k = 0; k < 4; k++)
        g_ptr_array_add (expected, g_strdup_printf ("1/1;%s\t1\t10\t10", names[k]));
    }
  else
    for (guint k = 0; k < n; k++)
      g_ptr_array_add (expected, g_strdup_printf ("1/1;f%04u\t1\t10\t10", k));
  g_ptr_array_add (expected, NULL);
  afg_test_assert_tree (p, (const char * const *) expected->pdata);
}

/* Rule 5: invalid UTF-8 in STRING_IDS is repaired with U+FFFD. */
static void
test_invalid_utf8 (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  guint found = 0;

  afg_test_db_add (db, T1, 0, 10, "bad\xff\xfename");
  afg_test_db_add (db, T1, 20, 30, "cut\xe4\xb8");
  afg_test_db_exec (db, "INSERT INTO STRING_IDS VALUES (900, X'626c6f62ff80');"
                        "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
                        " ('40', '50', 4294967297, 900, 50001)");
  p = afg_test_db_load (db);
  afg_test_db_free (db);

  g_assert_cmpuint (afg_tree_get_node (p, afg_tree_get_thread (p, 0)->node)->n_children, ==, 3);
  for (guint32 i = 2; i < afg_tree_get_n_nodes (p); i++)
    {
      const char *name = afg_tree_get_node_name (p, i);

      g_assert_true (g_utf8_validate (name, -1, NULL));
      g_assert_nonnull (strstr (name, "\xef\xbf\xbd"));
      if (g_str_has_prefix (name, "bad") && g_str_has_suffix (name, "name"))
        found |= 1;
      if (g_str_has_prefix (name, "cut"))
        found |= 2;
      if (g_str_has_prefix (name, "blob"))
        found |= 4;
    }
  g_assert_cmpuint (found, ==, 7);
}

/* Rule 6: ProfilerStep#N rows are dropped and counted; what they enclosed
 * moves up to the thread root. Only the exact prefix counts. */
static void
test_profiler_step (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 1000, "ProfilerStep#1" },
    { T1, 10, 100, "forward" },
    { T1, 1000, 2000, "ProfilerStep#2" },
    { T1, 1010, 1100, "forward" },
    { T1, 3000, 3010, "ProfilerStep" },
    { T1, 4000, 4010, "xProfilerStep#3" },
  };
  static const char * const expected[] = {
    "1/1\t4\t200\t0",
    "1/1;ProfilerStep\t1\t10\t10",
    "1/1;forward\t2\t180\t180",
    "1/1;xProfilerStep#3\t1\t10\t10",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (0, events, G_N_ELEMENTS (events));
  const AfgStats *s = afg_tree_get_stats (p);

  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (s->profiler_steps, ==, 2);
  g_assert_cmpuint (s->rows, ==, 6);
  g_assert_cmpuint (s->used, ==, 4);
}

/* Rule 3: op, queue and trace kept; mstx and other types skipped. */
static void
test_types_default_enum (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;
  static const char * const expected[] = {
    "1/1\t3\t30\t0",
    "1/1;op\t1\t10\t10",
    "1/1;queue\t1\t10\t10",
    "1/1;trace\t1\t10\t10",
    NULL
  };

  afg_test_db_add_typed (db, T1, 0, 10, "op", TYPE_OP);
  afg_test_db_add_typed (db, T1, 20, 30, "queue", TYPE_QUEUE);
  afg_test_db_add_typed (db, T1, 40, 50, "trace", TYPE_TRACE);
  afg_test_db_add_typed (db, T1, 0, 100, "mstx", TYPE_MSTX);
  afg_test_db_add_typed (db, T1, 0, 100, "acl", 20000);
  afg_test_db_add_typed (db, T1, 0, 100, "nonexistent", 12345);
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->skipped_type, ==, 3);
  g_assert_cmpuint (afg_tree_get_stats (p)->rows, ==, 6);
}

/* Rule 3: the accepted ids come from ENUM_API_TYPE, by name, ignoring case. */
static void
test_types_custom_enum (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NO_ENUM);
  g_autoptr(AfgTree) p = NULL;
  static const char * const expected[] = {
    "1/1\t4\t40\t0",
    "1/1;is_OP\t1\t10\t10",
    "1/1;is_Python_Trace\t1\t10\t10",
    "1/1;is_Queue\t1\t10\t10",
    "1/1;is_TRACE\t1\t10\t10",
    NULL
  };

  afg_test_db_exec (db, "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);"
                        "INSERT INTO ENUM_API_TYPE VALUES (7, 'OP'), (8, 'Python_Trace'),"
                        " (9, 'Queue'), (10, 'TRACE'), (11, 'opx'), (50001, 'mstx')");
  afg_test_db_add_typed (db, T1, 0, 10, "is_OP", 7);
  afg_test_db_add_typed (db, T1, 20, 30, "is_Python_Trace", 8);
  afg_test_db_add_typed (db, T1, 40, 50, "is_Queue", 9);
  afg_test_db_add_typed (db, T1, 60, 70, "is_TRACE", 10);
  afg_test_db_add_typed (db, T1, 0, 100, "is_opx", 11);
  afg_test_db_add_typed (db, T1, 0, 100, "is_mstx_50001", 50001);
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->skipped_type, ==, 2);
}

/* Rule 3: without ENUM_API_TYPE, ids 50001-50003 are kept. */
static void
test_types_missing_enum (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NO_ENUM);
  g_autoptr(AfgTree) p = NULL;
  static const char * const expected[] = {
    "1/1\t3\t30\t0",
    "1/1;op\t1\t10\t10",
    "1/1;queue\t1\t10\t10",
    "1/1;trace\t1\t10\t10",
    NULL
  };

  afg_test_db_add_typed (db, T1, 0, 10, "op", TYPE_OP);
  afg_test_db_add_typed (db, T1, 20, 30, "queue", TYPE_QUEUE);
  afg_test_db_add_typed (db, T1, 40, 50, "trace", TYPE_TRACE);
  afg_test_db_add_typed (db, T1, 0, 100, "mstx", TYPE_MSTX);
  afg_test_db_add_typed (db, T1, 0, 100, "runtime", 5000);
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->skipped_type, ==, 2);
}

/* Rule 1: without a type column every row counts. */
static void
test_missing_type_column (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "A" },
    { T1, 10, 20, "B" },
  };
  static const char * const expected[] = {
    "1/1\t1\t100\t0",
    "1/1;A\t1\t100\t90",
    "1/1;A;B\t1\t10\t10",
    NULL
  };
  g_autoptr(AfgTree) p = afg_test_load_events (AFG_TEST_DB_NO_TYPE | AFG_TEST_DB_NO_ENUM, events,
                                                  G_N_ELEMENTS (events));

  afg_test_assert_tree (p, expected);
  g_assert_cmpuint (afg_tree_get_stats (p)->skipped_type, ==, 0);
  g_assert_cmpuint (afg_tree_get_stats (p)->used, ==, 2);
}

static void
test_category_names (void)
{
  g_assert_cmpstr (afg_category_to_string (AFG_CATEGORY_PYTHON), ==, "python");
  g_assert_cmpstr (afg_category_to_string (AFG_CATEGORY_PYTHON_FRAMEWORK), ==, "python_framework");
  g_assert_cmpstr (afg_category_to_string (AFG_CATEGORY_CANN), ==, "cann");
  g_assert_cmpstr (afg_category_to_string (AFG_CATEGORY_UNKNOWN), ==, "unknown");
}

/* No usable rows is not an error. */
static void
test_no_usable_rows (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = NULL;

  afg_test_db_add_typed (db, T1, 0, 100, "mstx", TYPE_MSTX);
  afg_test_db_add (db, T1, 0, 100, "ProfilerStep#0");
  p = afg_test_db_load (db);
  afg_test_db_free (db);
  g_assert_true (afg_tree_is_empty (p));
  g_assert_cmpuint (afg_tree_get_n_threads (p), ==, 0);
  g_assert_cmpuint (afg_tree_get_stats (p)->rows, ==, 2);
  g_assert_cmpuint (afg_tree_get_stats (p)->used, ==, 0);
}

static void
test_empty_table (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) p = afg_test_db_load (db);

  afg_test_db_free (db);
  g_assert_true (afg_tree_is_empty (p));
  g_assert_cmpuint (afg_tree_get_stats (p)->rows, ==, 0);
  g_assert_cmpint (afg_tree_get_value (p, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rules/nesting", test_nesting);
  g_test_add_func ("/rules/same-start-longer-is-parent", test_same_start_longer_is_parent);
  g_test_add_func ("/rules/equal-intervals", test_equal_intervals);
  g_test_add_func ("/rules/partial-overlap", test_partial_overlap);
  g_test_add_func ("/rules/self-clamped", test_self_clamped);
  g_test_add_func ("/rules/merge-siblings", test_merge_siblings);
  g_test_add_func ("/rules/threads", test_threads);
  g_test_add_func ("/rules/depth-limit", test_depth_limit);
  g_test_add_func ("/rules/nonpositive", test_nonpositive);
  g_test_add_func ("/rules/nulls", test_nulls);
  g_test_add_func ("/rules/malformed", test_malformed);
  g_test_add_func ("/rules/widest-rows", test_widest_rows);
  g_test_add_data_func ("/rules/timestamps/text", GINT_TO_POINTER (0), test_timestamps);
  g_test_add_data_func ("/rules/timestamps/integer", GINT_TO_POINTER (AFG_TEST_DB_INTEGER_TIME),
                        test_timestamps);
  g_test_add_func ("/rules/unknown-string-id", test_unknown_string_id);
  g_test_add_func ("/rules/invalid-utf8", test_invalid_utf8);
  g_test_add_data_func ("/rules/string-ids/out-of-order", GUINT_TO_POINTER (0), test_string_ids_order);
  g_test_add_data_func ("/rules/string-ids/sparse", GUINT_TO_POINTER (1), test_string_ids_order);
  g_test_add_data_func ("/rules/string-ids/descending", GUINT_TO_POINTER (2), test_string_ids_order);
  g_test_add_data_func ("/rules/string-ids/dense", GUINT_TO_POINTER (3), test_string_ids_order);
  g_test_add_func ("/rules/profiler-step", test_profiler_step);
  g_test_add_func ("/rules/types/default-enum", test_types_default_enum);
  g_test_add_func ("/rules/types/custom-enum", test_types_custom_enum);
  g_test_add_func ("/rules/types/missing-enum", test_types_missing_enum);
  g_test_add_func ("/rules/types/missing-type-column", test_missing_type_column);
  g_test_add_func ("/rules/category-names", test_category_names);
  g_test_add_func ("/rules/no-usable-rows", test_no_usable_rows);
  g_test_add_func ("/rules/empty-table", test_empty_table);
  return g_test_run ();
}
