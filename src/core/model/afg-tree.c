/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-call-table.h"
#include "afg-error.h"
#include "afg-huge.h"
#include "afg-math.h"
#include "afg-tree-private.h"

static const AfgColumnInfo column_infos[AFG_N_COLUMNS] = {
  [AFG_COLUMN_CALLS]    = { "calls",    0,                          AFG_COLUMN_CALLS },
  [AFG_COLUMN_TOTAL_NS] = { "total_ns", AFG_COLUMN_FLAG_THREAD,     AFG_COLUMN_SELF_NS },
  [AFG_COLUMN_SELF_NS]  = { "self_ns",  AFG_COLUMN_FLAG_SELF,       AFG_COLUMN_SELF_NS },
  [AFG_COLUMN_NPU_TOTAL_NS] = { "npu_total_ns", AFG_COLUMN_FLAG_THREAD, AFG_COLUMN_NPU_SELF_NS },
  [AFG_COLUMN_NPU_SELF_NS]  = { "npu_self_ns",  AFG_COLUMN_FLAG_SELF,   AFG_COLUMN_NPU_SELF_NS },
  [AFG_COLUMN_NPU_TASKS]    = { "npu_tasks",    0,                      AFG_COLUMN_NPU_TASKS },
  [AFG_COLUMN_NPU_COMPUTE_TOTAL_NS] = { "npu_compute_total_ns", AFG_COLUMN_FLAG_THREAD,
                                        AFG_COLUMN_NPU_COMPUTE_SELF_NS },
  [AFG_COLUMN_NPU_COMPUTE_SELF_NS]  = { "npu_compute_self_ns", AFG_COLUMN_FLAG_SELF, AFG_COLUMN_NPU_COMPUTE_SELF_NS },
  [AFG_COLUMN_NPU_COMPUTE_TASKS]    = { "npu_compute_tasks", 0, AFG_COLUMN_NPU_COMPUTE_TASKS },
  [AFG_COLUMN_COMM_TOTAL_NS]        = { "comm_total_ns", AFG_COLUMN_FLAG_THREAD, AFG_COLUMN_COMM_SELF_NS },
  [AFG_COLUMN_COMM_SELF_NS]         = { "comm_self_ns", AFG_COLUMN_FLAG_SELF, AFG_COLUMN_COMM_SELF_NS },
  [AFG_COLUMN_COMM_OPS]             = { "comm_ops", 0, AFG_COLUMN_COMM_OPS },
  [AFG_COLUMN_COMM_EXPOSED_TOTAL_NS] = { "comm_exposed_total_ns", AFG_COLUMN_FLAG_THREAD,
                                         AFG_COLUMN_COMM_EXPOSED_SELF_NS },
  [AFG_COLUMN_COMM_EXPOSED_SELF_NS] = { "comm_exposed_self_ns", AFG_COLUMN_FLAG_SELF,
                                        AFG_COLUMN_COMM_EXPOSED_SELF_NS },
  [AFG_COLUMN_DURATION_MIN] = { "duration_min", AFG_COLUMN_FLAG_DURATION, AFG_COLUMN_DURATION_MIN },
  [AFG_COLUMN_DURATION_P50] = { "duration_p50", AFG_COLUMN_FLAG_DURATION, AFG_COLUMN_DURATION_P50 },
  [AFG_COLUMN_DURATION_P90] = { "duration_p90", AFG_COLUMN_FLAG_DURATION, AFG_COLUMN_DURATION_P90 },
  [AFG_COLUMN_DURATION_P99] = { "duration_p99", AFG_COLUMN_FLAG_DURATION, AFG_COLUMN_DURATION_P99 },
  [AFG_COLUMN_DURATION_MAX] = { "duration_max", AFG_COLUMN_FLAG_DURATION, AFG_COLUMN_DURATION_MAX },
};

const AfgColumnInfo *
afg_column_get_info (AfgColumn column)
{
  g_return_val_if_fail (column < AFG_N_COLUMNS, NULL);
  return &column_infos[column];
}

static void
tree_clear (gpointer data)
{
  AfgTree *self = data;

  g_free (self->nodes);
  g_free (self->threads);
  for (guint c = 0; c < AFG_N_COLUMNS; c++)
    if (!(self->block_columns & 1u << c))
      g_free (self->columns[c]);
  g_free (self->column_block);
  g_free (self->kernels);
  g_free (self->kernel_first);
  g_clear_pointer (&self->transforms, afg_transform_list_unref);
  g_clear_pointer (&self->calls, afg_call_table_free);
  afg_document_unref (self->document);
}

void
afg_tree_alloc_columns (AfgTree *tree, guint32 columns)
{
  gsize n = MAX (tree->n_nodes, 1), k = 0;

  g_return_if_fail (tree->column_block == NULL && columns < 1u << AFG_N_COLUMNS);
  tree->column_block = afg_huge_alloc (sizeof (gint64) * n * (gsize) __builtin_popcount (columns));
  for (AfgColumn c = 0; c < AFG_N_COLUMNS; c++)
    if (columns & 1u << c)
      tree->columns[c] = tree->column_block + n * k++;
  tree->block_columns = columns;
}

AfgTree *
afg_tree_new (AfgDocument *document, const AfgScope *scope, AfgTreeFlags flags)
{
  AfgTree *self = g_atomic_rc_box_new0 (AfgTree);

  self->document = afg_document_ref (document);
  if (scope != NULL)
    self->scope = *scope;
  self->flags = flags;
  self->stats = *afg_document_get_load_stats (document);
  return self;
}

AfgTree *
afg_tree_ref (AfgTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
afg_tree_unref (AfgTree *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, tree_clear);
}

AfgDocument *
afg_tree_get_document (const AfgTree *self)
{
  return self->document;
}

const AfgScope *
afg_tree_get_scope (const AfgTree *self)
{
  return &self->scope;
}

AfgTreeFlags
afg_tree_get_flags (const AfgTree *self)
{
  return self->flags;
}

const AfgStats *
afg_tree_get_stats (const AfgTree *self)
{
  return &self->stats;
}

guint
afg_tree_get_n_nodes (const AfgTree *self)
{
  return self->n_nodes;
}

const AfgNode *
afg_tree_get_nodes (const AfgTree *self)
{
  return self->nodes;
}

const AfgNode *
afg_tree_get_node (const AfgTree *self, guint32 node)
{
  g_return_val_if_fail (node < self->n_nodes, NULL);
  return &self->nodes[node];
}

const char *
afg_tree_get_node_name (const AfgTree *self, guint32 node)
{
  g_return_val_if_fail (node < self->n_nodes, NULL);
  return afg_document_get_string (self->document, self->nodes[node].name);
}

const char *
afg_tree_get_node_title (const AfgTree *self, guint32 node)
{
  const AfgNode *n;

  g_return_val_if_fail (node < self->n_nodes, NULL);
  n = &self->nodes[node];
  if (!afg_tree_is_frame (self, node) && n->thread != AFG_THREAD_NONE && self->threads[n->thread].node == node
      && self->threads[n->thread].title != NULL)
    return self->threads[n->thread].title;
  return afg_document_get_string (self->document, n->name);
}

gboolean
afg_tree_is_frame (const AfgTree *self, guint32 node)
{
  g_return_val_if_fail (node < self->n_nodes, FALSE);
  return node >= self->first_frame;
}

AfgCategory
afg_tree_get_node_category (const AfgTree *self, guint32 node)
{
  g_return_val_if_fail (node < self->n_nodes, AFG_CATEGORY_UNKNOWN);
  if (!afg_tree_is_frame (self, node))
    return AFG_CATEGORY_UNKNOWN;
  return afg_document_get_category (self->document, self->nodes[node].name);
}

gboolean
afg_tree_has_column (const AfgTree *self, AfgColumn column)
{
  return column < AFG_N_COLUMNS && self->columns[column] != NULL;
}

const gint64 *
afg_tree_get_column (const AfgTree *self, AfgColumn column)
{
  g_return_val_if_fail (column < AFG_N_COLUMNS, NULL);
  return self->columns[column];
}

gint64
afg_tree_get_value (const AfgTree *self, AfgColumn column, guint32 node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return afg_tree_has_column (self, column) ? self->columns[column][node] : 0;
}

guint
afg_tree_get_n_threads (const AfgTree *self)
{
  return self->n_threads;
}

const AfgThread *
afg_tree_get_thread (const AfgTree *self, guint index)
{
  g_return_val_if_fail (index < self->n_threads, NULL);
  return &self->threads[index];
}

gboolean
afg_tree_is_empty (const AfgTree *self)
{
  return self->n_threads == 0;
}

gboolean
afg_tree_check_not_empty (const AfgTree *self, GError **error)
{
  if (!afg_tree_is_empty (self))
    return TRUE;
  return afg_error_set_path (error, AFG_LOAD_ERROR, AFG_LOAD_ERROR_EMPTY,
                             afg_document_get_source_path (self->document),
                             _("no usable rows in PYTORCH_API"));
}

guint32
afg_tree_get_parent_in_view (const AfgTree *self, guint32 view_root, guint32 node)
{
  g_return_val_if_fail (node < self->n_nodes, AFG_NODE_NONE);
  return node == view_root ? AFG_NODE_NONE : self->nodes[node].parent;
}

gboolean
afg_tree_is_descendant (const AfgTree *self, guint32 node, guint32 ancestor)
{
  if (ancestor >= self->n_nodes)
    return FALSE;
  while (node < self->n_nodes && self->nodes[node].depth > self->nodes[ancestor].depth)
    node = self->nodes[node].parent;
  return node == ancestor;
}

const AfgNpuKernel *
afg_tree_get_kernels (const AfgTree *self, guint32 node, guint *n_kernels)
{
  *n_kernels = 0;
  g_return_val_if_fail (node < self->n_nodes, NULL);
  if (self->kernel_first == NULL)
    return NULL;
  *n_kernels = self->kernel_first[node + 1] - self->kernel_first[node];
  return *n_kernels > 0 ? &self->kernels[self->kernel_first[node]] : NULL;
}

typedef struct {
  const AfgDocument *document;
  const guint32     *new_index;
} KernelOrder;

static inline guint32
kernel_place (const KernelOrder *o, guint32 node)
{
  return o->new_index != NULL ? o->new_index[node] : node;
}

static int
compare_kernels (gconstpointer a, gconstpointer b, gpointer data)
{
  const AfgNodeKernel *x = a, *y = b;
  const KernelOrder *o = data;
  guint32 nx = kernel_place (o, x->node), ny = kernel_place (o, y->node);

  if (nx != ny)
    return nx < ny ? -1 : 1;
  if (x->kernel.kind != y->kernel.kind)
    return x->kernel.kind < y->kernel.kind ? -1 : 1;
  return strcmp (afg_document_get_string (o->document, x->kernel.name),
                 afg_document_get_string (o->document, y->kernel.name));
}

void
afg_node_kernels_add (GArray *leaves, AfgIntMap *at, guint32 node, const AfgNpuKernel *kernel, guint32 name)
{
  guint64 key = (guint64) node << 32 | (guint64) kernel->kind << 31 | name;
  guint32 i = afg_int_map_insert (at, key, leaves->len);
  AfgNodeKernel *leaf;

  if (i == leaves->len)
    g_array_append_val (leaves, ((AfgNodeKernel) { { name, kernel->kind, 0, 0, 0 }, node }));
  leaf = &g_array_index (leaves, AfgNodeKernel, i);
  leaf->kernel.count += kernel->count;
  leaf->kernel.ns = afg_sat_add (leaf->kernel.ns, kernel->ns);
  leaf->kernel.exposed_ns = afg_sat_add (leaf->kernel.exposed_ns, kernel->exposed_ns);
}

void
afg_tree_set_kernels (AfgTree *self, AfgNodeKernel *kernels, gsize n, const guint32 *new_index)
{
  KernelOrder order = { self->document, new_index };

  if (n > 0)
    g_qsort_with_data (kernels, (gint) n, sizeof (AfgNodeKernel), compare_kernels, &order);
  g_free (self->kernels);
  g_free (self->kernel_first);
  self->kernels = g_new (AfgNpuKernel, MAX (n, 1));
  self->kernel_first = g_new0 (guint32, self->n_nodes + 1);
  for (gsize k = 0; k < n; k++)
    {
      self->kernels[k] = kernels[k].kernel;
      self->kernel_first[kernel_place (&order, kernels[k].node) + 1]++;
    }
  for (guint32 i = 0; i < self->n_nodes; i++)
    self->kernel_first[i + 1] += self->kernel_first[i];
}

const AfgTransformList *
afg_tree_get_transforms (const AfgTree *self)
{
  return self->transforms;
}

typedef struct {
  guint32 node;
  guint32 value;
} Pending;

static void
push_children (GArray *stack, const AfgNode *node, guint32 value)
{
  for (guint32 c = node->n_children; c-- > 0;)
    g_array_append_val (stack, ((Pending) { node->first_child + c, value }));
}

gboolean
afg_tree_walk (const AfgTree *self, guint32 from, guint32 value, AfgTreeVisitFunc visit, gpointer data)
{
  g_autoptr(GArray) stack = NULL;

  g_return_val_if_fail (self != NULL && from < self->n_nodes && visit != NULL, FALSE);

  stack = g_array_new (FALSE, FALSE, sizeof (Pending));
  push_children (stack, &self->nodes[from], value);
  while (stack->len > 0)
    {
      Pending p = g_array_index (stack, Pending, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      if (!visit (self, p.node, &p.value, data))
        return FALSE;
      push_children (stack, &self->nodes[p.node], p.value);
    }
  return TRUE;
}
