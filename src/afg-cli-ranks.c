/* SPDX-License-Identifier: MIT */
/* Issue 17: --export of a whole training job's folder, the ranks read in
 * parallel, each exported and then dropped but for its summary. */
#define G_LOG_DOMAIN "afg-cli"

#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "afg-cli.h"
#include "afg-cli-ranks.h"
#include "afg-error.h"
#include "afg-format.h"
#include "afg-job-folder.h"
#include "afg-loader.h"
#include "afg-rank-summary.h"
#include "afg-ranks-writer.h"
#include "afg-tree-builder.h"

#define PROG "ascend-flamegraph"

typedef struct {
  const AfgCliRanksOptions *opts;
  const char               *out_dir;
  GMutex                    writing;
} Job;

typedef struct {
  const AfgJobRank *rank;
  AfgRankSummary   *summary;
} Task;

static gboolean
export_rank (Job *job, const Task *task, GError **error)
{
  const AfgCliRanksOptions *opts = job->opts;
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autofree char *name = g_strdup_printf ("rank%d", task->rank->rank);
  g_autofree char *dir = g_build_filename (job->out_dir, name, NULL);
  AfgScope scope = { 0 };
  gboolean written;

  document = afg_document_load (task->rank->path, NULL, NULL, NULL, error);
  if (document == NULL)
    return FALSE;
  if (opts->has_steps
      && !afg_scope_init_steps (&scope, document, opts->first_step, opts->last_step, error))
    return FALSE;
  tree = afg_tree_build (document, &scope, AFG_TREE_DURATIONS, NULL, error);
  if (tree == NULL)
    return FALSE;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    return afg_error_set_errno (error, dir, _("cannot create the folder"), errno);
  /* The serialised page is the peak of a rank's memory: one at a time, so
   * that two workers' peaks never add up (the others are still loading). */
  g_mutex_lock (&job->writing);
  written = afg_export_to_dir_weighted (tree, opts->format, opts->weight, dir, NULL, error);
  g_mutex_unlock (&job->writing);
  if (!written)
    return FALSE;
  afg_rank_summary_fill_totals (task->summary, tree);
  g_clear_pointer (&tree, afg_tree_unref);
  return afg_rank_summary_fill_details (task->summary, document, &scope, error);
}

static void
rank_worker (gpointer data, gpointer user_data)
{
  Task *task = data;
  g_autoptr(GError) error = NULL;

  if (!export_rank (user_data, task, &error))
    task->summary->error = g_strdup (error->message);
  /* Each worker's malloc arena would otherwise keep a document's worth of
   * freed pages: the job's peak would grow with the number of workers. */
  malloc_trim (0);
}

/* At most one document per core is alive at a time. */
static void
export_all (Job *job, Task *tasks, guint n)
{
  g_autoptr(GError) error = NULL;
  GThreadPool *pool = g_thread_pool_new (rank_worker, job,
                                         (int) MAX (1, g_get_num_processors ()), FALSE, &error);

  for (guint i = 0; i < n; i++)
    {
      if (pool == NULL)
        rank_worker (&tasks[i], job);
      else
        g_thread_pool_push (pool, &tasks[i], NULL);
    }
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);
}

static gboolean
write_file (const char *dir, const char *name, const char *text, GError **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return afg_export_write_data (path, text, strlen (text), error);
}

static void
print_warnings (const AfgJobFolder *folder)
{
  for (guint i = 0; i < folder->warnings->len; i++)
    g_printerr (_("%s: warning: %s\n"), PROG, (const char *) g_ptr_array_index (folder->warnings, i));
}

static char *
relative_file (const char *folder, const char *path)
{
  gsize len = strlen (folder);

  if (g_str_has_prefix (path, folder) && path[len] == G_DIR_SEPARATOR)
    path += len + 1;
  return afg_format_path (path);
}

/* One error line per rank that could not be read; the count of them. */
static guint
report_rank_errors (AfgRankSummary * const *ranks, guint n)
{
  guint bad = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *message = NULL;

      if (ranks[i]->error == NULL)
        continue;
      message = g_strdup_printf (_("rank %d: %s"), ranks[i]->rank, ranks[i]->error);
      afg_cli_print_error (message, NULL);
      bad++;
    }
  return bad;
}

static gboolean
write_summaries (const char *out_dir, AfgRankSummary * const *ranks, guint n, gboolean html,
                 GError **error)
{
  g_autofree char *json = afg_ranks_json_write (ranks, n);
  g_autoptr(AfgJobFigures) figures = NULL;
  g_autofree char *index = NULL;

  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    return afg_error_set_errno (error, out_dir, _("cannot create the folder"), errno);
  if (!write_file (out_dir, "ranks.json", json, error))
    return FALSE;
  if (!html)
    return TRUE;
  figures = afg_job_figures_new (ranks, n);
  index = afg_ranks_index_write (ranks, n, figures);
  return write_file (out_dir, "index.html", index, error);
}

int
afg_cli_ranks_export (const char *folder_path, const AfgCliRanksOptions *opts)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgJobFolder) folder = afg_job_folder_discover (folder_path, &error);
  Job job = { opts, opts->output != NULL ? opts->output : ".", { 0 } };
  g_autoptr(GPtrArray) summaries = NULL;
  g_autofree Task *tasks = NULL;
  guint n, bad;

  if (folder == NULL)
    {
      afg_cli_print_error (error->message, afg_job_error_get_hint (error));
      return AFG_EXIT_BAD_INPUT;
    }
  if (!opts->quiet)
    print_warnings (folder);
  n = folder->ranks->len;
  summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) afg_rank_summary_free);
  tasks = g_new0 (Task, n);
  for (guint i = 0; i < n; i++)
    {
      tasks[i].rank = g_ptr_array_index (folder->ranks, i);
      g_autofree char *file = relative_file (folder_path, tasks[i].rank->path);

      tasks[i].summary = afg_rank_summary_new (tasks[i].rank->rank, file);
      g_ptr_array_add (summaries, tasks[i].summary);
    }
  g_mutex_init (&job.writing);
  export_all (&job, tasks, n);
  g_mutex_clear (&job.writing);
  bad = report_rank_errors ((AfgRankSummary * const *) summaries->pdata, n);
  if (!write_summaries (job.out_dir, (AfgRankSummary * const *) summaries->pdata, n,
                        opts->format == AFG_FORMAT_HTML, &error))
    {
      afg_cli_print_error (error->message, _("choose another output directory with -o DIR"));
      return AFG_EXIT_WRITE_FAILED;
    }
  if (!opts->quiet)
    g_printerr (_("%s: %u ranks written to %s\n"), PROG, n - bad, job.out_dir);
  return bad > 0 ? AFG_EXIT_BAD_INPUT : AFG_EXIT_OK;
}
