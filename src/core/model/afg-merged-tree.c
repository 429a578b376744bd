/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-tree"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-address.h"
#include "afg-document-private.h"
#include "afg-int-map.h"
#include "afg-math.h"
#include "afg-merged-tree.h"
#include "afg-path-tree.h"
#include "afg-tree-private.h"

/* Node 1, below the root: the one thread all profiles merge into. */
#define THREAD_NODE 1

typedef struct {
  guint32 name;
  guint32 parent;
  gint64  calls;
  gint64  total_ns;
} MergedNode;

struct _AfgMergedTree {
  GPtrArray  *names;     /* char *, merged names */
  GHashTable *by_name;   /* char * -> index + 1 */
  GArray     *nodes;     /* MergedNode, parents before children; 0 is the root */
  AfgIntMap   children;  /* parent << 32 | name -> node */
  guint       n_added;
  AfgStats    stats;     /* the profiles' counts added up */
  /* Per node, its device columns (afg-path-tree.h) added up; the tree
   * carries only those every profile has, as a rank without device
   * time would make the sums a part passed off as the whole. */
  GArray     *device;
  guint       n_device;
  guint       n_without_device;  /* profiles with no device time at all */
};

static guint32 intern (AfgMergedTree *self, const char *name);
static guint32 child  (AfgMergedTree *self, guint32 parent, guint32 name);

AfgMergedTree *
afg_merged_tree_new (void)
{
  AfgMergedTree *self = g_new0 (AfgMergedTree, 1);
  MergedNode root = { 0, AFG_NODE_NONE, 0, 0 };

  self->names = g_ptr_array_new_with_free_func (g_free);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->nodes = g_array_new (FALSE, FALSE, sizeof (MergedNode));
  g_array_append_val (self->nodes, root);
  self->device = g_array_new (FALSE, TRUE, sizeof (gint64) * AFG_PATH_DEVICE_COLUMNS);
  self->n_device = AFG_PATH_DEVICE_COLUMNS;
  afg_int_map_init (&self->children, 256);
  child (self, AFG_TREE_ROOT, intern (self, _("All ranks")));
  return self;
}

void
afg_merged_tree_free (AfgMergedTree *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_name);
  g_ptr_array_unref (self->names);
  g_array_unref (self->nodes);
  g_array_unref (self->device);
  afg_int_map_clear (&self->children);
  g_free (self);
}

static guint32
intern (AfgMergedTree *self, const char *name)
{
  g_autofree char *merged = afg_address_merge (name);
  const char *key = merged != NULL ? merged : name;
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (self->by_name, key));

  if (index > 0)
    return index - 1;
  g_ptr_array_add (self->names, g_strdup (key));
  g_hash_table_insert (self->by_name, g_ptr_array_index (self->names, self->names->len - 1),
                       GUINT_TO_POINTER (self->names->len));
  return self->names->len - 1;
}

static guint32
child (AfgMergedTree *self, guint32 parent, guint32 name)
{
  guint64 key = (guint64) parent << 32 | name;
  guint32 node;

  if (!afg_int_map_lookup (&self->children, key, &node))
    {
      MergedNode made = { name, parent, 0, 0 };

      node = self->nodes->len;
      g_array_append_val (self->nodes, made);
      afg_int_map_insert (&self->children, key, node);
    }
  return node;
}

static void
add_to (AfgMergedTree *self, guint32 node, gint64 calls, gint64 total_ns)
{
  MergedNode *merged = &g_array_index (self->nodes, MergedNode, node);

  merged->calls = afg_sat_add (merged->calls, calls);
  merged->total_ns = afg_sat_add (merged->total_ns, total_ns);
}

static gint64 *
device_of (AfgMergedTree *self, guint32 node)
{
  if (self->device->len <= node)
    g_array_set_size (self->device, self->nodes->len);
  return (gint64 *) (self->device->data + node * g_array_get_element_size (self->device));
}

/* The self columns are 0 on a profile's root, as on the merged thread. */
static void
add_device (AfgMergedTree *self, guint32 node, const AfgTree *tree, guint32 from)
{
  gint64 *sums;

  if (self->n_device == 0)
    return;
  sums = device_of (self, node);
  for (guint k = 0; k < self->n_device; k++)
    sums[k] = afg_sat_add (sums[k], tree->columns[AFG_COLUMN_NPU_TOTAL_NS + k][from]);
}

static void
add_stats (AfgStats *sum, const AfgStats *s)
{
  sum->rows += s->rows;
  sum->used += s->used;
  sum->skipped_type += s->skipped_type;
  sum->skipped_null += s->skipped_null;
  sum->skipped_malformed += s->skipped_malformed;
  sum->skipped_nonpositive += s->skipped_nonpositive;
  sum->profiler_steps += s->profiler_steps;
  sum->partial_overlaps += s->partial_overlaps;
  sum->depth_truncated += s->depth_truncated;
}

typedef struct {
  AfgMergedTree *self;
  guint32       *map;  /* the document's names -> merged names */
} Adding;

/* @target: the merged node of the parent, then of this node. */
static gboolean
add_node (const AfgTree *tree, guint32 node, guint32 *target, gpointer data)
{
  Adding *adding = data;
  guint32 name = tree->nodes[node].name;

  if (adding->map[name] == AFG_NODE_NONE)
    adding->map[name] = intern (adding->self, afg_document_get_string (tree->document, name));
  *target = child (adding->self, *target, adding->map[name]);
  add_to (adding->self, *target, tree->columns[AFG_COLUMN_CALLS][node], tree->columns[AFG_COLUMN_TOTAL_NS][node]);
  add_device (adding->self, *target, tree, node);
  return TRUE;
}

void
afg_merged_tree_add (AfgMergedTree *self, const AfgTree *tree)
{
  guint n_strings = MAX (afg_document_get_n_strings (afg_tree_get_document (tree)), 1);
  g_autofree guint32 *map = g_new (guint32, n_strings);
  Adding adding = { self, map };

  memset (map, 0xff, sizeof (guint32) * n_strings);
  self->n_device = MIN (self->n_device, afg_path_tree_device_columns (tree));
  self->n_without_device += afg_path_tree_device_columns (tree) == 0;
  add_to (self, THREAD_NODE, tree->columns[AFG_COLUMN_CALLS][AFG_TREE_ROOT],
          tree->columns[AFG_COLUMN_TOTAL_NS][AFG_TREE_ROOT]);
  add_device (self, THREAD_NODE, tree, AFG_TREE_ROOT);
  for (guint t = 0; t < tree->n_threads; t++)
    afg_tree_walk (tree, tree->threads[t].node, THREAD_NODE, add_node, &adding);
  add_stats (&self->stats, afg_tree_get_stats (tree));
  self->n_added++;
}

guint
afg_merged_tree_get_n_added (AfgMergedTree *self)
{
  return self->n_added;
}

/* The path tree's node 1 (the first child of the root, built first) as
 * the tree's one thread, so that the window takes the tree as a profile. */
static void
make_thread (AfgTree *tree, const char *label)
{
  tree->n_threads = 1;
  tree->threads[0] = (AfgThread) { 0, 0, 0, label, THREAD_NODE };
  tree->first_frame = THREAD_NODE + 1;
  for (guint32 n = THREAD_NODE; n < tree->n_nodes; n++)
    tree->nodes[n].thread = 0;
  /* A profile's root and threads hold their children's calls. */
  tree->columns[AFG_COLUMN_CALLS][AFG_TREE_ROOT] = tree->columns[AFG_COLUMN_CALLS][THREAD_NODE];
}

AfgTree *
afg_merged_tree_build (AfgMergedTree *self, const char *title)
{
  g_autoptr(AfgDocument) names = afg_document_new (title, 0);
  g_autoptr(AfgTree) model = NULL;
  g_autofree guint32 *map = g_new (guint32, MAX (self->names->len, 1));
  g_autofree guint32 *made = g_new (guint32, self->nodes->len);
  AfgPathTreeBuilder *builder;
  AfgTree *tree;
  guint n_device = self->n_added > 0 ? self->n_device : 0;

  for (guint i = 0; i < self->names->len; i++)
    map[i] = afg_string_table_add (&names->strings, g_ptr_array_index (self->names, i));
  /* Why the device weights are off when some ranks have device time. */
  if (self->n_without_device > 0 && self->n_without_device < self->n_added)
    names->npu_warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of the %u ranks read has none",
                                                       "%u of the %u ranks read have none", self->n_without_device),
                                          self->n_without_device, self->n_added);
  afg_document_seal (names);
  model = afg_tree_new (names, NULL, AFG_TREE_MERGE_ADDRESSES);
  builder = afg_path_tree_builder_new (model, afg_document_get_root_name (names));
  if (n_device > 0)
    afg_path_tree_builder_keep_device (builder, n_device);
  made[0] = AFG_TREE_ROOT;
  for (guint32 n = 1; n < self->nodes->len; n++)
    {
      const MergedNode *node = &g_array_index (self->nodes, MergedNode, n);

      made[n] = afg_path_tree_builder_child (builder, made[node->parent], map[node->name]);
      afg_path_tree_builder_add (builder, made[n], node->calls, node->total_ns, 0);
      if (n_device > 0)
        afg_path_tree_builder_add_device (builder, made[n], device_of (self, n));
    }
  /* The root as a profile's: its one thread's device time. */
  if (n_device > 0)
    afg_path_tree_builder_add_device (builder, AFG_TREE_ROOT, device_of (self, THREAD_NODE));
  tree = afg_path_tree_builder_finish (builder);
  tree->stats = self->stats;
  afg_path_tree_sum_children (tree);
  make_thread (tree, afg_document_get_string (names, map[g_array_index (self->nodes, MergedNode, THREAD_NODE).name]));
  return tree;
}
