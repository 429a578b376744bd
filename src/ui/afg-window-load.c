/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-loader.h"
#include "afg-tree-builder.h"
#include "afg-window-private.h"

/* Progress reaches the main loop through at most one pending idle, and
 * no more often than this, so a fast loader cannot flood the main loop. */
#define PROGRESS_INTERVAL_USEC (50 * 1000)

typedef struct {
  GMutex        mutex;
  GWeakRef      window;
  GCancellable *cancellable;
  gint64        started;
  gint64        last_update;
  AfgLoadPhase  phase;
  AfgLoadPhase  shown_phase;
  guint64       rows;
  guint64       total;
  gboolean      idle_pending;
} LoadRequest;

static void
load_request_clear (LoadRequest *req)
{
  g_mutex_clear (&req->mutex);
  g_weak_ref_clear (&req->window);
  g_clear_object (&req->cancellable);
}

static void
load_request_release (gpointer data)
{
  g_atomic_rc_box_release_full (data, (GDestroyNotify) load_request_clear);
}

static LoadRequest *
load_request_new (AfgWindow *self)
{
  LoadRequest *req = g_atomic_rc_box_new0 (LoadRequest);

  g_mutex_init (&req->mutex);
  g_weak_ref_init (&req->window, self);
  req->cancellable = g_object_ref (self->load_cancellable);
  req->started = g_get_monotonic_time ();
  req->shown_phase = AFG_LOAD_PHASE_OPENING;
  return req;
}

/* Returns the window only while this request is still the window's
 * current load: results of a cancelled or replaced load are dropped. */
static AfgWindow *
load_request_get_window (LoadRequest *req)
{
  AfgWindow *self = g_weak_ref_get (&req->window);

  if (self != NULL && self->load_cancellable == req->cancellable
      && !g_cancellable_is_cancelled (req->cancellable))
    return self;
  g_clear_object (&self);
  return NULL;
}

void
_afg_window_show_progress (AfgWindow *self, AfgLoadPhase phase, guint64 rows, guint64 total)
{
  g_autofree char *text = NULL;

  if (phase == AFG_LOAD_PHASE_READING)
    {
      text = total > 0
        ? g_strdup_printf (_("Reading rows: %'" PRIu64 " of about %'" PRIu64), rows, total)
        : g_strdup_printf (_("Reading rows: %'" PRIu64), rows);
      gtk_progress_bar_set_fraction (self->loading_bar, total > 0 ? MIN (1.0, (double) rows / total) : 0);
    }
  else if (phase == AFG_LOAD_PHASE_BUILDING)
    {
      text = g_strdup (_("Building the flame graph…"));
      gtk_progress_bar_set_fraction (self->loading_bar, 1.0);
    }
  else
    text = g_strdup (_("Opening the database…"));
  gtk_label_set_text (self->loading_label, text);
}

static gboolean
progress_idle (gpointer data)
{
  LoadRequest *req = data;
  g_autoptr(AfgWindow) self = NULL;
  AfgLoadPhase phase;
  guint64 rows, total;

  g_mutex_lock (&req->mutex);
  phase = req->phase;
  rows = req->rows;
  total = req->total;
  req->idle_pending = FALSE;
  g_mutex_unlock (&req->mutex);
  if ((self = load_request_get_window (req)) != NULL)
    _afg_window_show_progress (self, phase, rows, total);
  return G_SOURCE_REMOVE;
}

/* Runs in the loading thread. */
static void
on_progress (AfgLoadPhase phase, guint64 rows, guint64 total, gpointer data)
{
  LoadRequest *req = data;
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&req->mutex);
  req->phase = phase;
  req->rows = rows;
  req->total = total;
  if (!req->idle_pending
      && (phase != req->shown_phase || now - req->last_update >= PROGRESS_INTERVAL_USEC))
    {
      req->idle_pending = TRUE;
      req->shown_phase = phase;
      req->last_update = now;
      g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, progress_idle,
                       g_atomic_rc_box_acquire (req), load_request_release);
    }
  g_mutex_unlock (&req->mutex);
}

typedef struct {
  AfgTree        *tree;
  AfgFlameLayout *layout;
} FirstView;

static void
first_view_free (gpointer data)
{
  FirstView *view = data;

  g_clear_pointer (&view->tree, afg_tree_unref);
  g_clear_pointer (&view->layout, afg_flame_layout_free);
  g_free (view);
}

/* The whole-profile tree, and its first layout (for a big profile that
 * costs 10+ ms of page faults), off the main thread. */
static void
build_first_view (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  FirstView *view = g_new0 (FirstView, 1);
  AfgTreeFlags flags = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (task), "tree-flags"));

  view->tree = afg_tree_build (data, NULL, flags | AFG_TREE_DURATIONS, cancellable, &error);
  if (view->tree == NULL)
    {
      first_view_free (view);
      g_task_return_error (task, error);
      return;
    }
  view->layout = afg_flame_layout_new (view->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);
  g_task_return_pointer (task, view, first_view_free);
}

static void
on_first_view_built (GObject *source, GAsyncResult *result, gpointer data)
{
  LoadRequest *req = data;
  AfgDocument *document = g_task_get_task_data (G_TASK (result));
  FirstView *view = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autoptr(AfgWindow) self = load_request_get_window (req);

  if (self == NULL || view == NULL)
    g_debug ("dropped a cancelled or stale load");
  else
    {
      g_debug ("loaded in %.3f s (wall %.3f s)", afg_document_get_load_seconds (document),
               (g_get_monotonic_time () - req->started) / 1e6);
      _afg_window_show_profile (self, view->tree, g_steal_pointer (&view->layout));
    }
  g_clear_pointer (&view, first_view_free);
  load_request_release (req);
}

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  LoadRequest *req = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = afg_document_load_finish (result, &error);
  g_autoptr(AfgWindow) self = load_request_get_window (req);
  g_autoptr(GTask) task = NULL;

  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("dropped a cancelled or stale load");
  else if (document == NULL)
    _afg_window_show_error (self, error);
  else
    {
      task = g_task_new (NULL, self->load_cancellable, on_first_view_built, req);  /* it releases req */
      g_task_set_task_data (task, g_steal_pointer (&document), (GDestroyNotify) afg_document_unref);
      g_object_set_data (G_OBJECT (task), "tree-flags", GUINT_TO_POINTER (_afg_window_tree_flags (self)));
      g_task_run_in_thread (task, build_first_view);
      return;
    }
  load_request_release (req);
}

void
_afg_window_load (AfgWindow *self, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *title = g_strdup_printf (_("Loading %s…"), name);
  g_autofree char *window_title = _afg_window_title_name (self, name);
  LoadRequest *req;

  g_assert (AFG_IS_WINDOW (self));

  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  afg_session_set_file (self->session, file);
  g_debug ("loading %s", path ? path : "(no local path)");
  gtk_label_set_text (self->loading_title, title);
  _afg_window_show_progress (self, AFG_LOAD_PHASE_OPENING, 0, 0);
  gtk_progress_bar_set_fraction (self->loading_bar, 0);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  _afg_window_steps_hide (self);
  gtk_window_set_title (GTK_WINDOW (self), window_title);
  _afg_window_update_actions (self);
  if (path == NULL)
    {
      g_autoptr(GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                             _("%s: only local files can be opened"), name);
      _afg_window_show_error (self, error);
      return;
    }
  /* The request outlives the worker: on_loaded, which runs after the
   * last progress call, releases it. */
  req = load_request_new (self);
  afg_document_load_async (path, self->load_cancellable, on_progress, req, on_loaded, req);
}
