/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-tree"

#include "config.h"

#include "afg-diff-shape.h"
#include "afg-document-private.h"
#include "afg-path-tree.h"
#include "afg-tree-private.h"

#define N_SIDES 2
/* How many nodes are merged between two looks at the cancellable. */
#define CANCEL_CHECK_INTERVAL 4096

struct _AfgDiffShape {
  AfgTree  *sources[N_SIDES];
  AfgTree  *trees[N_SIDES];
  AfgColumn total_column;
};

typedef struct {
  AfgDocument        *names;
  AfgPathTreeBuilder *builders[N_SIDES];
  guint32            *name_maps[N_SIDES];  /* source document string -> names string */
  AfgColumn total_column;  /* what a side's frames weigh */
} ShapeBuild;

static void
shape_clear (gpointer data)
{
  AfgDiffShape *self = data;

  for (guint s = 0; s < N_SIDES; s++)
    {
      g_clear_pointer (&self->sources[s], afg_tree_unref);
      g_clear_pointer (&self->trees[s], afg_tree_unref);
    }
}

AfgDiffShape *
afg_diff_shape_ref (AfgDiffShape *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
afg_diff_shape_unref (AfgDiffShape *self)
{
  g_atomic_rc_box_release_full (self, shape_clear);
}

/* Every name of a side's frames, in the names document; the document is
 * sealed afterwards, so this comes before any tree is built. */
static guint32 *
map_names (AfgDocument *names, AfgTree *tree)
{
  AfgDocument *document = afg_tree_get_document (tree);
  guint32 *map = g_new (guint32, MAX (afg_document_get_n_strings (document), 1));

  for (guint i = 0; i < afg_document_get_n_strings (document); i++)
    map[i] = AFG_NODE_NONE;
  for (guint32 n = tree->first_frame; n < tree->n_nodes; n++)
    {
      guint32 name = tree->nodes[n].name;

      if (map[name] == AFG_NODE_NONE)
        map[name] = afg_string_table_add (&names->strings, afg_document_get_string (document, name));
    }
  return map;
}

/* Both builders make every node, so their trees come out alike. */
static guint32
make_child (ShapeBuild *build, guint32 parent, guint32 name)
{
  guint32 child = afg_path_tree_builder_child (build->builders[0], parent, name);

  afg_path_tree_builder_child (build->builders[1], parent, name);
  return child;
}

typedef struct {
  ShapeBuild    *build;
  AfgDiffSide    side;
  const gint64  *totals;
  GCancellable  *cancellable;
  guint          visited;
} Adding;

/* @target: the shape's node of the parent, then of this node. */
static gboolean
add_node (const AfgTree *tree, guint32 node, guint32 *target, gpointer data)
{
  Adding *a = data;

  *target = make_child (a->build, *target, a->build->name_maps[a->side][tree->nodes[node].name]);
  afg_path_tree_builder_add (a->build->builders[a->side], *target, tree->columns[AFG_COLUMN_CALLS][node],
                             a->totals != NULL ? a->totals[node] : 0, 0);
  return ++a->visited % CANCEL_CHECK_INTERVAL != 0 || !g_cancellable_is_cancelled (a->cancellable);
}

static gboolean
add_side (ShapeBuild *build, AfgDiffSide side, AfgTree *tree, GCancellable *cancellable)
{
  const gint64 *totals = afg_tree_has_column (tree, build->total_column) ? tree->columns[build->total_column] : NULL;
  Adding adding = { build, side, totals, cancellable, 0 };

  for (guint t = 0; t < tree->n_threads; t++)
    {
      guint32 thread = tree->threads[t].node;

      /* A thread's own time (a top frame a transform took out) is the
       * root's, as the threads merge into it. */
      afg_path_tree_builder_add (build->builders[side], AFG_TREE_ROOT, 0, totals != NULL ? totals[thread] : 0, 0);
      if (!afg_tree_walk (tree, thread, AFG_TREE_ROOT, add_node, &adding))
        return FALSE;
    }
  return TRUE;
}

static AfgDocument *
names_document (AfgTree *a, AfgTree *b, const char *title, ShapeBuild *build)
{
  AfgDocument *names = afg_document_new (title, 0);

  build->name_maps[AFG_DIFF_SIDE_A] = map_names (names, a);
  build->name_maps[AFG_DIFF_SIDE_B] = map_names (names, b);
  afg_document_seal (names);
  return names;
}

AfgDiffShape *
afg_diff_shape_new (AfgTree *a, AfgTree *b, const char *title, GCancellable *cancellable)
{
  return afg_diff_shape_new_weighted (a, b, title, AFG_COLUMN_TOTAL_NS, cancellable);
}

AfgDiffShape *
afg_diff_shape_new_weighted (AfgTree *a, AfgTree *b, const char *title, AfgColumn total_column,
                             GCancellable *cancellable)
{
  ShapeBuild build = { .total_column = total_column };
  g_autoptr(AfgTree) model = NULL;
  AfgTree *sides[N_SIDES] = { a, b };
  AfgDiffShape *self = NULL;
  gboolean done = TRUE;

  build.names = names_document (a, b, title, &build);
  model = afg_tree_new (build.names, NULL, afg_tree_get_flags (b));
  for (guint s = 0; s < N_SIDES; s++)
    build.builders[s] = afg_path_tree_builder_new (model, afg_document_get_root_name (build.names));
  for (guint s = 0; s < N_SIDES && done; s++)
    done = add_side (&build, s, sides[s], cancellable);
  /* Finishing is the builders' only way out, cancelled or not. */
  self = g_atomic_rc_box_new0 (AfgDiffShape);
  self->total_column = total_column;
  for (guint s = 0; s < N_SIDES; s++)
    {
      self->sources[s] = afg_tree_ref (sides[s]);
      self->trees[s] = afg_path_tree_builder_finish (build.builders[s]);
      self->trees[s]->stats = sides[s]->stats;
      afg_path_tree_sum_children (self->trees[s]);
      g_free (build.name_maps[s]);
    }
  if (!done)
    g_clear_pointer (&self, afg_diff_shape_unref);
  afg_document_unref (build.names);
  return self;
}

AfgColumn
afg_diff_shape_get_weight (AfgDiffShape *self)
{
  return self->total_column;
}

AfgTree *
afg_diff_shape_get_tree (AfgDiffShape *self, AfgDiffSide side)
{
  return self->trees[side];
}

AfgTree *
afg_diff_shape_get_source (AfgDiffShape *self, AfgDiffSide side)
{
  return self->sources[side];
}

gint64
afg_diff_shape_get_value (AfgDiffShape *self, AfgDiffSide side, AfgColumn column, guint32 node)
{
  return afg_tree_get_value (self->trees[side], column, node);
}

gboolean
afg_diff_shape_has_node (AfgDiffShape *self, AfgDiffSide side, guint32 node)
{
  return node == AFG_TREE_ROOT || afg_tree_get_value (self->trees[side], AFG_COLUMN_CALLS, node) > 0;
}

void
afg_diff_shape_get_values (AfgDiffShape *self, AfgDiffSide side, guint32 node, AfgDiffValues *values)
{
  AfgTree *tree = self->trees[side];

  *values = (AfgDiffValues) {
    afg_tree_get_value (tree, AFG_COLUMN_CALLS, node),
    afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, node),
    afg_tree_get_value (tree, AFG_COLUMN_SELF_NS, node),
  };
}

guint
afg_diff_shape_get_step_count (AfgDiffShape *self, AfgDiffSide side)
{
  AfgTree *source = self->sources[side];

  return MAX (afg_scope_count_steps (afg_tree_get_scope (source), afg_tree_get_document (source)), 1);
}
