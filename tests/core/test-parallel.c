/* SPDX-License-Identifier: MIT */
/* Above 100,000 rows the loader splits PYTORCH_API between two readers by
 * rowid. Check that path against a plain in-test implementation of rules
 * 7-9 (sort, stack walk, merge); and cancellation. */
#include "config.h"

#include <string.h>

#include "afg-cores.h"
#include "afg-loader.h"
#include "afg-test-db.h"

#define N_THREADS 4
#define N_MAIN_ROWS 300000
#define N_PAIRS 500

static const char * const names[] = { "fwd", "bwd", "aten::mm", "aclnnMatmul", "step.py(3): run",
                                      "Enqueue", "zeta", "Alpha" };

typedef struct {
  gint64      tid;
  gint64      start;
  gint64      end;
  const char *name;
  guint       rowid;
} Row;

typedef struct RefNode {
  guint64     calls;
  gint64      total;
  GHashTable *children;   /* name -> RefNode */
} RefNode;

static RefNode *
ref_node_new (void)
{
  RefNode *n = g_new0 (RefNode, 1);
  n->children = g_hash_table_new (g_str_hash, g_str_equal);
  return n;
}

static void
ref_node_free (RefNode *n)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, n->children);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    ref_node_free (value);
  g_hash_table_unref (n->children);
  g_free (n);
}

static void
gen_event (GRand *rand, GArray *rows, gint64 tid, gint64 start, gint64 end, guint depth)
{
  Row row = { tid, start, end, names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))], 0 };
  gint64 t = start;

  g_array_append_val (rows, row);
  /* A child exactly as long as its parent. */
  if (g_rand_int_range (rand, 0, 20) == 0)
    {
      Row same = { tid, start, end, names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))], 0 };
      g_array_append_val (rows, same);
    }
  while (depth < 12 && end - t > 8 && g_rand_int_range (rand, 0, 4) != 0)
    {
      gint64 s = t + g_rand_int_range (rand, 0, 3);
      gint64 e = s + 1 + g_rand_int_range (rand, 0, (gint32) MIN (end - s, 1000000));

      /* Now and then a call that outlives its parent: a partial overlap. */
      if (g_rand_int_range (rand, 0, 50) == 0)
        e = end + 1 + g_rand_int_range (rand, 0, 5);
      if (e > end)
        {
          Row over = { tid, s, e, names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))], 0 };
          g_array_append_val (rows, over);
          break;
        }
      gen_event (rand, rows, tid, s, e, depth + 1);
      t = e;
    }
}

/* @skewed: seven rows in ten on the first thread, which then holds over
 * half of them, as a training loop's main thread does: the loader encodes
 * it in two parts split by time. */
static GArray *
generate (GRand *rand, gboolean skewed)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (Row));
  static const gint64 tids[N_THREADS] = { GTID (100, 100), GTID (100, 101), GTID (100, 7),
                                          GTID (200, 100) };
  gint64 t[N_THREADS] = { 0 };

  while (rows->len < N_MAIN_ROWS)
    {
      guint k = skewed && g_rand_int_range (rand, 0, 10) < 7 ? 0 : (guint) g_rand_int_range (rand, 0, N_THREADS);
      gint64 len = 50 + g_rand_int_range (rand, 0, 2000000);

      gen_event (rand, rows, tids[k], t[k], t[k] + len, 1);
      t[k] += len + g_rand_int_range (rand, 0, 100);
    }
  return rows;
}

static void
shuffle (GRand *rand, Row *rows, guint n)
{
  for (guint i = n; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i);
      Row tmp = rows[i - 1];
      rows[i - 1] = rows[j];
      rows[j] = tmp;
    }
}

/* Rows in rowid order: shuffled, with pairs of equal intervals of one
 * thread split across the rowid midpoint where the loader cuts the table. */
static GArray *
arrange (GRand *rand, GArray *main_rows)
{
  guint n = main_rows->len + 2 * N_PAIRS;
  guint first = 1 + (n - 1) / 2;   /* rowids 1..first go to the first reader */
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (Row), n);
  guint m = 0;

  for (guint i = 0; i < N_PAIRS; i++)
    {
      Row a = g_array_index (main_rows, Row, g_rand_int_range (rand, 0, main_rows->len));
      a.name = names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))];
      g_array_append_val (out, a);
    }
  for (; out->len < first; m++)
    g_array_append_val (out, g_array_index (main_rows, Row, m));
  shuffle (rand, (Row *) out->data, out->len);
  for (guint i = 0; i < N_PAIRS; i++)
    {
      Row b = g_array_index (out, Row, g_rand_int_range (rand, 0, first));
      b.name = names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))];
      g_array_append_val (out, b);
    }
  for (; m < main_rows->len; m++)
    g_array_append_val (out, g_array_index (main_rows, Row, m));
  shuffle (rand, (Row *) out->data + first, out->len - first);
  for (guint i = 0; i < out->len; i++)
    g_array_index (out, Row, i).rowid = i + 1;
  return out;
}

static int
compare_rows (gconstpointer pa, gconstpointer pb)
{
  const Row *a = pa, *b = pb;

  if (a->tid != b->tid)
    return a->tid < b->tid ? -1 : 1;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  if (a->end != b->end)
    return a->end > b->end ? -1 : 1;
  return a->rowid < b->rowid ? -1 : a->rowid > b->rowid;
}

/* Rules 7-9, the simple way. */
static GHashTable *
reference_build (GArray *rows_in, guint64 *partial, guint64 *truncated)
{
  g_autoptr(GArray) rows = g_array_copy (rows_in);
  GHashTable *threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                               (GDestroyNotify) ref_node_free);
  RefNode *stack[AFG_MAX_DEPTH + 1];
  gint64 ends[AFG_MAX_DEPTH + 1];
  guint sp = 0;
  gint64 tid = 0;

  g_array_sort (rows, compare_rows);
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = &g_array_index (rows, Row, i);
      RefNode *child;

      if (i == 0 || r->tid != tid)
        {
          tid = r->tid;
          stack[0] = ref_node_new ();
          ends[0] = G_MAXINT64;
          sp = 0;
          g_hash_table_insert (threads, g_memdup2 (&tid, sizeof tid), stack[0]);
        }
      while (sp > 0 && ends[sp] < r->end)
        {
          *partial += r->start < ends[sp];
          sp--;
        }
      if (sp == AFG_MAX_DEPTH)
        {
          (*truncated)++;
          continue;
        }
      child = g_hash_table_lookup (stack[sp]->children, r->name);
      if (child == NULL)
        {
          child = ref_node_new ();
          g_hash_table_insert (stack[sp]->children, (gpointer) r->name, child);
        }
      child->calls++;
      child->total += r->end - r->start;
      stack[++sp] = child;
      ends[sp] = r->end;
    }
  return threads;
}

static void
ref_render (RefNode *node, const char *path, GPtrArray *lines, gboolean is_root)
{
  GHashTableIter iter;
  gpointer key, value;
  gint64 child_total = 0;
  guint64 child_calls = 0;

  g_hash_table_iter_init (&iter, node->children);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      RefNode *child = value;
      g_autofree char *child_path = g_strconcat (path, ";", key, NULL);

      child_total += child->total;
      child_calls += child->calls;
      ref_render (child, child_path, lines, FALSE);
    }
  if (is_root)
    g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GUINT64_FORMAT "\t%" G_GINT64_FORMAT "\t0",
                                             path, child_calls, child_total));
  else
    g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GUINT64_FORMAT "\t%" G_GINT64_FORMAT
                                             "\t%" G_GINT64_FORMAT, path, node->calls, node->total,
                                             MAX (0, node->total - child_total)));
}

static GPtrArray *
reference_lines (GHashTable *threads)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, threads);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint64 gtid = *(gint64 *) key;
      g_autofree char *label = g_strdup_printf ("%u/%u", (guint) (gtid >> 32), (guint) (gtid & G_MAXUINT32));

      ref_render (value, label, lines, TRUE);
    }
  return lines;
}

static AfgTestDb *
write_db (GArray *rows)
{
  AfgTestDb *db = afg_test_db_new (0);

  afg_test_db_begin (db);
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *r = &g_array_index (rows, Row, i);
      afg_test_db_add (db, r->tid, r->start, r->end, r->name);
    }
  afg_test_db_commit (db);
  return db;
}

/* @one_core: as a job's worker reads a rank, one reader and no helper thread. */
static void
assert_matches_reference (gboolean one_core, gboolean skewed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20241202);
  g_autoptr(GArray) main_rows = generate (rand, skewed);
  g_autoptr(GArray) rows = arrange (rand, main_rows);
  g_autoptr(GHashTable) ref = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GPtrArray) actual = NULL;
  g_autoptr(AfgTree) tree = NULL;
  guint64 partial = 0, truncated = 0;
  AfgTestDb *db = write_db (rows);
  const AfgStats *s;

  g_test_message ("%u rows", rows->len);
  g_assert_cmpuint (rows->len, >, 250000);
  g_assert_cmpuint (g_get_num_processors (), >, 1);
  ref = reference_build (rows, &partial, &truncated);
  expected = reference_lines (ref);
  afg_cores_limit_thread (one_core ? 1 : 0);
  g_assert_cmpuint (afg_cores_get (), ==, one_core ? 1 : g_get_num_processors ());
  tree = afg_test_db_load (db);
  afg_cores_limit_thread (0);
  actual = afg_test_render_tree (tree);
  afg_test_assert_lines (actual, expected, "parallel load vs reference");
  s = afg_tree_get_stats (tree);
  g_assert_cmpuint (s->rows, ==, rows->len);
  g_assert_cmpuint (s->used, ==, rows->len - truncated);
  g_assert_cmpuint (s->partial_overlaps, ==, partial);
  g_assert_cmpuint (s->depth_truncated, ==, truncated);
  g_assert_cmpuint (partial, >, 0);
  g_assert_cmpuint (afg_tree_get_n_threads (tree), ==, N_THREADS);
  afg_test_db_free (db);
}

static void
assert_same_trees (const AfgTree *a, const AfgTree *b)
{
  const AfgStats *sa = afg_tree_get_stats (a), *sb = afg_tree_get_stats (b);

  g_assert_cmpuint (afg_tree_get_n_nodes (a), ==, afg_tree_get_n_nodes (b));
  g_assert_cmpmem (afg_tree_get_nodes (a), sizeof (AfgNode) * afg_tree_get_n_nodes (a),
                   afg_tree_get_nodes (b), sizeof (AfgNode) * afg_tree_get_n_nodes (b));
  for (guint c = 0; c < AFG_N_COLUMNS; c++)
    {
      g_assert_cmpint (afg_tree_has_column (a, c), ==, afg_tree_has_column (b, c));
      if (afg_tree_has_column (a, c))
        g_assert_cmpmem (afg_tree_get_column (a, c), sizeof (gint64) * afg_tree_get_n_nodes (a),
                         afg_tree_get_column (b, c), sizeof (gint64) * afg_tree_get_n_nodes (b));
    }
  g_assert_cmpuint (afg_tree_get_n_threads (a), ==, afg_tree_get_n_threads (b));
  for (guint i = 0; i < afg_tree_get_n_threads (a); i++)
    {
      const AfgThread *ta = afg_tree_get_thread (a, i), *tb = afg_tree_get_thread (b, i);

      g_assert_cmpint (ta->global_tid, ==, tb->global_tid);
      g_assert_cmpuint (ta->pid, ==, tb->pid);
      g_assert_cmpuint (ta->tid, ==, tb->tid);
      g_assert_cmpstr (ta->label, ==, tb->label);
      g_assert_cmpuint (ta->node, ==, tb->node);
    }
  g_assert_cmpmem (sa, sizeof *sa, sb, sizeof *sb);
}

/* The threads' trees are walked on two cores and appended in order: the
 * same nodes, columns (durations included), threads and counts as the
 * walk on one core, for the whole profile and for its middle third. */
static void
test_parallel_walk_matches_one_core (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GArray) rows = arrange (rand, generate (rand, FALSE));
  AfgTestDb *db = write_db (rows);
  g_autoptr(AfgDocument) document = afg_test_db_load_document (db);
  gint64 lo = G_MAXINT64, hi = G_MININT64;
  AfgTreeFlags flags[] = { AFG_TREE_DURATIONS, AFG_TREE_DURATIONS | AFG_TREE_MERGE_ADDRESSES, AFG_TREE_FLAGS_NONE };

  for (guint i = 0; i < rows->len; i++)
    {
      lo = MIN (lo, g_array_index (rows, Row, i).start);
      hi = MAX (hi, g_array_index (rows, Row, i).end);
    }
  g_assert_cmpuint (afg_event_store_get_n_threads (afg_document_get_events (document)), ==, N_THREADS);
  for (guint s = 0; s < 2; s++)
    for (guint f = 0; f < G_N_ELEMENTS (flags); f++)
      {
        AfgScope third = { TRUE, lo + (hi - lo) / 3, lo + 2 * (hi - lo) / 3, 0, 0, 0 };
        const AfgScope *scope = s == 0 ? NULL : &third;
        g_autoptr(AfgTree) two = afg_tree_build (document, scope, flags[f], NULL, NULL);
        g_autoptr(AfgTree) one = afg_tree_build (document, scope, flags[f] | AFG_TREE_ONE_CORE, NULL, NULL);

        g_assert_cmpuint (afg_tree_get_n_nodes (two), >, 1000);
        assert_same_trees (two, one);
      }
  /* A cancelled walk gives no tree, on two cores as on one. */
  for (guint f = 0; f < 2; f++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(AfgTree) tree = NULL;

      g_cancellable_cancel (cancellable);
      tree = afg_tree_build (document, NULL, AFG_TREE_DURATIONS | (f ? AFG_TREE_ONE_CORE : 0), cancellable, &error);
      g_assert_null (tree);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    }
  afg_test_db_free (db);
}

static void
test_parallel_matches_reference (void)
{
  assert_matches_reference (FALSE, FALSE);
}

static void
test_split_thread_matches_reference (void)
{
  assert_matches_reference (FALSE, TRUE);
}

static void
test_one_core_matches_reference (void)
{
  assert_matches_reference (TRUE, FALSE);
}

static gpointer
cores_in_thread (gpointer data)
{
  return GUINT_TO_POINTER (afg_cores_get ());
}

/* A limit holds for its thread only, and never raises the count. */
static void
test_cores_limit (void)
{
  guint n = g_get_num_processors ();

  afg_cores_limit_thread (1);
  g_assert_cmpuint (afg_cores_get (), ==, 1);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_thread_join (g_thread_new ("cores", cores_in_thread, NULL))), ==, n);
  afg_cores_limit_thread (n + 4);
  g_assert_cmpuint (afg_cores_get (), ==, n);
  afg_cores_limit_thread (0);
  g_assert_cmpuint (afg_cores_get (), ==, n);
}

typedef struct {
  GCancellable *cancellable;
  AfgLoadPhase  phase;
  guint         calls;
} CancelData;

static void
cancel_on_progress (AfgLoadPhase phase, guint64 rows_read, guint64 rows_total, gpointer data)
{
  CancelData *d = data;

  d->calls++;
  if (phase == d->phase)
    g_cancellable_cancel (d->cancellable);
}

static AfgTestDb *
big_db (guint n_rows)
{
  AfgTestDb *db = afg_test_db_new (0);

  afg_test_db_begin (db);
  for (guint i = 0; i < n_rows; i++)
    afg_test_db_add (db, GTID (1, 1 + i % 3), i * 10, i * 10 + 5 + i % 7, i % 2 ? "a" : "b");
  afg_test_db_commit (db);
  afg_test_db_close (db);
  return db;
}

static void
assert_cancelled (const char *path, CancelData *d)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgTree) tree = NULL;

  tree = afg_test_load_tree (path, d->cancellable, cancel_on_progress, d, &error);
  g_assert_null (tree);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (d->calls, >, 0);
}

typedef struct {
  const char   *path;
  guint         n_rows;
  AfgLoadPhase  phase;
} CancelCase;

static const CancelCase cancel_cases[] = {
  { "/cancel/from-progress/opening", 50000, AFG_LOAD_PHASE_OPENING },
  { "/cancel/from-progress/reading", 50000, AFG_LOAD_PHASE_READING },
  { "/cancel/from-progress/building", 50000, AFG_LOAD_PHASE_BUILDING },
  { "/cancel/from-progress/parallel-reading", 150000, AFG_LOAD_PHASE_READING },
  { "/cancel/from-progress/parallel-building", 150000, AFG_LOAD_PHASE_BUILDING },
};

static void
test_cancel (gconstpointer data)
{
  const CancelCase *c = data;
  AfgTestDb *db = big_db (c->n_rows);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  CancelData d = { cancellable, c->phase, 0 };

  assert_cancelled (db->path, &d);
  afg_test_db_free (db);
}

static void
test_cancel_before (void)
{
  AfgTestDb *db = big_db (10);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgTree) tree = NULL;

  g_cancellable_cancel (cancellable);
  tree = afg_test_load_tree (db->path, cancellable, NULL, NULL, &error);
  g_assert_null (tree);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  afg_test_db_free (db);
}

typedef struct {
  const char *path;
  CancelData *cancel;
  GError     *error;
} ThreadLoad;

/* The window's way: the load on a thread of its own, cancelled from its
 * progress callback. */
static gpointer
load_on_thread (gpointer data)
{
  ThreadLoad *load = data;
  AfgDocument *document = afg_document_load (load->path, load->cancel->cancellable, cancel_on_progress, load->cancel,
                                             &load->error);

  g_assert_null (document);
  return NULL;
}

static void
test_cancel_async (void)
{
  AfgTestDb *db = big_db (50000);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  CancelData d = { cancellable, AFG_LOAD_PHASE_READING, 0 };
  ThreadLoad load = { db->path, &d, NULL };

  g_thread_join (g_thread_new ("test-load", load_on_thread, &load));
  g_assert_error (load.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&load.error);
  afg_test_db_free (db);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* A load that ignores one cancellation must not hide the other cases. */
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/parallel/matches-reference", test_parallel_matches_reference);
  g_test_add_func ("/parallel/split-thread-matches-reference", test_split_thread_matches_reference);
  g_test_add_func ("/parallel/walk-matches-one-core", test_parallel_walk_matches_one_core);
  g_test_add_func ("/parallel/one-core-matches-reference", test_one_core_matches_reference);
  g_test_add_func ("/parallel/cores-limit", test_cores_limit);
  for (guint i = 0; i < G_N_ELEMENTS (cancel_cases); i++)
    g_test_add_data_func (cancel_cases[i].path, &cancel_cases[i], test_cancel);
  g_test_add_func ("/cancel/before-load", test_cancel_before);
  g_test_add_func ("/cancel/async", test_cancel_async);
  return g_test_run ();
}
