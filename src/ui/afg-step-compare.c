/* SPDX-License-Identifier: MIT */
/* Two step ranges of one DB compared in the window, from memory. "Compare
 * with Steps…" (the Compare menu beside the step strip, a right click on
 * the strip) takes the scope on screen as A, and the next range picked on
 * the strip is B; Ctrl+click on a step does both at once. Both trees are
 * built in a worker from the document's event store (no DB read), with
 * the window's flags, and shown as a diff. A new pick replaces B; Esc or
 * "Stop Comparing" goes back to A's tree. */
#define G_LOG_DOMAIN "afg-step-compare"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-step-compare.h"
#include "afg-tree-builder.h"
#include "afg-window-private.h"

struct _AfgStepCompare {
  GObject        parent_instance;

  AfgWindow     *window;   /* borrowed: it owns this */
  AfgScope       a;
  AfgScope       b;        /* of the diff asked for last */
  gboolean       a_picked; /* steps picked on the strip, not the whole profile */
  gboolean       b_picked;
  gboolean       picking;  /* A chosen, waiting for B's pick */
  AfgWorker     *worker;   /* the diff being built */
  GtkMenuButton *button;   /* borrowed: in the steps bar */
};

G_DEFINE_FINAL_TYPE (AfgStepCompare, afg_step_compare, G_TYPE_OBJECT)

/* The request, and its result once built. */
typedef struct {
  AfgDocument    *document;
  AfgScope        scopes[2];
  AfgTreeFlags    flags;
  AfgDiffShape   *shape;
  AfgFlameLayout *layout;
  AfgColumn       weight;   /* the session's, when the comparison was asked for */
  gint64          started;  /* for docs/benchmarks.md's figure */
} StepsRequest;

static void
steps_request_free (StepsRequest *req)
{
  g_clear_pointer (&req->document, afg_document_unref);
  g_clear_pointer (&req->shape, afg_diff_shape_unref);
  g_clear_pointer (&req->layout, afg_flame_layout_free);
  g_free (req);
}

/* "steps 10–12", "step 11", or "all steps" for a whole profile. */
static char *
range_words (const AfgScope *scope)
{
  return scope->n_steps == 0 ? g_strdup (_("all steps")) : afg_scope_describe_range (scope);
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

static AfgStepStrip *
strip (AfgStepCompare *self)
{
  return afg_steps_bar_get_strip (self->window->steps_bar);
}

/* The diff on screen when it is two scopes of one document, else NULL. */
static AfgDiffShape *
step_diff (AfgStepCompare *self)
{
  AfgDiffView *view = self->window->diff_view;
  AfgDiffShape *shape = view ? afg_diff_view_get_shape (view) : NULL;

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

static void sync_mark (AfgStepCompare *self);

/* The status line asks for B: text beside the strip would resize it
 * under the pointer. */
static void
set_picking (AfgStepCompare *self, gboolean picking)
{
  AfgWindow *window = self->window;
  g_autofree char *a = NULL;
  g_autofree char *hint = NULL;

  if (picking)
    {
      a = range_words (&self->a);
      /* TRANSLATORS: %s is "steps 10–12", "step 11" or "all steps" */
      hint = g_strdup_printf (_("Pick the steps to compare %s with, on the step strip (Esc cancels)"), a);
      afg_status_bar_set_text (window->status_bar, hint);
    }
  else if (self->picking && step_diff (self) == NULL && _afg_window_get_tree (window) != NULL)
    afg_status_bar_refresh (window->status_bar);
  self->picking = picking;
  gtk_widget_action_set_enabled (GTK_WIDGET (window), "win.stop-comparing",
                                 picking || step_diff (self) != NULL || _afg_window_is_comparing (window));
  sync_mark (self);
}

static gpointer
compare_in_thread (gpointer data, GCancellable *cancellable, GError **error)
{
  StepsRequest *req = data;
  g_autoptr(AfgTree) a = afg_tree_build (req->document, &req->scopes[0], req->flags, cancellable, error);
  g_autoptr(AfgTree) b = a ? afg_tree_build (req->document, &req->scopes[1], req->flags, cancellable, error) : NULL;

  if (b == NULL)
    return NULL;
  if (!afg_compare_section_make_diff (a, b, afg_document_get_source_path (req->document), req->weight,
                                      cancellable, &req->shape, &req->layout))
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  return req;
}

/* "A: steps 2–3 (1.2 s) → B: step 5 (0.9 s), host time on all threads ·
 * 310 frames, threads merged" */
static void
update_status (AfgStepCompare *self, AfgDiffShape *shape)
{
  g_autofree char *a = range_words (side_scope (shape, AFG_DIFF_SIDE_A));
  g_autofree char *b = range_words (side_scope (shape, AFG_DIFF_SIDE_B));
  g_autofree char *text = afg_compare_section_describe (shape, a, b);

  afg_status_bar_set_text (self->window->status_bar, text);
}

static void
on_compared (gpointer owner, gpointer result, const GError *error, gpointer data)
{
  AfgStepCompare *self = owner;
  StepsRequest *req = data;

  if (self->window == NULL)
    g_debug ("dropped a step comparison of a window gone");
  else if (result == NULL)
    _afg_window_show_notice (self->window, error->message, NULL);
  else
    {
      g_debug ("step diff built %.1f ms after the pick", (g_get_monotonic_time () - req->started) / 1000.0);
      afg_compare_section_show_diff (self->window->compare, req->shape, g_steal_pointer (&req->layout));
      update_status (self, req->shape);
      set_picking (self, FALSE);
    }
}

static const AfgWorkerFuncs compare_funcs = {
  .name = "afg-step-compare",
  .run = compare_in_thread,
  .done = on_compared,
};

static void
cancel_request (AfgStepCompare *self)
{
  if (self->worker != NULL)
    afg_worker_cancel (self->worker);
}

static void
start_request (AfgStepCompare *self, AfgDocument *document, const AfgScope *b)
{
  StepsRequest *req = g_new0 (StepsRequest, 1);

  req->document = afg_document_ref (document);
  req->scopes[0] = self->a;
  req->scopes[1] = self->b = *b;
  req->started = g_get_monotonic_time ();
  /* The window's own scoped trees' flags (AfgStepsBar's). */
  req->flags = _afg_window_tree_flags (self->window) | AFG_TREE_DURATIONS;
  req->weight = afg_weight_get_total_column (afg_session_get_weight (self->window->session));
  afg_worker_start (self->worker, &compare_funcs, req, (GDestroyNotify) steps_request_free);
}

gboolean
afg_step_compare_take (AfgStepCompare *self, AfgDocument *document, const AfgScope *scope)
{
  g_return_val_if_fail (AFG_IS_STEP_COMPARE (self), FALSE);

  guint first, last;

  if (!self->picking && step_diff (self) == NULL)
    return FALSE;
  set_picking (self, FALSE);
  self->b_picked = afg_step_strip_get_range (strip (self), &first, &last);
  start_request (self, document, scope);
  return TRUE;
}

void
afg_step_compare_begin (AfgStepCompare *self)
{
  AfgWindow *window = self->window;

  g_return_if_fail (AFG_IS_STEP_COMPARE (self));

  if (_afg_window_get_tree (window) == NULL || !gtk_widget_get_visible (GTK_WIDGET (window->steps_bar))
      || !gtk_widget_get_visible (GTK_WIDGET (strip (self)))
      || (_afg_window_is_comparing (window) && step_diff (self) == NULL))
    return;
  guint first, last;

  if (step_diff (self) == NULL)
    {
      self->a = *afg_tree_get_scope (_afg_window_get_tree (window));
      self->a_picked = afg_step_strip_get_range (strip (self), &first, &last);
    }
  set_picking (self, TRUE);
  _afg_window_report_state (window);
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
marked_scope (AfgStepCompare *self, const AfgStep **steps, guint *n)
{
  AfgDiffShape *shape = step_diff (self);
  AfgTree *tree = shape ? afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A) : _afg_window_get_tree (self->window);

  if (tree == NULL || (shape == NULL && !self->picking))
    return NULL;
  *steps = afg_document_get_steps (afg_tree_get_document (tree), n);
  return shape ? side_scope (shape, AFG_DIFF_SIDE_A) : &self->a;
}

/* The strip marks A above its bars (its range being B) while compared. */
static void
sync_mark (AfgStepCompare *self)
{
  const AfgStep *steps = NULL;
  guint n = 0;
  const AfgScope *a = marked_scope (self, &steps, &n);
  int first = a ? step_index (steps, n, a) : -1;

  afg_step_strip_set_mark (strip (self), a != NULL, first, first < 0 ? -1 : first + (int) a->n_steps - 1);
  _afg_window_report_state (self->window);
}

/* Back to A's tree, A's range picked on the strip again. */
gboolean
afg_step_compare_stop (AfgStepCompare *self)
{
  AfgDiffShape *shape = step_diff (self);
  g_autoptr(AfgTree) a = shape ? afg_tree_ref (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A)) : NULL;
  gboolean was_picking = self->picking;
  const AfgStep *steps;
  guint n;

  set_picking (self, FALSE);
  cancel_request (self);
  if (a == NULL)
    {
      _afg_window_report_state (self->window);
      return was_picking;
    }
  steps = afg_document_get_steps (afg_tree_get_document (a), &n);
  afg_step_strip_set_range (strip (self), step_index (steps, n, afg_tree_get_scope (a)),
                            step_index (steps, n, afg_tree_get_scope (a)) + afg_tree_get_scope (a)->n_steps - 1);
  afg_diff_view_set_shape (self->window->diff_view, NULL, NULL);
  afg_session_set_comparing (self->window->session, FALSE);
  _afg_window_steps_show_tree (self->window, a);
  set_picking (self, FALSE);
  return TRUE;
}

/* @scope's steps again, in (@npu_idle) or out of the idle instants: the
 * steps picked (@picked), else the whole profile, or the range of a tree
 * of Sync range. */
static gboolean
rescope (AfgScope *out, AfgDocument *document, const AfgScope *scope, gboolean picked, gboolean npu_idle,
         GError **error)
{
  if (!afg_scope_init_request (out, document, picked, scope->first_step, scope->last_step, npu_idle, error))
    return FALSE;
  if (!picked && scope->bounded && scope->n_steps == 0)
    afg_scope_narrow (out, scope->start_ns, scope->end_ns);
  return TRUE;
}

/* The document of the diff on screen or being made, else NULL. */
static AfgDocument *
compared_document (AfgStepCompare *self)
{
  AfgDiffShape *shape = step_diff (self);
  StepsRequest *req = afg_worker_get_data (self->worker);

  if (req != NULL)
    return req->document;
  return shape ? afg_tree_get_document (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A)) : NULL;
}

gboolean
afg_step_compare_rescope (AfgStepCompare *self, gboolean npu_idle)
{
  AfgDocument *document;
  AfgTree *tree;
  g_autoptr(GError) error = NULL;
  AfgScope a, b;

  g_return_val_if_fail (AFG_IS_STEP_COMPARE (self), FALSE);

  document = compared_document (self);
  if (document == NULL)
    {
      tree = _afg_window_get_tree (self->window);
      if (self->picking && tree != NULL
          && rescope (&a, afg_tree_get_document (tree), &self->a, self->a_picked, npu_idle, NULL))
        self->a = a;
      return FALSE;
    }
  if (!rescope (&a, document, &self->a, self->a_picked, npu_idle, &error)
      || !rescope (&b, document, &self->b, self->b_picked, npu_idle, &error))
    {
      _afg_window_show_notice (self->window, error->message, NULL);
      return TRUE;
    }
  /* The request holds the document: a reference outlives its cancel. */
  document = afg_document_ref (document);
  self->a = a;
  cancel_request (self);
  start_request (self, document, &b);
  afg_document_unref (document);
  return TRUE;
}

void
afg_step_compare_reset (AfgStepCompare *self)
{
  if (self == NULL)
    return;
  set_picking (self, FALSE);
  cancel_request (self);
}

char *
afg_step_compare_title (AfgStepCompare *self)
{
  AfgDiffShape *shape = self ? step_diff (self) : NULL;
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
afg_step_compare_get_document (AfgStepCompare *self)
{
  AfgDiffShape *shape = self ? step_diff (self) : NULL;

  return shape ? afg_tree_get_document (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A)) : NULL;
}

/* strip_a: the steps the strip marks A, by id as scope_a ("all" for
 * the whole profile), read back from the strip; empty when none. */
static void
append_strip_mark (AfgStepCompare *self, GString *line)
{
  const AfgStep *steps = NULL;
  guint n = 0;
  int first, last;
  g_autofree char *field = NULL;

  if (self != NULL && afg_step_strip_get_mark (strip (self), &first, &last))
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
afg_step_compare_append_state (AfgStepCompare *self, GString *line)
{
  AfgDiffShape *shape = self ? step_diff (self) : NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  if (shape != NULL)
    {
      a = range_field (side_scope (shape, AFG_DIFF_SIDE_A));
      b = range_field (side_scope (shape, AFG_DIFF_SIDE_B));
    }
  else if (self != NULL && self->picking)
    a = range_field (&self->a);
  _afg_window_append_state_field (line, "scope_a", a);
  _afg_window_append_state_field (line, "scope_b", b);
  append_strip_mark (self, line);
}

/* Stop Comparing is there for any comparison, or while B is picked. */
static void
on_comparing_changed (AfgStepCompare *self, GParamSpec *pspec, AfgSession *session)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self->window), "win.stop-comparing",
                                 self->picking || afg_session_get_comparing (session));
}

/* Ctrl+click on a step: the scope on screen is A, the step clicked B (the
 * strip's own gesture then picks it). */
static void
on_strip_pressed (GtkGestureClick *gesture, int n_press, double x, double y, AfgStepCompare *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (button == GDK_BUTTON_SECONDARY)
    gtk_menu_button_popup (self->button);
  else if (state & GDK_CONTROL_MASK)
    afg_step_compare_begin (self);
}

/* Esc in the focused strip while B is awaited cancels, before the strip
 * takes it to mean "the whole profile" (which would be B). */
static gboolean
on_strip_key (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state, AfgStepCompare *self)
{
  if (keyval != GDK_KEY_Escape || !self->picking)
    return FALSE;
  afg_step_compare_stop (self);
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

static void
afg_step_compare_dispose (GObject *object)
{
  AfgStepCompare *self = AFG_STEP_COMPARE (object);

  g_clear_object (&self->worker);
  self->window = NULL;
  G_OBJECT_CLASS (afg_step_compare_parent_class)->dispose (object);
}

static void
afg_step_compare_class_init (AfgStepCompareClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = afg_step_compare_dispose;
}

static void
afg_step_compare_init (AfgStepCompare *self)
{
  self->worker = afg_worker_new (self);
}

/* The strip's gestures come before its own drag, which then picks the
 * step. */
static void
watch_strip (AfgStepCompare *self, AfgStepStrip *strip)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *key = gtk_event_controller_key_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect_object (click, "pressed", G_CALLBACK (on_strip_pressed), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (strip), GTK_EVENT_CONTROLLER (click));
  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect_object (key, "key-pressed", G_CALLBACK (on_strip_key), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (strip), key);
}

AfgStepCompare *
afg_step_compare_new (AfgWindow *window)
{
  AfgStepCompare *self = g_object_new (AFG_TYPE_STEP_COMPARE, NULL);

  self->window = window;
  self->button = compare_button_new ();
  afg_steps_bar_append (window->steps_bar, GTK_WIDGET (self->button));
  /* Steps are compared only where there are steps to pick. */
  g_object_bind_property (strip (self), "visible", self->button, "visible", G_BINDING_SYNC_CREATE);
  watch_strip (self, strip (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (window), "win.stop-comparing", FALSE);
  g_signal_connect_object (window->session, "notify::comparing", G_CALLBACK (on_comparing_changed), self,
                           G_CONNECT_SWAPPED);
  return self;
}
