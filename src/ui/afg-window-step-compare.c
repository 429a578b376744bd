/* SPDX-License-Identifier: MIT */
/* Two step ranges of one DB compared in the window, from memory. "Compare
 * with Steps…" (the Compare menu beside the step strip, a right click on
 * the strip) takes the scope on screen as A, and the next range picked on
 * the strip is B; Ctrl+click on a step does both at once. Both trees are
 * built in a worker from the document's event store (no DB read), with
 * the window's flags, and shown as a diff. A new pick replaces B; Esc or
 * "Stop Comparing" goes back to A's tree. */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-scope.h"
#include "afg-tree-builder.h"
#include "afg-window-private.h"

struct _AfgStepCompare {
  AfgScope       a;
  gboolean       picking;  /* A chosen, waiting for B's pick */
  GCancellable  *cancellable;
  GtkMenuButton *button;
};

typedef struct {
  GWeakRef        window;
  GCancellable   *cancellable;
  AfgDocument    *document;
  AfgScope        scopes[2];
  AfgTreeFlags    flags;
  AfgDiffShape   *shape;
  AfgFlameLayout *layout;
  AfgColumn       weight;   /* the session's, when the comparison was asked for */
  gint64          started;  /* for docs/benchmarks.md's figure */
} Job;

static void
job_free (Job *job)
{
  g_weak_ref_clear (&job->window);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->document, afg_document_unref);
  g_clear_pointer (&job->shape, afg_diff_shape_unref);
  g_clear_pointer (&job->layout, afg_flame_layout_free);
  g_free (job);
}

/* "steps 10–12", "step 11", or "all steps" for a whole profile. */
static char *
range_words (const AfgScope *scope)
{
  if (scope->n_steps == 0)
    return g_strdup (_("all steps"));
  if (scope->first_step == scope->last_step)
    return g_strdup_printf (_("step %" PRId64), scope->first_step);
  return g_strdup_printf (_("steps %" PRId64 "–%" PRId64), scope->first_step, scope->last_step);
}

/* The state line's form: "10-12", "11", or "all". */
static char *
range_field (const AfgScope *scope)
{
  if (scope->n_steps == 0)
    return g_strdup ("all");
  if (scope->first_step == scope->last_step)
    return g_strdup_printf ("%" PRId64, scope->first_step);
  return g_strdup_printf ("%" PRId64 "-%" PRId64, scope->first_step, scope->last_step);
}

/* The diff on screen when it is two scopes of one document, else NULL. */
static AfgDiffShape *
step_diff (AfgWindow *self)
{
  AfgDiffShape *shape = self->diff_view ? afg_diff_view_get_shape (self->diff_view) : NULL;

  if (shape == NULL
      || afg_tree_get_document (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A))
         != afg_tree_get_document (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_B)))
    return NULL;
  return shape;
}

static const AfgScope *
side_scope (AfgDiffShape *shape, AfgDiffSide side)
{
  return afg_tree_get_scope (afg_diff_shape_get_source (shape, side));
}

static void sync_mark (AfgWindow *self);

/* The status line asks for B: text beside the strip would resize it
 * under the pointer. */
static void
set_picking (AfgWindow *self, gboolean picking)
{
  AfgStepCompare *sc = self->step_compare;
  g_autofree char *a = NULL;
  g_autofree char *hint = NULL;

  if (picking)
    {
      a = range_words (&sc->a);
      /* TRANSLATORS: %s is "steps 10–12", "step 11" or "all steps" */
      hint = g_strdup_printf (_("Pick the steps to compare %s with, on the step strip (Esc cancels)"), a);
      gtk_label_set_text (self->status_label, hint);
    }
  else if (sc->picking && step_diff (self) == NULL && _afg_window_get_tree (self) != NULL)
    _afg_window_update_status (self);
  sc->picking = picking;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop-comparing",
                                 picking || step_diff (self) != NULL || _afg_window_is_comparing (self));
  sync_mark (self);
}

static void
compare_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;
  g_autoptr(AfgTree) a = afg_tree_build (job->document, &job->scopes[0], job->flags, cancellable, &error);
  g_autoptr(AfgTree) b = a ? afg_tree_build (job->document, &job->scopes[1], job->flags, cancellable, &error) : NULL;

  if (b == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  _afg_window_compare_return_diff (task, a, b, afg_document_get_source_path (job->document), job->weight,
                                   cancellable, &job->shape, &job->layout);
}

/* "A: steps 2–3 (1.2 s) → B: step 5 (0.9 s) · 310 frames, threads merged" */
static void
update_status (AfgWindow *self, AfgDiffShape *shape)
{
  g_autofree char *a = range_words (side_scope (shape, AFG_DIFF_SIDE_A));
  g_autofree char *b = range_words (side_scope (shape, AFG_DIFF_SIDE_B));
  g_autofree char *ta = afg_format_duration (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT));
  g_autofree char *tb = afg_format_duration (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT));
  g_autofree char *text = g_strdup_printf (_("A: %s (%s) → B: %s (%s) · %'u frames, threads merged"),
                                           a, ta, b, tb,
                                           afg_tree_get_n_nodes (afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_B)) - 1);

  gtk_label_set_text (self->status_label, text);
}

static void
on_compared (GObject *source, GAsyncResult *result, gpointer data)
{
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgWindow) self = g_weak_ref_get (&job->window);

  g_task_propagate_boolean (G_TASK (result), &error);
  if (self == NULL || self->step_compare == NULL || self->step_compare->cancellable != job->cancellable
      || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("dropped a cancelled or stale step comparison");
  else if (error != NULL)
    _afg_window_show_notice (self, error->message, FALSE);
  else
    {
      g_debug ("step diff built %.1f ms after the pick", (g_get_monotonic_time () - job->started) / 1000.0);
      _afg_window_compare_show_diff (self, job->shape, g_steal_pointer (&job->layout));
      update_status (self, job->shape);
      set_picking (self, FALSE);
    }
}

static void
cancel_job (AfgStepCompare *sc)
{
  g_cancellable_cancel (sc->cancellable);
  g_clear_object (&sc->cancellable);
}

static void
start_job (AfgWindow *self, AfgDocument *document, const AfgScope *b)
{
  AfgStepCompare *sc = self->step_compare;
  g_autoptr(GTask) task = NULL;
  Job *job = g_new0 (Job, 1);

  cancel_job (sc);
  sc->cancellable = g_cancellable_new ();
  g_weak_ref_init (&job->window, self);
  job->cancellable = g_object_ref (sc->cancellable);
  job->document = afg_document_ref (document);
  job->scopes[0] = sc->a;
  job->scopes[1] = *b;
  job->started = g_get_monotonic_time ();
  /* The window's own scoped trees' flags (afg-window-steps.c). */
  job->flags = _afg_window_tree_flags (self) | AFG_TREE_DURATIONS;
  job->weight = afg_weight_get_total_column (afg_session_get_weight (self->session));
  task = g_task_new (NULL, sc->cancellable, on_compared, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, compare_in_thread);
}

/* The strip's pick, before the window rebuilds its tree for it: TRUE when
 * it is B of a comparison (picked after "Compare with Steps…", or a new
 * B while two step ranges are compared). */
gboolean
_afg_window_step_compare_take (AfgWindow *self, AfgDocument *document, const AfgScope *scope)
{
  AfgStepCompare *sc = self->step_compare;

  if (!sc->picking && step_diff (self) == NULL)
    return FALSE;
  set_picking (self, FALSE);
  start_job (self, document, scope);
  return TRUE;
}

static void
begin (AfgWindow *self)
{
  AfgStepCompare *sc = self->step_compare;

  if (_afg_window_get_tree (self) == NULL || !gtk_widget_get_visible (self->steps_bar)
      || !gtk_widget_get_visible (GTK_WIDGET (self->step_strip))
      || (_afg_window_is_comparing (self) && step_diff (self) == NULL))
    return;
  if (step_diff (self) == NULL)
    sc->a = *afg_tree_get_scope (_afg_window_get_tree (self));
  set_picking (self, TRUE);
  _afg_window_report_state (self);
}

/* The strip's index of @scope's first step; -1 for a whole profile. */
static int
step_index (const AfgStep *steps, guint n, const AfgScope *scope)
{
  for (guint i = 0; i < n && scope->n_steps > 0; i++)
    if (steps[i].id == scope->first_step)
      return (int) i;
  return -1;
}

/* A's scope while B is picked or the two ranges' diff shows, else NULL;
 * @steps, @n: its document's steps. */
static const AfgScope *
marked_scope (AfgWindow *self, const AfgStep **steps, guint *n)
{
  AfgDiffShape *shape = step_diff (self);
  AfgTree *tree = shape ? afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A) : _afg_window_get_tree (self);

  if (tree == NULL || (shape == NULL && !self->step_compare->picking))
    return NULL;
  *steps = afg_document_get_steps (afg_tree_get_document (tree), n);
  return shape ? side_scope (shape, AFG_DIFF_SIDE_A) : &self->step_compare->a;
}

/* The strip marks A above its bars (its range being B) while compared. */
static void
sync_mark (AfgWindow *self)
{
  const AfgStep *steps = NULL;
  guint n = 0;
  const AfgScope *a = marked_scope (self, &steps, &n);
  int first = a ? step_index (steps, n, a) : -1;

  afg_step_strip_set_mark (self->step_strip, a != NULL, first, first < 0 ? -1 : first + (int) a->n_steps - 1);
  _afg_window_report_state (self);
}

/* Back to A's tree, A's range picked on the strip again. */
static gboolean
stop (AfgWindow *self)
{
  AfgStepCompare *sc = self->step_compare;
  AfgDiffShape *shape = step_diff (self);
  g_autoptr(AfgTree) a = shape ? afg_tree_ref (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A)) : NULL;
  gboolean was_picking = sc->picking;
  const AfgStep *steps;
  guint n;

  set_picking (self, FALSE);
  cancel_job (sc);
  if (a == NULL)
    {
      _afg_window_report_state (self);
      return was_picking;
    }
  steps = afg_document_get_steps (afg_tree_get_document (a), &n);
  afg_step_strip_set_range (self->step_strip, step_index (steps, n, afg_tree_get_scope (a)),
                            step_index (steps, n, afg_tree_get_scope (a)) + afg_tree_get_scope (a)->n_steps - 1);
  afg_diff_view_set_shape (self->diff_view, NULL, NULL);
  afg_session_set_comparing (self->session, FALSE);
  _afg_window_steps_show_tree (self, a);
  set_picking (self, FALSE);
  return TRUE;
}

/* Esc: stops picking B, or the comparison of two step ranges, or of two
 * files or ranks. */
gboolean
_afg_window_step_compare_escape (AfgWindow *self)
{
  return self->step_compare != NULL && (stop (self) || _afg_window_compare_stop (self));
}

/* A new profile on screen: no pick pending. */
void
_afg_window_step_compare_reset (AfgWindow *self)
{
  if (self->step_compare == NULL)
    return;
  set_picking (self, FALSE);
  cancel_job (self->step_compare);
}

/* The title of a step diff, "steps.db steps 10–12 ↔ step 14"; NULL for
 * any other. */
char *
_afg_window_step_compare_title (AfgWindow *self)
{
  AfgDiffShape *shape = step_diff (self);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  if (shape == NULL)
    return NULL;
  a = range_words (side_scope (shape, AFG_DIFF_SIDE_A));
  b = range_words (side_scope (shape, AFG_DIFF_SIDE_B));
  /* TRANSLATORS: "steps.db steps 10–12 ↔ step 14" */
  return g_strdup_printf (_("%s %s ↔ %s"),
                          afg_document_get_source_name (afg_tree_get_document (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A))),
                          a, b);
}

AfgDocument *
_afg_window_step_compare_get_document (AfgWindow *self)
{
  AfgDiffShape *shape = step_diff (self);

  return shape ? afg_tree_get_document (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A)) : NULL;
}

/* strip_a: the steps the strip marks A, by id as scope_a ("all" for
 * the whole profile), read back from the strip; empty when none. */
static void
append_strip_mark (AfgWindow *self, GString *line)
{
  const AfgStep *steps = NULL;
  guint n = 0;
  int first, last;
  g_autofree char *field = NULL;

  if (self->step_compare != NULL && afg_step_strip_get_mark (self->step_strip, &first, &last))
    {
      if (first < 0)
        field = g_strdup ("all");
      else if (marked_scope (self, &steps, &n) != NULL && (guint) last < n)
        field = first == last ? g_strdup_printf ("%" PRId64, steps[first].id)
                              : g_strdup_printf ("%" PRId64 "-%" PRId64, steps[first].id, steps[last].id);
    }
  _afg_window_append_state_field (line, "strip_a", field);
}

/* scope_a: A's steps while B is picked or shown ("10-12", "11", "all");
 * scope_b: B's while shown. */
void
_afg_window_step_compare_append_state (AfgWindow *self, GString *line)
{
  AfgStepCompare *sc = self->step_compare;
  AfgDiffShape *shape = step_diff (self);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  if (shape != NULL)
    {
      a = range_field (side_scope (shape, AFG_DIFF_SIDE_A));
      b = range_field (side_scope (shape, AFG_DIFF_SIDE_B));
    }
  else if (sc != NULL && sc->picking)
    a = range_field (&sc->a);
  _afg_window_append_state_field (line, "scope_a", a);
  _afg_window_append_state_field (line, "scope_b", b);
  append_strip_mark (self, line);
}

static void
compare_steps_action (GtkWidget *widget, const char *name, GVariant *param)
{
  begin (AFG_WINDOW (widget));
}

/* Stop Comparing is there for any comparison, or while B is picked. */
static void
on_comparing_changed (AfgWindow *self, GParamSpec *pspec, AfgSession *session)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop-comparing",
                                 self->step_compare->picking || afg_session_get_comparing (session));
}

/* Any comparison ends: two step ranges go back to A's range, two files
 * or two ranks to A alone. */
static void
stop_comparing_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *self = AFG_WINDOW (widget);

  if (!stop (self))
    _afg_window_compare_stop (self);
}

/* Ctrl+click on a step: the scope on screen is A, the step clicked B (the
 * strip's own gesture then picks it). */
static void
on_strip_pressed (GtkGestureClick *gesture, int n_press, double x, double y, AfgWindow *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (button == GDK_BUTTON_SECONDARY)
    gtk_menu_button_popup (self->step_compare->button);
  else if (state & GDK_CONTROL_MASK)
    begin (self);
}

/* Esc in the focused strip while B is awaited cancels, before the strip
 * takes it to mean "the whole profile" (which would be B). */
static gboolean
on_strip_key (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state, AfgWindow *self)
{
  if (keyval != GDK_KEY_Escape || !self->step_compare->picking)
    return FALSE;
  stop (self);
  return TRUE;
}

static GtkMenuButton *
compare_button_new (void)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  GtkMenuButton *button = GTK_MENU_BUTTON (gtk_menu_button_new ());

  g_menu_append (menu, _("Compare with Steps…"), "win.compare-steps");
  g_menu_append (menu, _("Stop Comparing"), "win.stop-comparing");
  gtk_menu_button_set_label (button, _("Compare"));
  gtk_menu_button_set_menu_model (button, G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (GTK_WIDGET (button),
                               _("Compare the steps shown with other steps (or Ctrl+click a step)"));
  return button;
}

void
_afg_window_step_compare_init (AfgWindow *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *key = gtk_event_controller_key_new ();

  self->step_compare = g_new0 (AfgStepCompare, 1);
  self->step_compare->button = compare_button_new ();
  gtk_box_append (GTK_BOX (self->steps_bar), GTK_WIDGET (self->step_compare->button));
  /* Steps are compared only where there are steps to pick. */
  g_object_bind_property (self->step_strip, "visible", self->step_compare->button, "visible", G_BINDING_SYNC_CREATE);
  /* Before the strip's own drag gesture, which then picks the step. */
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (on_strip_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->step_strip), GTK_EVENT_CONTROLLER (click));
  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_strip_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self->step_strip), key);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop-comparing", FALSE);
  g_signal_connect_object (self->session, "notify::comparing", G_CALLBACK (on_comparing_changed), self,
                           G_CONNECT_SWAPPED);
}

void
_afg_window_step_compare_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.compare-steps", NULL, compare_steps_action);
  gtk_widget_class_install_action (widget_class, "win.stop-comparing", NULL, stop_comparing_action);
  /* Past the outermost zoom, BackSpace goes one level further: out of
   * the comparison. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "win.stop-comparing", NULL);
}

void
_afg_window_step_compare_dispose (AfgWindow *self)
{
  if (self->step_compare == NULL)
    return;
  cancel_job (self->step_compare);
  g_clear_pointer (&self->step_compare, g_free);
}
