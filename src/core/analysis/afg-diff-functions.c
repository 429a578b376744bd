/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-functions"

#include "config.h"

#include <string.h>

#include "afg-diff-functions.h"
#include "afg-function-table.h"
#include "afg-math.h"

struct _AfgDiffFunctions {
  AfgDiffShape    *shape;
  AfgDiffFunction *functions;
  guint            n_functions;
  guint32         *node_function;  /* by node; n_functions for the root */
};

/* The diff's trees have no threads: every node but the root is a frame,
 * one function per distinct name, in order of first appearance. */
static void
collect_functions (AfgDiffFunctions *self)
{
  AfgTree *tree = afg_diff_shape_get_tree (self->shape, AFG_DIFF_SIDE_B);
  guint n_nodes = afg_tree_get_n_nodes (tree);
  guint n_strings = afg_document_get_n_strings (afg_tree_get_document (tree));
  g_autofree guint32 *by_name = g_new (guint32, MAX (n_strings, 1));
  g_autoptr(GArray) functions = g_array_new (FALSE, TRUE, sizeof (AfgDiffFunction));

  memset (by_name, 0xff, sizeof (guint32) * n_strings);
  self->node_function = g_new (guint32, MAX (n_nodes, 1));
  for (guint32 i = 1; i < n_nodes; i++)
    {
      guint32 name = afg_tree_get_node (tree, i)->name;

      if (by_name[name] == G_MAXUINT32)
        {
          AfgDiffFunction f = { .name = name, .category = afg_tree_get_node_category (tree, i) };

          by_name[name] = functions->len;
          g_array_append_val (functions, f);
        }
      self->node_function[i] = by_name[name];
    }
  self->n_functions = functions->len;
  self->node_function[AFG_TREE_ROOT] = self->n_functions;
  self->functions = (AfgDiffFunction *) g_array_free (g_steal_pointer (&functions), FALSE);
}

static void
sum_frames (AfgDiffFunctions *self)
{
  guint n_nodes = afg_tree_get_n_nodes (afg_diff_shape_get_tree (self->shape, AFG_DIFF_SIDE_B));

  for (guint32 i = 1; i < n_nodes; i++)
    for (AfgDiffSide s = AFG_DIFF_SIDE_A; s <= AFG_DIFF_SIDE_B; s++)
      {
        AfgDiffFunction *f = &self->functions[self->node_function[i]];
        AfgDiffValues v;

        afg_diff_shape_get_values (self->shape, s, i, &v);
        f->calls[s] = afg_sat_add (f->calls[s], v.calls);
        f->self_ns[s] = afg_sat_add (f->self_ns[s], v.self_ns);
      }
}

static void
add_outermost_total (guint32 node, gpointer data)
{
  AfgDiffFunctions *self = data;
  AfgDiffFunction *f = &self->functions[self->node_function[node]];

  for (AfgDiffSide s = AFG_DIFF_SIDE_A; s <= AFG_DIFF_SIDE_B; s++)
    {
      AfgDiffValues v;

      afg_diff_shape_get_values (self->shape, s, node, &v);
      f->total_ns[s] = afg_sat_add (f->total_ns[s], v.total_ns);
    }
}

static gint64
abs_delta_self (const AfgDiffFunction *f)
{
  gint64 delta = afg_sat_add (f->self_ns[AFG_DIFF_SIDE_B], -f->self_ns[AFG_DIFF_SIDE_A]);

  return delta < 0 ? -delta : delta;
}

static int
compare_functions (gconstpointer a, gconstpointer b, gpointer data)
{
  const AfgDiffFunction *fa = a, *fb = b;
  AfgDocument *doc = afg_tree_get_document (afg_diff_shape_get_tree (data, AFG_DIFF_SIDE_B));
  gint64 da = abs_delta_self (fa), db = abs_delta_self (fb);

  if (da != db)
    return da > db ? -1 : 1;
  return strcmp (afg_document_get_string (doc, fa->name), afg_document_get_string (doc, fb->name));
}

AfgDiffFunctions *
afg_diff_functions_new (AfgDiffShape *shape)
{
  AfgDiffFunctions *self;

  g_return_val_if_fail (shape != NULL, NULL);

  self = g_atomic_rc_box_new0 (AfgDiffFunctions);
  self->shape = afg_diff_shape_ref (shape);
  collect_functions (self);
  sum_frames (self);
  afg_function_table_for_each_outermost (afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_B), self->node_function,
                                         self->n_functions + 1, add_outermost_total, self);
  g_qsort_with_data (self->functions, self->n_functions, sizeof (AfgDiffFunction), compare_functions, shape);
  /* Sorted: the node map would point at the old places. */
  g_clear_pointer (&self->node_function, g_free);
  return self;
}

static void
diff_functions_clear (gpointer data)
{
  AfgDiffFunctions *self = data;

  g_free (self->functions);
  afg_diff_shape_unref (self->shape);
}

void
afg_diff_functions_unref (AfgDiffFunctions *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, diff_functions_clear);
}

guint
afg_diff_functions_get_n (const AfgDiffFunctions *self)
{
  return self->n_functions;
}

const AfgDiffFunction *
afg_diff_functions_get (const AfgDiffFunctions *self, guint index)
{
  g_return_val_if_fail (index < self->n_functions, NULL);
  return &self->functions[index];
}

const char *
afg_diff_functions_get_name (const AfgDiffFunctions *self, guint index)
{
  g_return_val_if_fail (index < self->n_functions, NULL);
  return afg_document_get_string (afg_tree_get_document (afg_diff_shape_get_tree (self->shape, AFG_DIFF_SIDE_B)),
                                  self->functions[index].name);
}
