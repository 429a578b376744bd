/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-tree"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-address.h"
#include "afg-document-private.h"
#include "afg-merged-tree.h"
#include "afg-path-tree.h"
#include "afg-tree-private.h"

/* Node 1, below the root: the one thread all profiles merge into. */
#define THREAD_NODE 1

struct _AfgMergedTree {
  GPtrArray          *names;    /* char *, merged names */
  GHashTable         *by_name;  /* char * -> index + 1 */
  AfgPathTreeBuilder *paths;    /* its names index @names */
  guint32             thread_name;
  guint               n_added;
  AfgStats            stats;    /* the profiles' counts added up */
  /* The device columns (afg-path-tree.h) every profile has: the tree
   * carries only those, as a rank without device time would make the
   * sums a part passed off as the whole. */
  guint               n_device;
  guint               n_without_device;  /* profiles with no device time at all */
  /* The kernel leaves added up by (builder node, kind, merged name):
   * AfgNodeKernel with builder nodes and merged names. */
  GArray             *kernels;
  AfgIntMap           kernel_at;
};

static guint32 intern (AfgMergedTree *self, const char *name);

AfgMergedTree *
afg_merged_tree_new (void)
{
  AfgMergedTree *self = g_new0 (AfgMergedTree, 1);

  self->names = g_ptr_array_new_with_free_func (g_free);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->paths = afg_path_tree_builder_new_own_names ();
  self->n_device = AFG_PATH_DEVICE_COLUMNS;
  afg_path_tree_builder_keep_device (self->paths, self->n_device);
  self->kernels = g_array_new (FALSE, FALSE, sizeof (AfgNodeKernel));
  afg_int_map_init (&self->kernel_at, 64);
  self->thread_name = intern (self, _("All ranks"));
  afg_path_tree_builder_child (self->paths, AFG_TREE_ROOT, self->thread_name);
  return self;
}

void
afg_merged_tree_free (AfgMergedTree *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_name);
  g_ptr_array_unref (self->names);
  g_array_unref (self->kernels);
  afg_int_map_clear (&self->kernel_at);
  afg_path_tree_builder_free (self->paths);
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
  guint32       *map;       /* the document's names -> merged names */
  guint          n_device;  /* the device columns of the tree added */
} Adding;

/* The self columns are 0 on a profile's root, as on the merged thread. */
static void
add_device (Adding *adding, guint32 target, const AfgTree *tree, guint32 from)
{
  gint64 values[AFG_PATH_DEVICE_COLUMNS] = { 0 };

  for (guint k = 0; k < adding->n_device; k++)
    values[k] = tree->columns[AFG_COLUMN_NPU_TOTAL_NS + k][from];
  afg_path_tree_builder_add_device (adding->self->paths, target, values);
}

/* @from's kernel leaves, on the merged node @target: those of one kind
 * and name add up, as the ranks' frames do. */
static void
add_kernels (Adding *adding, guint32 target, const AfgTree *tree, guint32 from)
{
  AfgMergedTree *self = adding->self;
  guint n;
  const AfgNpuKernel *kernels = afg_tree_get_kernels (tree, from, &n);

  for (guint k = 0; k < n; k++)
    afg_node_kernels_add (self->kernels, &self->kernel_at, target, &kernels[k],
                          intern (self, afg_document_get_string (tree->document, kernels[k].name)));
}

/* @target: the merged node of the parent, then of this node. */
static gboolean
add_node (const AfgTree *tree, guint32 node, guint32 *target, gpointer data)
{
  Adding *adding = data;
  guint32 name = tree->nodes[node].name;

  if (adding->map[name] == AFG_NODE_NONE)
    adding->map[name] = intern (adding->self, afg_document_get_string (tree->document, name));
  *target = afg_path_tree_builder_child (adding->self->paths, *target, adding->map[name]);
  afg_path_tree_builder_add (adding->self->paths, *target, tree->columns[AFG_COLUMN_CALLS][node],
                             tree->columns[AFG_COLUMN_TOTAL_NS][node], 0);
  add_device (adding, *target, tree, node);
  add_kernels (adding, *target, tree, node);
  return TRUE;
}

void
afg_merged_tree_add (AfgMergedTree *self, const AfgTree *tree)
{
  guint n_strings = MAX (afg_document_get_n_strings (afg_tree_get_document (tree)), 1);
  g_autofree guint32 *map = g_new (guint32, n_strings);
  guint n_device = afg_path_tree_device_columns (tree);
  /* The builder's own count again: a build before any profile set none. */
  Adding adding = { self, map, MIN (self->n_device, n_device) };

  memset (map, 0xff, sizeof (guint32) * n_strings);
  self->n_device = adding.n_device;
  self->n_without_device += n_device == 0;
  afg_path_tree_builder_limit_device (self->paths, self->n_device);
  afg_path_tree_builder_add (self->paths, THREAD_NODE, tree->columns[AFG_COLUMN_CALLS][AFG_TREE_ROOT],
                             tree->columns[AFG_COLUMN_TOTAL_NS][AFG_TREE_ROOT], 0);
  add_device (&adding, THREAD_NODE, tree, AFG_TREE_ROOT);
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

/* The leaves added, named in @tree's document, when every rank has the
 * device time by kind (as the kind columns): else a part of the ranks'
 * kernels would pass for all of them. */
static void
set_kernels (AfgMergedTree *self, AfgTree *tree, const guint32 *map, const guint32 *new_index)
{
  g_autoptr(GArray) leaves = NULL;

  if (self->n_added == 0 || self->n_device < AFG_PATH_DEVICE_COLUMNS)
    return;
  leaves = g_array_copy (self->kernels);
  for (guint i = 0; i < leaves->len; i++)
    g_array_index (leaves, AfgNodeKernel, i).kernel.name = map[g_array_index (leaves, AfgNodeKernel, i).kernel.name];
  afg_tree_set_kernels (tree, (AfgNodeKernel *) (void *) leaves->data, leaves->len, new_index);
}

AfgTree *
afg_merged_tree_build (AfgMergedTree *self, const char *title)
{
  g_autoptr(AfgDocument) names = afg_document_new (title, 0);
  g_autoptr(AfgTree) model = NULL;
  g_autofree guint32 *map = g_new (guint32, MAX (self->names->len, 1));
  g_autofree guint32 *new_index = NULL;
  AfgTree *tree;

  for (guint i = 0; i < self->names->len; i++)
    map[i] = afg_string_table_add (&names->strings, g_ptr_array_index (self->names, i));
  /* Why the device weights are off when some ranks have device time. */
  if (self->n_without_device > 0 && self->n_without_device < self->n_added)
    names->npu_warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of the %u ranks read has none",
                                                       "%u of the %u ranks read have none", self->n_without_device),
                                          self->n_without_device, self->n_added);
  afg_path_tree_builder_limit_device (self->paths, self->n_added > 0 ? self->n_device : 0);
  afg_document_seal (names);
  model = afg_tree_new (names, NULL, AFG_TREE_MERGE_ADDRESSES);
  model->stats = self->stats;
  tree = afg_path_tree_builder_build (self->paths, model, map, afg_document_get_root_name (names), &new_index);
  set_kernels (self, tree, map, new_index);
  afg_path_tree_sum_children (tree);
  /* The root as a profile's: its one thread's device time. */
  for (guint c = AFG_COLUMN_NPU_TOTAL_NS; c < AFG_COLUMN_NPU_TOTAL_NS + AFG_PATH_DEVICE_COLUMNS; c++)
    if (tree->columns[c] != NULL)
      tree->columns[c][AFG_TREE_ROOT] = tree->columns[c][THREAD_NODE];
  make_thread (tree, afg_document_get_string (names, map[self->thread_name]));
  return tree;
}
