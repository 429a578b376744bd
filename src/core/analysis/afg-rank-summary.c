/* SPDX-License-Identifier: MIT */
/* A rank's figures, kept once its document is dropped, and the
 * job's comparisons of them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "afg-document-timeline.h"
#include "afg-function-table.h"
#include "afg-job-collectives.h"
#include "afg-math.h"
#include "afg-rank-summary.h"
#include "afg-scope-totals.h"

AfgRankSummary *
afg_rank_summary_new (int rank, const char *file)
{
  AfgRankSummary *self = g_new0 (AfgRankSummary, 1);

  self->rank = rank;
  self->file = g_strdup (file);
  self->steps = g_array_new (FALSE, FALSE, sizeof (AfgRankStep));
  self->frames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->collectives = g_array_new (FALSE, FALSE, sizeof (AfgRankCollective));
  self->names = g_string_chunk_new (256);
  return self;
}

void
afg_rank_summary_free (AfgRankSummary *self)
{
  if (self == NULL)
    return;
  g_free (self->file);
  g_array_unref (self->steps);
  g_hash_table_unref (self->frames);
  g_array_unref (self->collectives);
  g_string_chunk_free (self->names);
  g_free (self->error);
  g_free (self);
}

static gint64
root_value (const AfgTree *tree, AfgColumn column)
{
  return afg_tree_has_column (tree, column) ? afg_tree_get_value (tree, column, AFG_TREE_ROOT) : 0;
}

/* Each of the DB's steps within the tree's scope (all of them when it
 * names none), its totals as the tree scoped to that one step has them:
 * to the step's NPU-idle instants when the tree's scope is the idle one. */
static void
fill_steps (AfgRankSummary *self, const AfgTree *tree)
{
  AfgDocument *document = afg_tree_get_document (tree);
  const AfgScope *scope = afg_tree_get_scope (tree);
  guint n;
  const AfgStep *steps = afg_document_get_steps (document, &n);
  g_autofree AfgScope *scopes = g_new (AfgScope, MAX (n, 1));
  g_autofree gint64 *host_ns = NULL;
  g_autofree gint64 *npu_ns = NULL;

  for (guint i = 0; i < n; i++)
    {
      AfgRankStep step = { steps[i].id, 0, 0, { 0 } };

      if (scope->n_steps > 0 && (steps[i].id < scope->first_step || steps[i].id > scope->last_step))
        continue;
      /* Cannot fail: the step is the document's, and an idle tree's
       * document has a timeline. */
      afg_scope_init_request (&scopes[self->steps->len], document, TRUE, steps[i].id, steps[i].id,
                              scope->npu_idle, NULL);
      if (self->has_device)
        afg_device_timeline_split (afg_document_get_timeline (document), steps[i].start_ns, steps[i].end_ns,
                                   &step.device);
      g_array_append_val (self->steps, step);
    }
  host_ns = g_new (gint64, MAX (self->steps->len, 1));
  npu_ns = g_new (gint64, MAX (self->steps->len, 1));
  afg_scope_totals_compute (document, scopes, self->steps->len, host_ns, npu_ns);
  for (guint i = 0; i < self->steps->len; i++)
    {
      g_array_index (self->steps, AfgRankStep, i).host_ns = host_ns[i];
      g_array_index (self->steps, AfgRankStep, i).npu_ns = npu_ns[i];
    }
}

typedef struct {
  const AfgTree *tree;
  gint64        *totals;  /* by merged name */
} FrameSums;

static void
add_outermost (guint32 node, gpointer data)
{
  FrameSums *sums = data;
  guint32 name = afg_document_get_merged_name (afg_tree_get_document (sums->tree),
                                               afg_tree_get_nodes (sums->tree)[node].name);

  sums->totals[name] = afg_sat_add (sums->totals[name],
                                    afg_tree_get_value (sums->tree, AFG_COLUMN_TOTAL_NS, node));
}

/* The function table's totals of the tree with addresses merged, taken
 * from @tree merged or not: a merged frame's total is the sum of the
 * frames merged into it, and it is outermost when no ancestor has its
 * merged name. Every frame's name is some outermost frame's. */
static void
fill_frames (AfgRankSummary *self, const AfgTree *tree)
{
  AfgDocument *document = afg_tree_get_document (tree);
  const AfgNode *nodes = afg_tree_get_nodes (tree);
  guint n_nodes = afg_tree_get_n_nodes (tree), n_strings = afg_document_get_n_strings (document);
  g_autofree guint32 *keys = g_new (guint32, MAX (n_nodes, 1));
  g_autofree gint64 *totals = g_new0 (gint64, MAX (n_strings, 1));
  g_autofree gboolean *seen = g_new0 (gboolean, MAX (n_strings, 1));
  FrameSums sums = { tree, totals };

  for (guint32 i = 0; i < n_nodes; i++)
    keys[i] = afg_document_get_merged_name (document, nodes[i].name);
  for (guint32 i = 0; i < n_nodes; i++)
    if (afg_tree_is_frame (tree, i))
      seen[keys[i]] = TRUE;
  afg_function_table_for_each_outermost (tree, keys, n_strings, add_outermost, &sums);
  for (guint32 k = 0; k < n_strings; k++)
    if (seen[k])
      g_hash_table_insert (self->frames, g_strdup (afg_document_get_string (document, k)),
                           g_memdup2 (&totals[k], sizeof (gint64)));
}

void
afg_rank_summary_add_collective (AfgRankSummary *self, const char *group, const char *op, gint64 ns)
{
  AfgRankCollective collective = {
    g_string_chunk_insert_const (self->names, group),
    op != NULL ? g_string_chunk_insert_const (self->names, op) : NULL,
    ns,
  };

  g_array_append_val (self->collectives, collective);
}

/* Every row, whatever the tree's scope: a collective is matched across
 * ranks as a whole. A row without a groupName string only adds its time. */
void
afg_rank_summary_fill_collectives (AfgRankSummary *self, const AfgDocument *document)
{
  gsize n;
  const AfgDocCollective *ops = afg_document_get_collectives (document, &n);

  for (gsize i = 0; i < n; i++)
    {
      self->comm_ns = afg_sat_add (self->comm_ns, ops[i].ns);
      if (ops[i].group == AFG_COLLECTIVE_NO_STRING)
        continue;
      afg_rank_summary_add_collective (self, afg_document_get_string (document, ops[i].group),
                                       ops[i].op == AFG_COLLECTIVE_NO_STRING ? NULL
                                       : afg_document_get_string (document, ops[i].op), ops[i].ns);
    }
}

static void
sum_device (AfgRankSummary *self)
{
  for (guint i = 0; i < self->steps->len; i++)
    {
      const AfgDeviceSplit *step = &g_array_index (self->steps, AfgRankStep, i).device;

      self->device.compute_ns = afg_sat_add (self->device.compute_ns, step->compute_ns);
      self->device.comm_ns = afg_sat_add (self->device.comm_ns, step->comm_ns);
      self->device.other_ns = afg_sat_add (self->device.other_ns, step->other_ns);
      self->device.free_ns = afg_sat_add (self->device.free_ns, step->free_ns);
    }
}

void
afg_rank_summary_fill (AfgRankSummary *self, const AfgTree *tree)
{
  AfgDocument *document = afg_tree_get_document (tree);

  self->has_device = afg_document_get_timeline (document) != NULL;
  self->rows = afg_document_get_load_stats (afg_tree_get_document (tree))->rows;
  self->threads = afg_tree_get_n_threads (tree);
  self->host_ns = root_value (tree, AFG_COLUMN_TOTAL_NS);
  self->npu_ns = root_value (tree, AFG_COLUMN_NPU_TOTAL_NS);
  fill_steps (self, tree);
  fill_frames (self, tree);
  sum_device (self);
}

gint64
afg_rank_summary_frame_ns (const AfgRankSummary *self, const char *name)
{
  const gint64 *ns = g_hash_table_lookup (self->frames, name);

  return ns != NULL ? *ns : 0;
}

static int
compare_spreads (gconstpointer a, gconstpointer b)
{
  const AfgFrameSpread *x = a, *y = b;

  if (x->spread != y->spread)
    return x->spread < y->spread ? 1 : -1;
  return strcmp (x->name, y->name);
}

void
afg_frame_spreads_sort (GArray *spreads)
{
  g_array_sort (spreads, compare_spreads);
}

/* max - min of a frame's total over the ranks read (0 where it is
 * missing); 0 when every rank failed (a failed rank's summary file may
 * still list frames). */
static gint64
spread_of (const char *name, AfgRankSummary * const *ranks, guint n)
{
  gint64 lo = G_MAXINT64, hi = 0;

  for (guint i = 0; i < n; i++)
    {
      gint64 ns;

      if (ranks[i]->error != NULL)
        continue;
      ns = afg_rank_summary_frame_ns (ranks[i], name);
      lo = MIN (lo, ns);
      hi = MAX (hi, ns);
    }
  return lo <= hi ? hi - lo : 0;
}

static void
pick_frames (AfgJobFigures *self, AfgRankSummary * const *ranks, guint n)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) spreads = g_array_new (FALSE, FALSE, sizeof (AfgFrameSpread));
  GHashTableIter iter;
  gpointer key;
  guint kept;

  for (guint i = 0; i < n; i++)
    {
      g_hash_table_iter_init (&iter, ranks[i]->frames);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_add (names, key);
    }
  g_hash_table_iter_init (&iter, names);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      AfgFrameSpread spread = { key, spread_of (key, ranks, n) };
      g_array_append_val (spreads, spread);
    }
  afg_frame_spreads_sort (spreads);
  kept = MIN (spreads->len, AFG_RANK_MAX_VARYING_FRAMES);
  self->frames = g_new0 (char *, kept + 1);
  for (guint i = 0; i < kept; i++)
    self->frames[i] = g_strdup (g_array_index (spreads, AfgFrameSpread, i).name);
}

AfgJobFigures *
afg_job_figures_new (AfgRankSummary * const *ranks, guint n)
{
  AfgJobFigures *self = g_new0 (AfgJobFigures, 1);

  self->collectives = afg_job_collectives_new (ranks, n);
  pick_frames (self, ranks, n);
  return self;
}

void
afg_job_figures_free (AfgJobFigures *self)
{
  if (self == NULL)
    return;
  afg_job_collectives_free (self->collectives);
  g_strfreev (self->frames);
  g_free (self);
}
