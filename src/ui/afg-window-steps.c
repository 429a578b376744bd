/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-document-timeline.h"
#include "afg-format.h"
#include "afg-scope.h"
#include "afg-step-range.h"
#include "afg-tree-builder.h"
#include "afg-window-private.h"

/* The step strip under the header bar: picking steps rebuilds the tree
 * for them in a worker, from the document's event store (no DB access);
 * the thread, the flame view's weight and the search carry over. */

typedef struct {
  GWeakRef      window;
  GCancellable *cancellable;
} ScopeRequest;

static void
scope_request_free (ScopeRequest *req)
{
  g_weak_ref_clear (&req->window);
  g_clear_object (&req->cancellable);
  g_free (req);
}

static AfgDocument *
window_document (AfgWindow *self)
{
  return _afg_window_get_tree (self) != NULL ? afg_tree_get_document (_afg_window_get_tree (self)) : NULL;
}

static void
disconnect_paint (AfgWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (clock != NULL && self->scope_paint_handler != 0)
    g_signal_handler_disconnect (clock, self->scope_paint_handler);
  self->scope_paint_handler = 0;
}

static void
cancel_scope (AfgWindow *self)
{
  g_cancellable_cancel (self->scope_cancellable);
  g_clear_object (&self->scope_cancellable);
  disconnect_paint (self);
}

static gint64
selected_thread (AfgWindow *self)
{
  guint selected = gtk_drop_down_get_selected (self->thread_dropdown);

  if (_afg_window_get_tree (self) == NULL || selected == 0 || selected == GTK_INVALID_LIST_POSITION)
    return -1;
  return afg_tree_get_thread (_afg_window_get_tree (self), selected - 1)->global_tid;
}

/* Refills the thread picker (its totals follow the scope and "Per step")
 * and picks @global_tid again if the tree still has it. */
static void
refill_threads (AfgWindow *self, gint64 global_tid)
{
  _afg_window_fill_threads (self);
  for (guint i = 0; global_tid >= 0 && i < afg_tree_get_n_threads (_afg_window_get_tree (self)); i++)
    if (afg_tree_get_thread (_afg_window_get_tree (self), i)->global_tid == global_tid)
      gtk_drop_down_set_selected (self->thread_dropdown, i + 1);
}

static char *
steps_words (const AfgScope *scope)
{
  if (scope->n_steps == 0)
    return NULL;
  if (scope->first_step == scope->last_step)
    return g_strdup_printf (_("step %" PRId64), scope->first_step);
  return g_strdup_printf (_("steps %" PRId64 "–%" PRId64), scope->first_step, scope->last_step);
}

/* "steps 10–12", "step 11", "step 11 while the NPU is idle", or NULL for
 * the whole profile. */
static char *
scope_words (const AfgScope *scope)
{
  g_autofree char *steps = steps_words (scope);

  if (!scope->npu_idle)
    return g_steal_pointer (&steps);
  /* TRANSLATORS: "steps 10–12 while the NPU is idle" */
  return steps ? g_strdup_printf (_("%s while the NPU is idle"), steps) : g_strdup (_("while the NPU is idle"));
}

static void
update_title (AfgWindow *self)
{
  g_autofree char *name = _afg_window_title_name (self, afg_document_get_source_name (window_document (self)));
  g_autofree char *words = scope_words (afg_tree_get_scope (_afg_window_get_tree (self)));
  /* The scope first: the title ellipsizes at its start, keeping the file
   * name's end (the rank), which tells windows apart. */
  g_autofree char *title = words ? g_strdup_printf ("%s — %s", words, name) : NULL;

  gtk_window_set_title (GTK_WINDOW (self), title ? title : name);
}

/* Everything that "Per step" divides; @thread is picked again. */
static void
show_values (AfgWindow *self, gint64 thread)
{
  refill_threads (self, thread);
  afg_flame_view_set_divisor (self->flame_view, _afg_window_steps_divisor (self));
  _afg_window_functions_sync_divisor (self);
  _afg_window_update_status (self);
}

/* The click-to-redraw figure of docs/benchmarks.md: the first frame painted
 * once the view has the new tree's layout. */
static void
on_after_paint (GdkFrameClock *clock, AfgWindow *self)
{
  const AfgFlameLayout *layout = afg_flame_view_get_layout (self->flame_view);
  g_autofree char *words = NULL;

  if (afg_flame_view_is_busy (self->flame_view) || layout == NULL
      || afg_flame_layout_get_tree (layout) != _afg_window_get_tree (self))
    return;
  words = scope_words (afg_tree_get_scope (_afg_window_get_tree (self)));
  g_debug ("%s drawn %.1f ms after the click", words ? words : "whole profile",
           (g_get_monotonic_time () - self->scope_clicked) / 1000.0);
  disconnect_paint (self);
}

static void
show_scoped_tree (AfgWindow *self, AfgTree *tree)
{
  gint64 thread = selected_thread (self);
  g_autofree char *search = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));

  afg_session_set_tree (self->session, tree);
  /* The view keeps its weight: the layout it builds is in that column. */
  afg_flame_view_set_tree (self->flame_view, tree);
  afg_flame_view_set_search (self->flame_view, search);
  show_values (self, thread);
  update_title (self);
  gtk_widget_set_sensitive (self->all_steps_button, afg_tree_get_scope (tree)->bounded);
  if (gtk_widget_get_frame_clock (GTK_WIDGET (self)) != NULL)
    self->scope_paint_handler = g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (self)), "after-paint",
                                                  G_CALLBACK (on_after_paint), self);
  _afg_window_update_actions (self);
  _afg_window_report_state (self);
}

static void
on_scope_built (GObject *source, GAsyncResult *result, gpointer data)
{
  ScopeRequest *req = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgTree) tree = afg_tree_build_finish (result, &error);
  g_autoptr(AfgWindow) self = g_weak_ref_get (&req->window);

  if (self == NULL || tree == NULL || req->cancellable != self->scope_cancellable)
    g_debug ("dropped a stale scoped tree");
  else
    {
      g_debug ("scoped tree built %.1f ms after the click",
               (g_get_monotonic_time () - self->scope_clicked) / 1000.0);
      show_scoped_tree (self, tree);
    }
  scope_request_free (req);
}

static void
build_scope (AfgWindow *self, const AfgScope *scope)
{
  ScopeRequest *req = g_new0 (ScopeRequest, 1);

  cancel_scope (self);
  self->scope_cancellable = g_cancellable_new ();
  g_weak_ref_init (&req->window, self);
  req->cancellable = g_object_ref (self->scope_cancellable);
  afg_tree_build_async (window_document (self), scope, _afg_window_tree_flags (self) | AFG_TREE_DURATIONS,
                        self->scope_cancellable, on_scope_built, req);
}

/* The steps the strip picks (all when none), in the NPU-idle instants
 * while the session asks for them. */
static gboolean
strip_scope (AfgWindow *self, AfgDocument *document, AfgScope *scope)
{
  g_autoptr(GError) error = NULL;
  guint first, last, n;
  const AfgStep *steps = afg_document_get_steps (document, &n);
  gboolean picked;

  /* A diff of two DBs has no steps of its own. */
  if (n != afg_step_strip_get_n_steps (self->step_strip))
    return FALSE;
  picked = afg_step_strip_get_range (self->step_strip, &first, &last);
  if (afg_scope_init_request (scope, document, picked, picked ? steps[first].id : 0, picked ? steps[last].id : 0,
                              afg_session_get_npu_idle (self->session), &error))
    return TRUE;
  g_warning ("%s", error->message);
  return FALSE;
}

static void
on_range_changed (AfgWindow *self, AfgStepStrip *strip)
{
  /* A diff's tree has a document of its own; the strip is its sides'. */
  AfgDocument *document = _afg_window_step_compare_get_document (self);
  AfgScope scope = { 0 };

  if (document == NULL)
    document = window_document (self);
  if (document == NULL)
    return;
  self->scope_clicked = g_get_monotonic_time ();
  if (!strip_scope (self, document, &scope))
    return;
  if (!_afg_window_step_compare_take (self, document, &scope))
    build_scope (self, &scope);
}

/* "While NPU idle": the same steps again, in or out of the idle instants. */
static void
on_npu_idle_changed (AfgWindow *self, GParamSpec *pspec, AfgSession *session)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "npu-idle");

  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (afg_session_get_npu_idle (session)));
  if (window_document (self) != NULL && !_afg_window_is_comparing (self))
    on_range_changed (self, self->step_strip);
}

static void
change_npu_idle (GSimpleAction *action, GVariant *state, gpointer data)
{
  AfgWindow *self = data;

  afg_session_set_npu_idle (self->session, g_variant_get_boolean (state));
}

static void
on_per_step_toggled (AfgWindow *self, GtkToggleButton *button)
{
  if (_afg_window_get_tree (self) == NULL)
    return;
  show_values (self, selected_thread (self));
  /* The selected frame's line in the status bar shows a value too. */
  g_object_notify (G_OBJECT (self->flame_view), "selected-node");
  _afg_window_report_state (self);
}

static void
on_strip_hover (AfgWindow *self, GParamSpec *pspec, AfgStepStrip *strip)
{
  _afg_window_report_state (self);
}

static void
on_all_clicked (AfgWindow *self, GtkButton *button)
{
  afg_step_strip_clear_range (self->step_strip);
}

/* "22 steps · slowest: step 11 (1.02 s)", as the page's strip says. */
static char *
strip_summary (const AfgStep *steps, guint n)
{
  guint slowest = 0;
  g_autofree char *time = NULL;

  for (guint i = 1; i < n; i++)
    if (steps[i].end_ns - steps[i].start_ns > steps[slowest].end_ns - steps[slowest].start_ns)
      slowest = i;
  time = afg_format_duration (steps[slowest].end_ns - steps[slowest].start_ns);
  /* TRANSLATORS: "22 steps · slowest: step 11 (1.02 s wall)", wall-clock time */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u step · slowest: step %" PRId64 " (%s wall)",
                                       "%u steps · slowest: step %" PRId64 " (%s wall)", n),
                          n, steps[slowest].id, time);
}

/* Each step's split by what the NPU did, or NULL without a timeline. */
static AfgDeviceSplit *
step_splits (const AfgDocument *document, const AfgStep *steps, guint n)
{
  const AfgDeviceTimeline *timeline = afg_document_get_timeline (document);
  AfgDeviceSplit *splits;

  if (timeline == NULL || n == 0)
    return NULL;
  splits = g_new (AfgDeviceSplit, n);
  for (guint i = 0; i < n; i++)
    afg_device_timeline_split (timeline, steps[i].start_ns, steps[i].end_ns, &splits[i]);
  return splits;
}

void
_afg_window_steps_show (AfgWindow *self)
{
  AfgDocument *document = window_document (self);
  guint n;
  const AfgStep *steps = afg_document_get_steps (document, &n);
  g_autofree char *summary = n > 0 ? strip_summary (steps, n) : NULL;
  g_autofree AfgDeviceSplit *splits = step_splits (document, steps, n);
  GAction *idle = g_action_map_lookup_action (G_ACTION_MAP (self), "npu-idle");
  gboolean has_device = afg_document_get_timeline (document) != NULL;

  cancel_scope (self);
  _afg_window_step_compare_reset (self);
  afg_step_strip_set_steps (self->step_strip, steps, n);
  afg_step_strip_set_device (self->step_strip, splits);
  gtk_label_set_text (self->steps_label, summary ? summary : "");
  gtk_widget_set_sensitive (self->all_steps_button, FALSE);
  /* A DB without steps has the idle scope of its whole window still. */
  gtk_widget_set_visible (self->steps_bar, n > 0 || has_device);
  gtk_widget_set_visible (GTK_WIDGET (self->step_strip), n > 0);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (idle), has_device);
  afg_flame_view_set_divisor (self->flame_view, _afg_window_steps_divisor (self));
  /* "While NPU idle" stays on for the next file when it can. */
  if (afg_session_get_npu_idle (self->session) && !has_device)
    afg_session_set_npu_idle (self->session, FALSE);
  else if (afg_session_get_npu_idle (self->session))
    on_range_changed (self, self->step_strip);
}

/* The "npu-idle" action, the session's switch of the same name. */
void
_afg_window_steps_init (AfgWindow *self)
{
  g_autoptr(GSimpleAction) idle = g_simple_action_new_stateful ("npu-idle", NULL, g_variant_new_boolean (FALSE));

  g_signal_connect (idle, "change-state", G_CALLBACK (change_npu_idle), self);
  g_simple_action_set_enabled (idle, FALSE);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (idle));
  g_signal_connect_object (self->session, "notify::npu-idle", G_CALLBACK (on_npu_idle_changed), self,
                           G_CONNECT_SWAPPED);
}

void
_afg_window_steps_show_tree (AfgWindow *self, AfgTree *tree)
{
  cancel_scope (self);
  show_scoped_tree (self, tree);
}

void
_afg_window_steps_rebuild (AfgWindow *self)
{
  AfgScope scope = *afg_tree_get_scope (_afg_window_get_tree (self));

  build_scope (self, &scope);
}

void
_afg_window_steps_hide (AfgWindow *self)
{
  cancel_scope (self);
  _afg_window_step_compare_reset (self);
  gtk_widget_set_visible (self->steps_bar, FALSE);
}

/* Esc's last resort, after the search and the zoom: the whole profile. */
gboolean
_afg_window_steps_escape (AfgWindow *self)
{
  guint first, last;

  if (!gtk_widget_get_visible (self->steps_bar)
      || !afg_step_strip_get_range (self->step_strip, &first, &last))
    return FALSE;
  afg_step_strip_clear_range (self->step_strip);
  return TRUE;
}

/* What every value shown is divided by: 1, or with "Per step" the steps
 * in scope (all the DB's steps for the whole profile). */
guint
_afg_window_steps_divisor (AfgWindow *self)
{
  guint n;

  if (_afg_window_get_tree (self) == NULL || !gtk_toggle_button_get_active (self->per_step_button))
    return 1;
  n = afg_scope_count_steps (afg_tree_get_scope (_afg_window_get_tree (self)), window_document (self));
  return MAX (n, 1);
}

/* A time as "Per step" shows it: "1.72 s", or "0.57 s / step". */
char *
_afg_window_steps_format_ns (AfgWindow *self, gint64 ns)
{
  guint divisor = _afg_window_steps_divisor (self);
  g_autofree char *time = afg_format_duration (ns / divisor);

  /* TRANSLATORS: a time per step, "0.57 s / step" */
  return gtk_toggle_button_get_active (self->per_step_button)
    ? g_strdup_printf (_("%s / step"), time) : g_steal_pointer (&time);
}

/* "steps 10–12 (3 of 22 steps, 1.72 s)", or "all 22 steps (19.2 s)";
 * NULL for a DB without steps. */
static char *
describe_steps (AfgWindow *self)
{
  const AfgScope *scope = afg_tree_get_scope (_afg_window_get_tree (self));
  g_autofree char *words = scope_words (scope);
  g_autofree char *time = NULL;
  guint n;

  afg_document_get_steps (window_document (self), &n);
  if (n == 0)
    return NULL;
  time = _afg_window_steps_format_ns (self, afg_tree_get_value (_afg_window_get_tree (self), AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT));
  /* The host time of every thread added up: more than the steps' wall
   * time when threads run at once. */
  if (words == NULL)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "all %u step (%s host time on all threads)",
                                         "all %u steps (%s host time on all threads)", n), n, time);
  /* TRANSLATORS: "steps 10–12 (3 of 22 steps, 1.72 s host time on all threads)" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%u of %u step, %s host time on all threads)",
                                       "%s (%u of %u steps, %s host time on all threads)", n),
                          words, scope->n_steps, n, time);
}

/* What the NPU did in the scope's steps (each in its own window), or in
 * the whole profile's window: "NPU: compute 6.4%, …"; NULL without a
 * timeline. */
static char *
describe_device (AfgWindow *self)
{
  const AfgDocument *document = window_document (self);
  const AfgDeviceTimeline *timeline = afg_document_get_timeline (document);
  const AfgScope *scope = afg_tree_get_scope (_afg_window_get_tree (self));
  AfgDeviceSplit sum = { 0 }, split;
  gint64 window = 0, start, end;
  g_autofree char *words = NULL;
  guint n;
  const AfgStep *steps = afg_document_get_steps (document, &n);

  if (timeline == NULL)
    return NULL;
  for (guint i = 0; i < n; i++)
    if (scope->n_steps == 0 || (steps[i].id >= scope->first_step && steps[i].id <= scope->last_step))
      {
        afg_device_timeline_split (timeline, steps[i].start_ns, steps[i].end_ns, &split);
        sum.compute_ns += split.compute_ns;
        sum.comm_ns += split.comm_ns;
        sum.other_ns += split.other_ns;
        sum.free_ns += split.free_ns;
        window += steps[i].end_ns - steps[i].start_ns;
      }
  if (n == 0 && afg_document_get_profile_window (document, &start, &end))
    {
      afg_device_timeline_split (timeline, start, end, &sum);
      window = end - start;
    }
  words = afg_device_split_describe (&sum, window, FALSE);
  return g_strdup_printf (_("NPU: %s"), words);
}

/* The status line's scope: "steps 10–12 (3 of 22 steps, 1.72 s) · NPU:
 * compute 6.4%, …", or "all 22 steps (19.2 s) · …"; NULL for a DB
 * without steps or device tasks. */
char *
_afg_window_steps_describe (AfgWindow *self)
{
  g_autofree char *steps = describe_steps (self);
  g_autofree char *device = describe_device (self);

  if (steps != NULL && device != NULL)
    return g_strdup_printf ("%s · %s", steps, device);
  return steps != NULL ? g_steal_pointer (&steps) : g_steal_pointer (&device);
}

/* The device time the shown tree's frames launched: the scope's, divided
 * as Per step divides; NULL for the whole profile as it is (the status
 * line then gives the DB's linked and unlinked time) or without NPU data. */
char *
_afg_window_steps_describe_npu (AfgWindow *self)
{
  AfgTree *tree = _afg_window_get_tree (self);
  guint divisor = _afg_window_steps_divisor (self);
  const gint64 *tasks;
  gint64 n_tasks = 0;
  g_autofree char *time = NULL;
  g_autofree char *count = NULL;

  if (tree == NULL || !afg_tree_has_column (tree, AFG_COLUMN_NPU_TOTAL_NS)
      || (!afg_tree_get_scope (tree)->bounded && divisor == 1))
    return NULL;
  tasks = afg_tree_get_column (tree, AFG_COLUMN_NPU_TASKS);
  for (guint i = 0; i < afg_tree_get_n_nodes (tree); i++)
    n_tasks += tasks[i];
  time = _afg_window_steps_format_ns (self, afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT));
  count = afg_format_count ((double) n_tasks / divisor);
  return divisor > 1 ? g_strdup_printf (_("NPU %s linked (%s tasks / step)"), time, count)
                     : g_strdup_printf (_("NPU %s linked (%s tasks)"), time, count);
}

/* The state line's step fields: the step under the pointer ("7" or
 * empty) and the slow ones ("5" or "5,9"). */
void
_afg_window_steps_append_state (AfgWindow *self, GString *hover, GString *slow)
{
  guint n;
  const AfgStep *steps = _afg_window_get_tree (self) ? afg_document_get_steps (window_document (self), &n) : NULL;
  int index = afg_step_strip_get_hover (self->step_strip);

  if (steps == NULL || n != afg_step_strip_get_n_steps (self->step_strip))
    return;
  if (index >= 0)
    g_string_append_printf (hover, "%" PRId64, steps[index].id);
  for (guint i = 0; i < n; i++)
    if (afg_step_strip_is_slow (self->step_strip, i))
      g_string_append_printf (slow, "%s%" PRId64, slow->len ? "," : "", steps[i].id);
}

/* The state line's scope: "10-12", "11", or empty for the whole profile. */
char *
_afg_window_steps_scope_field (AfgWindow *self)
{
  const AfgScope *scope = _afg_window_get_tree (self) ? afg_tree_get_scope (_afg_window_get_tree (self)) : NULL;

  if (scope == NULL || scope->n_steps == 0)
    return g_strdup ("");
  if (scope->first_step == scope->last_step)
    return g_strdup_printf ("%" PRId64, scope->first_step);
  return g_strdup_printf ("%" PRId64 "-%" PRId64, scope->first_step, scope->last_step);
}

void
_afg_window_steps_class_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (AFG_TYPE_STEP_STRIP);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, steps_bar);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, step_strip);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, steps_label);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, per_step_button);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, all_steps_button);
  gtk_widget_class_bind_template_callback_full (widget_class, "_afg_window_steps_on_range_changed",
                                                G_CALLBACK (on_range_changed));
  gtk_widget_class_bind_template_callback_full (widget_class, "_afg_window_steps_on_per_step_toggled",
                                                G_CALLBACK (on_per_step_toggled));
  gtk_widget_class_bind_template_callback_full (widget_class, "_afg_window_steps_on_strip_hover",
                                                G_CALLBACK (on_strip_hover));
  gtk_widget_class_bind_template_callback_full (widget_class, "_afg_window_steps_on_all_clicked",
                                                G_CALLBACK (on_all_clicked));
}

void
_afg_window_steps_dispose (AfgWindow *self)
{
  cancel_scope (self);
}
