/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-transform"

#include "config.h"

#include <string.h>

#include "afg-call-durations.h"
#include "afg-call-table.h"
#include "afg-event-store.h"
#include "afg-huge.h"
#include "afg-select.h"
#include "afg-tree-private.h"

/* Every row of the store is at most one call: the arrays are made that
 * long once, and filled in place. */
typedef struct {
  AfgCallTable *table;
  guint32       open[AFG_MAX_DEPTH + 2];  /* the last call at each depth */
} Gather;

static void
gather_call (guint32 node, gint64 ns, guint depth, gpointer data)
{
  Gather *g = data;
  AfgCallTable *t = g->table;
  guint32 index = t->n++;

  t->node[index] = node;
  t->ns[index] = ns;
  t->parent[index] = depth > 1 ? g->open[depth - 1] : AFG_NODE_NONE;
  g->open[depth] = index;
}

AfgCallTable *
afg_call_table_build (AfgTree *tree, GCancellable *cancellable)
{
  g_autofree Gather *g = g_new0 (Gather, 1);
  guint64 rows = afg_event_store_get_n_events (afg_document_get_events (afg_tree_get_document (tree)));
  AfgCallTable *self;

  g_return_val_if_fail (tree != NULL && rows < G_MAXUINT32, NULL);

  self = g_new0 (AfgCallTable, 1);
  self->node = g_new (guint32, MAX (rows, 1));
  self->ns = g_new (gint64, MAX (rows, 1));
  self->parent = g_new (guint32, MAX (rows, 1));
  g->table = self;
  if (!afg_call_durations_walk (tree, NULL, gather_call, g, cancellable))
    {
      afg_call_table_free (self);
      return NULL;
    }
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

/* The call @c is nested in now: its nearest enclosing call still in the
 * tree (those earlier transforms removed are passed over). */
static guint32
enclosing (const AfgCallTable *self, guint32 c)
{
  guint32 p = self->parent[c];

  while (p != AFG_NODE_NONE && self->node[p] == AFG_NODE_NONE)
    p = self->parent[p];
  return p;
}

void
afg_call_table_lift (AfgCallTable *self, const guint8 *anchor, const guint32 *map)
{
  for (guint32 c = 0; c < self->n; c++)
    {
      guint32 p, a;

      if (self->node[c] == AFG_NODE_NONE)
        continue;
      p = enclosing (self, c);
      if (p == AFG_NODE_NONE || !anchor[self->node[p]] || map[self->node[p]] != AFG_NODE_NONE)
        continue;
      for (a = self->parent[p]; a != AFG_NODE_NONE; a = self->parent[a])
        if (self->node[a] != AFG_NODE_NONE && anchor[self->node[a]] && map[self->node[a]] != AFG_NODE_NONE)
          break;
      self->parent[c] = a;
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
