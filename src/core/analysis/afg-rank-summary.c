/* SPDX-License-Identifier: MIT */
/* A rank's figures, kept once its document is dropped, and the
 * job's comparisons of them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "afg-function-table.h"
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
  g_free (self->error);
  g_free (self);
}

static gint64
root_value (const AfgTree *tree, AfgColumn column)
{
  return afg_tree_has_column (tree, column) ? afg_tree_get_value (tree, column, AFG_TREE_ROOT) : 0;
}

/* Each of the DB's steps within the tree's scope (all of them when it
 * names none), its totals as the tree scoped to that one step has them. */
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
      AfgRankStep step = { steps[i].id, 0, 0 };

      if (scope->n_steps > 0 && (steps[i].id < scope->first_step || steps[i].id > scope->last_step))
        continue;
      /* Cannot fail: the step is the document's. */
      afg_scope_init_steps (&scopes[self->steps->len], document, steps[i].id, steps[i].id, NULL);
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
  /* The function table of a tree without threads has the root as its one function. */
  for (guint32 i = afg_tree_get_n_threads (tree) == 0 ? 0 : 1 + afg_tree_get_n_threads (tree); i < n_nodes; i++)
    seen[keys[i]] = TRUE;
  afg_function_table_for_each_outermost (tree, keys, n_strings, add_outermost, &sums);
  for (guint32 k = 0; k < n_strings; k++)
    if (seen[k])
      g_hash_table_insert (self->frames, g_strdup (afg_document_get_string (document, k)),
                           g_memdup2 (&totals[k], sizeof (gint64)));
}

void
afg_rank_summary_fill (AfgRankSummary *self, const AfgTree *tree)
{
  self->rows = afg_document_get_load_stats (afg_tree_get_document (tree))->rows;
  self->threads = afg_tree_get_n_threads (tree);
  self->host_ns = root_value (tree, AFG_COLUMN_TOTAL_NS);
  self->npu_ns = root_value (tree, AFG_COLUMN_NPU_TOTAL_NS);
  fill_steps (self, tree);
  fill_frames (self, tree);
}

gboolean
afg_rank_summary_mean_step (const AfgRankSummary *self, double *mean)
{
  double sum = 0;

  if (self->error != NULL || self->steps->len == 0)
    return FALSE;
  for (guint i = 0; i < self->steps->len; i++)
    sum += g_array_index (self->steps, AfgRankStep, i).host_ns;
  *mean = sum / self->steps->len;
  return TRUE;
}

gint64
afg_rank_summary_frame_ns (const AfgRankSummary *self, const char *name)
{
  const gint64 *ns = g_hash_table_lookup (self->frames, name);

  return ns != NULL ? *ns : 0;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
judge_steps (AfgJobFigures *self, AfgRankSummary * const *ranks, guint n)
{
  g_autofree double *means = g_new0 (double, n);
  g_autofree double *sorted = g_new0 (double, n);
  guint judged = 0;

  for (guint i = 0; i < n; i++)
    if ((self->judged[i] = afg_rank_summary_mean_step (ranks[i], &means[i])))
      sorted[judged++] = means[i];
  if (judged == 0)
    return;
  qsort (sorted, judged, sizeof (double), compare_doubles);
  self->median_step_ns = judged % 2 ? sorted[judged / 2]
                                    : (sorted[judged / 2 - 1] + sorted[judged / 2]) / 2;
  self->has_median = self->median_step_ns > 0;
  for (guint i = 0; i < n && self->has_median; i++)
    {
      if (!self->judged[i])
        continue;
      self->deviation[i] = (means[i] - self->median_step_ns) / self->median_step_ns;
      self->straggler[i] = ABS (self->deviation[i]) > AFG_RANK_STRAGGLER_FRACTION;
    }
}

typedef struct {
  const char *name;
  gint64      spread;
} Spread;

static int
compare_spreads (gconstpointer a, gconstpointer b)
{
  const Spread *x = a, *y = b;

  if (x->spread != y->spread)
    return x->spread < y->spread ? 1 : -1;
  return strcmp (x->name, y->name);
}

/* max - min of a frame's total over the ranks read (0 where it is missing). */
static gint64
spread_of (const char *name, AfgRankSummary * const *ranks, guint n)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  for (guint i = 0; i < n; i++)
    {
      gint64 ns;

      if (ranks[i]->error != NULL)
        continue;
      ns = afg_rank_summary_frame_ns (ranks[i], name);
      lo = MIN (lo, ns);
      hi = MAX (hi, ns);
    }
  return hi - lo;
}

static void
pick_frames (AfgJobFigures *self, AfgRankSummary * const *ranks, guint n)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) spreads = g_array_new (FALSE, FALSE, sizeof (Spread));
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
      Spread spread = { key, spread_of (key, ranks, n) };
      g_array_append_val (spreads, spread);
    }
  g_array_sort (spreads, compare_spreads);
  kept = MIN (spreads->len, AFG_RANK_MAX_VARYING_FRAMES);
  self->frames = g_new0 (char *, kept + 1);
  for (guint i = 0; i < kept; i++)
    self->frames[i] = g_strdup (g_array_index (spreads, Spread, i).name);
}

AfgJobFigures *
afg_job_figures_new (AfgRankSummary * const *ranks, guint n)
{
  AfgJobFigures *self = g_new0 (AfgJobFigures, 1);

  self->judged = g_new0 (gboolean, n);
  self->deviation = g_new0 (double, n);
  self->straggler = g_new0 (gboolean, n);
  judge_steps (self, ranks, n);
  pick_frames (self, ranks, n);
  return self;
}

void
afg_job_figures_free (AfgJobFigures *self)
{
  if (self == NULL)
    return;
  g_free (self->judged);
  g_free (self->deviation);
  g_free (self->straggler);
  g_strfreev (self->frames);
  g_free (self);
}
