/* SPDX-License-Identifier: MIT */
/* A training job's ranks read in parallel for the CLI and the
 * window alike, so that both show the same figures. */
#define G_LOG_DOMAIN "afg-job"

#include "config.h"

#include <malloc.h>
#include <string.h>

#include "afg-cores.h"
#include "afg-format.h"
#include "afg-job-load.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"

/* Above these, malloc maps and unmaps each block on its own: fixed, since
 * glibc would otherwise raise the threshold to the size of the first big
 * array freed, and the next ranks' arrays would come from the heap and
 * stay there, fragmented, once their rank is dropped. To reuse memory the
 * heap is never trimmed, but the blocks from 2 MB, in huge pages
 * (afg-huge.h), are still mapped on their own: kept in the heap they
 * would fragment it and nearly double a job's peak, and in 4 kB pages
 * they would fault far more often. */
#define RETURN_MMAP_THRESHOLD (1 << 20)
#define REUSE_MMAP_THRESHOLD  (2 << 20)
#define REUSE_TRIM_THRESHOLD  (1 << 30)

typedef struct {
  AfgJobLoad       *job;
  guint             index;
  const AfgJobRank *rank;
  GCancellable     *cancellable;
  gint              state;   /* AfgRankState, atomic */
  guint64           rows;    /* atomic */
  guint64           total;   /* atomic */
  gboolean          last;    /* the last one queued: not held to one core */
} Task;

struct _AfgJobLoad {
  guint              worker_cores;  /* each worker's share of the cores */
  AfgJobFolder      *folder;
  AfgJobLoadOptions  options;
  GPtrArray         *summaries;  /* AfgRankSummary *, one per rank */
  Task              *tasks;
};

static void
job_load_clear (gpointer data)
{
  AfgJobLoad *self = data;

  g_clear_pointer (&self->folder, afg_job_folder_free);
  g_clear_pointer (&self->summaries, g_ptr_array_unref);
  g_free (self->tasks);
}

AfgJobLoad *
afg_job_load_ref (AfgJobLoad *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
afg_job_load_unref (AfgJobLoad *self)
{
  g_atomic_rc_box_release_full (self, job_load_clear);
}

/* The DB as ranks.json names it: relative to the job folder, printable.
 * The folder may end in separators ("job/", as a shell completes it); its
 * DBs' paths then hold them once. */
static char *
relative_file (const char *folder, const char *path)
{
  gsize len = strlen (folder);

  while (len > 1 && folder[len - 1] == G_DIR_SEPARATOR)
    len--;
  if (len > 0 && strncmp (path, folder, len) == 0 && path[len] == G_DIR_SEPARATOR)
    {
      path += len;
      while (*path == G_DIR_SEPARATOR)
        path++;
    }
  return afg_format_path (path);
}

AfgJobLoad *
afg_job_load_new (const char *folder_path, AfgJobFolder *folder, const AfgJobLoadOptions *options)
{
  AfgJobLoad *self;
  guint n;

  g_return_val_if_fail (folder_path != NULL && folder != NULL && options != NULL, NULL);

  self = g_atomic_rc_box_new0 (AfgJobLoad);
  self->folder = folder;
  self->options = *options;
  n = folder->ranks->len;
  self->summaries = g_ptr_array_new_full (n, (GDestroyNotify) afg_rank_summary_free);
  self->tasks = g_new0 (Task, n);
  for (guint i = 0; i < n; i++)
    {
      const AfgJobRank *rank = g_ptr_array_index (folder->ranks, i);
      g_autofree char *file = relative_file (folder_path, rank->path);

      self->tasks[i] = (Task) { self, i, rank, NULL, AFG_RANK_STATE_WAITING, 0, 0 };
      g_ptr_array_add (self->summaries, afg_rank_summary_new (rank->rank, file));
    }
  return self;
}

const AfgJobFolder *
afg_job_load_get_folder (AfgJobLoad *self)
{
  return self->folder;
}

guint
afg_job_load_get_n_ranks (AfgJobLoad *self)
{
  return self->summaries->len;
}

AfgRankSummary * const *
afg_job_load_get_summaries (AfgJobLoad *self)
{
  return (AfgRankSummary * const *) self->summaries->pdata;
}

AfgRankState
afg_job_load_get_state (AfgJobLoad *self, guint index, guint64 *rows, guint64 *total)
{
  Task *task;

  g_return_val_if_fail (index < self->summaries->len, AFG_RANK_STATE_WAITING);

  task = &self->tasks[index];
  if (rows != NULL)
    *rows = __atomic_load_n (&task->rows, __ATOMIC_RELAXED);
  if (total != NULL)
    *total = __atomic_load_n (&task->total, __ATOMIC_RELAXED);
  return g_atomic_int_get (&task->state);
}

static void
on_rank_progress (AfgLoadPhase phase, guint64 rows, guint64 total, gpointer data)
{
  Task *task = data;

  __atomic_store_n (&task->rows, rows, __ATOMIC_RELAXED);
  __atomic_store_n (&task->total, total, __ATOMIC_RELAXED);
}

/* The rank's tree handed to use_tree, then summed up: the summary is
 * taken from that tree and its document, no other tree is built. */
static gboolean
sum_up_rank (Task *task, AfgRankSummary *summary, GError **error)
{
  const AfgJobLoadOptions *options = &task->job->options;
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  AfgScope scope = { 0 };

  document = afg_document_load (task->rank->path, task->cancellable, on_rank_progress, task, error);
  if (document == NULL)
    return FALSE;
  g_atomic_int_set (&task->state, AFG_RANK_STATE_SUMMING);
  afg_rank_summary_fill_collectives (summary, document);
  if (!afg_scope_init_request (&scope, document, options->has_steps, options->first_step, options->last_step,
                               options->npu_idle, error))
    return FALSE;
  tree = afg_tree_build (document, &scope, options->tree_flags, task->cancellable, error);
  if (tree == NULL)
    return FALSE;
  if (options->use_tree != NULL
      && !options->use_tree (task->rank, task->index, tree, options->use_tree_data, error))
    return FALSE;
  afg_rank_summary_fill (summary, tree);
  return TRUE;
}

static void
rank_worker (gpointer data, gpointer user_data)
{
  Task *task = data;
  AfgRankSummary *summary = g_ptr_array_index (task->job->summaries, task->index);
  g_autoptr(GError) error = NULL;

  if (g_cancellable_is_cancelled (task->cancellable))
    {
      g_atomic_int_set (&task->state, AFG_RANK_STATE_CANCELLED);
      return;
    }
  /* The last rank to start has the cores to itself once the other
   * workers finish theirs: it may use them all meanwhile. */
  if (!task->last)
    afg_cores_limit_thread (task->job->worker_cores);
  g_atomic_int_set (&task->state, AFG_RANK_STATE_READING);
  if (sum_up_rank (task, summary, &error))
    g_atomic_int_set (&task->state, AFG_RANK_STATE_DONE);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_atomic_int_set (&task->state, AFG_RANK_STATE_CANCELLED);
  else
    {
      summary->error = g_strdup (error->message);
      g_atomic_int_set (&task->state, AFG_RANK_STATE_FAILED);
    }
  if (task->job->options.summed_up != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    task->job->options.summed_up (task->index, summary, task->job->options.summed_up_data);
  /* Each worker's malloc arena would otherwise keep a document's worth of
   * freed pages: the job's peak would grow with the number of workers. */
  if (!task->job->options.reuse_memory)
    malloc_trim (0);
  /* The pool's threads are GLib's, shared with other pools (GTask's). */
  afg_cores_limit_thread (0);
}

static void
tune_malloc (gboolean reuse)
{
  mallopt (M_MMAP_THRESHOLD, reuse ? REUSE_MMAP_THRESHOLD : RETURN_MMAP_THRESHOLD);
  if (reuse)
    mallopt (M_TRIM_THRESHOLD, REUSE_TRIM_THRESHOLD);
}

static int
compare_sizes (gconstpointer a, gconstpointer b, gpointer tasks)
{
  gint64 x = ((const Task *) tasks)[*(const guint *) a].rank->bytes;
  gint64 y = ((const Task *) tasks)[*(const guint *) b].rank->bytes;

  return x > y ? -1 : x < y;
}

/* Task indices, the biggest DB first (ties in rank order): the last ranks
 * to start, which may end with a core to themselves, are the smallest. */
static guint *
order_by_size (AfgJobLoad *self)
{
  guint n = self->summaries->len;
  guint *order = g_new (guint, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint), compare_sizes, self->tasks);
  return order;
}

/* One rank per core at a time, each read on its own core (one reader, no
 * helper threads): two ranks side by side need no merge of a split read,
 * and one rank's writing overlaps the other's reading. A job of fewer
 * ranks than cores gives each its share. */
void
afg_job_load_run (AfgJobLoad *self, GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;
  guint cores = afg_cores_get ();
  guint workers = MAX (1, MIN (cores, self->summaries->len));
  GThreadPool *pool = g_thread_pool_new (rank_worker, self, (int) workers, FALSE, &error);

  g_autofree guint *order = order_by_size (self);

  self->worker_cores = MAX (1, cores / workers);
  tune_malloc (self->options.reuse_memory);
  for (guint i = 0; i < self->summaries->len; i++)
    self->tasks[i].cancellable = cancellable;
  /* Marked, not counted as workers take tasks: two workers taking the
   * last two at once may count them in either order. */
  if (self->summaries->len > 0)
    self->tasks[order[self->summaries->len - 1]].last = TRUE;
  for (guint i = 0; i < self->summaries->len; i++)
    {
      if (pool == NULL)
        rank_worker (&self->tasks[order[i]], self);
      else
        g_thread_pool_push (pool, &self->tasks[order[i]], NULL);
    }
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);
}
