/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n.h>

#include "afg-job-load.h"
#include "afg-job-merge.h"
#include "afg-merged-tree.h"

typedef struct {
  GMutex             lock;
  AfgMergedTree     *merged;
  AfgJobMergeCounts *counts;
  char              *first_error;  /* of the lowest rank index that failed */
  guint              first_failed;
} Merge;

/* In the load's workers. */
static gboolean
add_tree (const AfgJobRank *rank, guint index, AfgTree *tree, gpointer data, GError **error)
{
  Merge *m = data;

  g_mutex_lock (&m->lock);
  afg_merged_tree_add (m->merged, tree);
  g_mutex_unlock (&m->lock);
  return TRUE;
}

static void
count_rank (guint index, AfgRankSummary *summary, gpointer data)
{
  Merge *m = data;

  g_mutex_lock (&m->lock);
  if (summary->error == NULL)
    m->counts->merged++;
  else
    {
      m->counts->failed++;
      if (m->first_error == NULL || index < m->first_failed)
        {
          g_free (m->first_error);
          m->first_error = g_strdup_printf (_("rank %d: %s"), summary->rank, summary->error);
          m->first_failed = index;
        }
    }
  g_mutex_unlock (&m->lock);
  g_atomic_int_inc (&m->counts->read);
}

AfgTree *
afg_job_merge_ranks (const char *folder_path, const AfgJobFolder *folder, AfgTreeFlags flags, gboolean has_steps,
                     gint64 first, gint64 last, gboolean npu_idle, AfgJobMergeCounts *counts,
                     GCancellable *cancellable, GError **error)
{
  Merge m = { .merged = afg_merged_tree_new (), .counts = counts };
  AfgJobLoadOptions options = { flags, has_steps, first, last, add_tree, &m };
  g_autoptr(AfgJobLoad) load = NULL;
  AfgTree *tree = NULL;

  g_return_val_if_fail (folder_path != NULL && folder != NULL && counts != NULL, NULL);

  *counts = (AfgJobMergeCounts) { 0 };
  g_mutex_init (&m.lock);
  options.npu_idle = npu_idle;
  options.summed_up = count_rank;
  options.summed_up_data = &m;
  load = afg_job_load_new (folder_path, afg_job_folder_copy (folder), &options);
  afg_job_load_run (load, cancellable);
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      if (counts->merged > 0)
        tree = afg_merged_tree_build (m.merged, folder_path);
      else
        g_set_error_literal (error, AFG_JOB_ERROR, AFG_JOB_ERROR_NO_RANK_READ,
                             m.first_error != NULL ? m.first_error : _("the job has no rank"));
    }
  g_free (m.first_error);
  afg_merged_tree_free (m.merged);
  g_mutex_clear (&m.lock);
  return tree;
}
