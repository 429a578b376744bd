/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-diff"

#include "config.h"

#include "afg-diff-tree.h"
#include "afg-document-private.h"
#include "afg-math.h"
#include "afg-path-tree.h"
#include "afg-tree-private.h"

#define N_SIDES 2
/* Source nodes merged between two looks at the cancellable. */
#define CANCEL_CHECK_NODES 4096

struct _AfgDiffTree {
  AfgTree *sources[N_SIDES];
  AfgTree *sides[N_SIDES];
};

typedef struct {
  AfgPathTreeBuilder *builders[N_SIDES];
  guint32            *name_maps[N_SIDES];  /* a side's string index -> the diff's */
  GCancellable       *cancellable;
  guint               visited;
} Build;

typedef struct {
  guint32 source;
  guint32 target;
} Pending;

static void
diff_tree_clear (gpointer data)
{
  AfgDiffTree *self = data;

  for (guint s = 0; s < N_SIDES; s++)
    {
      g_clear_pointer (&self->sources[s], afg_tree_unref);
      g_clear_pointer (&self->sides[s], afg_tree_unref);
    }
}

/* Each distinct frame name of @tree, into @names. */
static guint32 *
map_names (AfgDocument *names, const AfgTree *tree)
{
  AfgDocument *document = afg_tree_get_document (tree);
  guint n_strings = afg_document_get_n_strings (document);
  guint32 *map = g_new (guint32, MAX (n_strings, 1));

  for (guint i = 0; i < n_strings; i++)
    map[i] = AFG_NODE_NONE;
  for (guint32 n = 1 + afg_tree_get_n_threads (tree); n < afg_tree_get_n_nodes (tree); n++)
    {
      guint32 name = afg_tree_get_node (tree, n)->name;

      if (map[name] == AFG_NODE_NONE)
        map[name] = afg_string_table_add (&names->strings, afg_document_get_string (document, name));
    }
  return map;
}

/* The names document is sealed (categories fixed, root named) before any
 * node is made: no name may be added to it afterwards. */
static AfgDocument *
names_document (AfgTree **sources, Build *build)
{
  g_autofree char *title = g_strdup_printf ("%s \xe2\x86\x94 %s",
                                            afg_document_get_source_name (afg_tree_get_document (sources[0])),
                                            afg_document_get_source_name (afg_tree_get_document (sources[1])));
  AfgDocument *names = afg_document_new (title, 0);

  for (guint s = 0; s < N_SIDES; s++)
    build->name_maps[s] = map_names (names, sources[s]);
  afg_document_seal (names);
  return names;
}

/* Made in both builders alike, so that their nodes stay one to one. */
static guint32
make_child (Build *build, guint32 parent, guint32 name)
{
  guint32 child = afg_path_tree_builder_child (build->builders[0], parent, name);

  afg_path_tree_builder_child (build->builders[1], parent, name);
  return child;
}

/* Every thread's top frames under the one root, depth-first without
 * recursion (stacks may be AFG_MAX_DEPTH deep). */
static gboolean
add_side (Build *build, guint side, const AfgTree *tree)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Pending));

  for (guint t = 0; t < afg_tree_get_n_threads (tree); t++)
    {
      const AfgNode *thread = afg_tree_get_node (tree, afg_tree_get_thread (tree, t)->node);

      for (guint32 c = 0; c < thread->n_children; c++)
        g_array_append_val (stack, ((Pending) { thread->first_child + c, AFG_TREE_ROOT }));
    }
  while (stack->len > 0)
    {
      Pending p = g_array_index (stack, Pending, stack->len - 1);
      const AfgNode *node = afg_tree_get_node (tree, p.source);
      guint32 target = make_child (build, p.target, build->name_maps[side][node->name]);

      g_array_set_size (stack, stack->len - 1);
      afg_path_tree_builder_add (build->builders[side], target,
                                 afg_tree_get_value (tree, AFG_COLUMN_CALLS, p.source),
                                 afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, p.source), 0);
      for (guint32 c = 0; c < node->n_children; c++)
        g_array_append_val (stack, ((Pending) { node->first_child + c, target }));
      if (++build->visited % CANCEL_CHECK_NODES == 0 && g_cancellable_is_cancelled (build->cancellable))
        return FALSE;
    }
  return TRUE;
}

/* Children follow their parent in the node array, so one backward sweep
 * sums them; self comes from the merged totals, not the sides' selves. */
static void
finish_side (AfgTree *side, AfgTree *source)
{
  gint64 *calls = side->columns[AFG_COLUMN_CALLS];
  gint64 *total = side->columns[AFG_COLUMN_TOTAL_NS];
  gint64 *self_ns = side->columns[AFG_COLUMN_SELF_NS];
  g_autofree gint64 *children = g_new0 (gint64, side->n_nodes);

  calls[AFG_TREE_ROOT] = 0;
  for (guint32 n = side->n_nodes; n-- > 1;)
    {
      children[side->nodes[n].parent] = afg_sat_add (children[side->nodes[n].parent], total[n]);
      if (side->nodes[n].parent == AFG_TREE_ROOT)
        calls[AFG_TREE_ROOT] = afg_sat_add (calls[AFG_TREE_ROOT], calls[n]);
    }
  total[AFG_TREE_ROOT] = children[AFG_TREE_ROOT];
  self_ns[AFG_TREE_ROOT] = 0;
  for (guint32 n = 1; n < side->n_nodes; n++)
    self_ns[n] = MAX (0, total[n] - children[n]);
  side->scope = source->scope;
  side->stats = source->stats;
}

AfgDiffTree *
afg_diff_tree_new (AfgTree *a, AfgTree *b, GCancellable *cancellable)
{
  AfgTree *sources[N_SIDES] = { a, b };
  Build build = { .cancellable = cancellable };
  g_autoptr(AfgDocument) names = NULL;
  g_autoptr(AfgTree) model = NULL;
  AfgDiffTree *self;
  gboolean done = TRUE;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  names = names_document (sources, &build);
  model = afg_tree_new (names, NULL, afg_tree_get_flags (b));
  for (guint s = 0; s < N_SIDES; s++)
    build.builders[s] = afg_path_tree_builder_new (model, afg_document_get_root_name (names));
  for (guint s = 0; s < N_SIDES && done; s++)
    done = add_side (&build, s, sources[s]);
  /* Finishing is the builders' only way out, cancelled or not. */
  self = g_atomic_rc_box_new0 (AfgDiffTree);
  for (guint s = 0; s < N_SIDES; s++)
    {
      self->sources[s] = afg_tree_ref (sources[s]);
      self->sides[s] = afg_path_tree_builder_finish (build.builders[s]);
      finish_side (self->sides[s], sources[s]);
      g_free (build.name_maps[s]);
    }
  if (!done)
    g_clear_pointer (&self, afg_diff_tree_unref);
  return self;
}

AfgDiffTree *
afg_diff_tree_ref (AfgDiffTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
afg_diff_tree_unref (AfgDiffTree *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, diff_tree_clear);
}

AfgTree *
afg_diff_tree_get_source (const AfgDiffTree *self, AfgDiffTreeSide side)
{
  g_return_val_if_fail (side < N_SIDES, NULL);
  return self->sources[side];
}

AfgTree *
afg_diff_tree_get_side (const AfgDiffTree *self, AfgDiffTreeSide side)
{
  g_return_val_if_fail (side < N_SIDES, NULL);
  return self->sides[side];
}

guint
afg_diff_tree_get_n_nodes (const AfgDiffTree *self)
{
  return afg_tree_get_n_nodes (self->sides[0]);
}

const AfgNode *
afg_diff_tree_get_node (const AfgDiffTree *self, guint32 node)
{
  return afg_tree_get_node (self->sides[0], node);
}

const char *
afg_diff_tree_get_node_name (const AfgDiffTree *self, guint32 node)
{
  return afg_tree_get_node_name (self->sides[0], node);
}

AfgCategory
afg_diff_tree_get_node_category (const AfgDiffTree *self, guint32 node)
{
  if (node == AFG_TREE_ROOT)
    return AFG_CATEGORY_UNKNOWN;
  return afg_tree_get_node_category (self->sides[0], node);
}

void
afg_diff_tree_get_values (const AfgDiffTree *self, AfgDiffTreeSide side, guint32 node, AfgDiffValues *values)
{
  const AfgTree *tree;

  g_return_if_fail (side < N_SIDES && values != NULL);

  tree = self->sides[side];
  *values = (AfgDiffValues) {
    afg_tree_get_value (tree, AFG_COLUMN_CALLS, node),
    afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, node),
    afg_tree_get_value (tree, AFG_COLUMN_SELF_NS, node),
  };
}

gboolean
afg_diff_tree_has_node (const AfgDiffTree *self, AfgDiffTreeSide side, guint32 node)
{
  g_return_val_if_fail (side < N_SIDES, FALSE);
  return node == AFG_TREE_ROOT || afg_tree_get_value (self->sides[side], AFG_COLUMN_CALLS, node) > 0;
}

guint
afg_diff_tree_get_step_count (const AfgDiffTree *self, AfgDiffTreeSide side)
{
  const AfgTree *source;

  g_return_val_if_fail (side < N_SIDES, 1);

  source = self->sources[side];
  return MAX (afg_scope_count_steps (afg_tree_get_scope (source), afg_tree_get_document (source)), 1);
}
