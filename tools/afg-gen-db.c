/* SPDX-License-Identifier: MIT */
/* Writes a synthetic ascend_pytorch_profiler_*.db in torch_npu's schema:
 * TEXT timestamps, several threads, one call tree per thread that every
 * training step replays with variations, ProfilerStep# markers, mstx rows
 * and the anomalies real files hold (partial overlaps, a non-positive
 * duration, NULLs). Rows are written grouped by type, as torch_npu does. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>
#include <sqlite3.h>

#define NAME_ID_BASE 268435456
#define SHAPE_ID_BASE 536870912
#define TYPE_OP 50001
#define TYPE_QUEUE 50002
#define TYPE_TRACE 50003
#define TYPE_MSTX 50004
#define N_THREADS 4
#define N_SHAPES 5000

typedef struct {
  guint32 name;
  guint32 first_child;
  guint32 n_children;
  gint64  self_ns;
  gint    type;
} TemplateNode;

typedef struct {
  gint64  start;
  gint64  end;
  gint64  global_tid;
  gint64  name;
  gint    type;
  gboolean null_start;
} Row;

typedef struct {
  GRand   *rand;
  GArray  *templates[N_THREADS];
  GArray  *rows;
  guint    n_names;
} Generator;

static const gint64 thread_ids[N_THREADS] = {
  (G_GINT64_CONSTANT (3055835) << 32) | 3055835,
  (G_GINT64_CONSTANT (3055835) << 32) | 3059156,
  (G_GINT64_CONSTANT (3055835) << 32) | 3064050,
  (G_GINT64_CONSTANT (3055835) << 32) | 3064777,
};
static const guint template_sizes[N_THREADS] = { 42000, 12000, 3000, 3000 };

static const char * const op_stems[] = {
  "aten::add", "aten::mul", "aten::matmul", "aten::linear", "aten::conv2d", "aten::relu",
  "aten::softmax", "aten::layer_norm", "aten::to", "aten::copy_", "aten::empty", "aten::view",
  "aten::transpose", "aten::sum", "aten::mean", "aten::addmm", "autograd::engine::evaluate_function",
  "c10d::allreduce_", "torch_npu::npu_fusion_attention",
};
static const char * const cann_stems[] = {
  "aclnnMatmul", "aclnnAdd", "aclnnMul", "aclrtSynchronizeStream", "aclrtMemcpy",
  "AscendCL@aclopCompileAndExecute", "HcclAllReduce", "acl_launch_kernel", "aclmdlExecute",
};

static char *
name_text (guint i)
{
  switch (i % 4)
    {
    case 0:
      return g_strdup_printf ("model/block_%u.py(%u): forward", i / 4 % 997, 10 + i % 400);
    case 1:
      return g_strdup_printf ("%s_%u", op_stems[i % G_N_ELEMENTS (op_stems)], i / 4);
    case 2:
      return g_strdup_printf ("%s_%u", cann_stems[i % G_N_ELEMENTS (cann_stems)], i / 4);
    default:
      return g_strdup_printf ("<built-in method fn_%u of Tensor object at 0x%08x>", i / 4, i * 2654435761u);
    }
}

static gint
type_of_name (guint name)
{
  return name % 4 == 0 || name % 4 == 3 ? TYPE_TRACE : name % 4 == 1 ? TYPE_OP : TYPE_QUEUE;
}

/* Breadth-first random tree: children of a node are contiguous. */
static GArray *
make_template (Generator *g, guint size)
{
  GArray *nodes = g_array_sized_new (FALSE, TRUE, sizeof (TemplateNode), size);
  guint next = 1;

  g_array_set_size (nodes, size);
  for (guint i = 0; i < size; i++)
    {
      TemplateNode *n = &g_array_index (nodes, TemplateNode, i);
      guint fanout = g_rand_int_range (g->rand, 0, i < 8 ? 8 : 6);

      n->name = g_rand_int_range (g->rand, 0, g->n_names);
      n->type = type_of_name (n->name);
      n->self_ns = g_rand_int_range (g->rand, 200, 20000);
      n->first_child = next;
      n->n_children = MIN (fanout, size - next);
      next += n->n_children;
    }
  return nodes;
}

static void
add_row (Generator *g, gint64 start, gint64 end, gint64 tid, gint64 name, gint type)
{
  Row row = { start, end, tid, name, type, FALSE };
  g_array_append_val (g->rows, row);
}

/* Replays template node @i from @start; returns its end. */
static gint64
replay (Generator *g, GArray *tpl, guint i, gint64 start, gint64 tid)
{
  const TemplateNode *n = &g_array_index (tpl, TemplateNode, i);
  gint64 t = start + n->self_ns / 2;

  for (guint c = 0; c < n->n_children; c++)
    if (g_rand_int_range (g->rand, 0, 100) < 97)
      t = replay (g, tpl, n->first_child + c, t + 50, tid);
  t += n->self_ns - n->self_ns / 2;
  add_row (g, start, t, tid, NAME_ID_BASE + n->name, n->type);
  return t;
}

/* @leaf is a row of this step; siblings are 50 ns apart, so a range that
 * outlives @leaf by 10 ns overlaps it partially and contains nothing else. */
static void
add_anomalies (Generator *g, Row leaf, gint64 tid)
{
  gint64 mid = leaf.start + (leaf.end - leaf.start) / 2;
  Row null_row = { 0, mid + 10, tid, NAME_ID_BASE + 1, TYPE_OP, TRUE };

  add_row (g, mid, leaf.end + 10, tid, NAME_ID_BASE + 5, TYPE_OP);
  add_row (g, mid + 100, mid + 100, tid, NAME_ID_BASE + 9, TYPE_OP);
  add_row (g, mid + 200, mid + 900, tid, NAME_ID_BASE + 13, TYPE_MSTX);
  g_array_append_val (g->rows, null_row);
}

/* Returns the number of steps. */
static guint
generate_rows (Generator *g, guint64 target_rows)
{
  gint64 clock = G_GINT64_CONSTANT (1736407067942010500);
  guint step = 0;

  while (g->rows->len < target_rows)
    {
      gint64 step_start = clock, step_end = clock;

      guint first_row = g->rows->len;
      Row leaf;

      for (guint t = 0; t < N_THREADS; t++)
        {
          gint64 end = replay (g, g->templates[t], 0, step_start + t * 1000, thread_ids[t]);
          step_end = MAX (step_end, end);
          if (t == 0)  /* rows come out in post-order: the first is a leaf */
            leaf = g_array_index (g->rows, Row, first_row);
        }
      add_row (g, step_start - 100, step_end + 100, thread_ids[0], NAME_ID_BASE + g->n_names + step, TYPE_OP);
      add_anomalies (g, leaf, thread_ids[0]);
      clock = step_end + 1000000;
      step++;
    }
  return step;
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const Row *ra = a, *rb = b;

  if (ra->type != rb->type)
    return ra->type == TYPE_QUEUE ? -1 : rb->type == TYPE_QUEUE ? 1 : ra->type < rb->type ? 1 : -1;
  return ra->start < rb->start ? -1 : ra->start > rb->start;
}

static void
exec (sqlite3 *db, const char *sql)
{
  char *err = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &err) != SQLITE_OK)
    g_error ("%s: %s", sql, err);
}

static const char schema[] =
  "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
  "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
  "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
  "INSERT INTO ENUM_API_TYPE VALUES (5000,'runtime'),(20000,'acl'),(50001,'op'),(50002,'queue'),"
  "(50003,'trace'),(50004,'mstx');"
  "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER,"
  " name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER,"
  " inputShapes INTEGER, callchainId INTEGER, type INTEGER);"
  "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
  "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,"
  " globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,"
  " taskId INTEGER,modelId INTEGER);";

static void
write_strings (Generator *g, sqlite3 *db, guint n_steps)
{
  sqlite3_stmt *stmt;

  sqlite3_prepare_v2 (db, "INSERT INTO STRING_IDS VALUES (?1, ?2)", -1, &stmt, NULL);
  for (guint i = 0; i < g->n_names + n_steps + N_SHAPES; i++)
    {
      g_autofree char *text = i < g->n_names ? name_text (i)
                            : i < g->n_names + n_steps ? g_strdup_printf ("ProfilerStep#%u", i - g->n_names)
                            : g_strdup_printf ("[[%u, 1024], [%u]]", i, i % 77);
      sqlite3_bind_int64 (stmt, 1, i < g->n_names + n_steps ? NAME_ID_BASE + i : SHAPE_ID_BASE + i);
      sqlite3_bind_text (stmt, 2, text, -1, SQLITE_TRANSIENT);
      sqlite3_step (stmt);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);
}

static void
write_rows (Generator *g, sqlite3 *db)
{
  sqlite3_stmt *stmt;
  char start[24], end[24];

  sqlite3_prepare_v2 (db, "INSERT INTO PYTORCH_API VALUES (?1, ?2, ?3, ?4, ?5, NULL, NULL, NULL, ?6, NULL, ?7)",
                      -1, &stmt, NULL);
  for (guint i = 0; i < g->rows->len; i++)
    {
      const Row *r = &g_array_index (g->rows, Row, i);

      g_snprintf (start, sizeof start, "%" G_GINT64_FORMAT, r->start);
      g_snprintf (end, sizeof end, "%" G_GINT64_FORMAT, r->end);
      if (r->null_start)
        sqlite3_bind_null (stmt, 1);
      else
        sqlite3_bind_text (stmt, 1, start, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, end, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 3, r->global_tid);
      sqlite3_bind_int64 (stmt, 4, i);
      sqlite3_bind_int64 (stmt, 5, r->name);
      sqlite3_bind_int64 (stmt, 6, SHAPE_ID_BASE + g->n_names + i % N_SHAPES);
      sqlite3_bind_int (stmt, 7, r->type);
      sqlite3_step (stmt);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);
}

int
main (int argc, char *argv[])
{
  Generator g = { 0 };
  guint64 rows;
  sqlite3 *db;
  guint n_steps;

  if (argc != 3 || (rows = g_ascii_strtoull (argv[2], NULL, 10)) == 0)
    {
      g_printerr ("usage: %s OUTPUT.db ROWS\n", argv[0]);
      return 2;
    }
  g.rand = g_rand_new_with_seed (20241202);
  g.n_names = 20000;
  g.rows = g_array_sized_new (FALSE, FALSE, sizeof (Row), rows + 70000);
  for (guint t = 0; t < N_THREADS; t++)
    g.templates[t] = make_template (&g, template_sizes[t]);
  n_steps = generate_rows (&g, rows);
  g_array_sort (g.rows, compare_rows);

  remove (argv[1]);
  if (sqlite3_open (argv[1], &db) != SQLITE_OK)
    g_error ("cannot create %s", argv[1]);
  exec (db, schema);
  exec (db, "BEGIN");
  write_strings (&g, db, n_steps);
  write_rows (&g, db);
  exec (db, "COMMIT");
  sqlite3_close (db);
  g_print ("%s: %u rows\n", argv[1], g.rows->len);
  for (guint t = 0; t < N_THREADS; t++)
    g_array_unref (g.templates[t]);
  g_array_unref (g.rows);
  g_rand_free (g.rand);
  return 0;
}
