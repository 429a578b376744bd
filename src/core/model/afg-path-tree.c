/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-tree"

#include "config.h"

#include <string.h>

#include "afg-int-map.h"
#include "afg-math.h"
#include "afg-path-tree.h"
#include "afg-tree-private.h"

/* The device columns are copied in a row, from AFG_COLUMN_NPU_TOTAL_NS. */
G_STATIC_ASSERT (AFG_COLUMN_NPU_SELF_NS == AFG_COLUMN_NPU_TOTAL_NS + 1
                 && AFG_COLUMN_NPU_TASKS == AFG_COLUMN_NPU_TOTAL_NS + 2
                 && AFG_COLUMN_NPU_TOTAL_NS == AFG_COLUMN_SELF_NS + 1
                 && AFG_COLUMN_COMM_EXPOSED_SELF_NS == AFG_COLUMN_NPU_TOTAL_NS + AFG_PATH_DEVICE_COLUMNS - 1);

typedef struct {
  guint32 name;
  guint32 parent;
  guint32 depth;
  gint64  calls;
  gint64  total_ns;
  gint64  self_ns;
} PathNode;

struct _AfgPathTreeBuilder {
  AfgTree   *tree;       /* what finish() fills; NULL with own names */
  GArray    *nodes;      /* PathNode, in order of creation */
  AfgIntMap  children;   /* parent << 32 | name -> node */
  GArray    *device;     /* per node, its n_device columns from NPU_TOTAL_NS; NULL: none */
  guint      n_device;
};

AfgPathTreeBuilder *
afg_path_tree_builder_new_own_names (void)
{
  AfgPathTreeBuilder *self = g_new0 (AfgPathTreeBuilder, 1);
  PathNode root = { AFG_NODE_NONE, AFG_NODE_NONE, 0, 0, 0, 0 };

  self->nodes = g_array_new (FALSE, FALSE, sizeof (PathNode));
  g_array_append_val (self->nodes, root);
  afg_int_map_init (&self->children, 256);
  return self;
}

AfgPathTreeBuilder *
afg_path_tree_builder_new (const AfgTree *source, guint32 root_name)
{
  AfgPathTreeBuilder *self;

  g_return_val_if_fail (source != NULL, NULL);

  self = afg_path_tree_builder_new_own_names ();
  g_array_index (self->nodes, PathNode, 0).name = root_name;
  self->tree = afg_tree_new (source->document, &source->scope, source->flags);
  self->tree->stats = source->stats;
  return self;
}

void
afg_path_tree_builder_free (AfgPathTreeBuilder *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->tree, afg_tree_unref);
  g_array_unref (self->nodes);
  g_clear_pointer (&self->device, g_array_unref);
  afg_int_map_clear (&self->children);
  g_free (self);
}

guint32
afg_path_tree_builder_child (AfgPathTreeBuilder *self, guint32 parent, guint32 name)
{
  guint64 key = (guint64) parent << 32 | name;
  guint32 child;

  g_return_val_if_fail (parent < self->nodes->len, AFG_NODE_NONE);

  if (!afg_int_map_lookup (&self->children, key, &child))
    {
      PathNode node = { name, parent, g_array_index (self->nodes, PathNode, parent).depth + 1, 0, 0, 0 };

      child = self->nodes->len;
      g_array_append_val (self->nodes, node);
      if (self->device != NULL)
        g_array_set_size (self->device, self->nodes->len);
      afg_int_map_insert (&self->children, key, child);
    }
  return child;
}

void
afg_path_tree_builder_add (AfgPathTreeBuilder *self, guint32 node,
                           gint64 calls, gint64 total_ns, gint64 self_ns)
{
  PathNode *n;

  g_return_if_fail (node < self->nodes->len);

  n = &g_array_index (self->nodes, PathNode, node);
  n->calls = afg_sat_add (n->calls, calls);
  n->total_ns = afg_sat_add (n->total_ns, total_ns);
  n->self_ns = afg_sat_add (n->self_ns, self_ns);
}

/* Apart from the nodes: a diff's trees, the big ones, have no device
 * columns and pay nothing for them. */
void
afg_path_tree_builder_keep_device (AfgPathTreeBuilder *self, guint n_columns)
{
  g_return_if_fail (self->device == NULL && n_columns > 0 && n_columns <= AFG_PATH_DEVICE_COLUMNS);

  self->n_device = n_columns;
  self->device = g_array_new (FALSE, TRUE, sizeof (gint64) * AFG_PATH_DEVICE_COLUMNS);
  g_array_set_size (self->device, self->nodes->len);
}

void
afg_path_tree_builder_limit_device (AfgPathTreeBuilder *self, guint n_columns)
{
  g_return_if_fail (self->device != NULL && n_columns <= AFG_PATH_DEVICE_COLUMNS);
  self->n_device = n_columns;
}

guint
afg_path_tree_device_columns (const AfgTree *tree)
{
  if (afg_tree_has_column (tree, AFG_COLUMN_COMM_EXPOSED_SELF_NS))
    return AFG_PATH_DEVICE_COLUMNS;
  return afg_tree_has_column (tree, AFG_COLUMN_NPU_TOTAL_NS) ? 3 : 0;
}

void
afg_path_tree_builder_add_device (AfgPathTreeBuilder *self, guint32 node, const gint64 *values)
{
  gint64 *sums;

  g_return_if_fail (node < self->nodes->len && self->device != NULL);

  sums = (gint64 *) (self->device->data + node * g_array_get_element_size (self->device));
  for (guint k = 0; k < self->n_device; k++)
    sums[k] = afg_sat_add (sums[k], values[k]);
}

/* How a node's name becomes one of the document's strings. */
typedef struct {
  const PathNode *nodes;
  AfgDocument    *document;
  const guint32  *names;     /* the builder's names -> the document's; NULL: the same */
} SortData;

static inline guint32
name_of (const SortData *d, guint32 node)
{
  return d->names != NULL ? d->names[d->nodes[node].name] : d->nodes[node].name;
}

static int
compare_siblings (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortData *d = data;

  return strcmp (afg_document_get_string (d->document, name_of (d, *(const guint32 *) a)),
                 afg_document_get_string (d->document, name_of (d, *(const guint32 *) b)));
}

/* Breadth-first with each node's children by name: the order of AfgNode. */
static guint32 *
layout_order (const AfgPathTreeBuilder *self, const SortData *names, guint32 *first_children)
{
  guint32 n = self->nodes->len, len = 1, q = 0;
  guint32 *order = g_new (guint32, n);
  g_autofree guint32 *kids_start = g_new0 (guint32, n + 1);
  g_autofree guint32 *kids = g_new (guint32, n);
  SortData data = *names;

  /* Children lists by counting sort on the parent. */
  for (guint32 i = 1; i < n; i++)
    kids_start[data.nodes[i].parent + 1]++;
  for (guint32 i = 0; i < n; i++)
    kids_start[i + 1] += kids_start[i];
  memcpy (first_children, kids_start, sizeof (guint32) * n);
  for (guint32 i = 1; i < n; i++)
    kids[first_children[data.nodes[i].parent]++] = i;
  order[0] = 0;
  for (q = 0; q < len; q++)
    {
      guint32 p = order[q], count = kids_start[p + 1] - kids_start[p];

      g_qsort_with_data (kids + kids_start[p], count, sizeof (guint32), compare_siblings, &data);
      memcpy (order + len, kids + kids_start[p], sizeof (guint32) * count);
      len += count;
    }
  return order;
}

/* @tree takes the nodes and values added so far, its root named
 * @root_name; @out_index (may be NULL) gets where each node went. */
static void
fill_tree (const AfgPathTreeBuilder *self, AfgTree *tree, const SortData *names, guint32 root_name,
           guint32 **out_index)
{
  guint32 n = self->nodes->len;
  g_autofree guint32 *scratch = g_new (guint32, n);
  g_autofree guint32 *order = layout_order (self, names, scratch);
  guint32 *new_index = scratch;
  const PathNode *nodes = (const PathNode *) self->nodes->data;

  for (guint32 i = 0; i < n; i++)
    new_index[order[i]] = i;
  tree->nodes = g_new0 (AfgNode, n);
  tree->n_nodes = n;
  tree->threads = g_new0 (AfgThread, 1);
  for (guint c = AFG_COLUMN_CALLS; c < AFG_COLUMN_NPU_TOTAL_NS + self->n_device; c++)
    tree->columns[c] = g_new0 (gint64, n);
  for (guint32 i = 0; i < n; i++)
    {
      const PathNode *b = &nodes[order[i]];

      tree->nodes[i] = (AfgNode) { i > 0 ? name_of (names, order[i]) : root_name,
                                   b->parent == AFG_NODE_NONE ? AFG_NODE_NONE : new_index[b->parent],
                                   AFG_NODE_NONE, 0, b->depth, AFG_THREAD_NONE };
      if (i > 0)
        {
          AfgNode *parent = &tree->nodes[tree->nodes[i].parent];

          if (parent->n_children++ == 0)
            parent->first_child = i;
        }
      tree->columns[AFG_COLUMN_CALLS][i] = b->calls;
      tree->columns[AFG_COLUMN_TOTAL_NS][i] = b->total_ns;
      tree->columns[AFG_COLUMN_SELF_NS][i] = b->self_ns;
      for (guint k = 0; k < self->n_device; k++)
        tree->columns[AFG_COLUMN_NPU_TOTAL_NS + k][i] =
          ((const gint64 *) (self->device->data + order[i] * g_array_get_element_size (self->device)))[k];
    }
  if (out_index != NULL)
    *out_index = g_steal_pointer (&scratch);
}

AfgTree *
afg_path_tree_builder_finish (AfgPathTreeBuilder *self)
{
  AfgTree *tree = g_steal_pointer (&self->tree);
  SortData names = { (const PathNode *) self->nodes->data, tree->document, NULL };

  fill_tree (self, tree, &names, g_array_index (self->nodes, PathNode, 0).name, NULL);
  afg_path_tree_builder_free (self);
  return tree;
}

AfgTree *
afg_path_tree_builder_build (const AfgPathTreeBuilder *self, const AfgTree *model, const guint32 *names,
                             guint32 root_name, guint32 **new_index)
{
  AfgTree *tree = afg_tree_new (model->document, &model->scope, model->flags);
  SortData data = { (const PathNode *) self->nodes->data, model->document, names };

  tree->stats = model->stats;
  fill_tree (self, tree, &data, root_name, new_index);
  return tree;
}

/* Children follow their parent in the node array: a backward sweep sums
 * them up. The root holds no calls, and no less than its children. */
void
afg_path_tree_sum_children (AfgTree *tree)
{
  gint64 *calls = tree->columns[AFG_COLUMN_CALLS];
  gint64 *total = tree->columns[AFG_COLUMN_TOTAL_NS];
  gint64 *self_ns = tree->columns[AFG_COLUMN_SELF_NS];
  g_autofree gint64 *children = g_new0 (gint64, tree->n_nodes);

  calls[AFG_TREE_ROOT] = 0;
  for (guint32 n = tree->n_nodes; n-- > 1;)
    children[tree->nodes[n].parent] = afg_sat_add (children[tree->nodes[n].parent], total[n]);
  total[AFG_TREE_ROOT] = MAX (total[AFG_TREE_ROOT], children[AFG_TREE_ROOT]);
  for (guint32 n = 0; n < tree->n_nodes; n++)
    self_ns[n] = MAX (0, total[n] - children[n]);
}
