/* SPDX-License-Identifier: MIT */
/* --export of a whole training job's folder, the ranks read in
 * parallel (afg-job-load.c), each exported and then dropped but for its
 * summary. */
#define G_LOG_DOMAIN "afg-cli"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "afg-cli.h"
#include "afg-cli-ranks.h"
#include "afg-error.h"
#include "afg-job-load.h"
#include "afg-rank-summary.h"
#include "afg-ranks-writer.h"

#define PROG "ascend-flamegraph"

typedef struct {
  const AfgCliRanksOptions *opts;
  const char               *out_dir;
  GMutex                    writing;
  GThreadPool              *committer;     /* one thread */
  char                    **commit_errors; /* by rank index, the committer's until it is freed */
  GCancellable             *stop;          /* a full disk stops the job */
  GMutex                    lock;          /* for the two below */
  GError                   *no_space;      /* the first ENOSPC */
  GPtrArray                *made_dirs;     /* rank folders this run created */
} Job;

/* The first write that finds the disk full stops the job: every later
 * rank would fail the same way, one error line each. */
static void
note_failure (Job *job, const GError *error)
{
  if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC))
    return;
  g_mutex_lock (&job->lock);
  if (job->no_space == NULL)
    job->no_space = g_error_copy (error);
  g_mutex_unlock (&job->lock);
  g_cancellable_cancel (job->stop);
}

typedef struct {
  AfgAtomicFile *file;
  guint          index;
} Pending;

static void
commit_pending (gpointer data, gpointer user_data)
{
  Pending *pending = data;
  Job *job = user_data;
  g_autoptr(GError) error = NULL;

  if (!afg_atomic_file_commit (pending->file, &error))
    {
      job->commit_errors[pending->index] = g_strdup (error->message);
      note_failure (job, error);
    }
  g_free (pending);
}

/* Each rank's pages, from the tree its totals are taken from. The fsync
 * and rename go to the committer's thread: a worker does not wait for the
 * disk (12 ms for a 1M-row rank's 15 MB) before its next rank. */
static gboolean
export_rank (const AfgJobRank *rank, guint index, AfgTree *tree, gpointer data, GError **error)
{
  Job *job = data;
  g_autofree char *name = g_strdup_printf ("rank%d", rank->rank);
  g_autofree char *dir = g_build_filename (job->out_dir, name, NULL);
  gboolean existed = g_file_test (dir, G_FILE_TEST_EXISTS);
  Pending *pending;
  AfgAtomicFile *file;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      afg_error_set_errno (error, dir, _("cannot create the folder"), errno);
      note_failure (job, *error);
      return FALSE;
    }
  if (!existed)
    {
      g_mutex_lock (&job->lock);
      g_ptr_array_add (job->made_dirs, g_strdup (dir));
      g_mutex_unlock (&job->lock);
    }
  /* The serialised page is the peak of a rank's memory: one at a time, so
   * that two workers' peaks never add up (the others are still loading). */
  g_mutex_lock (&job->writing);
  file = afg_export_to_dir_pending (tree, job->opts->format, job->opts->weight, dir, error);
  g_mutex_unlock (&job->writing);
  if (file == NULL)
    {
      note_failure (job, *error);
      return FALSE;
    }
  pending = g_new (Pending, 1);
  *pending = (Pending) { file, index };
  g_thread_pool_push (job->committer, pending, NULL);
  return TRUE;
}

/* Waits for the committer; a rank whose file could not be committed
 * failed with that error. */
static void
finish_commits (Job *job, AfgRankSummary * const *summaries, guint n)
{
  g_thread_pool_free (g_steal_pointer (&job->committer), FALSE, TRUE);
  for (guint i = 0; i < n; i++)
    {
      if (job->commit_errors[i] != NULL && summaries[i]->error == NULL)
        summaries[i]->error = g_steal_pointer (&job->commit_errors[i]);
      g_free (job->commit_errors[i]);
    }
  g_free (job->commit_errors);
}

/* The rank folders this run made, with what is in them: a full disk
 * leaves no empty or half-written rank behind. */
static void
remove_made_dirs (Job *job)
{
  for (guint i = 0; i < job->made_dirs->len; i++)
    {
      const char *dir = g_ptr_array_index (job->made_dirs, i);
      g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
      const char *name;

      while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);

          g_unlink (path);
        }
      g_rmdir (dir);
    }
}

/* One line for the whole job, exit 3. */
static int
fail_no_space (Job *job, const GError *error)
{
  afg_cli_print_error (error->message, _("free space on that disk or choose another output directory with -o DIR"));
  remove_made_dirs (job);
  return AFG_EXIT_WRITE_FAILED;
}

static void
job_clear (Job *job)
{
  g_mutex_clear (&job->writing);
  g_mutex_clear (&job->lock);
  g_clear_object (&job->stop);
  g_clear_error (&job->no_space);
  g_clear_pointer (&job->made_dirs, g_ptr_array_unref);
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
  g_autoptr(AfgJobFigures) figures = afg_job_figures_new (ranks, n);
  g_autofree char *json = afg_ranks_json_write (ranks, n, figures);
  g_autofree char *index = NULL;

  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    return afg_error_set_errno (error, out_dir, _("cannot create the folder"), errno);
  if (!write_file (out_dir, "ranks.json", json, error))
    return FALSE;
  if (!html)
    return TRUE;
  index = afg_ranks_index_write (ranks, n, figures);
  return write_file (out_dir, "index.html", index, error);
}

/* The ranks' errors, then ranks.json (and index.html): an exit status. */
static int
export_summaries (Job *job, AfgRankSummary * const *summaries, guint n)
{
  g_autoptr(GError) error = NULL;
  guint bad;

  if (job->no_space != NULL)
    return fail_no_space (job, job->no_space);
  bad = report_rank_errors (summaries, n);
  if (!write_summaries (job->out_dir, summaries, n, job->opts->format == AFG_FORMAT_HTML, &error))
    {
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC))
        return fail_no_space (job, error);
      afg_cli_print_error (error->message, _("choose another output directory with -o DIR"));
      return AFG_EXIT_WRITE_FAILED;
    }
  if (!job->opts->quiet)
    g_printerr (_("%s: %u ranks written to %s\n"), PROG, n - bad, job->out_dir);
  return bad > 0 ? AFG_EXIT_BAD_INPUT : AFG_EXIT_OK;
}

int
afg_cli_ranks_export (const char *folder_path, const AfgCliRanksOptions *opts)
{
  g_autoptr(GError) error = NULL;
  AfgJobFolder *folder = afg_job_folder_discover (folder_path, &error);
  Job job = { opts, opts->output != NULL ? opts->output : ".", { 0 } };
  AfgJobLoadOptions options = {
    AFG_TREE_DURATIONS | (opts->merge_addresses ? AFG_TREE_MERGE_ADDRESSES : 0),
    opts->has_steps, opts->first_step, opts->last_step, export_rank, &job, TRUE, opts->npu_idle,
  };
  g_autoptr(AfgJobLoad) load = NULL;
  AfgRankSummary * const *summaries;
  guint n;
  int status;

  if (folder == NULL)
    {
      afg_cli_print_error (error->message, afg_job_error_get_hint (error));
      return AFG_EXIT_BAD_INPUT;
    }
  if (!opts->quiet)
    print_warnings (folder);
  load = afg_job_load_new (folder_path, folder, &options);
  n = afg_job_load_get_n_ranks (load);
  g_mutex_init (&job.writing);
  g_mutex_init (&job.lock);
  job.stop = g_cancellable_new ();
  job.made_dirs = g_ptr_array_new_with_free_func (g_free);
  job.commit_errors = g_new0 (char *, MAX (n, 1));
  /* Not exclusive: cannot fail. */
  job.committer = g_thread_pool_new (commit_pending, &job, 1, FALSE, NULL);
  afg_job_load_run (load, job.stop);
  summaries = afg_job_load_get_summaries (load);
  finish_commits (&job, summaries, n);
  status = export_summaries (&job, summaries, n);
  job_clear (&job);
  return status;
}
