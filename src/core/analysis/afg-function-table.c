/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-functions"

#include "config.h"

#include <string.h>

#include "afg-function-table.h"
#include "afg-math.h"
#include "afg-path-tree.h"

struct _AfgFunctionTable {
  AfgTree     *tree;
  AfgFunction *functions;
  guint        n_functions;
  guint32     *node_function;  /* by node; AFG_FUNCTION_NONE below the frames */
  guint32     *frames;         /* nodes grouped by function */
  guint32     *frame_starts;   /* n_functions + 1 offsets into frames */
};

/* A walk down each thread with a count of the frames of each key on the
 * current stack: a frame whose key is not on it yet is outermost.
 * Iterative: stacks may be 1000 frames deep. A tree without threads (a
 * diff's, a sandwich's) is walked from its root. */
void
afg_function_table_for_each_outermost (const AfgTree *tree, const guint32 *node_key, guint n_keys,
                                       AfgOutermostFunc func, gpointer data)
{
  const AfgNode *nodes = afg_tree_get_nodes (tree);
  g_autofree guint32 *on_stack = g_new0 (guint32, MAX (n_keys, 1));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) next = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n_tops = MAX (afg_tree_get_n_threads (tree), 1);

  for (guint t = 0; t < n_tops; t++)
    {
      guint32 top = afg_tree_get_n_threads (tree) > 0 ? afg_tree_get_thread (tree, t)->node : AFG_TREE_ROOT;

      g_array_append_val (stack, top);
      g_array_append_val (next, nodes[top].first_child);
      while (stack->len > 0)
        {
          guint32 top = g_array_index (stack, guint32, stack->len - 1);
          guint32 *child = &g_array_index (next, guint32, next->len - 1);
          guint32 c;

          if (nodes[top].n_children == 0 || *child == nodes[top].first_child + nodes[top].n_children)
            {
              if (stack->len > 1)
                on_stack[node_key[top]]--;
              g_array_set_size (stack, stack->len - 1);
              g_array_set_size (next, next->len - 1);
              continue;
            }
          c = (*child)++;
          if (on_stack[node_key[c]]++ == 0)
            func (c, data);
          g_array_append_val (stack, c);
          g_array_append_val (next, nodes[c].first_child);
        }
    }
}

static void
add_outermost_total (guint32 node, gpointer data)
{
  AfgFunctionTable *self = data;
  AfgFunction *f = &self->functions[self->node_function[node]];

  f->total_ns = afg_sat_add (f->total_ns, afg_tree_get_value (self->tree, AFG_COLUMN_TOTAL_NS, node));
  if (afg_tree_has_column (self->tree, AFG_COLUMN_NPU_TOTAL_NS))
    f->npu_total_ns = afg_sat_add (f->npu_total_ns, afg_tree_get_value (self->tree, AFG_COLUMN_NPU_TOTAL_NS, node));
}

static int
compare_default (gconstpointer a, gconstpointer b, gpointer data)
{
  const AfgFunctionTable *self = data;
  const AfgFunction *fa = &self->functions[*(const guint32 *) a];
  const AfgFunction *fb = &self->functions[*(const guint32 *) b];
  AfgDocument *doc = afg_tree_get_document (self->tree);

  if (fa->self_ns != fb->self_ns)
    return fa->self_ns > fb->self_ns ? -1 : 1;
  return strcmp (afg_document_get_string (doc, fa->name), afg_document_get_string (doc, fb->name));
}

/* One function per distinct name, in order of first appearance. */
static void
collect_functions (AfgFunctionTable *self, guint32 *by_name)
{
  AfgTree *tree = self->tree;
  const AfgNode *nodes = afg_tree_get_nodes (tree);
  guint n_nodes = afg_tree_get_n_nodes (tree);
  g_autoptr(GArray) functions = g_array_new (FALSE, TRUE, sizeof (AfgFunction));

  for (guint32 i = 0; i < n_nodes; i++)
    if (afg_tree_is_frame (tree, i) && by_name[nodes[i].name] == AFG_FUNCTION_NONE)
      {
        AfgFunction f = { nodes[i].name, afg_tree_get_node_category (tree, i), 0, 0, 0 };

        by_name[nodes[i].name] = functions->len;
        g_array_append_val (functions, f);
      }
  self->n_functions = functions->len;
  self->functions = (AfgFunction *) g_array_free (g_steal_pointer (&functions), FALSE);
}

/* Into the order of the JSON, once the sums are known. */
static void
sort_functions (AfgFunctionTable *self)
{
  guint n = self->n_functions;
  g_autofree guint32 *order = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *rank = g_new (guint32, MAX (n, 1));
  AfgFunction *sorted = g_new (AfgFunction, MAX (n, 1));

  for (guint k = 0; k < n; k++)
    order[k] = k;
  g_qsort_with_data (order, n, sizeof (guint32), compare_default, self);
  for (guint k = 0; k < n; k++)
    {
      sorted[k] = self->functions[order[k]];
      rank[order[k]] = k;
    }
  g_free (self->functions);
  self->functions = sorted;
  for (guint32 i = 0; i < afg_tree_get_n_nodes (self->tree); i++)
    if (self->node_function[i] != AFG_FUNCTION_NONE)
      self->node_function[i] = rank[self->node_function[i]];
}

static void
group_frames (AfgFunctionTable *self)
{
  guint n_nodes = afg_tree_get_n_nodes (self->tree);
  g_autofree guint32 *fill = g_new0 (guint32, self->n_functions + 1);

  self->frame_starts = g_new0 (guint32, self->n_functions + 1);
  for (guint32 i = 0; i < n_nodes; i++)
    if (self->node_function[i] != AFG_FUNCTION_NONE)
      self->frame_starts[self->node_function[i] + 1]++;
  for (guint k = 0; k < self->n_functions; k++)
    self->frame_starts[k + 1] += self->frame_starts[k];
  memcpy (fill, self->frame_starts, sizeof (guint32) * (self->n_functions + 1));
  self->frames = g_new (guint32, MAX (self->frame_starts[self->n_functions], 1));
  for (guint32 i = 0; i < n_nodes; i++)
    if (self->node_function[i] != AFG_FUNCTION_NONE)
      self->frames[fill[self->node_function[i]]++] = i;
}

static void
sum_frames (AfgFunctionTable *self)
{
  guint n_nodes = afg_tree_get_n_nodes (self->tree);
  gboolean npu = afg_tree_has_column (self->tree, AFG_COLUMN_NPU_SELF_NS);

  for (guint32 i = 0; i < n_nodes; i++)
    {
      AfgFunction *f;

      if (self->node_function[i] == AFG_FUNCTION_NONE)
        continue;
      f = &self->functions[self->node_function[i]];
      f->calls = afg_sat_add (f->calls, afg_tree_get_value (self->tree, AFG_COLUMN_CALLS, i));
      f->self_ns = afg_sat_add (f->self_ns, afg_tree_get_value (self->tree, AFG_COLUMN_SELF_NS, i));
      if (npu)
        f->npu_self_ns = afg_sat_add (f->npu_self_ns, afg_tree_get_value (self->tree, AFG_COLUMN_NPU_SELF_NS, i));
    }
}

/* The function index of every node; thread and root nodes get a key past
 * the functions so that the outermost walk can index by it too. */
static void
map_nodes (AfgFunctionTable *self, const guint32 *by_name)
{
  const AfgNode *nodes = afg_tree_get_nodes (self->tree);
  guint n_nodes = afg_tree_get_n_nodes (self->tree);

  self->node_function = g_new (guint32, MAX (n_nodes, 1));
  for (guint32 i = 0; i < n_nodes; i++)
    self->node_function[i] = afg_tree_is_frame (self->tree, i) ? by_name[nodes[i].name] : AFG_FUNCTION_NONE;
}

static void
sum_outermost (AfgFunctionTable *self)
{
  guint n_nodes = afg_tree_get_n_nodes (self->tree);
  g_autofree guint32 *keys = g_new (guint32, MAX (n_nodes, 1));

  for (guint32 i = 0; i < n_nodes; i++)
    keys[i] = self->node_function[i] == AFG_FUNCTION_NONE ? self->n_functions : self->node_function[i];
  afg_function_table_for_each_outermost (self->tree, keys, self->n_functions + 1, add_outermost_total, self);
}

AfgFunctionTable *
afg_function_table_new (AfgTree *tree)
{
  AfgFunctionTable *self;
  guint n_strings;
  g_autofree guint32 *by_name = NULL;

  g_return_val_if_fail (tree != NULL, NULL);

  self = g_atomic_rc_box_new0 (AfgFunctionTable);
  self->tree = afg_tree_ref (tree);
  n_strings = afg_document_get_n_strings (afg_tree_get_document (tree));
  by_name = g_new (guint32, MAX (n_strings, 1));
  memset (by_name, 0xff, sizeof (guint32) * n_strings);
  collect_functions (self, by_name);
  map_nodes (self, by_name);
  sum_frames (self);
  sum_outermost (self);
  sort_functions (self);
  group_frames (self);
  return self;
}

static void
function_table_clear (gpointer data)
{
  AfgFunctionTable *self = data;

  g_free (self->functions);
  g_free (self->node_function);
  g_free (self->frames);
  g_free (self->frame_starts);
  afg_tree_unref (self->tree);
}

AfgFunctionTable *
afg_function_table_ref (AfgFunctionTable *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
afg_function_table_unref (AfgFunctionTable *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, function_table_clear);
}

AfgTree *
afg_function_table_get_tree (const AfgFunctionTable *self)
{
  return self->tree;
}

guint
afg_function_table_get_n_functions (const AfgFunctionTable *self)
{
  return self->n_functions;
}

const AfgFunction *
afg_function_table_get (const AfgFunctionTable *self, guint index)
{
  g_return_val_if_fail (index < self->n_functions, NULL);
  return &self->functions[index];
}

const char *
afg_function_table_get_name (const AfgFunctionTable *self, guint index)
{
  g_return_val_if_fail (index < self->n_functions, NULL);
  return afg_document_get_string (afg_tree_get_document (self->tree), self->functions[index].name);
}

/* Functions are few (thousands): a scan is fine for a selection. */
guint
afg_function_table_find (const AfgFunctionTable *self, const char *name)
{
  g_return_val_if_fail (name != NULL, AFG_FUNCTION_NONE);

  for (guint k = 0; k < self->n_functions; k++)
    if (strcmp (afg_function_table_get_name (self, k), name) == 0)
      return k;
  return AFG_FUNCTION_NONE;
}

guint
afg_function_table_find_node (const AfgFunctionTable *self, guint32 node)
{
  g_return_val_if_fail (node < afg_tree_get_n_nodes (self->tree), AFG_FUNCTION_NONE);
  return self->node_function[node];
}

const guint32 *
afg_function_table_get_frames (const AfgFunctionTable *self, guint index, guint *n_frames)
{
  g_return_val_if_fail (index < self->n_functions, NULL);

  *n_frames = self->frame_starts[index + 1] - self->frame_starts[index];
  return self->frames + self->frame_starts[index];
}

gint64
afg_function_table_get_all_ns (const AfgFunctionTable *self)
{
  return afg_tree_get_value (self->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT);
}

typedef struct {
  const AfgTree *tree;
  AfgColumn      column;
  gint64        *total;
  const guint32 *keys;
} ColumnSums;

static void
add_outermost_column (guint32 node, gpointer data)
{
  ColumnSums *c = data;

  c->total[c->keys[node]] = afg_sat_add (c->total[c->keys[node]], afg_tree_get_value (c->tree, c->column, node));
}

void
afg_function_table_sum_columns (const AfgFunctionTable *self, AfgColumn self_column, AfgColumn total_column,
                                gint64 **self_sums, gint64 **total_sums)
{
  guint n = self->n_functions;
  guint n_nodes = afg_tree_get_n_nodes (self->tree);
  g_autofree guint32 *keys = g_new (guint32, MAX (n_nodes, 1));
  ColumnSums c = { self->tree, total_column, g_new0 (gint64, n + 1), keys };

  *self_sums = g_new0 (gint64, MAX (n, 1));
  for (guint32 i = 0; i < n_nodes; i++)
    {
      guint f = self->node_function[i];

      keys[i] = f == AFG_FUNCTION_NONE ? n : f;
      if (f != AFG_FUNCTION_NONE && afg_tree_has_column (self->tree, self_column))
        (*self_sums)[f] = afg_sat_add ((*self_sums)[f], afg_tree_get_value (self->tree, self_column, i));
    }
  if (afg_tree_has_column (self->tree, total_column))
    afg_function_table_for_each_outermost (self->tree, keys, n + 1, add_outermost_column, &c);
  *total_sums = c.total;
}

gint64
afg_function_table_get_all (const AfgFunctionTable *self, AfgColumn weight)
{
  if (!afg_tree_has_column (self->tree, weight))
    return 0;
  return afg_tree_get_value (self->tree, weight, AFG_TREE_ROOT);
}

typedef struct {
  const AfgFunctionTable *table;
  AfgFunctionSort         key;
  int                     sign;
} SortData;

static inline int
cmp_int (gint64 a, gint64 b)
{
  return a < b ? -1 : a > b;
}

static int
compare_by_key (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortData *d = data;
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  const AfgFunction *fa = &d->table->functions[ia], *fb = &d->table->functions[ib];
  int r = 0;

  switch (d->key)
    {
    case AFG_FUNCTION_SORT_CATEGORY: r = cmp_int (fa->category, fb->category); break;
    case AFG_FUNCTION_SORT_CALLS: r = cmp_int (fa->calls, fb->calls); break;
    case AFG_FUNCTION_SORT_SELF: r = cmp_int (fa->self_ns, fb->self_ns); break;
    case AFG_FUNCTION_SORT_TOTAL: r = cmp_int (fa->total_ns, fb->total_ns); break;
    case AFG_FUNCTION_SORT_NPU_SELF: r = cmp_int (fa->npu_self_ns, fb->npu_self_ns); break;
    case AFG_FUNCTION_SORT_NPU_TOTAL: r = cmp_int (fa->npu_total_ns, fb->npu_total_ns); break;
    case AFG_FUNCTION_SORT_NAME: break;
    }
  if (d->key == AFG_FUNCTION_SORT_NAME || r != 0)
    return d->sign * (r != 0 ? r : strcmp (afg_function_table_get_name (d->table, ia),
                                            afg_function_table_get_name (d->table, ib)));
  /* Ties read in name order whichever way the key goes. */
  r = strcmp (afg_function_table_get_name (d->table, ia), afg_function_table_get_name (d->table, ib));
  return r != 0 ? r : cmp_int (ia, ib);
}

guint *
afg_function_table_sort (const AfgFunctionTable *self, AfgFunctionSort key, gboolean descending)
{
  guint *order = g_new (guint, MAX (self->n_functions, 1));
  SortData data = { self, key, descending ? -1 : 1 };

  for (guint k = 0; k < self->n_functions; k++)
    order[k] = k;
  g_qsort_with_data (order, self->n_functions, sizeof (guint), compare_by_key, &data);
  return order;
}

typedef struct {
  AfgTree            *tree;
  guint32             name;
  const guint32      *names;
  AfgPathTreeBuilder *builder;
  gboolean            callers;
  guint               n_device;     /* the tree's device columns (0, 3 or all): the sandwich's */
  gint64             *below[AFG_PATH_DEVICE_COLUMNS];  /* callers: a count column's sum over each subtree */
} SandwichData;

/* Merges the subtree below @from into the builder's node @into. */
static void
merge_subtree (SandwichData *d, guint32 from, guint32 into)
{
  const AfgNode *nodes = afg_tree_get_nodes (d->tree);
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint32) * 2);
  guint32 pair[2] = { from, into };

  g_array_append_val (pairs, pair);
  while (pairs->len > 0)
    {
      guint32 *top = &g_array_index (pairs, guint32, (pairs->len - 1) * 2);
      guint32 src = top[0], dst = top[1];

      g_array_set_size (pairs, pairs->len - 1);
      afg_path_tree_builder_add (d->builder, dst, afg_tree_get_value (d->tree, AFG_COLUMN_CALLS, src),
                                 afg_tree_get_value (d->tree, AFG_COLUMN_TOTAL_NS, src),
                                 afg_tree_get_value (d->tree, AFG_COLUMN_SELF_NS, src));
      if (d->n_device > 0)
        {
          gint64 values[AFG_PATH_DEVICE_COLUMNS];

          for (guint k = 0; k < d->n_device; k++)
            values[k] = afg_tree_get_value (d->tree, AFG_COLUMN_NPU_TOTAL_NS + k, src);
          afg_path_tree_builder_add_device (d->builder, dst, values);
        }
      for (guint32 c = nodes[src].first_child; c < nodes[src].first_child + nodes[src].n_children; c++)
        {
          guint32 next[2] = { c, afg_path_tree_builder_child (d->builder, dst, nodes[c].name) };

          g_array_append_val (pairs, next);
        }
    }
}

/* One level of an inverted stack: the frame's calls and times, as self
 * time at the top level; with device columns, each total as the host's,
 * each self part at the top level, each count (tasks, collectives) at the
 * top level too, of the frame's whole subtree. */
static void
add_caller (SandwichData *d, guint32 at, guint32 frame, gboolean top)
{
  gint64 total = afg_tree_get_value (d->tree, AFG_COLUMN_TOTAL_NS, frame);
  gint64 values[AFG_PATH_DEVICE_COLUMNS];

  afg_path_tree_builder_add (d->builder, at, afg_tree_get_value (d->tree, AFG_COLUMN_CALLS, frame), total,
                             top ? total : 0);
  for (guint k = 0; k < d->n_device; k++)
    {
      const AfgColumnInfo *info = afg_column_get_info (AFG_COLUMN_NPU_TOTAL_NS + k);

      if (info->flags & AFG_COLUMN_FLAG_SELF)
        values[k] = top ? afg_tree_get_value (d->tree, AFG_COLUMN_NPU_TOTAL_NS + k - 1, frame) : 0;
      else if (info->flags & AFG_COLUMN_FLAG_THREAD)
        values[k] = afg_tree_get_value (d->tree, AFG_COLUMN_NPU_TOTAL_NS + k, frame);
      else
        values[k] = top ? d->below[k][frame] : 0;
    }
  if (d->n_device > 0)
    afg_path_tree_builder_add_device (d->builder, at, values);
}

/* The frame's stack, inverted: each caller up to the top-level frame gets
 * the frame's calls and time; the last one has it as self time. */
static void
merge_stack (SandwichData *d, guint32 frame)
{
  const AfgNode *nodes = afg_tree_get_nodes (d->tree);
  guint32 at = 0;

  add_caller (d, 0, frame, nodes[frame].depth <= 2);
  for (guint32 p = nodes[frame].parent; nodes[p].depth >= 2; p = nodes[p].parent)
    {
      at = afg_path_tree_builder_child (d->builder, at, nodes[p].name);
      add_caller (d, at, frame, nodes[nodes[p].parent].depth < 2);
    }
}

/* Children follow their parent in the node array: a backward sweep. */
static gint64 *
sum_below (const AfgTree *tree, AfgColumn column)
{
  const AfgNode *nodes = afg_tree_get_nodes (tree);
  guint32 n = afg_tree_get_n_nodes (tree);
  gint64 *below = g_new (gint64, MAX (n, 1));

  for (guint32 i = 0; i < n; i++)
    below[i] = afg_tree_get_value (tree, column, i);
  for (guint32 i = n; i-- > 1;)
    if (nodes[i].parent != AFG_NODE_NONE)
      below[nodes[i].parent] = afg_sat_add (below[nodes[i].parent], below[i]);
  return below;
}

static void
add_sandwich_frame (guint32 node, gpointer data)
{
  SandwichData *d = data;

  if (afg_tree_get_node (d->tree, node)->name != d->name)
    return;
  if (d->callers)
    merge_stack (d, node);
  else
    merge_subtree (d, node, 0);
}

static AfgTree *
build_sandwich (AfgTree *tree, const char *name, gboolean callers)
{
  g_autoptr(AfgFunctionTable) table = NULL;
  guint f;
  guint n_nodes = afg_tree_get_n_nodes (tree);
  g_autofree guint32 *keys = NULL;
  SandwichData d = { tree, 0, NULL, NULL, callers, afg_path_tree_device_columns (tree), { NULL } };
  AfgTree *sandwich;

  g_return_val_if_fail (tree != NULL && name != NULL, NULL);

  table = afg_function_table_new (tree);
  f = afg_function_table_find (table, name);
  if (f == AFG_FUNCTION_NONE)
    return NULL;
  d.name = table->functions[f].name;
  keys = g_new (guint32, MAX (n_nodes, 1));
  for (guint32 i = 0; i < n_nodes; i++)
    keys[i] = table->node_function[i] == AFG_FUNCTION_NONE ? table->n_functions : table->node_function[i];
  d.builder = afg_path_tree_builder_new (tree, d.name);
  if (d.n_device > 0)
    afg_path_tree_builder_keep_device (d.builder, d.n_device);
  for (guint k = 0; callers && k < d.n_device; k++)
    if (!(afg_column_get_info (AFG_COLUMN_NPU_TOTAL_NS + k)->flags & (AFG_COLUMN_FLAG_SELF | AFG_COLUMN_FLAG_THREAD)))
      d.below[k] = sum_below (tree, AFG_COLUMN_NPU_TOTAL_NS + k);
  afg_function_table_for_each_outermost (tree, keys, table->n_functions + 1, add_sandwich_frame, &d);
  sandwich = afg_path_tree_builder_finish (d.builder);
  for (guint k = 0; k < d.n_device; k++)
    g_free (d.below[k]);
  return sandwich;
}

AfgTree *
afg_function_table_callees (AfgTree *tree, const char *name)
{
  return build_sandwich (tree, name, FALSE);
}

AfgTree *
afg_function_table_callers (AfgTree *tree, const char *name)
{
  return build_sandwich (tree, name, TRUE);
}
