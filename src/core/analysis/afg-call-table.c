/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-transform"

#include "config.h"

#include <string.h>

#include "afg-call-durations.h"
#include "afg-call-table.h"
#include "afg-huge.h"
#include "afg-select.h"
#include "afg-tree-private.h"

typedef struct {
  GArray  *node;
  GArray  *ns;
  GArray  *parent;
  guint32  open[AFG_MAX_DEPTH + 2];  /* the last call at each depth */
} Gather;

static void
gather_call (guint32 node, gint64 ns, guint depth, gpointer data)
{
  Gather *g = data;
  guint32 index = g->node->len;
  guint32 parent = depth > 1 ? g->open[depth - 1] : AFG_NODE_NONE;

  g_array_append_val (g->node, node);
  g_array_append_val (g->ns, ns);
  g_array_append_val (g->parent, parent);
  g->open[depth] = index;
}

AfgCallTable *
afg_call_table_build (AfgTree *tree, GCancellable *cancellable)
{
  g_autofree Gather *g = g_new0 (Gather, 1);
  guint64 hint = afg_tree_get_stats (tree)->used;
  AfgCallTable *self;

  g_return_val_if_fail (tree != NULL, NULL);

  g->node = g_array_sized_new (FALSE, FALSE, sizeof (guint32), (guint) MIN (hint, G_MAXUINT32 / 2));
  g->ns = g_array_sized_new (FALSE, FALSE, sizeof (gint64), (guint) MIN (hint, G_MAXUINT32 / 2));
  g->parent = g_array_sized_new (FALSE, FALSE, sizeof (guint32), (guint) MIN (hint, G_MAXUINT32 / 2));
  if (!afg_call_durations_walk (tree, NULL, gather_call, g, cancellable))
    {
      g_array_unref (g->node);
      g_array_unref (g->ns);
      g_array_unref (g->parent);
      return NULL;
    }
  self = g_new0 (AfgCallTable, 1);
  self->n = g->node->len;
  self->node = (guint32 *) g_array_free (g->node, FALSE);
  self->ns = (gint64 *) g_array_free (g->ns, FALSE);
  self->parent = (guint32 *) g_array_free (g->parent, FALSE);
  return self;
}

AfgCallTable *
afg_call_table_copy (const AfgCallTable *self)
{
  AfgCallTable *copy = g_new0 (AfgCallTable, 1);

  copy->n = self->n;
  copy->node = g_memdup2 (self->node, sizeof (guint32) * self->n);
  copy->ns = g_memdup2 (self->ns, sizeof (gint64) * self->n);
  copy->parent = g_memdup2 (self->parent, sizeof (guint32) * self->n);
  return copy;
}

void
afg_call_table_free (AfgCallTable *self)
{
  if (self == NULL)
    return;
  g_free (self->node);
  g_free (self->ns);
  g_free (self->parent);
  g_free (self);
}

void
afg_call_table_take (AfgCallTable *self, const guint8 *take, const guint8 *stop)
{
  for (guint32 c = 0; c < self->n; c++)
    {
      if (self->node[c] == AFG_NODE_NONE || !take[self->node[c]])
        continue;
      for (guint32 a = self->parent[c]; a != AFG_NODE_NONE; a = self->parent[a])
        {
          /* Calls an earlier transform removed are no longer in between. */
          if (self->node[a] == AFG_NODE_NONE)
            continue;
          if (stop != NULL && stop[self->node[a]])
            break;
          self->ns[a] = MAX (0, self->ns[a] - self->ns[c]);
        }
    }
}

void
afg_call_table_remap (AfgCallTable *self, const guint32 *map)
{
  for (guint32 c = 0; c < self->n; c++)
    if (self->node[c] != AFG_NODE_NONE)
      self->node[c] = map[self->node[c]];
}

/* Calls grouped by frame (a counting sort), each group reduced to its
 * five numbers. */
void
afg_call_table_fill_durations (const AfgCallTable *self, AfgTree *tree)
{
  guint32 n_nodes = tree->n_nodes;
  g_autofree guint32 *starts = g_new0 (guint32, n_nodes + 1);
  g_autofree guint32 *fill = NULL;
  g_autofree gint64 *ns = afg_huge_alloc (sizeof (gint64) * MAX (self->n, 1));

  for (guint32 c = 0; c < self->n; c++)
    if (self->node[c] != AFG_NODE_NONE)
      starts[self->node[c] + 1]++;
  for (guint32 i = 0; i < n_nodes; i++)
    starts[i + 1] += starts[i];
  fill = g_memdup2 (starts, sizeof (guint32) * (n_nodes + 1));
  for (guint32 c = 0; c < self->n; c++)
    if (self->node[c] != AFG_NODE_NONE)
      ns[fill[self->node[c]]++] = self->ns[c];
  for (guint32 i = 0; i < n_nodes; i++)
    {
      gint64 out[AFG_N_DURATION_COLUMNS];

      afg_select_durations (ns + starts[i], starts[i + 1] - starts[i], out);
      for (guint k = 0; k < AFG_N_DURATION_COLUMNS; k++)
        tree->columns[AFG_COLUMN_DURATION_MIN + k][i] = out[k];
    }
}

void
afg_call_table_collect (const AfgCallTable *self, const guint8 *marks, GArray *out)
{
  for (guint32 c = 0; c < self->n; c++)
    if (self->node[c] != AFG_NODE_NONE && marks[self->node[c]])
      g_array_append_val (out, self->ns[c]);
}
