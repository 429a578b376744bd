/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-document-timeline.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"
#include "afg-window-private.h"

/* The counters the loading thread keeps, for the main loop's poll. */
typedef struct {
  char         *path;
  AfgTreeFlags  flags;
  gint64        started;
  AfgLoadCounters counters;
} LoadRequest;

static void
load_request_free (gpointer data)
{
  LoadRequest *req = data;

  g_free (req->path);
  g_free (req);
}

static void
poll_progress (gpointer owner, gpointer data)
{
  LoadRequest *req = data;

  afg_loading_page_show_counters (owner, &req->counters, 1);
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

static gpointer
make_free_spans (gpointer document)
{
  afg_document_get_free_spans (document);
  return NULL;
}

/* The document, its whole-profile tree and that tree's first layout (for
 * a big profile 10+ ms of page faults), off the main thread. */
static gpointer
load_first_view (gpointer data, GCancellable *cancellable, GError **error)
{
  LoadRequest *req = data;
  /* The tasks are kept for the stack chart: it opens without reading the DB again. */
  g_autoptr(AfgDocument) document = afg_document_load_with_flags (req->path, AFG_LOAD_KEEP_TASKS, cancellable,
                                                                  afg_load_counters_store, &req->counters, error);
  GThread *free_spans;
  FirstView *view;

  if (document == NULL)
    return NULL;
  g_atomic_int_set (&req->counters.phase, AFG_LOAD_PHASE_BUILDING);
  /* The device's free time, which the stack chart shades, made beside
   * the tree (11 ms at 1M rows), kept with the document: the chart's
   * first frame would wait for it. */
  free_spans = g_thread_new ("afg-free-spans", make_free_spans, document);
  view = g_new0 (FirstView, 1);
  view->tree = afg_tree_build (document, NULL, req->flags | AFG_TREE_DURATIONS, cancellable, error);
  if (view->tree != NULL)
    view->layout = afg_flame_layout_new (view->tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);
  g_thread_join (free_spans);
  if (view->tree == NULL)
    {
      first_view_free (view);
      return NULL;
    }
  return view;
}

static void
on_loaded (gpointer owner, gpointer result, const GError *error, gpointer data)
{
  AfgWindow *self = AFG_WINDOW (gtk_widget_get_root (owner));
  LoadRequest *req = data;
  FirstView *view = result;

  if (view == NULL)
    {
      _afg_window_show_error (self, error);
      return;
    }
  g_debug ("loaded in %.3f s (wall %.3f s)", afg_document_get_load_seconds (afg_tree_get_document (view->tree)),
           (g_get_monotonic_time () - req->started) / 1e6);
  _afg_window_show_profile (self, view->tree, g_steal_pointer (&view->layout));
  afg_steps_bar_keep_whole (self->steps_bar, view->tree);
  /* Built with the setting of when the load started: "Merge Address
   * Variants" may have been toggled since. */
  if ((req->flags ^ _afg_window_tree_flags (self)) & AFG_TREE_MERGE_ADDRESSES)
    afg_steps_bar_rebuild (self->steps_bar);
}

/* The loading thread runs below the UI's priority, and so does the
 * reader thread it starts: the window keeps servicing input while both
 * cores load. */
static const AfgWorkerFuncs load_funcs = {
  .name = "afg-load",
  .run = load_first_view,
  .poll = poll_progress,
  .done = on_loaded,
  .free_result = first_view_free,
  .nice = 10,
};

void
_afg_window_load (AfgWindow *self, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *title = g_strdup_printf (_("Loading %s…"), name);
  g_autofree char *window_title = _afg_window_title_name (self, name);
  LoadRequest *req;

  g_assert (AFG_IS_WINDOW (self));

  afg_worker_cancel (afg_loading_page_get_worker (self->loading_page));
  afg_session_set_file (self->session, file);
  g_debug ("loading %s", path ? path : "(no local path)");
  afg_loading_page_begin (self->loading_page, title);
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
  req = g_new0 (LoadRequest, 1);
  req->path = g_steal_pointer (&path);
  req->flags = _afg_window_tree_flags (self);
  req->started = g_get_monotonic_time ();
  afg_worker_start (afg_loading_page_get_worker (self->loading_page), &load_funcs, req, load_request_free);
}
