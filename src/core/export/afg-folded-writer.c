/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-task-kinds.h"
#include "afg-writers.h"

/* Collapsed stacks separate frames with ';' and the count with a space:
 * frame names keep their spaces (readers split at the last one), but a
 * newline would break the line format. */
void
afg_folded_append_frame (GString *out, const char *name)
{
  for (const char *p = name; *p; p++)
    g_string_append_c (out, *p == '\n' || *p == '\r' || *p == ';' ? ' ' : *p);
}

static void
append_path (GString *out, const AfgTree *tree, guint32 index)
{
  const AfgNode *nodes = afg_tree_get_nodes (tree);
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 i = index; nodes[i].depth >= 1; i = nodes[i].parent)
    g_array_append_val (path, i);
  for (guint k = path->len; k-- > 0;)
    {
      afg_folded_append_frame (out, afg_tree_get_node_name (tree, g_array_index (path, guint32, k)));
      if (k > 0)
        g_string_append_c (out, ';');
    }
}

static void
append_stack (GString *out, const AfgTree *tree, guint32 index, gint64 value)
{
  append_path (out, tree, index);
  g_string_append_printf (out, " %" G_GINT64_FORMAT "\n", value);
}

typedef struct {
  AfgColumn     self_column;
  const gint64 *values;
  AfgWeight     weight;
  gboolean      kernels;
  GString      *out;
} Folding;

/* A thread's own time: none in a built tree, but what a transform left
 * there (a merged top frame's own time) is shown on the thread's line. */
static gint64
thread_own (const AfgTree *tree, AfgColumn self_column, guint32 thread)
{
  const AfgNode *n = afg_tree_get_node (tree, thread);

  for (AfgColumn c = 0; c < AFG_N_COLUMNS; c++)
    if (c != self_column && afg_column_get_info (c)->self == self_column)
      {
        gint64 own = afg_tree_get_value (tree, c, thread);

        for (guint32 k = 0; k < n->n_children; k++)
          own -= afg_tree_get_value (tree, c, n->first_child + k);
        return own;
      }
  return 0;
}

/* The frame's own line holds what is on none of its leaves. */
static void
append_node (GString *out, const AfgTree *tree, guint32 i, const Folding *f)
{
  guint n = 0;
  const AfgNpuKernel *k = f->kernels ? afg_tree_get_kernels (tree, i, &n) : NULL;
  gint64 own = f->values[i];

  for (guint j = 0; j < n; j++)
    own -= afg_weight_kernel_value (f->weight, &k[j]);
  if (own > 0)
    append_stack (out, tree, i, own);
  for (guint j = 0; j < n; j++)
    {
      gint64 value = afg_weight_kernel_value (f->weight, &k[j]);

      if (value <= 0)
        continue;
      append_path (out, tree, i);
      g_string_append_printf (out, ";[%s] ", afg_task_kind_to_string (k[j].kind));
      afg_folded_append_frame (out, afg_document_get_string (afg_tree_get_document (tree), k[j].name));
      g_string_append_printf (out, " %" G_GINT64_FORMAT "\n", value);
    }
}

static gboolean
fold_node (const AfgTree *tree, guint32 i, guint32 *unused, gpointer data)
{
  const Folding *f = data;

  if (afg_tree_get_node (tree, i)->depth == 1 && thread_own (tree, f->self_column, i) > 0)
    append_stack (f->out, tree, i, thread_own (tree, f->self_column, i));
  else if (f->kernels)
    append_node (f->out, tree, i, f);
  else if (f->values[i] > 0)
    append_stack (f->out, tree, i, f->values[i]);
  return TRUE;
}

static void
write_folded (const AfgTree *tree, const Folding *f)
{
  if (f->values == NULL)
    return;
  for (guint t = 0; t < afg_tree_get_n_threads (tree); t++)
    {
      guint32 thread = afg_tree_get_thread (tree, t)->node;

      fold_node (tree, thread, NULL, (gpointer) f);
      afg_tree_walk (tree, thread, 0, fold_node, (gpointer) f);
    }
}

/* Depth-first order, so that the lines of a thread come out sorted by path. */
void
afg_folded_write (const AfgTree *tree, AfgColumn self_column, GString *out)
{
  Folding f = { self_column, afg_tree_get_column (tree, self_column), AFG_WEIGHT_HOST, FALSE, out };

  write_folded (tree, &f);
}

void
afg_folded_write_weighted (const AfgTree *tree, AfgWeight weight, gboolean kernels, GString *out)
{
  AfgColumn self_column = afg_weight_get_self_column (weight);
  Folding f = { self_column, afg_tree_get_column (tree, self_column), weight,
                kernels && afg_weight_has_kernels (weight), out };

  write_folded (tree, &f);
}
