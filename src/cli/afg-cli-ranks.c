/* SPDX-License-Identifier: MIT */
/* --export of a whole training job's folder, the ranks read in
 * parallel (afg-job-load.c), each exported and then dropped but for its
 * summary. */
#define G_LOG_DOMAIN "afg-cli"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "afg-cli-ranks.h"
#include "afg-cli-report.h"
#include "afg-error.h"
#include "afg-flat-dir.h"
#include "afg-frame-reducer.h"
#include "afg-job-collectives.h"
#include "afg-job-load.h"
#include "afg-made-dirs.h"
#include "afg-rank-summary.h"
#include "afg-ranks-writer.h"
#include "afg-summary-file.h"

#define PROG AFG_CLI_PROG

typedef struct {
  const AfgCliRanksOptions *opts;
  const char               *out_dir;
  GThreadPool              *committer;     /* one thread */
  char                    **commit_errors; /* by rank index, the committer's until it is freed */
  /* The committer's too: each rank's summary as --merge-summaries would
   * read it, made as soon as the rank is summed up. */
  AfgSummaryOptions         summary_options;
  AfgFrameReducer          *reducer;
  AfgRankSummary          **read_back;     /* by rank index, NULL until made */
  GCancellable             *stop;          /* a full disk stops the job */
  GMutex                    lock;          /* for the two below */
  GError                   *no_space;      /* the first ENOSPC */
  GPtrArray                *made_dirs;     /* rank folders this run created */
  char                     *made_out_dir;  /* the first folder of -o this run makes, or NULL */
  GPtrArray               **warnings;      /* by rank index, each set by its rank's worker */
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

/* The committer's work, in the order the workers hand it over: a rank's
 * file is committed before its summary, which carries a failed commit's
 * error, is read back. */
typedef struct {
  AfgAtomicFile  *file;     /* or NULL: read @summary back */
  AfgRankSummary *summary;
  guint           index;
} Pending;

static void
commit_file (Job *job, AfgAtomicFile *file, guint index)
{
  g_autoptr(GError) error = NULL;

  if (!afg_atomic_file_commit (file, &error))
    {
      job->commit_errors[index] = g_strdup (error->message);
      note_failure (job, error);
    }
}

/* A rank whose file could not be committed failed with that error. */
static void
take_commit_error (Job *job, AfgRankSummary *summary, guint index)
{
  if (job->commit_errors[index] != NULL && summary->error == NULL)
    summary->error = g_steal_pointer (&job->commit_errors[index]);
}

/* @summary as --merge-summaries reads it: written as a summary file and
 * read back, so that both paths write the same bytes. */
static AfgRankSummary *
through_file (AfgRankSummary *summary, const AfgSummaryOptions *options, AfgFrameReducer *reducer)
{
  g_autofree char *text = afg_summary_file_write (summary, options);
  AfgSummaryOptions read_options;
  g_autoptr(GError) error = NULL;
  AfgRankSummary *rank = afg_summary_file_read (text, strlen (text), reducer, &read_options, &error);

  /* What this program wrote it reads back. */
  g_assert_no_error (error);
  return rank;
}

static void
read_back (Job *job, AfgRankSummary *summary, guint index)
{
  take_commit_error (job, summary, index);
  job->read_back[index] = through_file (summary, &job->summary_options, job->reducer);
}

static void
run_pending (gpointer data, gpointer user_data)
{
  Pending *pending = data;
  Job *job = user_data;

  if (pending->file != NULL)
    commit_file (job, pending->file, pending->index);
  else
    read_back (job, pending->summary, pending->index);
  g_free (pending);
}

static void
push_pending (Job *job, AfgAtomicFile *file, AfgRankSummary *summary, guint index)
{
  Pending *pending = g_new (Pending, 1);

  *pending = (Pending) { file, summary, index };
  g_thread_pool_push (job->committer, pending, NULL);
}

/* Read back on the committer's thread while other ranks are still being
 * read: at the end the job has only ranks.json left to write. */
static void
rank_summed_up (guint index, AfgRankSummary *summary, gpointer data)
{
  push_pending (data, NULL, summary, index);
}

/* Each rank's pages, from the tree its totals are taken from. The fsync
 * and rename go to the committer's thread: a worker does not wait for the
 * disk (12 ms for a 1M-row rank's 15 MB) before its next rank. */
static gboolean
export_rank (const AfgJobRank *rank, guint index, AfgTree *tree, gpointer data, GError **error)
{
  Job *job = data;
  /* Streamed: the workers' other ranks are using the other cores. */
  AfgExportOptions options = { job->opts->format, job->opts->weight, job->opts->kernels, NULL, TRUE };
  g_autofree char *name = g_strdup_printf ("rank%d", rank->rank);
  g_autofree char *dir = g_build_filename (job->out_dir, name, NULL);
  gboolean existed = g_file_test (dir, G_FILE_TEST_EXISTS);
  AfgAtomicFile *file;

  if (!job->opts->quiet)
    job->warnings[index] = afg_cli_tree_warnings (tree, job->opts->weight);
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
  file = afg_export_to_dir_pending (tree, &options, dir, error);
  if (file == NULL)
    {
      note_failure (job, *error);
      return FALSE;
    }
  push_pending (job, file, NULL, index);
  return TRUE;
}

/* What a single export of each rank would warn of, in rank order: the
 * workers read the ranks in any order. */
static void
print_rank_warnings (GPtrArray **warnings, AfgRankSummary * const *summaries, guint n)
{
  for (guint i = 0; i < n; i++)
    afg_cli_print_warning_list (PROG, summaries[i]->rank, warnings[i]);
}

/* Waits for the committer, then reads back the summaries it was not
 * given (ranks that never ran). */
static void
finish_commits (Job *job, AfgRankSummary * const *summaries, guint n)
{
  g_thread_pool_free (g_steal_pointer (&job->committer), FALSE, TRUE);
  for (guint i = 0; i < n; i++)
    {
      if (job->read_back[i] == NULL)
        read_back (job, summaries[i], i);
      g_free (job->commit_errors[i]);
    }
  g_free (job->commit_errors);
}

/* The rank folders this run made, with what is in them, and the output
 * folder when this run made it: a full disk leaves no empty or
 * half-written rank behind. */
static void
remove_made_dirs (Job *job)
{
  for (guint i = 0; i < job->made_dirs->len; i++)
    afg_flat_dir_remove (g_ptr_array_index (job->made_dirs, i));
  afg_made_dirs_remove (job->out_dir, job->made_out_dir);
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
job_clear (Job *job, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      afg_rank_summary_free (job->read_back[i]);
      g_clear_pointer (&job->warnings[i], g_ptr_array_unref);
    }
  g_free (job->read_back);
  g_free (job->warnings);
  g_clear_pointer (&job->reducer, afg_frame_reducer_free);
  g_mutex_clear (&job->lock);
  g_clear_object (&job->stop);
  g_clear_error (&job->no_space);
  g_clear_pointer (&job->made_dirs, g_ptr_array_unref);
  g_clear_pointer (&job->made_out_dir, g_free);
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
    afg_cli_print_warning (PROG, g_ptr_array_index (folder->warnings, i));
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

/* ranks.json (and index.html) in @out_dir; @verdict the job's, as the
 * index says it. */
static gboolean
write_summaries (const char *out_dir, AfgRankSummary * const *ranks, guint n, gboolean html,
                 const AfgSummaryOptions *options, char **verdict, GError **error)
{
  g_autoptr(AfgJobFigures) figures = afg_job_figures_new (ranks, n);
  g_autofree char *json = afg_ranks_json_write (ranks, n, figures);
  g_autofree char *index = NULL;

  *verdict = afg_job_collectives_verdict (figures->collectives, ranks);
  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    return afg_error_set_errno (error, out_dir, _("cannot create the folder"), errno);
  if (!write_file (out_dir, "ranks.json", json, error))
    return FALSE;
  if (!html)
    return TRUE;
  index = afg_ranks_index_write (ranks, n, figures, options);
  if (write_file (out_dir, "index.html", index, error))
    return TRUE;
  /* The two describe one export: not the one without the other. */
  {
    g_autofree char *path = g_build_filename (out_dir, "ranks.json", NULL);

    g_unlink (path);
  }
  return FALSE;
}

static AfgSummaryOptions
summary_options (const AfgCliRanksOptions *opts)
{
  return (AfgSummaryOptions) { opts->has_steps, opts->has_steps ? opts->first_step : 0,
                               opts->has_steps ? opts->last_step : 0, opts->merge_addresses, opts->npu_idle };
}

/* A rank that failed has no page: one an earlier export left in its
 * folder would stand for it, out of date (the folder goes when empty). */
static void
remove_stale_pages (Job *job, AfgRankSummary * const *ranks, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("rank%d", ranks[i]->rank);
      g_autofree char *dir = g_build_filename (job->out_dir, name, NULL);
      g_autofree char *page = g_build_filename (dir, afg_format_file_name (job->opts->format), NULL);

      if (ranks[i]->error == NULL || g_unlink (page) != 0)
        continue;
      g_rmdir (dir);
    }
}

/* The ranks' errors, then ranks.json (and index.html) in @out_dir: an
 * exit status. */
static int
write_job (Job *job, const char *out_dir, AfgRankSummary * const *summaries, guint n, gboolean html,
           const AfgSummaryOptions *options, gboolean quiet)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *verdict = NULL;
  guint bad;

  bad = report_rank_errors (summaries, n);
  if (job != NULL)
    remove_stale_pages (job, summaries, n);
  if (!write_summaries (out_dir, summaries, n, html, options, &verdict, &error))
    {
      if (job != NULL && g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC))
        return fail_no_space (job, error);
      afg_cli_print_error (error->message, g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC)
                                           ? _("free space on that disk or choose another output directory with -o DIR")
                                           : _("choose another output directory with -o DIR"));
      return AFG_EXIT_WRITE_FAILED;
    }
  if (!quiet)
    {
      g_printerr (g_dngettext (GETTEXT_PACKAGE, "%s: %u rank written to %s\n", "%s: %u ranks written to %s\n", n - bad),
                  PROG, n - bad, out_dir);
      /* TRANSLATORS: the job's verdict, "Straggler: rank 2. others waited …" */
      g_printerr (_("%s: %s\n"), PROG, verdict);
    }
  return bad > 0 ? AFG_EXIT_BAD_INPUT : AFG_EXIT_OK;
}

static int
export_summaries (Job *job, guint n)
{
  if (job->no_space != NULL)
    return fail_no_space (job, job->no_space);
  print_rank_warnings (job->warnings, job->read_back, n);
  afg_frame_reducer_finish (job->reducer, job->read_back, n);
  return write_job (job, job->out_dir, job->read_back, n, job->opts->format == AFG_FORMAT_HTML, &job->summary_options,
                    job->opts->quiet);
}

int
afg_cli_ranks_export (const char *folder_path, const AfgCliRanksOptions *opts)
{
  g_autoptr(GError) error = NULL;
  AfgJobFolder *folder = afg_job_folder_discover (folder_path, &error);
  Job job = { opts, opts->output != NULL ? opts->output : "." };
  AfgJobLoadOptions options = {
    AFG_TREE_DURATIONS | (opts->merge_addresses ? AFG_TREE_MERGE_ADDRESSES : 0),
    opts->has_steps, opts->first_step, opts->last_step, export_rank, &job, TRUE, opts->npu_idle,
    rank_summed_up, &job,
  };
  g_autoptr(AfgJobLoad) load = NULL;
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
  g_mutex_init (&job.lock);
  job.stop = g_cancellable_new ();
  job.made_dirs = g_ptr_array_new_with_free_func (g_free);
  job.made_out_dir = afg_made_dirs_first (job.out_dir);
  job.commit_errors = g_new0 (char *, MAX (n, 1));
  job.summary_options = summary_options (opts);
  job.reducer = afg_frame_reducer_new ();
  job.read_back = g_new0 (AfgRankSummary *, MAX (n, 1));
  job.warnings = g_new0 (GPtrArray *, MAX (n, 1));
  /* Not exclusive: cannot fail. */
  job.committer = g_thread_pool_new (run_pending, &job, 1, FALSE, NULL);
  afg_job_load_run (load, job.stop);
  finish_commits (&job, afg_job_load_get_summaries (load), n);
  status = export_summaries (&job, n);
  job_clear (&job, n);
  return status;
}

/* Where @path (links resolved) is below @real_root: the offset of the rest
 * in @path, or -1 when it is not inside. */
static gssize
offset_below (const char *path, const char *real_root)
{
  gsize len = strcmp (real_root, "/") == 0 ? 0 : strlen (real_root);

  if (strncmp (path, real_root, len) != 0 || (path[len] != '\0' && path[len] != G_DIR_SEPARATOR))
    return -1;
  while (path[len] == G_DIR_SEPARATOR)
    len++;
  return (gssize) len;
}

/* @db as the folder export of @root names it, in `file` and in a failed
 * rank's error: @root as given, then the path below it. Inside is judged
 * with links resolved, as discovery follows a link only when it stays in
 * the folder; a path that does not exist is judged as written (its load
 * then fails with its own error). */
static gboolean
file_below_root (const char *db, const char *root, char **db_out)
{
  g_autofree char *dir = g_path_get_dirname (db);
  g_autofree char *name = g_path_get_basename (db);
  g_autofree char *real_root = realpath (root, NULL);
  g_autofree char *real_dir = realpath (dir, NULL);
  g_autofree char *real_db = realpath (db, NULL);
  g_autofree char *canonical_root = NULL;
  g_autofree char *canonical_db = NULL;
  gssize below;

  if (real_root != NULL && real_dir != NULL && real_db != NULL)
    {
      below = offset_below (real_dir, real_root);
      if (below < 0 || offset_below (real_db, real_root) < 0)
        return FALSE;
      *db_out = g_build_filename (root, real_dir + below, name, NULL);
      return TRUE;
    }
  canonical_root = g_canonicalize_filename (root, NULL);
  canonical_db = g_canonicalize_filename (db, NULL);
  below = offset_below (canonical_db, canonical_root);
  if (below < 0)
    return FALSE;
  *db_out = g_build_filename (root, canonical_db + below, NULL);
  return TRUE;
}

/* Two DBs of one rank summarised into one folder keep the summary of the
 * one discovery would use, whatever order they come in: TRUE when the
 * summary at @path is of another DB of @rank that is newer than @source. */
static gboolean
keeps_other_summary (const char *path, const AfgRankSummary *rank, const AfgJobRank *source,
                     const AfgCliRanksOptions *opts)
{
  g_autofree char *text = NULL;
  gsize length;
  AfgSummaryOptions options;
  g_autoptr(AfgRankSummary) other = NULL;
  AfgJobFolder *other_folder;
  gboolean keep;
  g_autofree char *message = NULL;

  if (!g_file_get_contents (path, &text, &length, NULL)
      || (other = afg_summary_file_read (text, length, NULL, &options, NULL)) == NULL
      || other->rank != rank->rank || g_strcmp0 (other->file, rank->file) == 0)
    return FALSE;
  other_folder = afg_job_folder_new_single (other->file, opts->job_root);
  keep = afg_job_rank_is_newer (g_ptr_array_index (other_folder->ranks, 0), source);
  afg_job_folder_free (other_folder);
  message = afg_job_rank_describe_duplicate (rank->rank, keep ? other->file : rank->file,
                                             keep ? rank->file : other->file);
  if (!opts->quiet)
    afg_cli_print_warning (PROG, message);
  return keep;
}

/* The writers of one folder's summaries take turns on it, so that the
 * choice between two DBs of one rank and the write are one step. */
static int
lock_folder (const char *dir)
{
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0)
    while (flock (fd, LOCK_EX) != 0 && errno == EINTR)
      ;
  return fd;
}

static int
write_summary_file (const AfgRankSummary *rank, const AfgJobRank *source, const AfgCliRanksOptions *opts)
{
  const char *out_dir = opts->output != NULL ? opts->output : ".";
  AfgSummaryOptions options = summary_options (opts);
  g_autofree char *text = afg_summary_file_write (rank, &options);
  g_autofree char *name = g_strdup_printf ("summary-rank%d.json", rank->rank);
  g_autofree char *path = g_build_filename (out_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  gboolean kept_other = FALSE;
  g_autofree char *made = afg_made_dirs_first (out_dir);
  int lock = -1;

  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    afg_error_set_errno (&error, out_dir, _("cannot create the folder"), errno);
  if (error == NULL)
    {
      lock = lock_folder (out_dir);
      kept_other = keeps_other_summary (path, rank, source, opts);
    }
  if (error == NULL && !kept_other)
    write_file (out_dir, name, text, &error);
  if (lock >= 0)
    close (lock);
  if (error != NULL)
    {
      /* Nothing left behind, not the folders this run made. */
      afg_made_dirs_remove (out_dir, made);
      afg_cli_print_error (error->message, _("choose another output directory with -o DIR"));
      return AFG_EXIT_WRITE_FAILED;
    }
  if (!opts->quiet && !kept_other)
    g_printerr (_("%s: rank %d summarised in %s%s%s\n"), PROG, rank->rank, out_dir, G_DIR_SEPARATOR_S, name);
  return rank->error != NULL ? AFG_EXIT_BAD_INPUT : AFG_EXIT_OK;
}

typedef struct {
  const AfgCliRanksOptions *opts;
  GPtrArray                *list;  /* or NULL */
} SummaryWarnings;

/* The one rank's warnings, as the folder export prints them. */
static gboolean
keep_summary_warnings (const AfgJobRank *rank, guint index, AfgTree *tree, gpointer data, GError **error)
{
  SummaryWarnings *warnings = data;

  if (!warnings->opts->quiet)
    warnings->list = afg_cli_tree_warnings (tree, warnings->opts->weight);
  return TRUE;
}

int
afg_cli_summary_export (const char *db, const AfgCliRanksOptions *opts)
{
  g_autofree char *path = NULL;
  AfgJobFolder *folder;
  SummaryWarnings warnings = { opts };
  AfgJobLoadOptions options = {
    AFG_TREE_DURATIONS | (opts->merge_addresses ? AFG_TREE_MERGE_ADDRESSES : 0),
    opts->has_steps, opts->first_step, opts->last_step, keep_summary_warnings, &warnings, TRUE, opts->npu_idle,
  };
  g_autoptr(AfgJobLoad) load = NULL;
  g_autofree char *source_path = NULL;
  AfgJobRank source;
  AfgRankSummary *rank;
  int status;

  if (opts->job_root != NULL && !file_below_root (db, opts->job_root, &path))
    {
      g_autofree char *message = g_strdup_printf (_("%s is not inside the job folder %s"), db, opts->job_root);

      afg_cli_print_error (message, _("give --job-root the folder that holds every rank's DB"));
      return AFG_EXIT_USAGE;
    }
  folder = afg_job_folder_new_single (path != NULL ? path : db, opts->job_root);
  source = *(const AfgJobRank *) g_ptr_array_index (folder->ranks, 0);
  source.path = source_path = g_strdup (source.path);
  if (!opts->quiet)
    print_warnings (folder);
  load = afg_job_load_new (opts->job_root != NULL ? opts->job_root : "", folder, &options);
  afg_job_load_run (load, NULL);
  rank = afg_job_load_get_summaries (load)[0];
  afg_cli_print_warning_list (PROG, rank->rank, warnings.list);
  g_clear_pointer (&warnings.list, g_ptr_array_unref);
  report_rank_errors (&rank, 1);
  status = write_summary_file (rank, &source, opts);
  return status;
}

static gboolean
read_summary (const char *file, AfgFrameReducer *reducer, AfgSummaryOptions *options, AfgRankSummary **out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize length;

  if (!g_file_get_contents (file, &text, &length, &error))
    {
      afg_cli_print_error (error->message, _("give the files --export -f summary wrote"));
      return FALSE;
    }
  *out = afg_summary_file_read (text, length, reducer, options, &error);
  if (*out == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("%s: %s"), file, error->message);

      afg_cli_print_error (message, _("give the files --export -f summary wrote"));
      return FALSE;
    }
  return TRUE;
}

static int
compare_summary_ranks (gconstpointer a, gconstpointer b)
{
  const AfgRankSummary *x = *(AfgRankSummary * const *) a, *y = *(AfgRankSummary * const *) b;

  return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Each rank once, the later file of two winning; NULL when a file cannot
 * be read or was made with other options than the first. */
/* As many ranks as discovery keeps of a folder, the lowest, with its
 * warning: the merge stays the folder export's. */
static void
keep_lowest_ranks (GPtrArray *ranks, AfgFrameReducer *reducer, gboolean quiet)
{
  if (ranks->len <= AFG_JOB_MAX_RANKS)
    return;
  if (!quiet)
    {
      const AfgRankSummary *first_dropped = g_ptr_array_index (ranks, AFG_JOB_MAX_RANKS);
      g_autofree char *warning = afg_job_describe_too_many (ranks->len, first_dropped->rank);

      afg_cli_print_warning (PROG, warning);
    }
  for (guint i = AFG_JOB_MAX_RANKS; i < ranks->len; i++)
    afg_frame_reducer_forget (reducer, g_ptr_array_index (ranks, i));
  g_ptr_array_set_size (ranks, AFG_JOB_MAX_RANKS);
}

/* @options: those every summary was made with. */
static GPtrArray *
read_summaries (const char * const *files, const AfgCliRanksOptions *opts, AfgSummaryOptions *options)
{
  g_autoptr(GPtrArray) ranks = g_ptr_array_new_with_free_func ((GDestroyNotify) afg_rank_summary_free);
  g_autoptr(GHashTable) by_rank = g_hash_table_new (NULL, NULL);  /* rank -> its file's index + 1 */
  g_autoptr(AfgFrameReducer) reducer = afg_frame_reducer_new ();
  AfgSummaryOptions first = { 0 };

  for (guint i = 0; files[i] != NULL; i++)
    {
      AfgSummaryOptions options;
      AfgRankSummary *rank;
      guint seen;

      if (!read_summary (files[i], reducer, &options, &rank))
        return NULL;
      if (i > 0 && !afg_summary_options_equal (&first, &options))
        {
          g_autofree char *message = g_strdup_printf (_("%s was made with other options than %s"), files[i], files[0]);

          afg_frame_reducer_forget (reducer, rank);
          afg_rank_summary_free (rank);
          afg_cli_print_error (message, _("make every summary with the same --steps, --npu-idle and "
                                          "--merge-addresses"));
          return NULL;
        }
      first = options;
      seen = GPOINTER_TO_UINT (g_hash_table_lookup (by_rank, GINT_TO_POINTER (rank->rank)));
      if (seen > 0)
        {
          if (!opts->quiet)
            g_printerr (_("%s: warning: rank %d: %s replaces %s\n"), PROG, rank->rank, files[i], files[seen - 1]);
          for (guint k = 0; k < ranks->len; k++)
            if (((AfgRankSummary *) g_ptr_array_index (ranks, k))->rank == rank->rank)
              {
                afg_frame_reducer_forget (reducer, g_ptr_array_index (ranks, k));
                g_ptr_array_remove_index (ranks, k);
                break;
              }
        }
      g_hash_table_insert (by_rank, GINT_TO_POINTER (rank->rank), GUINT_TO_POINTER (i + 1));
      g_ptr_array_add (ranks, rank);
    }
  g_ptr_array_sort (ranks, compare_summary_ranks);
  keep_lowest_ranks (ranks, reducer, opts->quiet);
  *options = first;
  afg_frame_reducer_finish (reducer, (AfgRankSummary * const *) ranks->pdata, ranks->len);
  return g_steal_pointer (&ranks);
}

int
afg_cli_ranks_merge (const char * const *files, const AfgCliRanksOptions *opts)
{
  AfgSummaryOptions options;
  g_autoptr(GPtrArray) ranks = read_summaries (files, opts, &options);

  if (ranks == NULL)
    return AFG_EXIT_BAD_INPUT;
  return write_job (NULL, opts->output != NULL ? opts->output : ".", (AfgRankSummary * const *) ranks->pdata,
                    ranks->len, opts->format == AFG_FORMAT_HTML, &options, opts->quiet);
}
