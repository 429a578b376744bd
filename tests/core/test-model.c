/* SPDX-License-Identifier: MIT */
/* The model: what a document keeps (events, steps, names) and the trees
 * built from it for a scope or with names merged. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "afg-address.h"
#include "afg-id-index.h"
#include "afg-select.h"
#include "afg-test-db.h"

#define T1 GTID (1, 1)
#define T2 GTID (1, 2)
#define SEC G_GINT64_CONSTANT (1000000000)

static AfgDocument *
load_document (const AfgTestEvent *events, gsize n)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  AfgDocument *document;

  afg_test_db_add_events (db, events, n);
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  return document;
}

static void
assert_tree (AfgDocument *document, const AfgScope *scope, AfgTreeFlags flags,
             const char * const *expected)
{
  g_autoptr(AfgTree) tree = afg_test_build (document, scope, flags);

  afg_test_assert_tree (tree, expected);
}

/* Starts and durations past 32 bits are escaped in the store and come
 * back exact, in the walk's order. */
static void
test_store_wide_values (void)
{
  static const AfgTestEvent events[] = {
    { T1, 7 * SEC, 20 * SEC, "long" },
    { T1, 8 * SEC, 8 * SEC + 5, "short" },
    { T1, G_GINT64_CONSTANT (1) << 62, (G_GINT64_CONSTANT (1) << 62) + 6 * SEC, "far" },
    { T1, 3, 4, "first" },
  };
  static const char * const expected[] = {
    "1/1\t3\t19000000001\t0",
    "1/1;first\t1\t1\t1",
    "1/1;long\t1\t13000000000\t12999999995",
    "1/1;long;short\t1\t5\t5",
    "1/1;far\t1\t6000000000\t6000000000",
    NULL
  };
  g_autoptr(AfgDocument) document = load_document (events, G_N_ELEMENTS (events));
  const AfgEventStore *store = afg_document_get_events (document);
  const AfgEventThread *t = afg_event_store_get_thread (store, 0);
  AfgEventCursor cursor;
  AfgEvent ev;
  gint64 starts[4];
  guint n = 0;

  g_assert_cmpuint (afg_event_store_get_n_events (store), ==, 4);
  afg_event_cursor_init (&cursor, t);
  while (afg_event_cursor_next (&cursor, &ev))
    starts[n++] = ev.start;
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (starts[0], ==, 3);
  g_assert_cmpint (starts[1], ==, 7 * SEC);
  g_assert_cmpint (starts[3], ==, G_GINT64_CONSTANT (1) << 62);
  g_assert_cmpuint (t->n_wide, ==, 4);  /* two deltas, two durations */
  assert_tree (document, NULL, AFG_TREE_FLAGS_NONE, expected);
}

/* Two trees of one document are independent and alike. */
static void
test_rebuild (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "a" }, { T1, 10, 20, "b" }, { T2, 5, 50, "c" },
  };
  g_autoptr(AfgDocument) document = load_document (events, G_N_ELEMENTS (events));
  g_autoptr(AfgTree) one = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_autoptr(AfgTree) two = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_autoptr(GPtrArray) lines_one = afg_test_render_tree (one);
  g_autoptr(GPtrArray) lines_two = afg_test_render_tree (two);

  g_assert_true (afg_tree_get_document (one) == document);
  afg_test_assert_lines (lines_one, lines_two, "rebuild");
  g_assert_cmpuint (afg_tree_get_stats (one)->used, ==, 3);
  g_assert_cmpuint (afg_tree_get_stats (two)->used, ==, 3);
}

/* The root is a node: its name, its children the threads, its values the
 * threads' sums. */
static void
test_root (void)
{
  static const AfgTestEvent events[] = {
    { T2, 0, 30, "x" }, { T1, 0, 100, "a" }, { T1, 200, 210, "a" },
  };
  g_autoptr(AfgDocument) document = load_document (events, G_N_ELEMENTS (events));
  g_autoptr(AfgTree) tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  const AfgNode *root = afg_tree_get_node (tree, AFG_TREE_ROOT);

  g_assert_cmpstr (afg_tree_get_node_name (tree, AFG_TREE_ROOT), ==, "All threads");
  g_assert_cmpuint (root->n_children, ==, 2);
  g_assert_cmpuint (root->parent, ==, AFG_NODE_NONE);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT), ==, 140);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_CALLS, AFG_TREE_ROOT), ==, 3);
  g_assert_cmpint (afg_tree_get_value (tree, AFG_COLUMN_SELF_NS, AFG_TREE_ROOT), ==, 0);
  g_assert_cmpstr (afg_tree_get_node_name (tree, 1), ==, "1/1");
  g_assert_true (afg_tree_is_descendant (tree, afg_test_find_node (tree, "1/2;x"), AFG_TREE_ROOT));
  g_assert_false (afg_tree_is_descendant (tree, afg_test_find_node (tree, "1/2;x"), 1));
}

/* A bounded scope counts the overlap of each row; where a row nests is
 * decided on its whole interval; frames with nothing inside are absent. */
static void
test_scope_clips (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 1000, "train" },        /* began before the range */
    { T1, 50, 150, "before" },       /* ends before the range */
    { T1, 180, 260, "spans" },       /* crosses the start */
    { T1, 185, 195, "inner_out" },   /* inside spans, before the range */
    { T1, 230, 250, "inner_in" },
    { T1, 300, 700, "step_body" },   /* crosses the end */
    { T1, 350, 450, "kid" },
    { T1, 600, 650, "late_kid" },    /* starts at the range end */
    { T2, 0, 100, "other" },         /* no overlap: the thread goes */
    { T2, 199, 200, "touch" },       /* ends where the range starts */
  };
  static const char * const expected[] = {
    "1/1\t1\t400\t0",
    "1/1;train\t1\t400\t40",
    "1/1;train;spans\t1\t60\t40",
    "1/1;train;spans;inner_in\t1\t20\t20",
    "1/1;train;step_body\t1\t300\t200",
    "1/1;train;step_body;kid\t1\t100\t100",
    NULL
  };
  g_autoptr(AfgDocument) document = load_document (events, G_N_ELEMENTS (events));
  AfgScope scope = { TRUE, 200, 600 };
  g_autoptr(AfgTree) tree = afg_test_build (document, &scope, AFG_TREE_FLAGS_NONE);

  afg_test_assert_tree (tree, expected);
  g_assert_cmpuint (afg_tree_get_n_threads (tree), ==, 1);
  g_assert_cmpuint (afg_tree_get_stats (tree)->used, ==, 5);
  g_assert_true (afg_tree_get_scope (tree)->bounded);
}

/* Partial overlaps are rebuilt the same with a scope as without one. */
static void
test_scope_partial_overlap (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "py" },
    { T1, 10, 12, "enter" },
    { T1, 11, 90, "range" },  /* starts inside enter, outlives it: a sibling */
    { T1, 20, 30, "op" },
  };
  static const char * const expected[] = {
    "1/1\t1\t89\t0",
    "1/1;py\t1\t89\t9",
    "1/1;py;enter\t1\t1\t1",
    "1/1;py;range\t1\t79\t69",
    "1/1;py;range;op\t1\t10\t10",
    NULL
  };
  g_autoptr(AfgDocument) document = load_document (events, G_N_ELEMENTS (events));
  AfgScope scope = { TRUE, 11, 101 };

  assert_tree (document, &scope, AFG_TREE_FLAGS_NONE, expected);
}

static void
test_address_merge_text (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "<built-in method item of Tensor object at 0xffff8342ae0>",
      "<built-in method item of Tensor object at 0x\xe2\x80\xa6>" },
    { "a at 0x1 and b at 0xDEADbeef!", "a at 0x\xe2\x80\xa6 and b at 0x\xe2\x80\xa6!" },
    { "at 0x12", NULL },                   /* no space before "at" */
    { "x at 0xg", "x at 0xg" },            /* no hex digit: unchanged */
    { "x at 0X12", NULL },
    { "plain", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = afg_address_merge (cases[i].in);
      g_assert_cmpstr (out, ==, cases[i].out);
    }
}

/* Variants that differ only in their address merge as siblings; self is
 * recomputed after merging. */
static void
test_merge_addresses (void)
{
  static const AfgTestEvent events[] = {
    { T1, 0, 100, "f" },
    { T1, 10, 30, "m of T object at 0xaa" },
    { T1, 12, 20, "g" },
    { T1, 40, 70, "m of T object at 0xbb" },
    { T1, 45, 60, "g" },
    { T1, 80, 90, "m of T object at 0x\xe2\x80\xa6" },
  };
  static const char * const merged[] = {
    "1/1\t1\t100\t0",
    "1/1;f\t1\t100\t40",
    "1/1;f;m of T object at 0x\xe2\x80\xa6\t3\t60\t37",
    "1/1;f;m of T object at 0x\xe2\x80\xa6;g\t2\t23\t23",
    NULL
  };
  g_autoptr(AfgDocument) document = load_document (events, G_N_ELEMENTS (events));
  g_autoptr(AfgTree) plain = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);

  g_assert_cmpuint (afg_tree_get_node (plain, afg_test_find_node (plain, "1/1;f"))->n_children, ==, 3);
  assert_tree (document, NULL, AFG_TREE_MERGE_ADDRESSES, merged);
}

static void
add_step_row (AfgTestDb *db, gint64 start, gint64 end, const char *name, gint64 type)
{
  afg_test_db_add_typed (db, T1, start, end, name, type);
}

/* Steps come from ProfilerStep#N rows of any type; of two rows of one
 * step the later wins; "ProfilerStep#x" is no step. */
static void
test_steps_from_rows (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  const AfgStep *steps;
  guint n;

  add_step_row (db, 100, 200, "ProfilerStep#7", TYPE_OP);
  add_step_row (db, 0, 100, "ProfilerStep#3", TYPE_MSTX);
  add_step_row (db, 150, 260, "ProfilerStep#7", TYPE_OP);
  add_step_row (db, 10, 20, "ProfilerStep#x", TYPE_OP);
  afg_test_db_add (db, T1, 10, 20, "work");
  afg_test_db_exec (db, "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
                        "INSERT INTO STEP_TIME VALUES (99, 0, 1)");
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);

  steps = afg_document_get_steps (document, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (steps[0].id, ==, 3);
  g_assert_cmpint (steps[0].start_ns, ==, 0);
  g_assert_cmpint (steps[1].id, ==, 7);
  g_assert_cmpint (steps[1].start_ns, ==, 150);
  g_assert_cmpint (steps[1].end_ns, ==, 260);
  g_assert_null (afg_document_find_step (document, 99));
  /* Step rows still count as profiler_steps (op rows only) and draw nothing. */
  g_assert_cmpuint (afg_document_get_load_stats (document)->profiler_steps, ==, 3);
}

/* Without ProfilerStep# rows, STEP_TIME; rows that are not integers are
 * passed over; a view named STEP_TIME is not read. */
static void
test_steps_from_table (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  const AfgStep *steps;
  guint n;

  afg_test_db_add (db, T1, 10, 20, "work");
  afg_test_db_exec (db, "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
                        "INSERT INTO STEP_TIME VALUES (2, 50, 60), (1, 0, 50), ('x', 1, 2),"
                        " (1, 5, 45), (4, NULL, 9)");
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  steps = afg_document_get_steps (document, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (steps[0].id, ==, 1);
  g_assert_cmpint (steps[0].start_ns, ==, 5);
  g_assert_cmpint (steps[1].id, ==, 2);

  db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  afg_test_db_add (db, T1, 10, 20, "work");
  afg_test_db_exec (db, "CREATE VIEW STEP_TIME AS SELECT 1 AS id, 0 AS startNs, 9 AS endNs");
  g_clear_pointer (&document, afg_document_unref);
  document = afg_test_db_load_document (db);
  afg_test_db_free (db);
  afg_document_get_steps (document, &n);
  g_assert_cmpuint (n, ==, 0);
}

/* afg_select_ranks() against a full sort: random values with many
 * repeats, sorted and reversed runs (a naive quickselect's worst case),
 * all equal, every size up to 300 and a large one. */
static void
check_select (gint64 *values, guint64 n)
{
  g_autofree gint64 *sorted = g_memdup2 (values, n * sizeof *values);
  guint64 ks[3] = { (n - 1) / 3, (n - 1) / 2, n - 1 };

  qsort (sorted, n, sizeof *sorted, afg_compare_int64);
  afg_select_ranks (values, n, ks, G_N_ELEMENTS (ks));
  for (guint i = 0; i < G_N_ELEMENTS (ks); i++)
    {
      g_assert_cmpint (values[ks[i]], ==, sorted[ks[i]]);
      for (guint64 j = 0; j < ks[i]; j++)
        g_assert_cmpint (values[j], <=, values[ks[i]]);
      for (guint64 j = ks[i] + 1; j < n; j++)
        g_assert_cmpint (values[j], >=, values[ks[i]]);
    }
}

static void
test_select_ranks (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (15);

  for (guint64 n = 1; n <= 300; n++)
    for (guint shape = 0; shape < 4; shape++)
      {
        g_autofree gint64 *v = g_new (gint64, n);

        for (guint64 i = 0; i < n; i++)
          v[i] = shape == 0 ? g_rand_int_range (rand, -5, 6)
               : shape == 1 ? (gint64) i
               : shape == 2 ? (gint64) (n - i) * G_GINT64_CONSTANT (1000000000000)
               : 7;
        check_select (v, n);
      }
  {
    guint64 n = 200000;
    g_autofree gint64 *v = g_new (gint64, n);

    for (guint64 i = 0; i < n; i++)
      v[i] = i % 2 ? G_MAXINT64 - (gint64) i : G_MININT64 + (gint64) g_rand_int (rand);
    check_select (v, n);
  }
}

/* Dense ids are found by offset, sparse ones by search; absent ids and
 * ids past either end are not found. */
static void
test_id_index (void)
{
  const gint64 dense[] = { 12, 10, 11, 15, 10 };
  const gint64 sparse[] = { G_MININT64, 5, G_MAXINT64, 5, -1 };
  AfgIdIndex index;
  gsize slot;

  afg_id_index_init (&index, dense, G_N_ELEMENTS (dense));
  g_assert_null (index.sorted);
  g_assert_true (afg_id_index_find (&index, 15, &slot));
  g_assert_cmpuint (slot, ==, 5);
  g_assert_false (afg_id_index_find (&index, 9, &slot));
  g_assert_false (afg_id_index_find (&index, 16, &slot));
  g_assert_false (afg_id_index_find (&index, G_MININT64, &slot));
  afg_id_index_clear (&index);

  afg_id_index_init (&index, sparse, G_N_ELEMENTS (sparse));
  g_assert_nonnull (index.sorted);
  g_assert_cmpuint (index.n_slots, ==, 4);
  g_assert_true (afg_id_index_find (&index, G_MININT64, &slot));
  g_assert_cmpuint (slot, ==, 0);
  g_assert_true (afg_id_index_find (&index, 5, &slot));
  g_assert_cmpuint (slot, ==, 2);
  g_assert_true (afg_id_index_find (&index, G_MAXINT64, &slot));
  g_assert_cmpuint (slot, ==, 3);
  g_assert_false (afg_id_index_find (&index, 4, &slot));
  g_assert_false (afg_id_index_find (&index, 0, &slot));
  afg_id_index_clear (&index);

  afg_id_index_init (&index, NULL, 0);
  g_assert_false (afg_id_index_find (&index, 0, &slot));
  afg_id_index_clear (&index);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/store/wide-values", test_store_wide_values);
  g_test_add_func ("/model/select-ranks", test_select_ranks);
  g_test_add_func ("/model/id-index", test_id_index);
  g_test_add_func ("/model/tree/rebuild", test_rebuild);
  g_test_add_func ("/model/tree/root", test_root);
  g_test_add_func ("/model/scope/clips", test_scope_clips);
  g_test_add_func ("/model/scope/partial-overlap", test_scope_partial_overlap);
  g_test_add_func ("/model/addresses/text", test_address_merge_text);
  g_test_add_func ("/model/addresses/merge", test_merge_addresses);
  g_test_add_func ("/model/steps/rows", test_steps_from_rows);
  g_test_add_func ("/model/steps/table", test_steps_from_table);
  return g_test_run ();
}
