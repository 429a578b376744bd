/* SPDX-License-Identifier: MIT */
/* A training job's folder in the window. Its ranks are read in
 * the background (afg-job-load.c) and listed in the rank sidebar; the
 * first rank read is shown at once, any other is loaded again from its DB
 * when picked, so that only the summaries, the merged tree of "All ranks"
 * and the rank on screen stay in memory. */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-job-collectives.h"
#include "afg-job-load.h"
#include "afg-job-merge.h"
#include "afg-merged-tree.h"
#include "afg-rank-sidebar.h"
#include "afg-settings.h"
#include "afg-ranks-section.h"
#include "afg-window-private.h"

/* How long AFG_TEST_HOLD_RANKS keeps a worker waiting for Cancel. */
#define TEST_HOLD_LIMIT_MS 60000

/* What the window shows of "All ranks" (its base tree, before any
 * transform): nothing (a rank, a diff, its loading page), or the whole
 * or the NPU-idle merge. */
typedef enum {
  ALL_SHOWN_NONE,
  ALL_SHOWN_WHOLE,
  ALL_SHOWN_IDLE,
} AllShown;

typedef struct {
  AfgJobLoad    *load;
  GFile         *folder;
  GCancellable  *cancellable;    /* the request's, for Cancel */
  GCancellable  *hold;           /* the same, for the workers' test hold */
  gboolean       waiting_first;  /* the loading page waits for a rank */
  gboolean       test_hold;      /* AFG_TEST_HOLD_RANKS: hold each rank */

  GMutex         lock;           /* the workers' hand-over: */
  AfgMergedTree *merged;         /* every rank's tree added up */
  AfgTree       *first;          /* the first rank's tree, until shown */
  int            first_index;
  AfgTree       *idle_all;       /* "All ranks" in the NPU-idle instants, once read */
  guint          idle_merged;    /* the ranks in it */
  AllShown       shown;          /* which "All ranks" the window shows */
  gboolean       idle_pending;   /* idle_all being read on the loading page */

  /* "Explain the Straggler": the ranks (job indices) of the diff it
   * asked for, -1 when none, and once that diff shows, what it says. */
  int            explain_straggler;
  int            explain_reference;
  char          *explanation;
} RanksJob;

struct _AfgRanksSection {
  GObject         parent_instance;

  AfgWindow      *window;   /* not a reference: the window keeps the section */
  AfgRankSidebar *sidebar;  /* in the window's widget tree */
  AfgWorker      *worker;
  RanksJob       *job;      /* the job folder open, or NULL */
};

G_DEFINE_FINAL_TYPE (AfgRanksSection, afg_ranks_section, G_TYPE_OBJECT)

static void
job_clear (gpointer data)
{
  RanksJob *job = data;

  g_clear_pointer (&job->load, afg_job_load_unref);
  g_clear_object (&job->folder);
  g_clear_object (&job->cancellable);
  g_clear_object (&job->hold);
  g_mutex_clear (&job->lock);
  g_clear_pointer (&job->merged, afg_merged_tree_free);
  g_clear_pointer (&job->first, afg_tree_unref);
  g_clear_pointer (&job->idle_all, afg_tree_unref);
  g_free (job->explanation);
}

static void
job_release (RanksJob *job)
{
  g_atomic_rc_box_release_full (job, job_clear);
}

/* A GUI test that clicks Cancel needs ranks still unread at the click,
 * however fast the machine: with AFG_TEST_HOLD_RANKS set, each worker
 * waits here, its rank read but not yet counted, until the job is
 * cancelled (or a minute passes, so that a test that never cancels is
 * not stuck). The ranks not started then are the ones Cancel stops. */
static void
hold_until_cancelled (RanksJob *job)
{
  GPollFD fd;

  if (!job->test_hold || !g_cancellable_make_pollfd (job->hold, &fd))
    return;
  g_poll (&fd, 1, TEST_HOLD_LIMIT_MS);
  g_cancellable_release_fd (job->hold);
}

/* In a worker: the rank's tree is added to "All ranks", and the first one
 * read is kept for the window to show without reading it again. */
static gboolean
use_rank_tree (const AfgJobRank *rank, guint index, AfgTree *tree, gpointer data, GError **error)
{
  RanksJob *job = data;

  hold_until_cancelled (job);
  g_mutex_lock (&job->lock);
  afg_merged_tree_add (job->merged, tree);
  if (job->first == NULL && job->first_index < 0)
    {
      job->first = afg_tree_ref (tree);
      job->first_index = (int) index;
    }
  g_mutex_unlock (&job->lock);
  return TRUE;
}

static GFile *
rank_file (RanksJob *job, guint index)
{
  const AfgJobRank *rank = g_ptr_array_index (afg_job_load_get_folder (job->load)->ranks, index);

  return g_file_new_for_path (rank->path);
}

static void
show_first (AfgRanksSection *self, RanksJob *job)
{
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GFile) file = NULL;

  g_mutex_lock (&job->lock);
  tree = g_steal_pointer (&job->first);
  g_mutex_unlock (&job->lock);
  if (tree == NULL || !job->waiting_first)
    return;
  job->waiting_first = FALSE;
  file = rank_file (job, job->first_index);
  afg_session_set_file (self->window->session, file);
  afg_rank_sidebar_select (self->sidebar, job->first_index);
  _afg_window_show_profile (self->window, tree, NULL);
  /* Built with the setting of when the job started: "Merge Address
   * Variants" may have been toggled since. */
  if ((afg_tree_get_flags (tree) ^ _afg_window_tree_flags (self->window)) & AFG_TREE_MERGE_ADDRESSES)
    afg_steps_bar_rebuild (self->window->steps_bar);
}

static void
show_job_progress (AfgRanksSection *self, RanksJob *job)
{
  guint n = afg_job_load_get_n_ranks (job->load);
  guint read = afg_rank_sidebar_get_n_read (self->sidebar);

  afg_loading_page_show_ranks (self->window->loading_page, read, n);
}

static void
poll_job (gpointer owner, gpointer data)
{
  AfgRanksSection *self = owner;
  RanksJob *job = data;

  afg_rank_sidebar_refresh (self->sidebar);
  if (job->waiting_first)
    show_job_progress (self, job);
  show_first (self, job);
  _afg_window_report_state (self->window);
}

/* No rank could be shown: the first rank's error, or the job's. */
static void
show_no_rank (AfgRanksSection *self, RanksJob *job)
{
  AfgRankSummary * const *summaries = afg_job_load_get_summaries (job->load);
  g_autoptr(GError) error = NULL;

  job->waiting_first = FALSE;
  for (guint i = 0; i < afg_job_load_get_n_ranks (job->load) && error == NULL; i++)
    if (summaries[i]->error != NULL)
      error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, _("rank %d: %s"), summaries[i]->rank, summaries[i]->error);
  if (error == NULL)
    error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, _("No rank of this job could be read"));
  _afg_window_show_error (self->window, error);
}

/* Cancelled before any rank was read: the start page, the sidebar kept
 * (a rank picked there is read on demand). */
static void
show_cancelled (AfgRanksSection *self, RanksJob *job)
{
  job->waiting_first = FALSE;
  gtk_stack_set_visible_child_name (self->window->stack, "empty");
}

/* Every rank, read or cancelled: the result is the job itself. */
static gpointer
run_job (gpointer data, GCancellable *cancellable, GError **error)
{
  RanksJob *job = data;

  job->hold = g_object_ref (cancellable);
  afg_job_load_run (job->load, cancellable);
  return job;
}

/* Also after Cancel, which stops the ranks not started but not the job. */
static void
on_job_done (gpointer owner, gpointer result, const GError *error, gpointer data)
{
  AfgRanksSection *self = owner;
  RanksJob *job = data;

  afg_rank_sidebar_refresh (self->sidebar);
  show_first (self, job);
  /* "While NPU idle" can now scope "All ranks" on screen. */
  if (afg_ranks_section_showing_all (self) && job->shown != ALL_SHOWN_NONE)
    _afg_window_steps_show (self->window);
  if (job->waiting_first && g_cancellable_is_cancelled (job->cancellable))
    show_cancelled (self, job);
  else if (job->waiting_first)
    show_no_rank (self, job);
  _afg_window_update_actions (self->window);
}

static const AfgWorkerFuncs job_funcs = {
  .name = "afg-job",
  .run = run_job,
  .poll = poll_job,
  .done = on_job_done,
};

/* The workers stop at their next check; the worker drops the rest. */
static gboolean
drop_job (AfgRanksSection *self)
{
  RanksJob *job = g_steal_pointer (&self->job);

  if (job == NULL)
    return FALSE;
  afg_worker_cancel (self->worker);
  job_release (job);
  return TRUE;
}

static void
close_job (AfgRanksSection *self)
{
  if (!drop_job (self))
    return;
  afg_session_set_job_folder (self->window->session, NULL);
  afg_rank_sidebar_set_job (self->sidebar, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->sidebar), FALSE);
}

static RanksJob *
job_new (AfgRanksSection *self, GFile *folder, AfgJobFolder *found)
{
  RanksJob *job = g_atomic_rc_box_new0 (RanksJob);
  g_autofree char *path = g_file_get_path (folder);
  AfgJobLoadOptions options = { _afg_window_tree_flags (self->window), FALSE, 0, 0, use_rank_tree, job };

  g_mutex_init (&job->lock);
  job->folder = g_object_ref (folder);
  job->test_hold = g_getenv ("AFG_TEST_HOLD_RANKS") != NULL;
  job->merged = afg_merged_tree_new ();
  job->first_index = -1;
  job->explain_straggler = job->explain_reference = -1;
  job->load = afg_job_load_new (path, found, &options);
  return job;
}

static void
show_folder_error (AfgRanksSection *self, const GError *error)
{
  const char *hint = afg_job_error_get_hint (error);

  _afg_window_show_error (self->window, error);
  afg_error_page_show (self->window->error_page, error, hint);
}

static void
start_job (AfgRanksSection *self, GFile *folder, AfgJobFolder *found)
{
  g_autofree char *name = g_file_get_basename (folder);
  g_autofree char *title = g_strdup_printf (_("Loading the ranks of %s…"), name);
  RanksJob *job = job_new (self, folder, found);

  self->job = job;
  job->waiting_first = TRUE;
  afg_session_set_job_folder (self->window->session, folder);
  afg_loading_page_set_title (self->window->loading_page, title);
  gtk_stack_set_visible_child_name (self->window->stack, "loading");
  _afg_window_steps_hide (self->window);
  afg_rank_sidebar_set_job (self->sidebar, job->load);
  gtk_widget_set_visible (GTK_WIDGET (self->sidebar), TRUE);
  show_job_progress (self, job);
  job->cancellable = g_object_ref (afg_worker_start (self->worker, &job_funcs, g_atomic_rc_box_acquire (job),
                                                     (GDestroyNotify) job_release));
  _afg_window_update_actions (self->window);
}

/* TRUE when @file is a folder, opened as a job; else any job is closed. */
gboolean
afg_ranks_section_open (AfgRanksSection *self, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr(GError) error = NULL;
  AfgJobFolder *found;

  close_job (self);
  if (path == NULL || !afg_job_folder_is_folder (path))
    return FALSE;
  afg_worker_cancel (afg_loading_page_get_worker (self->window->loading_page));
  afg_session_set_file (self->window->session, file);
  gtk_window_set_title (GTK_WINDOW (self->window), name);
  found = afg_job_folder_discover (path, &error);
  for (guint i = 0; found != NULL && i < found->warnings->len; i++)
    g_warning ("%s", (const char *) g_ptr_array_index (found->warnings, i));
  if (found == NULL)
    show_folder_error (self, error);
  else
    start_job (self, file, found);
  return TRUE;
}

/* The merged tree of "All ranks" on screen, @merged of the job's ranks
 * in it, @idle when in their NPU-idle instants. */
static void
show_merged (AfgRanksSection *self, RanksJob *job, AfgTree *tree, guint merged, gboolean idle)
{
  guint frames = afg_tree_get_n_nodes (tree) - 2;
  g_autofree char *n_frames = afg_format_count (frames);
  g_autofree char *status = NULL;
  guint n = afg_job_load_get_n_ranks (job->load);

  afg_worker_cancel (afg_loading_page_get_worker (self->window->loading_page));
  job->waiting_first = FALSE;
  job->idle_pending = FALSE;
  job->shown = idle ? ALL_SHOWN_IDLE : ALL_SHOWN_WHOLE;
  afg_session_set_file (self->window->session, job->folder);
  _afg_window_show_profile (self->window, tree, NULL);
  /* Not a load: the ranks' threads and addresses merged. */
  if (idle)
    status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%u of %u ranks merged in their NPU-idle instants, their threads and "
                                           "addresses merged · %s frame",
                                           "%u of %u ranks merged in their NPU-idle instants, their threads and "
                                           "addresses merged · %s frames", frames),
                              merged, n, n_frames);
  else
    status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%u of %u ranks merged, their threads and addresses merged · %s frame",
                                           "%u of %u ranks merged, their threads and addresses merged · %s frames",
                                           frames),
                              merged, n, n_frames);
  afg_status_bar_pin_text (self->window->status_bar, tree, status);
}

/* ---- "All ranks" in the NPU-idle instants ---- */

typedef struct {
  RanksJob          *job;     /* a reference: the tree is kept there */
  char              *path;
  AfgJobFolder      *folder;  /* a copy of the job's */
  AfgTreeFlags       flags;
  AfgJobMergeCounts  counts;
} IdleRequest;

static void
idle_request_free (gpointer data)
{
  IdleRequest *req = data;

  job_release (req->job);
  g_free (req->path);
  afg_job_folder_free (req->folder);
  g_free (req);
}

static gpointer
merge_idle (gpointer data, GCancellable *cancellable, GError **error)
{
  IdleRequest *req = data;

  return afg_job_merge_ranks (req->path, req->folder, req->flags, FALSE, 0, 0, TRUE, &req->counts, cancellable,
                              error);
}

static void
poll_idle (gpointer owner, gpointer data)
{
  IdleRequest *req = data;

  afg_loading_page_show_ranks (owner, (guint) g_atomic_int_get (&req->counts.read),
                               afg_job_load_get_n_ranks (req->job->load));
}

static void show_all_ranks (AfgRanksSection *self, RanksJob *job);

/* Kept, and shown unless While NPU idle went off meanwhile. No rank with
 * idle instants read: the whole "All ranks" again, the notice saying why. */
static void
on_idle_merged (gpointer owner, gpointer result, const GError *error, gpointer data)
{
  AfgWindow *window = AFG_WINDOW (gtk_widget_get_root (owner));
  AfgRanksSection *self = window->ranks;
  IdleRequest *req = data;

  if (self->job != req->job)
    {
      g_clear_pointer (&result, afg_tree_unref);
      return;
    }
  req->job->idle_pending = FALSE;
  if (result != NULL)
    {
      req->job->idle_all = result;
      req->job->idle_merged = req->counts.merged;
    }
  else
    {
      _afg_window_show_notice (window, error->message, NULL);
      afg_session_set_npu_idle (window->session, FALSE);
    }
  /* Switching While NPU idle off showed the whole one already, unless it
   * was shown before the read. */
  if (g_strcmp0 (gtk_stack_get_visible_child_name (window->stack), "loading") == 0)
    show_all_ranks (self, req->job);
}

static const AfgWorkerFuncs idle_funcs = {
  .name = "afg-idle-ranks",
  .run = merge_idle,
  .poll = poll_idle,
  .done = on_idle_merged,
  .free_result = (GDestroyNotify) afg_tree_unref,
  .takes_result = TRUE,  /* the job keeps it */
};

/* Every rank read again in its NPU-idle instants, as the command line's
 * --npu-idle reads a job: the merged tree keeps no rank's instants. */
static void
merge_idle_ranks (AfgRanksSection *self, RanksJob *job)
{
  AfgWindow *window = self->window;
  IdleRequest *req = g_new0 (IdleRequest, 1);

  req->job = g_atomic_rc_box_acquire (job);
  req->path = g_file_get_path (job->folder);
  req->folder = afg_job_folder_copy (afg_job_load_get_folder (job->load));
  req->flags = _afg_window_tree_flags (window);
  /* "All ranks" is what the window shows from now, as for a rank's load:
   * no step diff of the rank before lands over it. */
  job->idle_pending = TRUE;
  job->waiting_first = FALSE;
  job->shown = ALL_SHOWN_NONE;
  afg_session_set_file (window->session, job->folder);
  afg_loading_page_begin (window->loading_page, _("Reading every rank in its NPU-idle instants…"));
  gtk_stack_set_visible_child_name (window->stack, "loading");
  _afg_window_steps_hide (window);
  _afg_window_update_actions (window);
  afg_worker_start (afg_loading_page_get_worker (window->loading_page), &idle_funcs, req, idle_request_free);
}

/* The job's ranks are all read (or failed, or cancelled), and every one
 * read has a device timeline: their NPU-idle instants can scope "All
 * ranks". Not before: a second read of the job beside the first would
 * hold twice the documents. */
static gboolean
all_have_device (RanksJob *job)
{
  AfgRankSummary * const *summaries = afg_job_load_get_summaries (job->load);
  guint read = 0;

  for (guint i = 0; i < afg_job_load_get_n_ranks (job->load); i++)
    switch (afg_job_load_get_state (job->load, i, NULL, NULL))
      {
      case AFG_RANK_STATE_DONE:
        if (!summaries[i]->has_device)
          return FALSE;
        read++;
        break;
      case AFG_RANK_STATE_FAILED:
      case AFG_RANK_STATE_CANCELLED:
        break;
      default:
        return FALSE;
      }
  return read > 0;
}

static gboolean
wants_idle (AfgRanksSection *self, RanksJob *job)
{
  return afg_session_get_npu_idle (self->window->session) && all_have_device (job);
}

static void
show_all_ranks (AfgRanksSection *self, RanksJob *job)
{
  g_autofree char *path = g_file_get_path (job->folder);
  g_autoptr(AfgTree) tree = NULL;
  guint merged;

  if (wants_idle (self, job) && job->idle_all == NULL)
    {
      merge_idle_ranks (self, job);
      return;
    }
  if (wants_idle (self, job))
    {
      show_merged (self, job, job->idle_all, job->idle_merged, TRUE);
      return;
    }
  g_mutex_lock (&job->lock);
  tree = afg_merged_tree_build (job->merged, path);
  merged = afg_merged_tree_get_n_added (job->merged);
  g_mutex_unlock (&job->lock);
  show_merged (self, job, tree, merged, FALSE);
}

static void
on_rank_selected (AfgRanksSection *self, int index, AfgRankSidebar *sidebar)
{
  g_autoptr(GFile) file = NULL;

  if (self->job == NULL)
    return;
  if (index == AFG_RANK_SIDEBAR_ALL)
    {
      show_all_ranks (self, self->job);
      return;
    }
  self->job->waiting_first = FALSE;
  self->job->idle_pending = FALSE;
  self->job->shown = ALL_SHOWN_NONE;
  file = rank_file (self->job, index);
  _afg_window_load (self->window, file);
}

/* A click on the rank shown while a diff of it is on screen: back to
 * the rank alone. */
static void
on_rank_reselected (AfgRanksSection *self, int index, AfgRankSidebar *sidebar)
{
  if (self->job != NULL)
    afg_compare_section_stop (self->window->compare);
}

static void
afg_ranks_section_dispose (GObject *object)
{
  AfgRanksSection *self = AFG_RANKS_SECTION (object);

  drop_job (self);
  g_clear_object (&self->worker);

  G_OBJECT_CLASS (afg_ranks_section_parent_class)->dispose (object);
}

static void
afg_ranks_section_class_init (AfgRanksSectionClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = afg_ranks_section_dispose;
}

static void
afg_ranks_section_init (AfgRanksSection *self)
{
  self->worker = afg_worker_new (self);
}

/* The sidebar left of everything @window shows, added here rather than
 * in the template so that the template keeps its shape. */
AfgRanksSection *
afg_ranks_section_new (AfgWindow *window)
{
  AfgRanksSection *self = g_object_new (AFG_TYPE_RANKS_SECTION, NULL);
  g_autoptr(GtkWidget) content = g_object_ref (gtk_window_get_child (GTK_WINDOW (window)));
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);

  self->window = window;
  self->sidebar = AFG_RANK_SIDEBAR (afg_rank_sidebar_new ());
  gtk_widget_set_visible (GTK_WIDGET (self->sidebar), FALSE);
  g_signal_connect_swapped (self->sidebar, "rank-selected", G_CALLBACK (on_rank_selected), self);
  g_signal_connect_swapped (self->sidebar, "rank-reselected", G_CALLBACK (on_rank_reselected), self);
  gtk_window_set_child (GTK_WINDOW (self->window), NULL);
  gtk_paned_set_start_child (GTK_PANED (paned), GTK_WIDGET (self->sidebar));
  gtk_paned_set_end_child (GTK_PANED (paned), content);
  gtk_paned_set_resize_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_window_set_child (GTK_WINDOW (self->window), paned);
  return self;
}

gboolean
afg_ranks_section_showing_all (AfgRanksSection *self)
{
  return self->job != NULL && afg_rank_sidebar_get_selected (self->sidebar) == AFG_RANK_SIDEBAR_ALL
         && _afg_window_get_file (self->window) != NULL && g_file_equal (_afg_window_get_file (self->window), self->job->folder);
}

char *
afg_ranks_section_rank_label (AfgRanksSection *self, GFile *file)
{
  GPtrArray *ranks;

  if (self->job == NULL || file == NULL)
    return NULL;
  ranks = afg_job_load_get_folder (self->job->load)->ranks;
  for (guint i = 0; i < ranks->len; i++)
    {
      const AfgJobRank *rank = g_ptr_array_index (ranks, i);
      g_autoptr(GFile) db = g_file_new_for_path (rank->path);

      if (rank->rank >= 0 && g_file_equal (db, file))
        return g_strdup_printf (_("Rank %d"), rank->rank);
    }
  return NULL;
}

gboolean
afg_ranks_section_all_have_device (AfgRanksSection *self)
{
  return afg_ranks_section_showing_all (self) && all_have_device (self->job);
}

gboolean
afg_ranks_section_showing_idle (AfgRanksSection *self)
{
  return afg_ranks_section_showing_all (self) && self->job->shown == ALL_SHOWN_IDLE
         && !_afg_window_is_comparing (self->window);
}

gboolean
afg_ranks_section_npu_idle_changed (AfgRanksSection *self)
{
  RanksJob *job = self->job;

  if (!afg_ranks_section_showing_all (self))
    return FALSE;
  if (job->idle_pending || job->shown == ALL_SHOWN_NONE
      || (job->shown == ALL_SHOWN_IDLE) != wants_idle (self, job))
    show_all_ranks (self, job);
  return TRUE;
}

/* Cancel on the loading page while no rank is shown yet stops the job;
 * while "All ranks" is read in the NPU-idle instants, While NPU idle goes
 * off again over the whole "All ranks" still shown. */
void
afg_ranks_section_cancel_first (AfgRanksSection *self)
{
  if (afg_ranks_section_showing_all (self) && self->job->idle_pending)
    {
      self->job->idle_pending = FALSE;
      afg_session_set_npu_idle (self->window->session, FALSE);
    }
  if (self->job != NULL && self->job->waiting_first)
    {
      self->job->waiting_first = FALSE;
      g_cancellable_cancel (self->job->cancellable);
    }
}

static void
on_folder_response (GtkNativeDialog *chooser, int response, AfgWindow *window)
{
  g_autoptr(GFile) folder = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_clear_object (&window->chooser);
  if (folder != NULL)
    _afg_window_open_beside (window, folder);
}

static void
open_folder_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *window = AFG_WINDOW (widget);

  g_clear_object (&window->chooser);
  window->chooser = gtk_file_chooser_native_new (_("Open a Training Job's Folder"), GTK_WINDOW (window),
                                                 GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (window->chooser), TRUE);
  afg_settings_restore_folder (GTK_FILE_CHOOSER (window->chooser));
  g_signal_connect (window->chooser, "response", G_CALLBACK (on_folder_response), window);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (window->chooser));
}

static void
cancel_ranks_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgRanksSection *self = AFG_WINDOW (widget)->ranks;

  if (self->job != NULL)
    g_cancellable_cancel (self->job->cancellable);
}

static void
compare_rank_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgRanksSection *self = AFG_WINDOW (widget)->ranks;
  int a = afg_rank_sidebar_get_selected (self->sidebar);
  int b = g_variant_get_int32 (param);
  guint n = self->job ? afg_job_load_get_n_ranks (self->job->load) : 0;
  g_autoptr(GFile) file_a = NULL;
  g_autoptr(GFile) file_b = NULL;

  if (a < 0 || b < 0 || (guint) a >= n || (guint) b >= n)
    return;
  file_a = rank_file (self->job, a);
  file_b = rank_file (self->job, b);
  afg_compare_section_compare (self->window->compare, file_a, file_b);
}

/* The straggler's diff from the rank nearest the median compute time, in
 * the compute weight: A the reference, B the straggler, so that the
 * graph is the straggler's and its colours what it does more. */
static void
explain_straggler_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgRanksSection *self = AFG_WINDOW (widget)->ranks;
  g_autoptr(GFile) reference = NULL;
  g_autoptr(GFile) straggler = NULL;
  int s, r;

  if (self->job == NULL || !afg_rank_sidebar_get_explained (self->sidebar, &s, &r))
    return;
  self->job->explain_straggler = s;
  self->job->explain_reference = r;
  g_clear_pointer (&self->job->explanation, g_free);
  /* Compute time: not in the NPU-idle scope, where there is none. */
  afg_session_set_npu_idle (self->window->session, FALSE);
  afg_session_set_weight (self->window->session, AFG_WEIGHT_COMPUTE);
  reference = rank_file (self->job, r);
  straggler = rank_file (self->job, s);
  afg_compare_section_compare (self->window->compare, reference, straggler);
}

static gboolean
is_side (AfgDiffShape *shape, AfgDiffSide side, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);

  return g_strcmp0 (afg_document_get_source_path (afg_tree_get_document (afg_diff_shape_get_source (shape, side))),
                    path) == 0;
}

/* Called when a diff shows: the one "Explain the Straggler" asked for
 * gets its words, when the straggler's steps start, in the status line. */
void
afg_ranks_section_diff_shown (AfgRanksSection *self, AfgDiffShape *shape)
{
  RanksJob *job = self->job;
  AfgRankSummary * const *summaries;
  g_autoptr(GFile) reference = NULL;
  g_autoptr(GFile) straggler = NULL;
  g_autofree char *status = NULL;

  if (job == NULL)
    return;
  g_clear_pointer (&job->explanation, g_free);
  if (job->explain_straggler < 0)
    return;
  reference = rank_file (job, job->explain_reference);
  straggler = rank_file (job, job->explain_straggler);
  if (!is_side (shape, AFG_DIFF_SIDE_A, reference) || !is_side (shape, AFG_DIFF_SIDE_B, straggler))
    return;
  summaries = afg_job_load_get_summaries (job->load);
  job->explanation = afg_job_explain_offset (summaries[job->explain_straggler]->rank,
                                             afg_tree_get_document (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_B)),
                                             summaries[job->explain_reference]->rank,
                                             afg_tree_get_document (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A)));
  status = g_strdup_printf ("%s · %s", job->explanation, afg_status_bar_get_text (self->window->status_bar));
  afg_status_bar_set_text (self->window->status_bar, status);
}

void
afg_ranks_section_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-ranks", NULL, cancel_ranks_action);
  gtk_widget_class_install_action (widget_class, "win.compare-rank", "i", compare_rank_action);
  gtk_widget_class_install_action (widget_class, "win.explain-straggler", NULL, explain_straggler_action);
}

/* The state line's job fields (afg-state-line.c). */
void
afg_ranks_section_append_state (AfgRanksSection *self, GString *line)
{
  g_autofree char *ranks = NULL;
  g_autofree char *rank = NULL;
  g_autofree char *stragglers = NULL;
  g_autofree char *cancelled = NULL;
  int selected;

  if (self->job != NULL)
    {
      ranks = g_strdup_printf ("%u/%u", afg_rank_sidebar_get_n_read (self->sidebar),
                               afg_job_load_get_n_ranks (self->job->load));
      stragglers = afg_rank_sidebar_get_stragglers (self->sidebar);
      cancelled = g_strdup_printf ("%u", afg_rank_sidebar_get_n_cancelled (self->sidebar));
      selected = afg_rank_sidebar_get_selected (self->sidebar);
      if (selected == AFG_RANK_SIDEBAR_ALL)
        rank = g_strdup ("all");
      else if (selected >= 0)
        rank = g_strdup_printf ("%d", afg_job_load_get_summaries (self->job->load)[selected]->rank);
    }
  _afg_window_append_state_field (line, "ranks", ranks);
  _afg_window_append_state_field (line, "rank", rank);
  _afg_window_append_state_field (line, "straggler", stragglers);
  _afg_window_append_state_field (line, "cancelled", cancelled);
}

/* The state line's last fields: the straggler explained, while its diff
 * shows, and the device split the sidebar's picked rank stacks. */
void
afg_ranks_section_append_explain (AfgRanksSection *self, GString *line)
{
  gboolean shown = self->job != NULL && _afg_window_is_comparing (self->window);
  g_autofree char *bars = self->job != NULL ? afg_rank_sidebar_get_device_bars (self->sidebar) : NULL;

  _afg_window_append_state_field (line, "explain", shown ? self->job->explanation : NULL);
  _afg_window_append_state_field (line, "rank_bars", bars);
}

void
afg_ranks_section_append_verdict (AfgRanksSection *self, GString *line)
{
  _afg_window_append_state_field (line, "verdict", self->job != NULL ? afg_rank_sidebar_get_verdict (self->sidebar) : NULL);
}
