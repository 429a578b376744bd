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
 * -> TASK.connectionId. Kernels have a COMPUTE_TASK_INFO row naming them
 * (an op name always launches the same kernels); other op names launch
 * MEMCPY_ASYNC and event tasks, "other" work, and no kernel; a stream runs one task at a time, so the device
 * idles when the host is slow. Some tasks link to nothing and a few never
 * ended (NULL endNs). STEP_TIME repeats the ProfilerStep# rows; steps
 * differ in length, one is slow.
 *
 * Collectives: the profile is one rank of a job (--rank, --ranks) with a
 * data-parallel group of all ranks and tensor-parallel groups of --tp
 * consecutive ranks. Each step issues --collectives of them, launched by
 * c10d::allreduce_ rows: a COMMUNICATION_OP row, and on the group's
 * stream one AI_CORE container task plus Notify Wait / Write Value / SDMA
 * tasks listed in COMMUNICATION_TASK_INFO, all sharing its connectionId.
 * Names, groups and the shape of every collective depend only on the job
 * options, never on the rank, ROWS or --seed, so that generated ranks
 * match; --late-rank makes the others wait a known time for one rank.
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
#define NO_INFO G_MAXUINT32
#define COMPUTE_STREAM 2
#define SIDE_STREAM 3               /* a few copies and kernels, as in the samples */
#define N_STREAMS 6                 /* 4: data-parallel, 5: tensor-parallel collectives */
#define MAX_COLLECTIVES 64          /* per step */
#define MAX_PEERS 7                 /* the samples' 8-rank group: 7 peers per round */
#define N_ROUNDS 4
#define N_KERNEL_VARIANTS 4

/* STRING_IDS below NAME_ID_BASE: the task types keep the samples' ids. */
enum {
  ID_PROFILING_ENABLE = 0, ID_MEMCPY_ASYNC = 1, ID_KERNEL_AIVEC = 2, ID_KERNEL_AICORE = 3, ID_AI_CORE = 18,
  ID_EVENT_RECORD = 75, ID_EVENT_WAIT = 94, ID_MIX_AIV = 120, ID_SDMA = 201,
  ID_WRITE_VALUE = 208, ID_NOTIFY_WAIT = 221, ID_REDUCE_INLINE = 254, ID_MESH_RING = 256,
  ID_HCOM_ALLREDUCE = 257, ID_MEMCPY = 259, ID_NOTIFY_RECORD = 261, ID_NOTIFY_WAIT_INFO = 267,
  ID_AI_VECTOR_CORE = 300, ID_PROFILING_DISABLE = 371, ID_GROUP_DP = 400, ID_GROUP_TP = 401,
  ID_KERNEL_BASE = 1000, ID_KERNEL_OP_TYPE_BASE = 1500, ID_OP_NAME_BASE = 2000,
};

typedef enum { GROUP_DP, GROUP_TP, N_GROUPS } Group;
typedef enum { INFO_NONE, INFO_KERNEL, INFO_COMM } InfoKind;

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
  guint32 info;         /* kernel (INFO_KERNEL) or collective (INFO_COMM) index */
  guint16 type;         /* STRING_IDS id */
  guint16 info_type;    /* COMMUNICATION_TASK_INFO.taskType */
  guint8  stream;
  guint8  null_end;
  guint8  info_kind;
  guint8  peer;         /* of a communication task: the peer's place in the group */
} Task;

typedef struct {
  gint64  start;        /* of the first task in COMMUNICATION_TASK_INFO */
  gint64  end;
  gint64  wait;         /* of the first Notify Wait: waiting for the peers */
  guint32 connection;
  guint32 counter;      /* within its group: the I of hcom_allReduce__G_I_1 */
  guint32 op_id;
  guint8  group;
} Collective;

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
  gint64   rank;
  gint64   ranks;
  gint64   tp;
  gint64   collectives; /* per step */
  gint64   late_rank;   /* -1: none */
  gint64   late_ns;
  gint64   drop;        /* -1: none */
  gboolean no_comm_op;
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
  const Options *options;
  GArray  *candidates;  /* this step's c10d::allreduce_ rows that may launch a collective */
  GArray  *collectives;
  guint    per_step[N_GROUPS];
  guint    peers[N_GROUPS];
  gint64   late[N_GROUPS]; /* what this rank's collectives of the group wait for the late rank */
  gint64   stream_end[N_STREAMS];
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

typedef struct {
  const char *name;
  const char *op_type;
  guint16     task_type;  /* TASK.taskType */
  guint16     core_type;  /* COMPUTE_TASK_INFO.taskType */
  guint8      block_dim;
} Kernel;

/* Kernel names as CANN writes them (aclnn API, implementation, op); each
 * comes in N_KERNEL_VARIANTS numbered variants. */
static const Kernel kernels[] = {
  { "aclnnMuls_MulAiCore_Mul", "Mul", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 40 },
  { "aclnnInplaceCopy_TensorMoveAiCore_TensorMove", "TensorMove", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 48 },
  { "aclnnThresholdBackward_ReluGrad_ReluGrad", "ReluGrad", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 48 },
  { "aclnnInplaceRelu_Relu_Relu", "Relu", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 48 },
  { "aclnnReduceSum_ReduceSumOpAiCore_ReduceSum", "ReduceSum", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 32 },
  { "aclnnMm_MatMulCommon_MatMulV2", "MatMulV2", ID_KERNEL_AICORE, ID_AI_CORE, 24 },
  { "aclnnMm_MatMulCommon_MemSet", "MemSet", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 8 },
  { "aclnnAddmm_MatMulCommon_MatMulV2", "MatMulV2", ID_KERNEL_AICORE, ID_AI_CORE, 24 },
  { "aclnnMatmul_MatMulV3_MatMulV3", "MatMulV3", ID_KERNEL_AICORE, ID_AI_CORE, 24 },
  { "aclnnDropoutDoMask_DropoutDoMaskAiCore_DropOutDoMask", "DropOutDoMask", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 40 },
  { "aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList", "ForeachAddList", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 48 },
  { "aclnnCast_CastAiCore_Cast", "Cast", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 40 },
  { "aclnnAdd_AddAiCore_Add", "Add", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 40 },
  { "aclnnDivs_RealDivAiCore_RealDiv", "RealDiv", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 40 },
  { "aclnnSoftmax_SoftmaxV2AiCore_SoftmaxV2", "SoftmaxV2", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 48 },
  { "aclnnLayerNorm_LayerNormV3_LayerNormV3", "LayerNormV3", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 48 },
  { "aclnnGelu_GeluAiCore_Gelu", "Gelu", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 40 },
  { "aclnnTranspose_TransposeAiCore_Transpose", "Transpose", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 32 },
  { "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", "FlashAttentionScore", ID_MIX_AIV,
    ID_MIX_AIV, 24 },
  { "aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad", "FlashAttentionScoreGrad",
    ID_MIX_AIV, ID_MIX_AIV, 24 },
  { "trans_TransData", "TransData", ID_KERNEL_AIVEC, ID_AI_VECTOR_CORE, 32 },
  { "Conv2D", "Conv2D", ID_KERNEL_AICORE, ID_AI_CORE, 16 },
  { "Conv2DBackpropInput", "Conv2DBackpropInput", ID_KERNEL_AICORE, ID_AI_CORE, 16 },
  { "Conv2DBackpropFilter", "Conv2DBackpropFilter", ID_KERNEL_AICORE, ID_AI_CORE, 16 },
};
#define N_KERNELS (G_N_ELEMENTS (kernels) * N_KERNEL_VARIANTS)

/* The fixed strings below NAME_ID_BASE, in id order. */
static const struct { guint id; const char *text; } device_strings[] = {
  { ID_PROFILING_ENABLE, "PROFILING_ENABLE" }, { ID_MEMCPY_ASYNC, "MEMCPY_ASYNC" },
  { ID_KERNEL_AIVEC, "KERNEL_AIVEC" }, { ID_KERNEL_AICORE, "KERNEL_AICORE" }, { ID_AI_CORE, "AI_CORE" },
  { ID_EVENT_RECORD, "EVENT_RECORD" }, { ID_EVENT_WAIT, "EVENT_WAIT" },
  { ID_MIX_AIV, "MIX_AIV" }, { ID_SDMA, "SDMA" }, { ID_WRITE_VALUE, "Write Value" },
  { ID_NOTIFY_WAIT, "Notify Wait" }, { ID_REDUCE_INLINE, "Reduce_Inline" }, { ID_MESH_RING, "MESH-RING" },
  { ID_HCOM_ALLREDUCE, "hcom_allReduce_" }, { ID_MEMCPY, "Memcpy" }, { ID_NOTIFY_RECORD, "Notify_Record" },
  { ID_NOTIFY_WAIT_INFO, "Notify_Wait" }, { ID_AI_VECTOR_CORE, "AI_VECTOR_CORE" },
  { ID_PROFILING_DISABLE, "PROFILING_DISABLE" },
};

/* The G of a group's hcom_allReduce__G_I_1 (HCCL derives it from the group). */
static const guint group_op_numbers[N_GROUPS] = { 210, 300 };

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

static guint32
mix32 (guint32 h)
{
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  h *= 3266489917u;
  return h ^ (h >> 16);
}

/* The @i-th kernel that op @name launches: always the same one. */
static guint
kernel_of (guint32 name, guint i)
{
  return mix32 (name * 2654435761u + i * 40503u) % N_KERNELS;
}

/* An op either computes (kernels, and a few AI_CORE tasks without a
 * COMPUTE_TASK_INFO row, as in the samples) or copies and syncs
 * (MEMCPY_ASYNC, events), never both: in the samples a frame that
 * launches kernels launches nothing else. One op name in six copies. */
static gboolean
launches_copies (guint32 name)
{
  return mix32 (name * 2246822519u + 1) % 6 == 0;
}

/* The @i-th task an op launches: mostly on stream 2; durations stretch
 * with the step. Of a copying op's tasks, a little over half are events. */
static Task
make_task (Generator *g, gint64 start, guint32 name, guint i)
{
  guint r = g_rand_int_range (g->side, 0, 100);
  gboolean copies = launches_copies (name);
  gboolean event = copies && r < 55;
  gint64 ns = event ? 20 : copies ? log_uniform (g->side, 500, 5000) : log_uniform (g->side, 200, 40000);
  Task task = { start, 0, 0, NO_INFO, ID_MEMCPY_ASYNC, 0, COMPUTE_STREAM, g->null_end_due, INFO_NONE, 0 };

  task.end = start + ns * g->scale / 1000;
  if (event)
    task.type = r < 33 ? ID_EVENT_RECORD : ID_EVENT_WAIT;
  else if (!copies && r < 4)
    task.type = ID_AI_CORE;
  else if (!copies)
    {
      task.info = kernel_of (name, i);
      task.info_kind = INFO_KERNEL;
      task.type = kernels[task.info % G_N_ELEMENTS (kernels)].task_type;
    }
  if (!event && g_rand_int_range (g->side, 0, 20) == 0)
    task.stream = SIDE_STREAM;
  g->null_end_due = FALSE;
  return task;
}

/* A task no CONNECTION_IDS row names, as events around collectives, input
 * copies and the profiling markers are in the samples. */
static void
add_unlinked (Generator *g, guint16 type, guint8 stream, gint64 start, gint64 ns)
{
  Task task = { start, start + ns, g->next_task_connection++, NO_INFO, type, 0, stream, FALSE, INFO_NONE, 0 };

  g_array_append_val (g->tasks, task);
}

/* 5 % of tasks link to nothing: a connection id without a CONNECTION_IDS
 * row, or (one in five of those) torch_npu's 4294967295. Tasks of one
 * launch share a connection id now and then, as HCCL's do. */
static void
add_tasks (Generator *g, Row *op, guint n)
{
  gboolean shared = n > 1 && g_rand_int_range (g->side, 0, 100) < 15;
  gint64 t = op->end + log_uniform (g->side, 1000, 50000);
  guint32 shared_connection = g->next_task_connection++;

  if (shared)
    add_link (g, &op->connection, shared_connection);
  for (guint i = 0; i < n; i++)
    {
      Task task = make_task (g, t, op->name, i);
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
  guint r = g_rand_int_range (g->side, 0, 100);

  if (r < 88)
    add_tasks (g, op, r < 35 ? 1 : r < 66 ? 2 : 3);
  else if (r < 94)
    add_link (g, &op->connection, g->next_task_connection++);
}

/* splitmix64: a collective's shape comes from its group and number alone,
 * never from the rank's random streams, so that it is the same on every
 * rank of the job. */
static guint64
shape_next (guint64 *state)
{
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static gint64
shape_range (guint64 *state, gint64 lo, gint64 hi)
{
  return lo + (gint64) (shape_next (state) % (guint64) (hi - lo));
}

static gint64
shape_log (guint64 *state, double lo, double hi)
{
  return (gint64) (lo * pow (hi / lo, (shape_next (state) >> 11) * 0x1.0p-53));
}

static void
add_comm_task (Generator *g, const Collective *c, guint16 type, guint16 info_type, gint64 start, gint64 ns,
               guint peer)
{
  Task task = { start, start + ns, c->connection, g->collectives->len, type, info_type,
                c->group == GROUP_DP ? 4 : 5, FALSE, INFO_COMM, peer };

  g_array_append_val (g->tasks, task);
}

/* One round of HCCL's mesh algorithm from @t: a Write Value (Notify_Record)
 * to each peer, a Notify Wait for each (the first of the first round is
 * where the rank waits for the others), then SDMA copies or reductions
 * side by side. Returns when the last copy ends. */
static gint64
lay_out_round (Generator *g, const Collective *c, guint64 *shape, guint round, gint64 t, gint64 sdma_ns)
{
  guint peers = g->peers[c->group];
  gint64 end;

  for (guint p = 0; p < peers; p++)
    add_comm_task (g, c, ID_WRITE_VALUE, ID_NOTIFY_RECORD, t + 280 * p, shape_range (shape, 660, 760), p + 1);
  t += 280 * peers + 1200;
  for (guint p = 0; p < peers; p++)
    {
      gint64 ns = round == 0 && p == 0 ? c->wait : 20 * (gint64) (shape_next (shape) & 1);

      add_comm_task (g, c, ID_NOTIFY_WAIT, ID_NOTIFY_WAIT_INFO, t, ns, p + 1);
      t += ns + 720;
    }
  end = t;
  for (guint i = 0; i < (round < 2 ? 5u : 4u); i++)
    {
      gint64 ns = sdma_ns * shape_range (shape, 950, 1050) / 1000;

      add_comm_task (g, c, ID_SDMA, round % 2 ? ID_REDUCE_INLINE : ID_MEMCPY, t + 260 * i, ns, i % peers + 1);
      end = MAX (end, t + 260 * i + ns);
    }
  return end;
}

/* The tasks of @c from c->start; sets its wait and end. Data-parallel
 * collectives carry gradients (longer); tensor-parallel ones activations.
 * Only the late rank's wait differs between ranks. */
static void
lay_out_collective (Generator *g, Collective *c)
{
  guint64 shape = (G_GUINT64_CONSTANT (0xc011ec7e) << 32) ^ ((guint64) c->group << 28) ^ c->counter;
  gboolean dp = c->group == GROUP_DP;
  gint64 t = c->start;

  c->wait = shape_log (&shape, dp ? 200000 : 20000, dp ? 5000000 : 500000) + g->late[c->group];
  for (guint round = 0; round < N_ROUNDS; round++)
    {
      gint64 sdma_ns = shape_log (&shape, dp ? 100000 : 20000, dp ? 1500000 : 300000);

      c->end = lay_out_round (g, c, &shape, round, t, sdma_ns);
      t = c->end + 400;
    }
}

/* Collective @counter of @group, launched by @row: on the group's stream,
 * an EVENT_WAIT, the AI_CORE container task around the collective's own
 * tasks, an EVENT_RECORD; one collective at a time per stream. */
static void
issue_collective (Generator *g, guint32 row, Group group, guint32 counter, guint32 op_id)
{
  Row *launcher = &g_array_index (g->rows, Row, row);
  guint8 stream = group == GROUP_DP ? 4 : 5;
  gint64 t = MAX (launcher->end + log_uniform (g->side, 5000, 50000), g->stream_end[stream]);
  Collective c = { 0, 0, 0, g->next_task_connection++, counter, op_id, group };
  Task container = { t + 40, 0, c.connection, NO_INFO, ID_AI_CORE, 0, stream, FALSE, INFO_NONE, 0 };

  add_link (g, &launcher->connection, c.connection);
  add_unlinked (g, ID_EVENT_WAIT, stream, t, 20);
  c.start = container.start + 1220;
  lay_out_collective (g, &c);
  container.end = c.end + 1480;
  g_array_append_val (g->tasks, container);
  add_unlinked (g, ID_EVENT_RECORD, stream, c.end + 1520, 20);
  g->stream_end[stream] = c.end + 1560;
  g_array_append_val (g->collectives, c);
}

static int
compare_row_ends (gconstpointer a, gconstpointer b, gpointer rows)
{
  gint64 x = g_array_index ((GArray *) rows, Row, *(const guint32 *) a).end;
  gint64 y = g_array_index ((GArray *) rows, Row, *(const guint32 *) b).end;

  return x < y ? -1 : x > y;
}

/* The step's collectives, launched by c10d::allreduce_ rows spread over
 * the step: tensor-parallel ones first, data-parallel ones (gradients)
 * last. Their numbers follow the step, so that a step with fewer such rows
 * than collectives (a few thousand rows) leaves gaps, not shifted names. */
static void
issue_collectives (Generator *g, guint step)
{
  guint total = g->per_step[GROUP_DP] + g->per_step[GROUP_TP];
  guint n = g->candidates->len, issued = MIN (total, n);

  g_array_sort_with_data (g->candidates, compare_row_ends, g->rows);
  for (guint j = 0; j < issued; j++)
    {
      guint32 row = g_array_index (g->candidates, guint32, (2 * j + 1) * n / (2 * issued));
      Group group = j < g->per_step[GROUP_TP] ? GROUP_TP : GROUP_DP;
      guint32 counter = step * g->per_step[group] + (group == GROUP_TP ? j : j - g->per_step[GROUP_TP]);
      gint64 index = (gint64) step * total + j;

      if (index != g->options->drop)
        issue_collective (g, row, group, counter, index + 1);
    }
  g_array_set_size (g->candidates, 0);
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
    {
      if (is_allreduce (n->name))
        g_array_append_val (g->candidates, row);
      else
        launch (g, row);
    }
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
  if (g->npu)  /* the step's input, copied to the device */
    add_unlinked (g, ID_MEMCPY_ASYNC, COMPUTE_STREAM, start + 2000,
                  log_uniform (g->side, 100000, 900000) * g->scale / 1000);
  for (guint t = 0; t < N_THREADS; t++)
    {
      gint64 thread_end = replay (g, t, 0, start + t * 1000);

      end = MAX (end, thread_end);
      if (t == 0)  /* rows come out in post-order: the first is a leaf */
        leaf = g_array_index (g->rows, Row, first_row);
    }
  if (g->npu)
    issue_collectives (g, step);
  add_row (g, start - 100, end + 100, thread_ids[0], NAME_ID_BASE + g->n_names + step, TYPE_OP);
  g_array_append_val (g->steps, ((Step) { start - 100, end + 100 }));
  add_anomalies (g, leaf, thread_ids[0]);
}

static void
generate_rows (Generator *g, const Options *o, gint64 slow_step)
{
  gint64 clock = G_GINT64_CONSTANT (1736407067942010500);

  if (g->npu)
    add_unlinked (g, ID_PROFILING_ENABLE, 0, clock - 50000, 20);
  for (guint step = 0; o->steps ? step < o->steps : g->rows->len < o->rows; step++)
    {
      replay_step (g, step, clock, slow_step);
      clock = g_array_index (g->steps, Step, step).end + 1000000;
    }
  if (g->npu)
    add_unlinked (g, ID_PROFILING_DISABLE, 0, clock - 950000, 0);
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

/* A compute stream runs one task at a time: a task that is ready while
 * the one before it still runs waits for it. Collectives are laid out so
 * already; their copies run side by side, as in the samples. */
static void
serialize_streams (Generator *g)
{
  gint64 busy[N_STREAMS] = { 0 };

  g_array_sort (g->tasks, compare_tasks);
  for (guint i = 0; i < g->tasks->len; i++)
    {
      Task *t = &g_array_index (g->tasks, Task, i);
      gint64 delay = busy[t->stream] - t->start;

      if (t->stream != COMPUTE_STREAM && t->stream != SIDE_STREAM)
        continue;
      if (delay > 0)
        {
          t->start += delay;
          t->end += delay;
        }
      busy[t->stream] = t->null_end ? t->start + 1000 : t->end;
    }
  g_array_sort (g->tasks, compare_tasks);
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
  " taskId INTEGER,modelId INTEGER, depth integer);"
  "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,"
  " mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,"
  " inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,"
  " attrInfo INTEGER, waitNs INTEGER);"
  "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType INTEGER,"
  " planeId INTEGER,groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank INTEGER,dstRank INTEGER,"
  " transportType INTEGER,size INTEGER,dataType INTEGER,linkType INTEGER,opId INTEGER);"
  "CREATE INDEX CommunicationTaskIndex ON COMMUNICATION_TASK_INFO (globalTaskId);"
  "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);";

static const char comm_op_schema[] =
  "CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId INTEGER,"
  " groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType INTEGER,"
  " algType INTEGER,count NUMERIC,opType INTEGER, waitNs INTEGER);";

static guint
tp_group (const Options *o)
{
  return o->rank / o->tp;
}

/* One IP-like name per communicator, the same on each of its ranks. */
static char *
group_text (const Options *o, Group group)
{
  return group == GROUP_DP ? g_strdup ("10.90.0.1%enp189s0f0_60000_0_1736407000000000")
                           : g_strdup_printf ("10.90.0.1%%enp189s0f0_60001_%u_1736407000000000", tp_group (o));
}

static guint
group_op_number (const Options *o, Group group)
{
  return group_op_numbers[group] + (group == GROUP_TP ? tp_group (o) : 0);
}

static char *
device_text (Generator *g, guint i)
{
  const Collective *c;

  if (i < G_N_ELEMENTS (device_strings))
    return g_strdup (device_strings[i].text);
  i -= G_N_ELEMENTS (device_strings);
  if (i < N_GROUPS)
    return group_text (g->options, i);
  i -= N_GROUPS;
  if (i < N_KERNELS)
    return i < G_N_ELEMENTS (kernels) ? g_strdup (kernels[i].name)
                                      : g_strdup_printf ("%s_%u", kernels[i % G_N_ELEMENTS (kernels)].name,
                                                         (guint) (i / G_N_ELEMENTS (kernels)));
  i -= N_KERNELS;
  if (i < G_N_ELEMENTS (kernels))
    return g_strdup (kernels[i].op_type);
  c = &g_array_index (g->collectives, Collective, i - G_N_ELEMENTS (kernels));
  return g_strdup_printf ("hcom_allReduce__%u_%u_1", group_op_number (g->options, c->group), c->counter);
}

static guint
device_id (guint i)
{
  if (i < G_N_ELEMENTS (device_strings))
    return device_strings[i].id;
  i -= G_N_ELEMENTS (device_strings);
  if (i < N_GROUPS)
    return ID_GROUP_DP + i;
  i -= N_GROUPS;
  if (i < N_KERNELS)
    return ID_KERNEL_BASE + i;
  i -= N_KERNELS;
  if (i < G_N_ELEMENTS (kernels))
    return ID_KERNEL_OP_TYPE_BASE + i;
  return ID_OP_NAME_BASE + i - G_N_ELEMENTS (kernels);
}

/* Task types, groups, kernels and opNames, in id order below the names. */
static void
write_device_strings (Generator *g, sqlite3_stmt *stmt)
{
  guint n = G_N_ELEMENTS (device_strings) + N_GROUPS + N_KERNELS + G_N_ELEMENTS (kernels) + g->collectives->len;

  for (guint i = 0; i < n; i++)
    {
      sqlite3_bind_int64 (stmt, 1, device_id (i));
      sqlite3_bind_text (stmt, 2, device_text (g, i), -1, g_free);
      step_and_reset (sqlite3_db_handle (stmt), stmt);
    }
}

static void
write_strings (Generator *g, sqlite3 *db)
{
  sqlite3_stmt *stmt = prepare (db, "INSERT INTO STRING_IDS VALUES (?1, ?2)");
  guint n_steps = g->steps->len;

  if (g->npu)
    write_device_strings (g, stmt);
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

/* The kernel's name, type and core count; the rest of the columns are
 * shapes and formats nothing reads. */
static void
write_compute_info (sqlite3_stmt *stmt, const Task *t, guint global_id)
{
  const Kernel *k = &kernels[t->info % G_N_ELEMENTS (kernels)];

  sqlite3_bind_int64 (stmt, 1, ID_KERNEL_BASE + t->info);
  sqlite3_bind_int64 (stmt, 2, global_id);
  sqlite3_bind_int (stmt, 3, k->block_dim);
  sqlite3_bind_int (stmt, 4, k->task_type == ID_MIX_AIV ? k->block_dim * 2 : 0);
  sqlite3_bind_int (stmt, 5, k->core_type);
  sqlite3_bind_int64 (stmt, 6, ID_KERNEL_OP_TYPE_BASE + t->info % G_N_ELEMENTS (kernels));
  step_and_reset (sqlite3_db_handle (stmt), stmt);
}

/* The peer's rank: @peer places after this rank in its group, cyclically. */
static guint
peer_rank (const Options *o, Group group, guint peer)
{
  guint size = group == GROUP_DP ? o->ranks : o->tp;
  guint first = group == GROUP_DP ? 0 : tp_group (o) * o->tp;

  return first + (o->rank - first + peer) % size;
}

static void
write_comm_info (Generator *g, sqlite3_stmt *stmt, const Task *t, guint global_id)
{
  const Collective *c = &g_array_index (g->collectives, Collective, t->info);
  gboolean copy = t->type == ID_SDMA;

  sqlite3_bind_int64 (stmt, 1, ID_OP_NAME_BASE + t->info);
  sqlite3_bind_int64 (stmt, 2, global_id);
  sqlite3_bind_int (stmt, 3, t->info_type);
  sqlite3_bind_int (stmt, 4, t->peer - 1);
  sqlite3_bind_int (stmt, 5, ID_GROUP_DP + c->group);
  sqlite3_bind_int64 (stmt, 6, copy ? G_MAXINT64 : ((gint64) t->peer << 32) + 68);
  sqlite3_bind_int (stmt, 7, (int) g->options->rank);
  sqlite3_bind_int (stmt, 8, peer_rank (g->options, c->group, t->peer));
  sqlite3_bind_int64 (stmt, 9, copy ? 2064384 : 4);
  sqlite3_bind_int (stmt, 10, c->op_id);
  step_and_reset (sqlite3_db_handle (stmt), stmt);
}

/* Device rank % 8 of the one process; taskId counts per stream and wraps
 * at 16 bits as the runtime's does. */
static void
write_tasks (Generator *g, sqlite3 *db)
{
  sqlite3_stmt *stmt = prepare (db, "INSERT INTO TASK VALUES (?1, ?2, ?3, ?4, ?5, 3055835, ?6,"
                                    " 4294967295, ?7, ?8, 4294967295, 0)");
  sqlite3_stmt *compute = prepare (db, "INSERT INTO COMPUTE_TASK_INFO VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
                                       " NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0)");
  sqlite3_stmt *comm = prepare (db, "INSERT INTO COMMUNICATION_TASK_INFO VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
                                    " 65535, ?7, ?8, 0, ?9, 4, 0, ?10)");
  guint32 task_ids[256] = { 0 };

  for (guint i = 0; i < g->tasks->len; i++)
    {
      const Task *t = &g_array_index (g->tasks, Task, i);

      sqlite3_bind_int64 (stmt, 1, t->start);
      if (t->null_end)
        sqlite3_bind_null (stmt, 2);
      else
        sqlite3_bind_int64 (stmt, 2, t->end);
      sqlite3_bind_int (stmt, 3, (int) (g->options->rank % 8));
      sqlite3_bind_int64 (stmt, 4, t->connection);
      sqlite3_bind_int64 (stmt, 5, i);
      sqlite3_bind_int (stmt, 6, t->type);
      sqlite3_bind_int (stmt, 7, t->stream);
      sqlite3_bind_int (stmt, 8, task_ids[t->stream]++ & 0xffff);
      step_and_reset (db, stmt);
      if (t->info_kind == INFO_KERNEL)
        write_compute_info (compute, t, i);
      else if (t->info_kind == INFO_COMM)
        write_comm_info (g, comm, t, i);
    }
  sqlite3_finalize (stmt);
  sqlite3_finalize (compute);
  sqlite3_finalize (comm);
}

/* In the order they were issued: opId counts along. */
static void
write_comm_ops (Generator *g, sqlite3 *db)
{
  sqlite3_stmt *stmt = prepare (db, "INSERT INTO COMMUNICATION_OP VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, 0, 4, ?7,"
                                    " ?8, ?9, ?10)");

  for (guint i = 0; i < g->collectives->len; i++)
    {
      const Collective *c = &g_array_index (g->collectives, Collective, i);

      sqlite3_bind_int64 (stmt, 1, ID_OP_NAME_BASE + i);
      sqlite3_bind_int64 (stmt, 2, c->start);
      sqlite3_bind_int64 (stmt, 3, c->end);
      sqlite3_bind_int64 (stmt, 4, c->connection);
      sqlite3_bind_int (stmt, 5, ID_GROUP_DP + c->group);
      sqlite3_bind_int (stmt, 6, c->op_id);
      sqlite3_bind_int (stmt, 7, ID_MESH_RING);
      sqlite3_bind_int64 (stmt, 8, (gint64) 1048576 * (1 + c->counter % 16));
      sqlite3_bind_int (stmt, 9, ID_HCOM_ALLREDUCE);
      sqlite3_bind_int64 (stmt, 10, c->wait);
      step_and_reset (db, stmt);
    }
  sqlite3_finalize (stmt);
}

static void
write_rank (Generator *g, sqlite3 *db)
{
  g_autofree char *sql = g_strdup_printf ("INSERT INTO RANK_DEVICE_MAP VALUES (%" G_GINT64_FORMAT ", %"
                                          G_GINT64_FORMAT ")", g->options->rank, g->options->rank % 8);

  exec (db, sql);
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
      write_rank (g, db);
      if (!g->options->no_comm_op)
        {
          exec (db, comm_op_schema);
          write_comm_ops (g, db);
        }
    }
  exec (db, "COMMIT");
  sqlite3_close (db);
}

static const char help_text[] =
  "Device side (unless --no-npu): op rows of two threads launch kernels (TASK + COMPUTE_TASK_INFO),\n"
  "copies and events; streams 2-3 run one task at a time and idle between; PROFILING_* markers on\n"
  "stream 0. Collectives run on stream 4 (data-parallel) and 5 (tensor-parallel): per collective a\n"
  "COMMUNICATION_OP row, an AI_CORE container task and Notify Wait / Write Value / SDMA tasks in\n"
  "COMMUNICATION_TASK_INFO (74 with 8 ranks), all with the op's connectionId, launched by a\n"
  "c10d::allreduce_ row through CONNECTION_IDS.\n"
  "\n"
  "Collectives: the profile is rank R of a job of N ranks. One data-parallel group holds every rank,\n"
  "tensor-parallel groups hold T consecutive ranks (0-1, 2-3, ... with T = 2); a group of one rank has\n"
  "no collectives. Each step issues K collectives, the first K/2 on the rank's tensor-parallel group\n"
  "(all K on one group when there is only one), named hcom_allReduce__G_I_1 (G: the group's number,\n"
  "I: its collectives counted from 0 through the steps). opId is J+1 for J = step * K + the place in\n"
  "the step (--drop-collective J).\n"
  "Names, groups and durations depend on N, T, K, --late-rank and --late-ns only, so that ranks made\n"
  "with the same options and --steps have the same collectives, of equal durations but for the late\n"
  "rank's (also with different ROWS or --seed: give --steps, or the ranks' steps differ). A step\n"
  "with fewer c10d::allreduce_ rows than K (a few thousand rows a step) issues fewer collectives.\n"
  "The same arguments always write the same file.";

/* --steps not given: no value of the option means it. */
#define STEPS_UNSET G_MININT64

static gboolean
check_options (const Options *o, gint64 seed, gint64 steps)
{
  return seed >= 0 && seed <= G_MAXUINT32 && (steps == STEPS_UNSET || (steps >= 1 && steps <= G_MAXUINT16)) && o->slow_step >= -1
      && o->ranks >= 1 && o->ranks <= 65536 && o->rank >= 0 && o->rank < o->ranks
      && o->tp >= 1 && o->ranks % o->tp == 0 && o->collectives >= 0 && o->collectives <= MAX_COLLECTIVES
      && o->late_rank >= -1 && o->late_rank < o->ranks && o->late_ns >= 0 && o->late_ns <= G_MAXINT32
      && (o->late_ns == 0 || o->late_rank >= 0) && o->drop >= -1;
}

static gboolean
parse_options (int *argc, char ***argv, Options *o)
{
  gint64 seed = DEFAULT_SEED, steps = STEPS_UNSET;
  GOptionEntry entries[] = {
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Random seed (default 20241202)", "S" },
    { "steps", 0, 0, G_OPTION_ARG_INT64, &steps, "Exactly N ProfilerSteps of about ROWS/N rows each", "N" },
    { "slow-step", 0, 0, G_OPTION_ARG_INT64, &o->slow_step, "Step K takes 3x as long (default: the middle one; none if K is past the last)", "K" },
    { "no-npu", 0, 0, G_OPTION_ARG_NONE, &o->no_npu, "No device tables at all and no connectionId (a host-only"
      " profile)", NULL },
    { "rank", 0, 0, G_OPTION_ARG_INT64, &o->rank, "This profile is rank R (default 0): its device, groups and the"
      " device side's random stream (rank 0's is that of no --rank); the host rows do not change", "R" },
    { "ranks", 0, 0, G_OPTION_ARG_INT64, &o->ranks, "The job has N ranks (default 8), its data-parallel group", "N" },
    { "tp", 0, 0, G_OPTION_ARG_INT64, &o->tp, "Tensor-parallel groups of T consecutive ranks (default 2; 1: none);"
      " T divides N", "T" },
    { "collectives", 0, 0, G_OPTION_ARG_INT64, &o->collectives, "K collectives per step (default 8, at most 64)", "K" },
    { "late-rank", 0, 0, G_OPTION_ARG_INT64, &o->late_rank, "Rank L arrives late at every collective: on the other"
      " ranks of its groups each collective lasts --late-ns longer (in its first Notify Wait)", "L" },
    { "late-ns", 0, 0, G_OPTION_ARG_INT64, &o->late_ns, "How late --late-rank is, in ns (default 0)", "NS" },
    { "drop-collective", 0, 0, G_OPTION_ARG_INT64, &o->drop, "This rank misses collective J (opId J+1; see below):"
      " no COMMUNICATION_OP row, no tasks, its c10d::allreduce_ row launches nothing", "J" },
    { "no-comm-op", 0, 0, G_OPTION_ARG_NONE, &o->no_comm_op, "No COMMUNICATION_OP table (the collectives' tasks"
      " stay)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("OUTPUT.db ROWS");

  o->slow_step = -1;
  o->ranks = 8;
  o->tp = 2;
  o->collectives = 8;
  o->late_rank = -1;
  o->drop = -1;
  g_option_context_set_summary (context, "Writes a synthetic torch_npu profile DB of about ROWS PYTORCH_API rows:\n"
                                         "with --steps N, N steps of about ROWS/N rows each; without, whole steps of\n"
                                         "about 48,000 rows until there are ROWS (one step at least).");
  g_option_context_set_description (context, help_text);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, argc, argv, NULL) || *argc != 3
      || (o->rows = g_ascii_strtoull ((*argv)[2], NULL, 10)) == 0 || !check_options (o, seed, steps))
    return FALSE;
  o->seed = seed;
  o->steps = steps == STEPS_UNSET ? 0 : steps;
  return TRUE;
}

/* Which collectives this rank takes part in, and how long it waits in
 * them for the late rank. */
static void
plan_job (Generator *g, const Options *o)
{
  gboolean dp = o->ranks >= 2, tp = o->tp >= 2;

  g->per_step[GROUP_TP] = tp ? (dp ? o->collectives / 2 : o->collectives) : 0;
  g->per_step[GROUP_DP] = dp ? o->collectives - g->per_step[GROUP_TP] : 0;
  g->peers[GROUP_DP] = MAX (1, MIN (o->ranks - 1, MAX_PEERS));
  g->peers[GROUP_TP] = MAX (1, MIN (o->tp - 1, MAX_PEERS));
  if (o->late_rank >= 0 && o->late_rank != o->rank)
    {
      g->late[GROUP_DP] = o->late_ns;
      g->late[GROUP_TP] = o->late_rank / o->tp == o->rank / o->tp ? o->late_ns : 0;
    }
}

static void
generator_init (Generator *g, const Options *o)
{
  g->options = o;
  g->rand = g_rand_new_with_seed (o->seed);
  g->pace = g_rand_new_with_seed (o->seed ^ 0x5eed5eed);
  g->side = g_rand_new_with_seed (o->seed ^ 0x0a5cead0 ^ (guint32) (o->rank * 0x9e3779b1u));
  g->n_names = 20000;
  g->npu = !o->no_npu;
  g->rows = g_array_sized_new (FALSE, FALSE, sizeof (Row), o->rows + 70000);
  g->tasks = g_array_sized_new (FALSE, FALSE, sizeof (Task), g->npu ? o->rows * 2 / 5 : 0);
  g->links = g_array_new (FALSE, FALSE, sizeof (Link));
  g->steps = g_array_new (FALSE, FALSE, sizeof (Step));
  g->candidates = g_array_new (FALSE, FALSE, sizeof (guint32));
  g->collectives = g_array_new (FALSE, FALSE, sizeof (Collective));
  g->next_task_connection = FIRST_TASK_CONNECTION;
  plan_job (g, o);
}

static void
generator_clear (Generator *g)
{
  free_templates (g);
  g_array_unref (g->rows);
  g_array_unref (g->tasks);
  g_array_unref (g->links);
  g_array_unref (g->steps);
  g_array_unref (g->candidates);
  g_array_unref (g->collectives);
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
      g_printerr ("usage: %s [--seed S] [--steps N] [--slow-step K] [--rank R] [--ranks N] [--tp T]"
                  " [--collectives K] [--late-rank L --late-ns NS] [--drop-collective J] [--no-comm-op]"
                  " [--no-npu] OUTPUT.db ROWS (--help explains them)\n", argv[0]);
      return 2;
    }
  generator_init (&g, &o);
  slow_step = plan_steps (&g, &o);
  generate_rows (&g, &o, slow_step);
  g_array_sort (g.rows, compare_rows);
  serialize_streams (&g);
  write_db (&g, argv[1]);
  g_print ("%s: %u rows, %u steps, %u tasks, %u links, %u collectives\n", argv[1], g.rows->len, g.steps->len,
           g.tasks->len, g.links->len, g.collectives->len);
  generator_clear (&g);
  return 0;
}
