/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-chart-outline.h"
#include "afg-document-timeline.h"
#include "afg-path-mapper.h"
#include "afg-settings.h"
#include "afg-stack-chart.h"
#include "afg-trace-reader.h"
#include "afg-tree-builder.h"
#include "afg-window-private.h"

/* The stack chart below (or instead of) the flame graph: win.layout
 * ("flame", "chart", "both", remembered) shows one or both. The chart's
 * store is built in a worker the first time a document is shown with
 * the chart on, from the tasks the window's load kept (a document loaded
 * otherwise has its tasks read from the DB again). Its scope follows the
 * steps picked; a frame picked in it selects its node in the flame graph
 * (and so the Functions panel), a node picked there outlines its rows in
 * it, F3 and Shift+F3 step through them. With "Sync range" the flame graph is the
 * tree of the visible range, rebuilt at most every SYNC_MS while the
 * view moves and once more when it stops. */

#define SYNC_MS 100

struct _AfgWindowChart {
  /* The template's: */
  AfgStackChart *chart;
  GtkStack      *chart_stack;   /* the chart, or a message */
  GtkLabel      *message;
  GtkWidget     *flame_page;    /* the flame graph's scrolled window */
  GtkPaned      *paned;         /* the two, stacked: the layout shows one or both */
  char          *layout;
  AfgDocument   *document;      /* the store's, or the one being read */
  AfgWorker     *loader;        /* the store's reading */
  gboolean       sync;
  guint          sync_timeout;
  gint64         last_sync;     /* monotonic µs */
  AfgScope       synced;        /* the scope of the last tree asked for */
  AfgWorker     *syncer;        /* the visible range's tree */
  AfgWorker     *outliner;      /* the rows of the node picked, under transforms */
  AfgScope       scope;         /* the steps' scope, to return to */
  gboolean       has_scope;
};

static AfgWindowChart *
chart_of (AfgWindow *self)
{
  return self->chart;
}

static gboolean
chart_shown (AfgWindowChart *c)
{
  return g_strcmp0 (c->layout, "flame") != 0;
}

static void
show_message (AfgWindowChart *c, const char *text)
{
  gtk_label_set_text (c->message, text);
  gtk_stack_set_visible_child_name (c->chart_stack, "message");
}

/* ---- the store ---- */

/* The kept tasks need no DB: the rows are all the work. Only the
 * window's load keeps them, and it made the free time the chart shades
 * beside the first tree (afg-window-load.c). */
static AfgChartStore *
load_kept (AfgDocument *document)
{
  gint64 t0 = g_get_monotonic_time ();
  AfgChartStore *store = afg_chart_store_new_kept (document);

  g_debug ("chart store %.1f ms: %" G_GUINT64_FORMAT " tasks in %" G_GUINT64_FORMAT " B, rows in %"
           G_GUINT64_FORMAT " B", (g_get_monotonic_time () - t0) / 1000.0, afg_chart_store_get_n_tasks (store),
           afg_chart_store_get_task_bytes (store), afg_chart_store_get_row_bytes (store));
  return store;
}

static gpointer
rows_thread (gpointer document)
{
  gint64 t0 = g_get_monotonic_time ();
  AfgChartStore *store = afg_chart_store_new_rows (document);

  g_debug ("chart rows %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
  return store;
}

/* The host rows are nested on a second thread while this one reads the
 * tasks: neither needs the other until the tasks are placed. */
static gpointer
read_store (gpointer data, GCancellable *cancellable, GError **error)
{
  AfgDocument *document = data;
  gint64 t0 = g_get_monotonic_time ();
  GThread *rows;
  g_autoptr(AfgDeviceTasks) tasks = NULL;
  AfgChartStore *store;

  if (afg_document_get_chart_tasks (document) != NULL)
    return load_kept (document);
  rows = g_thread_new ("afg-chart-rows", rows_thread, document);
  tasks = afg_trace_reader_read (document, cancellable, error);
  store = g_thread_join (rows);

  if (tasks == NULL)
    {
      afg_chart_store_unref (store);
      return NULL;
    }
  g_debug ("chart tasks read %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
  afg_chart_store_add_tasks (store, tasks);
  g_debug ("chart store %.1f ms: %" G_GUINT64_FORMAT " tasks in %" G_GUINT64_FORMAT " B, rows in %"
           G_GUINT64_FORMAT " B", (g_get_monotonic_time () - t0) / 1000.0, afg_chart_store_get_n_tasks (store),
           afg_chart_store_get_task_bytes (store), afg_chart_store_get_row_bytes (store));
  return store;
}

/* The flame graph's search dims the chart's boxes it does not name. */
static void
follow_search (AfgWindow *self)
{
  afg_stack_chart_set_search (chart_of (self)->chart, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

static void update_scope (AfgWindow *self);

/* Only the current request's: a newer document's read, or a tree of
 * another document, cancelled it. */
static void
on_loaded (gpointer owner, gpointer result, const GError *error, gpointer data)
{
  AfgWindow *self = owner;
  AfgWindowChart *c = chart_of (self);

  if (result == NULL)
    {
      show_message (c, error->message);
      return;
    }
  afg_stack_chart_set_store (c->chart, result);
  afg_stack_chart_set_merge (c->chart, afg_session_get_merge_addresses (self->session));
  follow_search (self);
  gtk_stack_set_visible_child_name (c->chart_stack, "chart");
  update_scope (self);
  _afg_window_report_state (self);
}

static const AfgWorkerFuncs load_funcs = {
  .name = "afg-chart",
  .run = read_store,
  .done = on_loaded,
  .free_result = (GDestroyNotify) afg_chart_store_unref,
  .takes_result = TRUE,  /* the chart does */
};

static void
load_store (AfgWindow *self, AfgDocument *document)
{
  AfgWindowChart *c = chart_of (self);

  g_clear_pointer (&c->document, afg_document_unref);
  c->document = afg_document_ref (document);
  afg_stack_chart_set_store (c->chart, NULL);
  show_message (c, _("Reading the device tasks…"));
  afg_worker_start (c->loader, &load_funcs, afg_document_ref (document), (GDestroyNotify) afg_document_unref);
}

/* ---- the scope ---- */

/* The tree on screen when it is the session's profile (no diff). */
static AfgTree *
profile_tree (AfgWindow *self)
{
  const AfgFlameLayout *layout = afg_flame_view_get_layout (self->flame_view);
  AfgTree *tree = _afg_window_get_tree (self);

  if (tree == NULL || layout == NULL || _afg_window_is_comparing (self) || afg_flame_layout_get_tree (layout) != tree)
    return NULL;
  return tree;
}

/* A tree of the chart's own (Sync range): a bare time range, or the
 * NPU-idle instants within the range last synced. */
static gboolean
is_range (AfgWindowChart *c, const AfgScope *scope)
{
  if (!scope->bounded || scope->n_steps != 0)
    return FALSE;
  if (!scope->npu_idle)
    return TRUE;
  /* What it was narrowed from must be the scope kept: a whole idle scope
   * that arrives as While NPU idle comes back on is a new scope. */
  return c->has_scope && c->scope.npu_idle && afg_scope_equal (scope, &c->synced);
}

static void sync_now (AfgWindow *self);

/* The chart's axis over @scope: its bounds, else the profile's window,
 * else the host rows' span. */
static void
set_chart_scope (AfgWindowChart *c, AfgTree *tree, const AfgScope *scope)
{
  gint64 start, end;

  if (scope->bounded)
    afg_stack_chart_set_scope (c->chart, scope->start_ns, scope->end_ns);
  else if (afg_document_get_profile_window (afg_tree_get_document (tree), &start, &end)
           || afg_chart_store_get_row_span (afg_stack_chart_get_store (c->chart), &start, &end))
    afg_stack_chart_set_scope (c->chart, start, end);
  else
    afg_stack_chart_set_scope (c->chart, 0, 1);
}

/* While NPU idle switched on or off over the same steps (or between the
 * whole profile and the instants of all its steps): a filter of the same
 * time, not a new place to look at. */
static gboolean
idle_switched (const AfgScope *before, const AfgScope *after)
{
  gboolean whole = (!before->bounded && before->n_steps == 0) || (!after->bounded && after->n_steps == 0);

  return before->npu_idle != after->npu_idle
         && (whole || (before->first_step == after->first_step && before->last_step == after->last_step));
}

/* The chart's axis over @scope. A view the user zoomed or panned to stays
 * (within the new axis) when only While NPU idle was switched; any other
 * new scope shows all of it. */
static void
move_axis (AfgWindowChart *c, AfgTree *tree, const AfgScope *scope)
{
  gint64 axis0, axis1, view0, view1;
  gboolean keep = c->has_scope && idle_switched (&c->scope, scope)
                  && afg_stack_chart_get_view (c->chart, &view0, &view1);

  afg_stack_chart_get_scope (c->chart, &axis0, &axis1);
  set_chart_scope (c, tree, scope);
  if (keep && (view0 != axis0 || view1 != axis1))
    afg_stack_chart_set_view (c->chart, view0, view1);
}

static void
update_scope (AfgWindow *self)
{
  AfgWindowChart *c = chart_of (self);
  AfgTree *tree = _afg_window_get_tree (self);
  const AfgScope *scope;

  if (tree == NULL || afg_stack_chart_get_store (c->chart) == NULL)
    return;
  scope = afg_tree_get_scope (tree);
  if (is_range (c, scope))
    return;
  /* The same scope again (Sync Range off, a rebuild with other flags):
   * the view stays where the user left it. */
  if (!c->has_scope || !afg_scope_equal (scope, &c->scope))
    move_axis (c, tree, scope);
  c->scope = *scope;
  c->has_scope = TRUE;
  /* A new scope (While NPU idle switched, a step picked): synced at
   * once, whether or not the view moved. */
  if (c->sync)
    sync_now (self);
}

/* The scopes kept borrow the document's idle instants: they go with it. */
static void
forget_document (AfgWindowChart *c)
{
  afg_worker_cancel (c->loader);
  afg_worker_cancel (c->syncer);
  afg_worker_cancel (c->outliner);
  g_clear_pointer (&c->document, afg_document_unref);
  afg_stack_chart_set_store (c->chart, NULL);
  c->has_scope = FALSE;
  c->synced = (AfgScope) { 0 };
}

static void
on_tree_changed (AfgWindow *self)
{
  AfgWindowChart *c = chart_of (self);
  AfgTree *tree = _afg_window_get_tree (self);
  AfgDocument *document = tree ? afg_tree_get_document (tree) : NULL;

  if (tree == NULL || _afg_window_is_comparing (self))
    {
      forget_document (c);
      show_message (c, tree ? _("No stack chart for a comparison") : "");
      return;
    }
  if (document != c->document)
    {
      forget_document (c);
      if (chart_shown (c))
        load_store (self, document);
      return;
    }
  update_scope (self);
}

/* ---- selection, both ways ---- */

static guint32
child_named (AfgTree *tree, guint32 parent, const char *name)
{
  const AfgNode *node = afg_tree_get_node (tree, parent);

  for (guint32 i = 0; i < node->n_children; i++)
    if (g_strcmp0 (afg_tree_get_node_name (tree, node->first_child + i), name) == 0)
      return node->first_child + i;
  return AFG_NODE_NONE;
}

/* The tree's transforms, NULL when it has none: rows are untransformed
 * frames, found in it by their paths mapped through them. */
static const AfgTransformList *
transforms_of (AfgTree *tree)
{
  const AfgTransformList *list = afg_tree_get_transforms (tree);

  return list && afg_transform_list_get_length (list) > 0 ? list : NULL;
}

static AfgPathMapper *
mapper_of (AfgTree *tree)
{
  return transforms_of (tree) ? afg_path_mapper_new (transforms_of (tree)) : NULL;
}

/* @names: document string ids, into @strings. */
static void
names_to_strings (AfgDocument *document, const guint32 *names, guint n, GPtrArray *strings)
{
  g_ptr_array_set_size (strings, 0);
  for (guint k = 0; k < n; k++)
    g_ptr_array_add (strings, (gpointer) afg_document_get_string (document, names[k]));
}

/* The node a row lands in in @tree, AFG_NODE_NONE when the tree leaves
 * it out (a transform dropped it, or it is outside a focus). */
static guint32
node_of_row (AfgWindow *self, AfgTree *tree, guint thread, guint64 event)
{
  AfgChartStore *store = afg_stack_chart_get_store (chart_of (self)->chart);
  AfgDocument *document = afg_chart_store_get_document (store);
  gint64 tid = afg_event_store_get_thread (afg_document_get_events (document), thread)->global_tid;
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(AfgPathMapper) mapper = mapper_of (tree);
  guint32 node = AFG_NODE_NONE;

  for (guint i = 0; i < afg_tree_get_n_threads (tree); i++)
    if (afg_tree_get_thread (tree, i)->global_tid == tid)
      node = afg_tree_get_thread (tree, i)->node;
  afg_chart_store_get_path (store, thread, event, afg_session_get_merge_addresses (self->session), path);
  names_to_strings (document, (const guint32 *) path->data, path->len, names);
  if (mapper != NULL && !afg_path_mapper_map (mapper, names))
    return AFG_NODE_NONE;
  for (guint k = 0; k < names->len && node != AFG_NODE_NONE; k++)
    node = child_named (tree, node, g_ptr_array_index (names, k));
  return node;
}

static void
on_row_selected (AfgWindow *self)
{
  AfgWindowChart *c = chart_of (self);
  AfgTree *tree = profile_tree (self);
  guint thread;
  guint64 event;
  guint32 node;

  if (tree == NULL || !afg_stack_chart_get_selected (c->chart, &thread, &event))
    return;
  node = node_of_row (self, tree, thread, event);
  if (node != AFG_NODE_NONE)
    afg_flame_view_set_selected_node (self->flame_view, node);
  _afg_window_report_state (self);
}

static guint
store_thread (AfgChartStore *store, gint64 global_tid)
{
  const AfgEventStore *events = afg_document_get_events (afg_chart_store_get_document (store));

  for (guint i = 0; i < afg_event_store_get_n_threads (events); i++)
    if (afg_event_store_get_thread (events, i)->global_tid == global_tid)
      return i;
  return G_MAXUINT;
}

/* The rows a transformed tree brings to the node picked: every row of
 * the thread is judged, which can take a while on a large profile. */
static void
on_outlined (gpointer owner, gpointer rows, const GError *error, gpointer data)
{
  AfgWindow *self = owner;

  afg_stack_chart_set_instances (chart_of (self)->chart, afg_chart_outline_get_thread (data), rows);
  _afg_window_report_state (self);
}

static gpointer
run_outline (gpointer data, GCancellable *cancellable, GError **error)
{
  return afg_chart_outline_run (data, cancellable);
}

static const AfgWorkerFuncs outline_funcs = {
  .name = "afg-outline",
  .run = run_outline,
  .done = on_outlined,
  .free_result = (GDestroyNotify) g_array_unref,
  .takes_result = TRUE,  /* the chart does */
};

/* The rows that land on the node at @names (the tree's string ids) in
 * [@t0, @t1): at its depth without transforms; through them, which may
 * bring rows of many paths and depths to one node, in a worker (none
 * outlined until it is done). */
static void
outline_rows (AfgWindow *self, AfgTree *tree, guint thread, GArray *names, gint64 t0, gint64 t1)
{
  AfgWindowChart *c = chart_of (self);
  AfgChartStore *store = afg_stack_chart_get_store (c->chart);
  gboolean merge = afg_session_get_merge_addresses (self->session);
  const AfgTransformList *transforms = transforms_of (tree);
  g_autoptr(GPtrArray) target = g_ptr_array_new ();

  if (transforms == NULL)
    {
      afg_stack_chart_set_instances (c->chart, thread, afg_chart_store_find_rows (store, thread, (guint32 *) names->data,
                                                                                   names->len, merge, t0, t1));
      return;
    }
  afg_stack_chart_set_instances (c->chart, thread, NULL);
  names_to_strings (afg_tree_get_document (tree), (const guint32 *) names->data, names->len, target);
  afg_worker_start (c->outliner, &outline_funcs,
                    afg_chart_outline_new (store, thread, merge, t0, t1, transforms,
                                           (const char * const *) target->pdata, target->len),
                    (GDestroyNotify) afg_chart_outline_free);
}

/* The node's names from its thread down, as the document's strings. */
static void
on_node_selected (AfgWindow *self)
{
  AfgWindowChart *c = chart_of (self);
  AfgChartStore *store = afg_stack_chart_get_store (c->chart);
  AfgTree *tree = profile_tree (self);
  guint32 node = afg_flame_view_get_selected_node (self->flame_view);
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (guint32));
  const AfgNode *n;
  guint thread;
  gint64 t0, t1;

  afg_worker_cancel (c->outliner);
  if (store == NULL || tree == NULL || node == AFG_FLAME_NO_FRAME || !afg_tree_is_frame (tree, node))
    {
      afg_stack_chart_set_instances (c->chart, 0, NULL);
      _afg_window_report_state (self);
      return;
    }
  for (n = afg_tree_get_node (tree, node); n->depth >= 2; n = afg_tree_get_node (tree, n->parent))
    g_array_prepend_val (names, n->name);
  thread = store_thread (store, afg_tree_get_thread (tree, n->thread)->global_tid);
  /* The node's rows in the chart's scope: those its tree holds. */
  afg_stack_chart_get_scope (c->chart, &t0, &t1);
  if (thread == G_MAXUINT)
    afg_stack_chart_set_instances (c->chart, thread, NULL);
  else
    outline_rows (self, tree, thread, names, t0, t1);
  _afg_window_report_state (self);
}

/* ---- Sync range ---- */

/* Only the current request's: a newer range's build cancelled it. */
static void
on_synced (gpointer owner, gpointer tree, const GError *error, gpointer data)
{
  if (tree != NULL)
    _afg_window_steps_show_tree (owner, tree);
}

static const AfgWorkerFuncs sync_funcs = {
  .name = "afg-sync",
  .run = afg_tree_build_request_run,
  .done = on_synced,
  .free_result = (GDestroyNotify) afg_tree_unref,
};

static void
build_tree (AfgWindow *self, const AfgScope *scope)
{
  AfgWindowChart *c = chart_of (self);
  AfgTreeFlags flags = _afg_window_tree_flags (self) | AFG_TREE_DURATIONS;

  afg_worker_start (c->syncer, &sync_funcs, afg_tree_build_request_new (c->document, scope, flags),
                    afg_tree_build_request_free);
}

/* The visible range of what the chart's scope covers: of the NPU-idle
 * instants while the flame graph shows only those. */
static void
sync_now (AfgWindow *self)
{
  AfgWindowChart *c = chart_of (self);
  AfgScope scope = c->has_scope && c->scope.npu_idle ? c->scope : (AfgScope) { 0 };
  gint64 start, end;

  /* The session's tree, not the one drawn: a new scope's layout is still
   * being built when it syncs. */
  if (_afg_window_get_tree (self) == NULL || _afg_window_is_comparing (self)
      || !afg_stack_chart_get_view (c->chart, &start, &end))
    return;
  afg_scope_narrow (&scope, start, end);
  if (afg_scope_equal (&scope, &c->synced))
    return;
  c->synced = scope;
  c->last_sync = g_get_monotonic_time ();
  build_tree (self, &scope);
}

static gboolean
on_sync_timeout (gpointer data)
{
  AfgWindow *self = data;

  chart_of (self)->sync_timeout = 0;
  sync_now (self);
  return G_SOURCE_REMOVE;
}

/* At once when the last tree is older than SYNC_MS; and once more
 * SYNC_MS after the view stops. */
static void
on_view_changed (AfgWindow *self)
{
  AfgWindowChart *c = chart_of (self);

  if (c->sync)
    {
      if (g_get_monotonic_time () - c->last_sync >= SYNC_MS * 1000)
        sync_now (self);
      g_clear_handle_id (&c->sync_timeout, g_source_remove);
      c->sync_timeout = g_timeout_add (SYNC_MS, on_sync_timeout, self);
    }
  _afg_window_report_state (self);
}

static void
change_sync (GSimpleAction *action, GVariant *state, gpointer data)
{
  AfgWindow *self = data;
  AfgWindowChart *c = chart_of (self);
  AfgTree *tree = _afg_window_get_tree (self);

  g_simple_action_set_state (action, state);
  c->sync = g_variant_get_boolean (state);
  c->synced = (AfgScope) { 0 };
  g_clear_handle_id (&c->sync_timeout, g_source_remove);
  /* A range's tree still being built must not land once Sync is off. */
  afg_worker_cancel (c->syncer);
  if (c->sync)
    sync_now (self);
  else if (c->has_scope && c->document != NULL && tree != NULL && !afg_scope_equal (afg_tree_get_scope (tree), &c->scope))
    build_tree (self, &c->scope);
  _afg_window_report_state (self);
}

/* ---- layout ---- */

/* GTK 4.8's paned keeps its handle's last place when a child is hidden
 * (the handle is not drawn) and its drags still take the presses there,
 * a strip across the page shown: they are off unless both show. */
static void
set_handle_live (GtkPaned *paned, gboolean live)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (paned));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_DRAG (controller))
        gtk_event_controller_set_propagation_phase (controller, live ? GTK_PHASE_CAPTURE : GTK_PHASE_NONE);
    }
}

/* The pages never move: the layout shows one or both. */
static void
apply_layout (AfgWindow *self)
{
  AfgWindowChart *c = chart_of (self);
  gboolean both = g_strcmp0 (c->layout, "both") == 0;
  int height = gtk_widget_get_height (GTK_WIDGET (c->paned));

  gtk_widget_set_visible (c->flame_page, g_strcmp0 (c->layout, "chart") != 0);
  gtk_widget_set_visible (GTK_WIDGET (c->chart_stack), chart_shown (c));
  set_handle_live (c->paned, both);
  /* Both: half each, however little the chart had before. */
  if (both)
    gtk_paned_set_position (c->paned, height > 0 ? height / 2 : 300);
  if (chart_shown (c) && c->document == NULL && _afg_window_get_tree (self) != NULL)
    on_tree_changed (self);
}

static void
change_layout (GSimpleAction *action, GVariant *state, gpointer data)
{
  AfgWindow *self = data;
  AfgWindowChart *c = chart_of (self);
  const char *layout = g_variant_get_string (state, NULL);
  GSettings *settings = afg_settings_get ();

  if (g_strcmp0 (layout, "flame") != 0 && g_strcmp0 (layout, "chart") != 0 && g_strcmp0 (layout, "both") != 0)
    return;
  g_simple_action_set_state (action, state);
  g_free (c->layout);
  c->layout = g_strdup (layout);
  if (settings != NULL)
    g_settings_set_string (settings, "layout", layout);
  apply_layout (self);
  _afg_window_report_state (self);
}

static void
chart_zoom (GSimpleAction *action, GVariant *param, gpointer data)
{
  double factor = g_variant_get_double (param);

  if (factor > 0)
    afg_stack_chart_zoom (chart_of (data)->chart, factor, 0.5);
}

static void
chart_pan (GSimpleAction *action, GVariant *param, gpointer data)
{
  afg_stack_chart_pan (chart_of (data)->chart, g_variant_get_double (param));
}

static void
chart_home (GSimpleAction *action, GVariant *param, gpointer data)
{
  afg_stack_chart_reset_view (chart_of (data)->chart);
}

void
_afg_window_chart_step (AfgWindow *self, gboolean forward)
{
  AfgWindowChart *c = chart_of (self);

  if (c != NULL && c->chart != NULL && afg_stack_chart_step_instance (c->chart, forward))
    _afg_window_report_state (self);
}

static void
chart_next (GSimpleAction *action, GVariant *param, gpointer data)
{
  afg_stack_chart_step_instance (chart_of (data)->chart, g_str_equal (g_action_get_name (G_ACTION (action)),
                                                                       "chart-next"));
  _afg_window_report_state (data);
}

static void
add_actions (AfgWindow *self)
{
  GSettings *settings = afg_settings_get ();
  g_autofree char *layout = settings ? g_settings_get_string (settings, "layout") : g_strdup ("flame");
  const GActionEntry entries[] = {
    { "layout", NULL, "s", "'flame'", change_layout, { 0 } },
    { "chart-sync", NULL, NULL, "false", change_sync, { 0 } },
    { "chart-zoom", chart_zoom, "d", NULL, NULL, { 0 } },
    { "chart-pan", chart_pan, "d", NULL, NULL, { 0 } },
    { "chart-home", chart_home, NULL, NULL, NULL, { 0 } },
    { "chart-next", chart_next, NULL, NULL, NULL, { 0 } },
    { "chart-prev", chart_next, NULL, NULL, NULL, { 0 } },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  chart_of (self)->layout = g_strdup ("flame");
  g_action_group_change_action_state (G_ACTION_GROUP (self), "layout", g_variant_new_string (layout));
}

/* ---- widgets ---- */

/* The template's, by name: the window's struct has no field for them. */
static const char *const template_children[] = { "chart", "chart_stack", "chart_message", "flame_page", "chart_paned" };

void
_afg_window_chart_class_init (GtkWidgetClass *widget_class)
{
  for (guint i = 0; i < G_N_ELEMENTS (template_children); i++)
    gtk_widget_class_bind_template_child_full (widget_class, template_children[i], FALSE, 0);
}

static gpointer
template_child (AfgWindow *self, const char *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (self), AFG_TYPE_WINDOW, name);
}

static void
on_merge_changed (AfgWindow *self)
{
  afg_stack_chart_set_merge (chart_of (self)->chart, afg_session_get_merge_addresses (self->session));
}

void
_afg_window_chart_init (AfgWindow *self)
{
  AfgWindowChart *c = g_new0 (AfgWindowChart, 1);

  self->chart = c;
  c->loader = afg_worker_new (self);
  c->syncer = afg_worker_new (self);
  c->outliner = afg_worker_new (self);
  c->chart = template_child (self, "chart");
  c->chart_stack = template_child (self, "chart_stack");
  c->message = template_child (self, "chart_message");
  c->flame_page = template_child (self, "flame_page");
  c->paned = template_child (self, "chart_paned");
  add_actions (self);
  apply_layout (self);
  g_signal_connect_swapped (c->chart, "row-selected", G_CALLBACK (on_row_selected), self);
  g_signal_connect_swapped (c->chart, "view-changed", G_CALLBACK (on_view_changed), self);
  g_signal_connect_swapped (c->chart, "hover-changed", G_CALLBACK (_afg_window_report_state), self);
  g_signal_connect_swapped (self->flame_view, "notify::selected-node", G_CALLBACK (on_node_selected), self);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (follow_search), self);
  g_signal_connect_object (self->session, "notify::tree", G_CALLBACK (on_tree_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::merge-addresses", G_CALLBACK (on_merge_changed), self,
                           G_CONNECT_SWAPPED);
}

void
_afg_window_chart_dispose (AfgWindow *self)
{
  AfgWindowChart *c = chart_of (self);

  if (c == NULL)
    return;
  /* Dropping them cancels what they run. */
  g_clear_object (&c->loader);
  g_clear_object (&c->syncer);
  g_clear_object (&c->outliner);
  g_clear_handle_id (&c->sync_timeout, g_source_remove);
  g_signal_handlers_disconnect_by_data (c->chart, self);
  g_signal_handlers_disconnect_by_func (self->flame_view, on_node_selected, self);
  g_signal_handlers_disconnect_by_func (self->search_entry, follow_search, self);
  g_clear_pointer (&c->document, afg_document_unref);
  g_free (c->layout);
  g_free (c);
  self->chart = NULL;
}

static char *
range_text (AfgWindowChart *c)
{
  gint64 start, end;

  if (!afg_stack_chart_get_view (c->chart, &start, &end))
    return NULL;
  return g_strdup_printf ("%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT, start, end);
}

/* The fields of docs/test-state-line.md from layout to chart_syncing. */
void
_afg_window_chart_append_state (AfgWindow *self, GString *line)
{
  AfgWindowChart *c = chart_of (self);
  gboolean on = c != NULL && chart_shown (c) && afg_stack_chart_get_store (c->chart) != NULL;
  g_autofree char *range = on ? range_text (c) : NULL;
  g_autofree char *boxes = on ? g_strdup_printf ("%u", afg_stack_chart_get_n_drawn (c->chart)) : NULL;
  g_autofree char *dimmed = on ? g_strdup_printf ("%u", afg_stack_chart_get_n_dimmed (c->chart)) : NULL;
  g_autofree char *instances = on ? afg_stack_chart_describe_instances (c->chart) : NULL;
  g_autofree char *lanes = on ? afg_stack_chart_describe_lanes (c->chart) : NULL;
  g_autofree char *selected = NULL;
  guint thread;
  guint64 event;

  if (on && afg_stack_chart_get_selected (c->chart, &thread, &event))
    {
      AfgDocument *document = afg_chart_store_get_document (afg_stack_chart_get_store (c->chart));
      guint32 name = afg_event_store_get_thread (afg_document_get_events (document), thread)->events[event].name;

      selected = g_strdup (afg_document_get_string (document, afg_session_get_merge_addresses (self->session)
                                                                ? afg_document_get_merged_name (document, name) : name));
    }
  _afg_window_append_state_field (line, "layout", c ? c->layout : NULL);
  _afg_window_append_state_field (line, "chart", range);
  _afg_window_append_state_field (line, "chart_boxes", boxes);
  _afg_window_append_state_field (line, "chart_selected", selected);
  _afg_window_append_state_field (line, "chart_hover", on ? afg_stack_chart_get_hover_name (c->chart) : NULL);
  _afg_window_append_state_field (line, "chart_instances", instances);
  _afg_window_append_state_field (line, "chart_sync", c != NULL && c->sync ? "1" : "0");
  _afg_window_append_state_field (line, "chart_tasks", !on ? NULL
                                  : afg_document_get_chart_tasks (afg_chart_store_get_document (
                                        afg_stack_chart_get_store (c->chart))) != NULL ? "kept" : "read");
  _afg_window_append_state_field (line, "chart_lanes", lanes);
  _afg_window_append_state_field (line, "chart_syncing", c != NULL && afg_worker_is_running (c->syncer) ? "1" : "0");
  _afg_window_append_state_field (line, "chart_outlining", c != NULL && afg_worker_is_running (c->outliner) ? "1" : "0");
  _afg_window_append_state_field (line, "chart_dimmed", dimmed);
}
