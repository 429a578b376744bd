/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-tree"

#include "config.h"

#include <string.h>

#include "afg-cores.h"
#include "afg-document-private.h"
#include "afg-error.h"
#include "afg-huge.h"
#include "afg-int-map.h"
#include "afg-math.h"
#include "afg-nesting.h"
#include "afg-select.h"
#include "afg-task-kinds.h"
#include "afg-tree-builder.h"
#include "afg-tree-private.h"

typedef struct {
  guint32 name;
  guint32 parent;
  guint32 first_child;
  guint32 next_sibling;
  guint32 depth;
  guint32 thread;
  guint32 first_called;  /* the child entered first, last time */
  guint32 successor;     /* the sibling entered after this one, last time */
  guint64 calls;
  gint64  total_ns;
  gint64  npu_ns;        /* launched by this node's own rows */
  guint64 npu_tasks;
} BuildNode;

/* What a node's own rows launched by kind, beside BuildNode (which stays
 * one cache line): only with NPU data, grown as nodes take some. */
typedef struct {
  gint64  compute_ns;
  guint64 compute_tasks;
  gint64  comm_ns;
  guint64 comm_ops;
  gint64  exposed_ns;
} NodeKinds;

/* A kernel leaf while building: AfgNpuKernel and its build node. */
typedef AfgNodeKernel BuildKernel;

#define CANCEL_CHECK_EVENTS 65536

typedef struct {
  gint64 v[AFG_N_DURATION_COLUMNS];
} Durations;

typedef struct {
  AfgTree      *tree;
  GCancellable *cancellable;
  AfgStats     *stats;       /* the tree's, or a part's own */
  gint         *busy;        /* walkers at work, NULL when alone */
  AfgVec        nodes;       /* BuildNode */
  AfgVec        durations;   /* Durations by build node, with AFG_TREE_DURATIONS */
  AfgVec        kinds;       /* NodeKinds by build node, up to the last that took any */
  AfgVec        kernels;     /* BuildKernel */
  AfgIntMap     kernel_map;  /* node << 32 | kind << 31 | name -> index in kernels */
  const AfgNpuKernel *doc_kernels;
  guint32      *event_nodes; /* the node each event of the thread became */
  GArray       *threads;     /* AfgThread, node = build node index */
  AfgIntMap     children;    /* parent << 32 | name -> node */
  AfgNesting    nesting;
} Builder;

static inline gboolean
has_durations (const Builder *self)
{
  return (self->tree->flags & AFG_TREE_DURATIONS) != 0;
}

static inline BuildNode *
node_at (Builder *self, guint32 index)
{
  return &AFG_VEC_INDEX (&self->nodes, BuildNode, index);
}

static guint32
append_node (Builder *self, guint32 parent, guint32 name, guint32 depth, guint32 thread)
{
  BuildNode node = { name, parent, AFG_NODE_NONE, AFG_NODE_NONE, depth, thread,
                     AFG_NODE_NONE, AFG_NODE_NONE, 0, 0, 0, 0 };
  guint32 index = (guint32) self->nodes.len;

  if (parent != AFG_NODE_NONE)
    {
      node.next_sibling = node_at (self, parent)->first_child;
      node_at (self, parent)->first_child = index;
    }
  AFG_VEC_APPEND (&self->nodes, BuildNode, node);
  return index;
}

/* Training loops replay the same call sequence every step: the child that
 * followed the previous one last time is nearly always the one wanted, so
 * the map is only consulted on a new path. */
static guint32
predicted_child (Builder *self, const AfgNestFrame *frame, guint32 name)
{
  guint32 guess;

  if (frame->last_child == AFG_NODE_NONE)
    guess = node_at (self, frame->node)->first_called;
  else if (node_at (self, frame->last_child)->name == name)
    return frame->last_child;
  else
    guess = node_at (self, frame->last_child)->successor;
  return guess != AFG_NODE_NONE && node_at (self, guess)->name == name ? guess : AFG_NODE_NONE;
}

static guint32
child_of (Builder *self, AfgNestFrame *frame, guint32 name)
{
  guint64 key = (guint64) frame->node << 32 | name;
  guint32 child = predicted_child (self, frame, name);

  if (child == AFG_NODE_NONE && !afg_int_map_lookup (&self->children, key, &child))
    {
      child = append_node (self, frame->node, name, self->nesting.depth + 2, node_at (self, frame->node)->thread);
      afg_int_map_insert (&self->children, key, child);
    }
  if (frame->last_child == AFG_NODE_NONE)
    node_at (self, frame->node)->first_called = child;
  else if (frame->last_child != child)
    node_at (self, frame->last_child)->successor = child;
  frame->last_child = child;
  return child;
}

/* Returns the node that holds the event: its own, or for a row cut at
 * the depth limit the frame at the cut. */
static guint32
add_event (Builder *self, const AfgEvent *ev, gint64 ns)
{
  AfgStats *stats = self->stats;
  BuildNode *node;
  guint32 child;

  /* Each frame the event started inside but outlives is one partial overlap. */
  stats->partial_overlaps += afg_nesting_close (&self->nesting, ev->start, ev->end);
  if (afg_nesting_is_full (&self->nesting))
    {
      stats->depth_truncated++;
      return afg_nesting_top (&self->nesting)->node;
    }
  child = child_of (self, afg_nesting_top (&self->nesting), ev->name);
  node = node_at (self, child);
  node->calls++;
  node->total_ns = afg_sat_add (node->total_ns, ns);
  stats->used++;
  afg_nesting_open (&self->nesting, ev->end, child);
  return child;
}

/* The overlap of @ev with the scope, 0 when under 1 ns. A row outside
 * the range can be no ancestor of one inside it (it would contain it),
 * so leaving it out of the walk changes no row's place. A thread's rows
 * come by start: @hint follows them through the NPU-idle instants, which
 * count within the range only (a scope narrowed to a view). */
static inline gint64
scoped_ns (const AfgScope *scope, const AfgEvent *ev, gsize *hint)
{
  if (scope->idle != NULL)
    return afg_spans_overlap_from (scope->idle, hint, MAX (ev->start, scope->start_ns), MIN (ev->end, scope->end_ns));
  return afg_scope_overlap_ns (scope, ev->start, ev->end);
}

static void
reduce_durations (Durations *out, gint64 *ns, guint64 n)
{
  afg_select_durations (ns, n, out->v);
}

#define PARALLEL_MIN_CALLS 100000

/* Nodes [lo, hi) of one thread; @ends[k] is where node k's calls end in @ns. */
typedef struct {
  Durations     *out;
  const guint64 *ends;
  gint64        *ns;
  guint32        lo;
  guint32        hi;
} ReduceWork;

static gpointer
reduce_range (gpointer data)
{
  ReduceWork *work = data;

  for (guint32 k = work->lo; k < work->hi; k++)
    {
      guint64 start = k > 0 ? work->ends[k - 1] : 0;

      reduce_durations (&work->out[k], work->ns + start, work->ends[k] - start);
    }
  return NULL;
}

/* A big thread's nodes in two halves of about as many calls, the upper
 * on a second core (the ranges of @ns they select in are disjoint). */
static void
reduce_nodes (Builder *self, guint32 mark, guint32 n_local, const guint64 *ends, gint64 *ns)
{
  guint64 total = n_local > 0 ? ends[n_local - 1] : 0;
  Durations *out = &AFG_VEC_INDEX (&self->durations, Durations, mark);
  ReduceWork low = { out, ends, ns, 0, n_local }, high = low;
  GThread *helper = NULL;

  /* A second core only when no other walker has it. */
  if ((self->busy == NULL || g_atomic_int_get (self->busy) == 1)
      && total >= PARALLEL_MIN_CALLS && afg_cores_get () > 1)
    {
      while (low.hi > 1 && ends[low.hi - 2] >= total / 2)
        low.hi--;
      high.lo = low.hi;
      helper = g_thread_new ("afg-durations", reduce_range, &high);
    }
  reduce_range (&low);
  if (helper != NULL)
    g_thread_join (helper);
}

/* The durations of one thread's calls, grouped by the node (all created
 * by this thread, from @mark on) each became, sorted and reduced to five
 * numbers. Per thread and freed at once, so the peak is one thread's
 * calls at 12 bytes each, not the whole store's. */
static void
thread_durations (Builder *self, const AfgEventThread *t, guint32 mark)
{
  guint32 n_local = (guint32) self->nodes.len - mark;
  g_autofree guint64 *offsets = afg_huge_alloc0 (sizeof (guint64) * (n_local + 1));
  g_autofree gint64 *ns = NULL;
  AfgEventCursor cursor;
  AfgEvent ev;
  guint64 i = 0;
  gsize hint = 0;

  /* A node's calls so far are the events that became it. */
  for (guint32 k = 0; k < n_local; k++)
    offsets[k + 1] = offsets[k] + node_at (self, mark + k)->calls;
  ns = afg_huge_alloc (sizeof (gint64) * MAX (offsets[n_local], 1));
  afg_event_cursor_init (&cursor, t);
  while (afg_event_cursor_next (&cursor, &ev))
    {
      guint32 node = self->event_nodes[i++];

      if (node != AFG_NODE_NONE)
        ns[offsets[node - mark]++] = scoped_ns (&self->tree->scope, &ev, &hint);
    }
  afg_vec_set_len_zeroed (&self->durations, self->nodes.len);
  reduce_nodes (self, mark, n_local, offsets, ns);
}

static void
add_npu (Builder *self, guint32 node, const AfgNpuEntry *npu)
{
  BuildNode *b = node_at (self, node);

  b->npu_ns = afg_sat_add (b->npu_ns, npu->ns);
  b->npu_tasks += npu->tasks;
}

static void
add_kernel (Builder *self, guint32 node, const AfgNpuKernel *k)
{
  guint64 key = (guint64) node << 32 | (guint64) k->kind << 31 | k->name;
  guint32 at = afg_int_map_insert (&self->kernel_map, key, (guint32) self->kernels.len);
  BuildKernel *b;

  if (at == self->kernels.len)
    {
      BuildKernel fresh = { { k->name, k->kind, 0, 0, 0 }, node };
      AFG_VEC_APPEND (&self->kernels, BuildKernel, fresh);
    }
  b = &AFG_VEC_INDEX (&self->kernels, BuildKernel, at);
  b->kernel.count += k->count;
  b->kernel.ns = afg_sat_add (b->kernel.ns, k->ns);
  b->kernel.exposed_ns = afg_sat_add (b->kernel.exposed_ns, k->exposed_ns);
}

static void
add_kinds (Builder *self, guint32 node, const AfgNpuKindEntry *e)
{
  NodeKinds *k;

  if (self->kinds.len <= node)
    afg_vec_set_len_zeroed (&self->kinds, self->nodes.len);
  k = &AFG_VEC_INDEX (&self->kinds, NodeKinds, node);
  for (guint32 i = 0; i < e->n_kernels; i++)
    {
      const AfgNpuKernel *leaf = &self->doc_kernels[e->first_kernel + i];

      if (leaf->kind == AFG_TASK_KIND_COMMUNICATION)
        {
          k->comm_ns = afg_sat_add (k->comm_ns, leaf->ns);
          k->comm_ops += leaf->count;
          k->exposed_ns = afg_sat_add (k->exposed_ns, leaf->exposed_ns);
        }
      else
        {
          k->compute_ns = afg_sat_add (k->compute_ns, leaf->ns);
          k->compute_tasks += leaf->count;
        }
      add_kernel (self, node, leaf);
    }
}

static gboolean
add_thread (Builder *self, guint index, const AfgEventThread *t)
{
  AfgThread thread = { t->global_tid, t->pid, t->tid,
                       afg_document_get_string (self->tree->document, t->label), 0,
                       afg_document_get_thread_role (self->tree->document, index),
                       afg_document_get_thread_title (self->tree->document, index) };
  guint32 mark = (guint32) self->nodes.len;
  gboolean merge = (self->tree->flags & AFG_TREE_MERGE_ADDRESSES) != 0;
  gboolean durations = has_durations (self);
  AfgEventCursor cursor;
  AfgEvent ev;
  guint64 n = 0;
  gsize hint = 0;
  guint n_npu, next_npu = 0, n_kinds, next_kinds = 0;
  const AfgNpuEntry *npu_entries = afg_document_get_npu_entries (self->tree->document, index, &n_npu);
  const AfgNpuKindEntry *kind_entries = afg_document_get_npu_kind_entries (self->tree->document, index, &n_kinds);

  thread.node = append_node (self, AFG_TREE_ROOT, t->label, 1, self->threads->len);
  afg_nesting_start (&self->nesting, thread.node);
  if (durations)
    self->event_nodes = afg_huge_alloc (sizeof (guint32) * MAX (t->n_events, 1));
  afg_event_cursor_init (&cursor, t);
  while (afg_event_cursor_next (&cursor, &ev))
    {
      gint64 ns = scoped_ns (&self->tree->scope, &ev, &hint);
      const AfgNpuEntry *npu = next_npu < n_npu && npu_entries[next_npu].event == n ? &npu_entries[next_npu++] : NULL;
      const AfgNpuKindEntry *kinds = next_kinds < n_kinds && kind_entries[next_kinds].event == n
                                       ? &kind_entries[next_kinds++] : NULL;
      guint32 node = AFG_NODE_NONE;
      guint64 truncated = self->stats->depth_truncated;

      if (++n % CANCEL_CHECK_EVENTS == 0 && g_cancellable_is_cancelled (self->cancellable))
        {
          g_clear_pointer (&self->event_nodes, g_free);
          return FALSE;
        }
      if (ns > 0)
        {
          if (merge)
            ev.name = afg_document_get_merged_name (self->tree->document, ev.name);
          node = add_event (self, &ev, ns);
          /* Device time follows the launching row's start: a row starting in
           * the scope overlaps it, so it is in the walk. */
          if (npu != NULL && afg_scope_contains_start (&self->tree->scope, ev.start))
            add_npu (self, node, npu);
          if (kinds != NULL && afg_scope_contains_start (&self->tree->scope, ev.start))
            add_kinds (self, node, kinds);
        }
      /* A row cut at the depth limit is no call of the frame that keeps its time. */
      if (durations)
        self->event_nodes[n - 1] = self->stats->depth_truncated == truncated ? node : AFG_NODE_NONE;
    }
  if (durations)
    thread_durations (self, t, mark);
  g_clear_pointer (&self->event_nodes, g_free);
  if (self->nodes.len == mark + 1)
    {
      /* Nothing of this thread in the scope: no thread node either. */
      node_at (self, AFG_TREE_ROOT)->first_child = node_at (self, thread.node)->next_sibling;
      self->nodes.len = mark;
      self->kinds.len = MIN (self->kinds.len, mark);
      return TRUE;
    }
  g_array_append_val (self->threads, thread);
  return TRUE;
}

/* Children are created after their parent, so one backward pass sums
 * them; @npu_totals (when not NULL) gets each node's NPU total. */
static gint64 *
sum_children (Builder *self, gint64 *npu_totals)
{
  gint64 *sums = afg_huge_alloc0 (sizeof (gint64) * MAX (self->nodes.len, 1));

  for (guint32 i = (guint32) self->nodes.len; i-- > 0;)
    {
      BuildNode *node = node_at (self, i);

      if (node->depth <= 1)
        node->total_ns = sums[i];
      if (npu_totals != NULL)
        npu_totals[i] = afg_sat_add (npu_totals[i], node->npu_ns);
      if (node->parent == AFG_NODE_NONE)
        continue;
      if (npu_totals != NULL)
        npu_totals[node->parent] = afg_sat_add (npu_totals[node->parent], npu_totals[i]);
      sums[node->parent] = afg_sat_add (sums[node->parent], node->total_ns);
      if (node->depth <= 2)
        node_at (self, node->parent)->calls += node->calls;
    }
  return sums;
}

typedef struct {
  const char *name;
  guint32     node;
} NamedNode;

static int
compare_names (gconstpointer a, gconstpointer b, gpointer unused)
{
  return strcmp (((const NamedNode *) a)->name, ((const NamedNode *) b)->name);
}

/* Siblings have distinct names: no two compare equal. Most families are
 * a few nodes, sorted in place; big ones go to GLib. */
static void
sort_by_name (NamedNode *kids, guint n)
{
  if (n > 16)
    {
      g_qsort_with_data (kids, (gint) n, sizeof (NamedNode), compare_names, NULL);
      return;
    }
  for (guint i = 1; i < n; i++)
    {
      NamedNode x = kids[i];
      guint j = i;

      for (; j > 0 && strcmp (x.name, kids[j - 1].name) < 0; j--)
        kids[j] = kids[j - 1];
      kids[j] = x;
    }
}

/* Breadth-first, threads by global tid, other children by name: the order
 * of AfgNode. */
static guint32 *
layout_order (Builder *self)
{
  guint32 n = (guint32) self->nodes.len, len = 0;
  guint32 *order = afg_huge_alloc (sizeof (guint32) * MAX (n, 1));
  g_autoptr(GArray) kids = g_array_new (FALSE, FALSE, sizeof (NamedNode));

  order[len++] = AFG_TREE_ROOT;
  for (guint i = 0; i < self->threads->len; i++)
    order[len++] = g_array_index (self->threads, AfgThread, i).node;
  for (guint32 q = 1; q < len; q++)
    {
      g_array_set_size (kids, 0);
      for (guint32 c = node_at (self, order[q])->first_child; c != AFG_NODE_NONE; c = node_at (self, c)->next_sibling)
        {
          NamedNode kid = { afg_document_get_string (self->tree->document, node_at (self, c)->name), c };

          g_array_append_val (kids, kid);
        }
      sort_by_name ((NamedNode *) kids->data, kids->len);
      for (guint i = 0; i < kids->len; i++)
        order[len++] = g_array_index (kids, NamedNode, i).node;
    }
  return order;
}

static void
emit_durations (Builder *self, const guint32 *order)
{
  AfgTree *tree = self->tree;

  afg_vec_set_len_zeroed (&self->durations, self->nodes.len);
  for (guint k = 0; k < AFG_N_DURATION_COLUMNS; k++)
    {
      gint64 *column = tree->columns[AFG_COLUMN_DURATION_MIN + k];

      for (guint32 i = 0; i < tree->n_nodes; i++)
        column[i] = AFG_VEC_INDEX (&self->durations, Durations, order[i]).v[k];
    }
}

static void
emit_npu (AfgTree *tree, guint32 i, const BuildNode *b, gint64 npu_total)
{
  tree->columns[AFG_COLUMN_NPU_TOTAL_NS][i] = npu_total;
  tree->columns[AFG_COLUMN_NPU_SELF_NS][i] = b->depth <= 1 ? 0 : b->npu_ns;
  tree->columns[AFG_COLUMN_NPU_TASKS][i] = b->depth <= 1 ? 0 : (gint64) MIN (b->npu_tasks, (guint64) G_MAXINT64);
}

#define KIND_COLUMNS (1u << AFG_COLUMN_NPU_COMPUTE_TOTAL_NS | 1u << AFG_COLUMN_NPU_COMPUTE_SELF_NS \
                      | 1u << AFG_COLUMN_NPU_COMPUTE_TASKS | 1u << AFG_COLUMN_COMM_TOTAL_NS \
                      | 1u << AFG_COLUMN_COMM_SELF_NS | 1u << AFG_COLUMN_COMM_OPS \
                      | 1u << AFG_COLUMN_COMM_EXPOSED_TOTAL_NS | 1u << AFG_COLUMN_COMM_EXPOSED_SELF_NS)

static const NodeKinds no_kinds;

static inline const NodeKinds *
kinds_at (const Builder *self, guint32 node)
{
  return node < self->kinds.len ? &AFG_VEC_INDEX (&self->kinds, NodeKinds, node) : &no_kinds;
}

/* The three kind totals of each node (compute, communication, exposed),
 * summed up the tree as sum_children() sums the rest. */
static gint64 *
sum_kinds (Builder *self)
{
  gint64 *totals = afg_huge_alloc0 (3 * sizeof (gint64) * MAX (self->nodes.len, 1));

  for (guint32 i = (guint32) self->nodes.len; i-- > 0;)
    {
      const NodeKinds *k = kinds_at (self, i);
      guint32 parent = node_at (self, i)->parent;

      totals[3 * i] = afg_sat_add (totals[3 * i], k->compute_ns);
      totals[3 * i + 1] = afg_sat_add (totals[3 * i + 1], k->comm_ns);
      totals[3 * i + 2] = afg_sat_add (totals[3 * i + 2], k->exposed_ns);
      if (parent == AFG_NODE_NONE)
        continue;
      for (guint c = 0; c < 3; c++)
        totals[3 * parent + c] = afg_sat_add (totals[3 * parent + c], totals[3 * i + c]);
    }
  return totals;
}

static inline gint64
count_value (guint64 n)
{
  return (gint64) MIN (n, (guint64) G_MAXINT64);
}

/* Self values and counts only on frames, as for NPU_*. */
static void
emit_kinds (AfgTree *tree, guint32 i, const BuildNode *b, const NodeKinds *k, const gint64 *totals)
{
  gboolean frame = b->depth > 1;

  tree->columns[AFG_COLUMN_NPU_COMPUTE_TOTAL_NS][i] = totals[0];
  tree->columns[AFG_COLUMN_NPU_COMPUTE_SELF_NS][i] = frame ? k->compute_ns : 0;
  tree->columns[AFG_COLUMN_NPU_COMPUTE_TASKS][i] = frame ? count_value (k->compute_tasks) : 0;
  tree->columns[AFG_COLUMN_COMM_TOTAL_NS][i] = totals[1];
  tree->columns[AFG_COLUMN_COMM_SELF_NS][i] = frame ? k->comm_ns : 0;
  tree->columns[AFG_COLUMN_COMM_OPS][i] = frame ? count_value (k->comm_ops) : 0;
  tree->columns[AFG_COLUMN_COMM_EXPOSED_TOTAL_NS][i] = totals[2];
  tree->columns[AFG_COLUMN_COMM_EXPOSED_SELF_NS][i] = frame ? k->exposed_ns : 0;
}

/* The leaves node by node in the tree's order, each node's by kind and name. */
static void
emit_kernels (Builder *self, const guint32 *new_index)
{
  afg_tree_set_kernels (self->tree, self->kernels.data, self->kernels.len, new_index);
}

/* The base columns, the NPU ones with NPU data, the durations when asked. */
static guint32
emitted_columns (const Builder *self, gboolean npu)
{
  guint32 columns = 1u << AFG_COLUMN_CALLS | 1u << AFG_COLUMN_TOTAL_NS | 1u << AFG_COLUMN_SELF_NS;

  if (npu)
    columns |= 1u << AFG_COLUMN_NPU_TOTAL_NS | 1u << AFG_COLUMN_NPU_SELF_NS | 1u << AFG_COLUMN_NPU_TASKS | KIND_COLUMNS;
  if (has_durations (self))
    for (guint k = 0; k < AFG_N_DURATION_COLUMNS; k++)
      columns |= 1u << (AFG_COLUMN_DURATION_MIN + k);
  return columns;
}

static void
emit_nodes (Builder *self, const guint32 *order, const gint64 *child_sums, const gint64 *npu_totals,
            const gint64 *kind_totals)
{
  AfgTree *tree = self->tree;
  guint32 n = (guint32) self->nodes.len;
  g_autofree guint32 *new_index = afg_huge_alloc (sizeof (guint32) * MAX (n, 1));
  guint32 next_child = 1;

  for (guint32 i = 0; i < n; i++)
    new_index[order[i]] = i;
  tree->nodes = afg_huge_alloc0 (sizeof (AfgNode) * MAX (n, 1));
  tree->n_nodes = n;
  afg_tree_alloc_columns (tree, emitted_columns (self, npu_totals != NULL));
  for (guint32 i = 0; i < n; i++)
    {
      const BuildNode *b = node_at (self, order[i]);
      guint32 n_children = 0;

      for (guint32 c = b->first_child; c != AFG_NODE_NONE; c = node_at (self, c)->next_sibling)
        n_children++;
      tree->nodes[i] = (AfgNode) {
        .name = b->name,
        .parent = b->parent == AFG_NODE_NONE ? AFG_NODE_NONE : new_index[b->parent],
        .first_child = n_children ? next_child : AFG_NODE_NONE,
        .n_children = n_children,
        .depth = b->depth,
        .thread = b->thread,
      };
      tree->columns[AFG_COLUMN_CALLS][i] = (gint64) MIN (b->calls, (guint64) G_MAXINT64);
      tree->columns[AFG_COLUMN_TOTAL_NS][i] = b->total_ns;
      tree->columns[AFG_COLUMN_SELF_NS][i] = b->depth <= 1 ? 0 : MAX (0, b->total_ns - child_sums[order[i]]);
      if (npu_totals != NULL)
        {
          emit_npu (tree, i, b, npu_totals[order[i]]);
          emit_kinds (tree, i, b, kinds_at (self, order[i]), &kind_totals[3 * order[i]]);
        }
      next_child += n_children;
    }
  if (has_durations (self))
    emit_durations (self, order);
  if (npu_totals != NULL)
    emit_kernels (self, new_index);
}

static void
finish (Builder *self)
{
  AfgTree *tree = self->tree;
  /* The NPU-idle scope is host time only: nothing runs on the device then. */
  gboolean has_npu = afg_document_get_npu_stats (tree->document) != NULL && !tree->scope.npu_idle;
  g_autofree gint64 *npu_totals = has_npu ? afg_huge_alloc0 (sizeof (gint64) * MAX (self->nodes.len, 1)) : NULL;
  g_autofree gint64 *sums = sum_children (self, npu_totals);
  g_autofree gint64 *kind_totals = has_npu ? sum_kinds (self) : NULL;
  g_autofree guint32 *order = layout_order (self);

  emit_nodes (self, order, sums, npu_totals, kind_totals);
  tree->n_threads = self->threads->len;
  tree->first_frame = 1 + tree->n_threads;
  tree->threads = g_new0 (AfgThread, MAX (tree->n_threads, 1));
  for (guint i = 0; i < tree->n_threads; i++)
    {
      tree->threads[i] = g_array_index (self->threads, AfgThread, i);
      tree->threads[i].node = 1 + i;
    }
}

/* @expected nodes: a part for a thread of a few events (there may be
 * 100,000 such threads) starts small. */
static void
builder_init (Builder *self, AfgTree *tree, GCancellable *cancellable, AfgStats *stats, guint expected)
{
  /* Field by field: a compound literal would clear the whole stack. */
  self->tree = tree;
  self->cancellable = cancellable;
  self->stats = stats;
  self->busy = NULL;
  self->event_nodes = NULL;
  self->nesting.depth = 0;
  afg_vec_init (&self->nodes, sizeof (BuildNode), expected);
  memset (&self->durations, 0, sizeof self->durations);
  afg_vec_init (&self->kinds, sizeof (NodeKinds), 0);
  afg_vec_init (&self->kernels, sizeof (BuildKernel), 0);
  afg_int_map_init (&self->kernel_map, 16);
  self->doc_kernels = afg_document_get_npu_kernels (tree->document);
  self->threads = g_array_new (FALSE, FALSE, sizeof (AfgThread));
  if (has_durations (self))
    afg_vec_init (&self->durations, sizeof (Durations), expected);
  afg_int_map_init (&self->children, expected);
  append_node (self, AFG_NODE_NONE, afg_document_get_root_name (tree->document), 0, AFG_THREAD_NONE);
}

static void
builder_clear (Builder *self)
{
  afg_vec_clear (&self->nodes);
  g_clear_pointer (&self->threads, g_array_unref);
  afg_vec_clear (&self->durations);
  afg_vec_clear (&self->kinds);
  afg_vec_clear (&self->kernels);
  afg_int_map_clear (&self->kernel_map);
  afg_int_map_clear (&self->children);
}

/* A part's node index where @part's nodes land from @mark on (its own
 * root, 0, is the tree's). */
static inline guint32
relocate (guint32 index, guint32 mark)
{
  return index == AFG_NODE_NONE || index == AFG_TREE_ROOT ? index : index - 1 + mark;
}

/* What the walk of one thread alone left: its nodes (0 standing for the
 * root), their durations, its AfgThread (none when nothing was in scope). */
typedef struct {
  AfgVec  nodes;
  AfgVec  durations;
  GArray *threads;
  AfgVec  kinds;
  AfgVec  kernels;
} Part;

static void
part_clear (Part *part)
{
  afg_vec_clear (&part->nodes);
  afg_vec_clear (&part->durations);
  afg_vec_clear (&part->kinds);
  afg_vec_clear (&part->kernels);
  g_clear_pointer (&part->threads, g_array_unref);
}

/* A part's kinds go with its nodes; its leaves are its own nodes' (one
 * thread each), none of them to merge with another part's. */
static void
append_part_kinds (Builder *self, const Part *part, guint32 mark)
{
  if (part->kinds.len > 1)
    {
      afg_vec_set_len_zeroed (&self->kinds, mark);
      for (guint32 k = 1; k < part->kinds.len; k++)
        AFG_VEC_APPEND (&self->kinds, NodeKinds, AFG_VEC_INDEX (&part->kinds, NodeKinds, k));
    }
  for (gsize k = 0; k < part->kernels.len; k++)
    {
      BuildKernel b = AFG_VEC_INDEX (&part->kernels, BuildKernel, k);

      b.node = relocate (b.node, mark);
      AFG_VEC_APPEND (&self->kernels, BuildKernel, b);
    }
}

/* Appends the thread a part built alone, as the serial walk would have
 * built it here: its nodes after the others, renumbered. */
static void
append_part (Builder *self, const Part *part)
{
  guint32 mark = (guint32) self->nodes.len, thread_index = self->threads->len;
  AfgThread thread;

  if (part->threads->len == 0)
    return;
  for (guint32 k = 1; k < part->nodes.len; k++)
    {
      BuildNode node = AFG_VEC_INDEX (&part->nodes, BuildNode, k);

      node.parent = relocate (node.parent, mark);
      node.first_child = relocate (node.first_child, mark);
      node.next_sibling = relocate (node.next_sibling, mark);
      node.first_called = relocate (node.first_called, mark);
      node.successor = relocate (node.successor, mark);
      node.thread = thread_index;
      AFG_VEC_APPEND (&self->nodes, BuildNode, node);
    }
  node_at (self, mark)->next_sibling = node_at (self, AFG_TREE_ROOT)->first_child;
  node_at (self, AFG_TREE_ROOT)->first_child = mark;
  thread = g_array_index (part->threads, AfgThread, 0);
  thread.node = mark;
  g_array_append_val (self->threads, thread);
  if (has_durations (self))
    {
      afg_vec_set_len_zeroed (&self->durations, mark);
      for (guint32 k = 1; k < part->nodes.len; k++)
        AFG_VEC_APPEND (&self->durations, Durations, AFG_VEC_INDEX (&part->durations, Durations, k));
    }
  append_part_kinds (self, part, mark);
}

#define PARALLEL_MIN_EVENTS 100000

typedef struct {
  AfgTree             *tree;
  GCancellable        *cancellable;
  const AfgEventStore *events;
  Part                *parts;   /* by thread of the store */
  AfgStats            *stats;   /* by thread of the store */
  guint               *order;   /* the store's threads, most events first */
  guint                n;
  guint                next;    /* atomic: the next entry of order to walk */
  gint                 busy;    /* atomic: workers walking a thread */
  gint                 cancelled;
} WalkWork;

static gpointer
walk_worker (gpointer data)
{
  WalkWork *work = data;
  Builder walker;  /* one per worker: its stack is 16 kB */
  guint k;

  while ((k = (guint) g_atomic_int_add ((gint *) &work->next, 1)) < work->n && !g_atomic_int_get (&work->cancelled))
    {
      guint i = work->order[k];
      const AfgEventThread *t = afg_event_store_get_thread (work->events, i);

      g_atomic_int_inc (&work->busy);
      builder_init (&walker, work->tree, work->cancellable, &work->stats[i], (guint) MIN (t->n_events + 2, 4096));
      walker.busy = &work->busy;
      if (!add_thread (&walker, i, t))
        g_atomic_int_set (&work->cancelled, TRUE);
      work->parts[i] = (Part) { afg_vec_steal (&walker.nodes), afg_vec_steal (&walker.durations),
                               g_steal_pointer (&walker.threads), afg_vec_steal (&walker.kinds),
                               afg_vec_steal (&walker.kernels) };
      builder_clear (&walker);
      g_atomic_int_dec_and_test (&work->busy);
    }
  return NULL;
}

static int
compare_sizes (gconstpointer a, gconstpointer b, gpointer events)
{
  guint64 x = afg_event_store_get_thread (events, *(const guint *) a)->n_events;
  guint64 y = afg_event_store_get_thread (events, *(const guint *) b)->n_events;

  return x > y ? -1 : x < y;
}

static void
add_stats (AfgStats *into, const AfgStats *from)
{
  into->used += from->used;
  into->partial_overlaps += from->partial_overlaps;
  into->depth_truncated += from->depth_truncated;
}

/* Threads' trees are independent: each is walked alone on one of two
 * cores, the biggest first, then appended in the store's order. */
static gboolean
walk_parallel (Builder *self, const AfgEventStore *events)
{
  guint n = afg_event_store_get_n_threads (events);
  WalkWork work = { self->tree, self->cancellable, events, g_new0 (Part, n), g_new0 (AfgStats, n),
                  g_new (guint, n), n, 0, 0, FALSE };
  GThread *helper;
  gsize total = self->nodes.len;

  for (guint i = 0; i < n; i++)
    work.order[i] = i;
  g_qsort_with_data (work.order, n, sizeof (guint), compare_sizes, (gpointer) events);
  helper = g_thread_new ("afg-walk", walk_worker, &work);
  walk_worker (&work);
  g_thread_join (helper);
  for (guint i = 0; i < n; i++)
    total += work.parts[i].nodes.len;
  afg_vec_reserve (&self->nodes, total);
  if (has_durations (self))
    afg_vec_reserve (&self->durations, total);
  for (guint i = 0; i < n; i++)
    {
      if (!work.cancelled)
        {
          append_part (self, &work.parts[i]);
          add_stats (self->stats, &work.stats[i]);
        }
      part_clear (&work.parts[i]);
    }
  g_free (work.parts);
  g_free (work.stats);
  g_free (work.order);
  return !work.cancelled;
}

static gboolean
walk (Builder *self, const AfgEventStore *events)
{
  guint n = afg_event_store_get_n_threads (events);
  gboolean ok = TRUE;

  if (n > 1 && !(self->tree->flags & AFG_TREE_ONE_CORE) && afg_event_store_get_n_events (events) >= PARALLEL_MIN_EVENTS
      && afg_cores_get () > 1)
    return walk_parallel (self, events);
  for (guint i = 0; ok && i < n; i++)
    ok = add_thread (self, i, afg_event_store_get_thread (events, i));
  return ok;
}

AfgTree *
afg_tree_build (AfgDocument *document, const AfgScope *scope, AfgTreeFlags flags,
                GCancellable *cancellable, GError **error)
{
  const AfgEventStore *events = afg_document_get_events (document);
  Builder self;
  gboolean ok;
  gint64 t0 = g_get_monotonic_time (), t1;
  AfgTree *tree;

  g_return_val_if_fail (document != NULL, NULL);

  tree = afg_tree_new (document, scope, flags);
  tree->stats.used = tree->stats.partial_overlaps = tree->stats.depth_truncated = 0;
  builder_init (&self, tree, cancellable, &tree->stats, 4096);
  ok = walk (&self, events);
  t1 = g_get_monotonic_time ();
  if (ok)
    finish (&self);
  g_debug ("walk %.3f s, finish %.3f s, %u nodes", (t1 - t0) / 1e6, (g_get_monotonic_time () - t1) / 1e6,
           (guint) self.nodes.len);
  builder_clear (&self);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    g_clear_pointer (&tree, afg_tree_unref);
  return tree;
}

struct _AfgTreeBuildRequest {
  AfgDocument *document;
  AfgScope     scope;
  gboolean     has_scope;
  AfgTreeFlags flags;
};

AfgTreeBuildRequest *
afg_tree_build_request_new (AfgDocument *document, const AfgScope *scope, AfgTreeFlags flags)
{
  AfgTreeBuildRequest *req = g_new0 (AfgTreeBuildRequest, 1);

  g_return_val_if_fail (document != NULL, NULL);

  req->document = afg_document_ref (document);
  req->has_scope = scope != NULL;
  req->flags = flags;
  if (scope != NULL)
    req->scope = *scope;
  return req;
}

gpointer
afg_tree_build_request_run (gpointer request, GCancellable *cancellable, GError **error)
{
  AfgTreeBuildRequest *req = request;

  return afg_tree_build (req->document, req->has_scope ? &req->scope : NULL, req->flags, cancellable, error);
}

void
afg_tree_build_request_free (gpointer request)
{
  AfgTreeBuildRequest *req = request;

  afg_document_unref (req->document);
  g_free (req);
}
