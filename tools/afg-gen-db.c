/* SPDX-License-Identifier: MIT */
/* Writes a synthetic ascend_pytorch_profiler_*.db in torch_npu's schema:
 * TEXT timestamps, several threads, one call tree per thread that every
 * training step replays with variations, ProfilerStep# markers, mstx rows
 * and the anomalies real files hold (partial overlaps, a non-positive
 * duration, NULLs). Rows are written grouped by type, as torch_npu does.
 *
 * The device side is shaped like the real samples: op rows of the main and
 * autograd threads launch 1-3 TASK rows that start after the op ends (the
 * device queue), linked through PYTORCH_API.connectionId -> CONNECTION_IDS
 * -> TASK.connectionId; most device time is allreduce on its own stream;
 * some tasks link to nothing and a few never ended (NULL endNs). STEP_TIME
 * repeats the ProfilerStep# rows; steps differ in length, one is slow.
 *
 * Call trees, step lengths and the device side each draw from their own
 * random stream: --no-npu writes the same PYTORCH_API rows but for
 * connectionId, and the trees are those of the versions before steps
 * differed in length (only the times changed). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <sqlite3.h>

#define NAME_ID_BASE 268435456
#define SHAPE_ID_BASE 536870912
#define TYPE_OP 50001
#define TYPE_QUEUE 50002
#define TYPE_TRACE 50003
#define TYPE_MSTX 50004
#define N_THREADS 4
#define N_LAUNCHING_THREADS 2   /* main and autograd, as in the samples */
#define N_SHAPES 5000
#define DEFAULT_SEED 20241202
#define NO_CONNECTION G_MAXUINT32
#define UNLINKED_TASK G_MAXUINT32   /* torch_npu's "no connection" in TASK */
#define FIRST_TASK_CONNECTION 9884  /* where the samples' numbering starts */
#define SLOW_FACTOR 3000            /* per mille of a normal step */
#define RETENTION 97                /* per cent of children a step replays */

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
  guint32 name;
  guint32 connection;   /* PYTORCH_API.connectionId, NO_CONNECTION = NULL */
  guint16 type;
  guint8  null_start;
} Row;

typedef struct {
  gint64  start;
  gint64  end;
  guint32 connection;
  guint16 type;
  guint8  stream;
  guint8  null_end;
} Task;

typedef struct {
  guint32 id;           /* PYTORCH_API.connectionId */
  guint32 connection;   /* TASK.connectionId */
} Link;

typedef struct {
  gint64 start;
  gint64 end;
} Step;

typedef struct {
  guint64  rows;
  guint    steps;       /* 0: as many as ROWS takes */
  gint64   slow_step;   /* -1: the middle one */
  guint32  seed;
  gboolean no_npu;
} Options;

typedef struct {
  GRand   *rand;        /* host rows */
  GRand   *pace;        /* step lengths */
  GRand   *side;        /* device side */
  GArray  *templates[N_THREADS];
  GArray  *rows;
  GArray  *tasks;
  GArray  *links;
  GArray  *steps;
  guint    n_names;
  gboolean npu;
  gint64   scale;       /* per mille, of the step being replayed */
  gboolean null_end_due;
  guint32  next_api_connection;
  guint32  next_task_connection;
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

static gboolean
is_allreduce (guint name)
{
  return name % 4 == 1 && strcmp (op_stems[name % G_N_ELEMENTS (op_stems)], "c10d::allreduce_") == 0;
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

      /* A tree that died out would be far smaller than @size. */
      if (fanout == 0 && next == i + 1)
        fanout = 1;

      n->name = g_rand_int_range (g->rand, 0, g->n_names);
      n->type = type_of_name (n->name);
      n->self_ns = g_rand_int_range (g->rand, 200, 20000);
      n->first_child = next;
      n->n_children = MIN (fanout, size - next);
      next += n->n_children;
    }
  return nodes;
}

/* The rows one replay of @tpl writes on average; children follow their
 * parent, so one backward pass sees every child before its parent. */
static double
expected_rows (GArray *tpl)
{
  g_autofree double *e = g_new0 (double, tpl->len);

  for (guint i = tpl->len; i-- > 0;)
    {
      const TemplateNode *n = &g_array_index (tpl, TemplateNode, i);

      e[i] = 1;
      for (guint c = 0; c < n->n_children; c++)
        e[i] += e[n->first_child + c] * RETENTION / 100;
    }
  return tpl->len ? e[0] : 0;
}

static double
expected_step_rows (Generator *g)
{
  double rows = 5;  /* the ProfilerStep# row and the anomalies */

  for (guint t = 0; t < N_THREADS; t++)
    rows += expected_rows (g->templates[t]);
  return rows;
}

static void
make_templates (Generator *g, double size_factor)
{
  for (guint t = 0; t < N_THREADS; t++)
    g->templates[t] = make_template (g, MAX (8, (guint) (template_sizes[t] * size_factor)));
}

static void
free_templates (Generator *g)
{
  for (guint t = 0; t < N_THREADS; t++)
    g_clear_pointer (&g->templates[t], g_array_unref);
}

static guint32
add_row (Generator *g, gint64 start, gint64 end, gint64 tid, guint32 name, gint type)
{
  Row row = { start, end, tid, name, NO_CONNECTION, type, FALSE };

  g_array_append_val (g->rows, row);
  return g->rows->len - 1;
}

static gint64
log_uniform (GRand *rand, double lo, double hi)
{
  return (gint64) (lo * pow (hi / lo, g_rand_double (rand)));
}

static void
add_link (Generator *g, guint32 *api, guint32 connection)
{
  Link link = { *api, connection };

  if (*api == NO_CONNECTION)
    link.id = *api = g->next_api_connection++;
  g_array_append_val (g->links, link);
}

/* Normal kernels are short and mostly on stream 2; allreduce runs long on
 * the communication stream 4. Durations stretch with the step. */
static Task
make_task (Generator *g, gint64 start, gboolean allreduce)
{
  static const guint16 compute_types[] = { 1, 2, 2, 2, 3 };
  static const guint16 hccl_types[] = { 201, 208, 221 };
  gboolean event = !allreduce && g_rand_int_range (g->side, 0, 10) == 0;
  gint64 ns = allreduce ? g_rand_int_range (g->side, 100000, 400000)
            : event ? 20 : log_uniform (g->side, 200, 40000);
  Task task = { start, start + ns * g->scale / 1000, 0, 75, 2, g->null_end_due };

  if (allreduce)
    {
      task.stream = 4;
      task.type = hccl_types[g_rand_int_range (g->side, 0, G_N_ELEMENTS (hccl_types))];
    }
  else if (!event)
    {
      task.stream = g_rand_int_range (g->side, 0, 20) == 0 ? 3 : 2;
      task.type = compute_types[g_rand_int_range (g->side, 0, G_N_ELEMENTS (compute_types))];
    }
  g->null_end_due = FALSE;
  return task;
}

/* 5 % of tasks link to nothing: a connection id without a CONNECTION_IDS
 * row, or (one in five of those) torch_npu's 4294967295. Tasks of one
 * launch share a connection id now and then, as HCCL's do. */
static void
add_tasks (Generator *g, Row *op, guint n, gboolean allreduce)
{
  gboolean shared = n > 1 && g_rand_int_range (g->side, 0, 100) < 15;
  gint64 t = op->end + log_uniform (g->side, 1000, 50000);
  guint32 shared_connection = g->next_task_connection++;

  if (shared)
    add_link (g, &op->connection, shared_connection);
  for (guint i = 0; i < n; i++)
    {
      Task task = make_task (g, t, allreduce);
      guint unlinked = g_rand_int_range (g->side, 0, 100);

      task.connection = shared ? shared_connection
                      : unlinked == 0 ? UNLINKED_TASK : g->next_task_connection++;
      if (!shared && unlinked >= 5)
        add_link (g, &op->connection, task.connection);
      g_array_append_val (g->tasks, task);
      t = (task.null_end ? task.start + 1000 : task.end) + g_rand_int_range (g->side, 1000, 5000);
    }
}

/* Most op rows launch 1-3 tasks (1.85 on average: 0.36 tasks per row, as
 * in the samples); a few only get a link that no task matches (as queue
 * rows do in the samples). */
static void
launch (Generator *g, guint32 row)
{
  Row *op = &g_array_index (g->rows, Row, row);
  gboolean allreduce = is_allreduce (op->name - NAME_ID_BASE);
  guint r = g_rand_int_range (g->side, 0, 100);

  if (allreduce || r < 88)
    add_tasks (g, op, r < 35 ? 1 : r < 66 ? 2 : 3, allreduce);
  else if (r < 94)
    add_link (g, &op->connection, g->next_task_connection++);
}

/* Replays template node @i of thread @t from @start; returns its end. */
static gint64
replay (Generator *g, guint t, guint i, gint64 start)
{
  const TemplateNode *n = &g_array_index (g->templates[t], TemplateNode, i);
  gint64 self = n->self_ns * g->scale / 1000;
  gint64 end = start + self / 2;
  guint32 row;

  for (guint c = 0; c < n->n_children; c++)
    if (g_rand_int_range (g->rand, 0, 100) < RETENTION)
      end = replay (g, t, n->first_child + c, end + 50);
  end += self - self / 2;
  row = add_row (g, start, end, thread_ids[t], NAME_ID_BASE + n->name, n->type);
  if (g->npu && t < N_LAUNCHING_THREADS && n->type == TYPE_OP)
    launch (g, row);
  return end;
}

/* @leaf is a row of this step; siblings are 50 ns apart, so a range that
 * outlives @leaf by 10 ns overlaps it partially and contains nothing else. */
static void
add_anomalies (Generator *g, Row leaf, gint64 tid)
{
  gint64 mid = leaf.start + (leaf.end - leaf.start) / 2;
  Row null_row = { 0, mid + 10, tid, NAME_ID_BASE + 1, NO_CONNECTION, TYPE_OP, TRUE };

  add_row (g, mid, leaf.end + 10, tid, NAME_ID_BASE + 5, TYPE_OP);
  add_row (g, mid + 100, mid + 100, tid, NAME_ID_BASE + 9, TYPE_OP);
  add_row (g, mid + 200, mid + 900, tid, NAME_ID_BASE + 13, TYPE_MSTX);
  g_array_append_val (g->rows, null_row);
}

/* Steps run 0.85-1.15 times the template's time, @slow_step three times. */
static void
replay_step (Generator *g, guint step, gint64 start, gint64 slow_step)
{
  guint first_row = g->rows->len;
  gint64 end = start;
  Row leaf = { 0 };

  g->scale = g_rand_int_range (g->pace, 850, 1150);
  if (step == slow_step)
    g->scale = SLOW_FACTOR;
  g->null_end_due = TRUE;
  for (guint t = 0; t < N_THREADS; t++)
    {
      gint64 thread_end = replay (g, t, 0, start + t * 1000);

      end = MAX (end, thread_end);
      if (t == 0)  /* rows come out in post-order: the first is a leaf */
        leaf = g_array_index (g->rows, Row, first_row);
    }
  add_row (g, start - 100, end + 100, thread_ids[0], NAME_ID_BASE + g->n_names + step, TYPE_OP);
  g_array_append_val (g->steps, ((Step) { start - 100, end + 100 }));
  add_anomalies (g, leaf, thread_ids[0]);
}

static void
generate_rows (Generator *g, const Options *o, gint64 slow_step)
{
  gint64 clock = G_GINT64_CONSTANT (1736407067942010500);

  for (guint step = 0; o->steps ? step < o->steps : g->rows->len < o->rows; step++)
    {
      replay_step (g, step, clock, slow_step);
      clock = g_array_index (g->steps, Step, step).end + 1000000;
    }
}

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const Row *ra = a, *rb = b;

  if (ra->type != rb->type)
    return ra->type == TYPE_QUEUE ? -1 : rb->type == TYPE_QUEUE ? 1 : ra->type < rb->type ? 1 : -1;
  return ra->start < rb->start ? -1 : ra->start > rb->start;
}

/* The samples' TASK is in start order, globalTaskId counting along it. */
static int
compare_tasks (gconstpointer a, gconstpointer b)
{
  const Task *ta = a, *tb = b;

  return ta->start < tb->start ? -1 : ta->start > tb->start;
}

static void
exec (sqlite3 *db, const char *sql)
{
  char *err = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &err) != SQLITE_OK)
    g_error ("%s: %s", sql, err);
}

static sqlite3_stmt *
prepare (sqlite3 *db, const char *sql)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  return stmt;
}

static void
step_and_reset (sqlite3 *db, sqlite3_stmt *stmt)
{
  if (sqlite3_step (stmt) != SQLITE_DONE)
    g_error ("%s: %s", sqlite3_sql (stmt), sqlite3_errmsg (db));
  sqlite3_reset (stmt);
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
  "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);";

static const char npu_schema[] =
  "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
  "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,"
  " globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,"
  " taskId INTEGER,modelId INTEGER, depth integer);";

static void
write_strings (Generator *g, sqlite3 *db)
{
  sqlite3_stmt *stmt = prepare (db, "INSERT INTO STRING_IDS VALUES (?1, ?2)");
  guint n_steps = g->steps->len;

  for (guint i = 0; i < g->n_names + n_steps + N_SHAPES; i++)
    {
      g_autofree char *text = i < g->n_names ? name_text (i)
                            : i < g->n_names + n_steps ? g_strdup_printf ("ProfilerStep#%u", i - g->n_names)
                            : g_strdup_printf ("[[%u, 1024], [%u]]", i, i % 77);
      sqlite3_bind_int64 (stmt, 1, i < g->n_names + n_steps ? NAME_ID_BASE + i : SHAPE_ID_BASE + i);
      sqlite3_bind_text (stmt, 2, text, -1, SQLITE_TRANSIENT);
      step_and_reset (db, stmt);
    }
  sqlite3_finalize (stmt);
}

static void
write_rows (Generator *g, sqlite3 *db)
{
  sqlite3_stmt *stmt = prepare (db, "INSERT INTO PYTORCH_API VALUES (?1, ?2, ?3, ?4, ?5, NULL, NULL,"
                                    " NULL, ?6, NULL, ?7)");
  char start[24], end[24];

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
      if (r->connection == NO_CONNECTION)
        sqlite3_bind_null (stmt, 4);
      else
        sqlite3_bind_int64 (stmt, 4, r->connection);
      sqlite3_bind_int64 (stmt, 5, r->name);
      sqlite3_bind_int64 (stmt, 6, SHAPE_ID_BASE + g->n_names + i % N_SHAPES);
      sqlite3_bind_int (stmt, 7, r->type);
      step_and_reset (db, stmt);
    }
  sqlite3_finalize (stmt);
}

static void
write_steps (Generator *g, sqlite3 *db)
{
  sqlite3_stmt *stmt = prepare (db, "INSERT INTO STEP_TIME VALUES (?1, ?2, ?3)");

  for (guint i = 0; i < g->steps->len; i++)
    {
      const Step *s = &g_array_index (g->steps, Step, i);

      sqlite3_bind_int (stmt, 1, i);
      sqlite3_bind_int64 (stmt, 2, s->start);
      sqlite3_bind_int64 (stmt, 3, s->end);
      step_and_reset (db, stmt);
    }
  sqlite3_finalize (stmt);
}

static void
write_links (Generator *g, sqlite3 *db)
{
  sqlite3_stmt *stmt = prepare (db, "INSERT INTO CONNECTION_IDS VALUES (?1, ?2)");

  for (guint i = 0; i < g->links->len; i++)
    {
      const Link *l = &g_array_index (g->links, Link, i);

      sqlite3_bind_int64 (stmt, 1, l->id);
      sqlite3_bind_int64 (stmt, 2, l->connection);
      step_and_reset (db, stmt);
    }
  sqlite3_finalize (stmt);
}

/* Device 0 of the one process; taskId counts per stream and wraps at
 * 16 bits as the runtime's does. */
static void
write_tasks (Generator *g, sqlite3 *db)
{
  sqlite3_stmt *stmt = prepare (db, "INSERT INTO TASK VALUES (?1, ?2, 0, ?3, ?4, 3055835, ?5,"
                                    " 4294967295, ?6, ?7, 4294967295, 0)");
  guint32 task_ids[256] = { 0 };

  for (guint i = 0; i < g->tasks->len; i++)
    {
      const Task *t = &g_array_index (g->tasks, Task, i);

      sqlite3_bind_int64 (stmt, 1, t->start);
      if (t->null_end)
        sqlite3_bind_null (stmt, 2);
      else
        sqlite3_bind_int64 (stmt, 2, t->end);
      sqlite3_bind_int64 (stmt, 3, t->connection);
      sqlite3_bind_int64 (stmt, 4, i);
      sqlite3_bind_int (stmt, 5, t->type);
      sqlite3_bind_int (stmt, 6, t->stream);
      sqlite3_bind_int (stmt, 7, task_ids[t->stream]++ & 0xffff);
      step_and_reset (db, stmt);
    }
  sqlite3_finalize (stmt);
}

static void
write_db (Generator *g, const char *path)
{
  sqlite3 *db;

  remove (path);
  if (sqlite3_open (path, &db) != SQLITE_OK)
    g_error ("cannot create %s", path);
  exec (db, schema);
  exec (db, "BEGIN");
  write_strings (g, db);
  write_rows (g, db);
  write_steps (g, db);
  if (g->npu)
    {
      exec (db, npu_schema);
      /* Tasks come in index order: appending to the index beats sorting for it. */
      exec (db, "CREATE INDEX TaskIndex ON TASK (startNs,globalTaskId)");
      write_links (g, db);
      write_tasks (g, db);
    }
  exec (db, "COMMIT");
  sqlite3_close (db);
}

static gboolean
parse_options (int *argc, char ***argv, Options *o)
{
  gint64 seed = DEFAULT_SEED, steps = 0;
  GOptionEntry entries[] = {
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Random seed (default 20241202)", "S" },
    { "steps", 0, 0, G_OPTION_ARG_INT64, &steps, "Exactly N ProfilerSteps of about ROWS/N rows each", "N" },
    { "slow-step", 0, 0, G_OPTION_ARG_INT64, &o->slow_step, "Step K takes 3x as long (default: the middle one; none if K is past the last)", "K" },
    { "no-npu", 0, 0, G_OPTION_ARG_NONE, &o->no_npu, "No TASK or CONNECTION_IDS, no connectionId (a host-only profile)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("OUTPUT.db ROWS");

  o->slow_step = -1;
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, argc, argv, NULL) || *argc != 3
      || (o->rows = g_ascii_strtoull ((*argv)[2], NULL, 10)) == 0
      || seed < 0 || seed > G_MAXUINT32 || steps < 0 || steps > G_MAXUINT16 || o->slow_step < -1)
    return FALSE;
  o->seed = seed;
  o->steps = steps;
  return TRUE;
}

static void
generator_init (Generator *g, const Options *o)
{
  g->rand = g_rand_new_with_seed (o->seed);
  g->pace = g_rand_new_with_seed (o->seed ^ 0x5eed5eed);
  g->side = g_rand_new_with_seed (o->seed ^ 0x0a5cead0);
  g->n_names = 20000;
  g->npu = !o->no_npu;
  g->rows = g_array_sized_new (FALSE, FALSE, sizeof (Row), o->rows + 70000);
  g->tasks = g_array_sized_new (FALSE, FALSE, sizeof (Task), g->npu ? o->rows * 2 / 5 : 0);
  g->links = g_array_new (FALSE, FALSE, sizeof (Link));
  g->steps = g_array_new (FALSE, FALSE, sizeof (Step));
  g->next_task_connection = FIRST_TASK_CONNECTION;
}

static void
generator_clear (Generator *g)
{
  free_templates (g);
  g_array_unref (g->rows);
  g_array_unref (g->tasks);
  g_array_unref (g->links);
  g_array_unref (g->steps);
  g_rand_free (g->rand);
  g_rand_free (g->pace);
  g_rand_free (g->side);
}

/* With --steps the templates are scaled so that N steps make about ROWS
 * rows (the first guess is refined twice, as retention depends on the
 * trees' depth); without, they keep their size (and the call trees of
 * earlier versions) and steps repeat until ROWS. Returns the slow step. */
static gint64
plan_steps (Generator *g, const Options *o)
{
  double per_step, factor = 1.0;

  make_templates (g, factor);
  per_step = expected_step_rows (g);
  for (guint i = 0; o->steps && i < 3; i++)
    {
      factor *= o->rows / (o->steps * per_step);
      free_templates (g);
      make_templates (g, factor);
      per_step = expected_step_rows (g);
    }
  if (o->slow_step >= 0)
    return o->slow_step;
  return (o->steps ? o->steps : MAX (1, (gint64) (o->rows / per_step + 0.5))) / 2;
}

int
main (int argc, char *argv[])
{
  Generator g = { 0 };
  Options o = { 0 };
  gint64 slow_step;

  if (!parse_options (&argc, &argv, &o))
    {
      g_printerr ("usage: %s [--seed S] [--steps N] [--slow-step K] [--no-npu] OUTPUT.db ROWS\n", argv[0]);
      return 2;
    }
  generator_init (&g, &o);
  slow_step = plan_steps (&g, &o);
  generate_rows (&g, &o, slow_step);
  g_array_sort (g.rows, compare_rows);
  g_array_sort (g.tasks, compare_tasks);
  write_db (&g, argv[1]);
  g_print ("%s: %u rows, %u steps, %u tasks, %u links\n", argv[1], g.rows->len, g.steps->len,
           g.tasks->len, g.links->len);
  generator_clear (&g);
  return 0;
}
