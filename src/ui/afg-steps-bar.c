/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-steps-bar"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-document-timeline.h"
#include "afg-format.h"
#include "afg-math.h"
#include "afg-step-range.h"
#include "afg-steps-bar.h"
#include "afg-tree-builder.h"
#include "afg-worker.h"

/* Picking steps rebuilds the tree for them in a worker, from the
 * document's event store (no DB access); whoever shows it keeps the
 * thread, the weight and the search. "Per step" divides every value
 * shown by the steps in scope. */

struct _AfgStepsBar {
  GtkWidget        parent_instance;

  /* Template children */
  AfgStepStrip    *step_strip;
  GtkLabel        *steps_label;
  GtkToggleButton *per_step_button;
  GtkWidget       *all_steps_button;

  /* Owned */
  AfgSession      *session;
  AfgWorker       *worker;         /* the scoped tree being built */
  AfgTree         *whole;          /* the last whole-profile tree built */
  gint64           clicked;        /* when its steps were picked */
  gulong           paint_handler;
  AfgFlameView    *painted;        /* borrowed: the view timed */
};

G_DEFINE_FINAL_TYPE (AfgStepsBar, afg_steps_bar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_PER_STEP,
  N_PROPS
};

enum {
  SCOPE_BUILT,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static AfgTree *
shown_tree (AfgStepsBar *self)
{
  return self->session ? afg_session_get_tree (self->session) : NULL;
}

static AfgDocument *
shown_document (AfgStepsBar *self)
{
  return shown_tree (self) != NULL ? afg_tree_get_document (shown_tree (self)) : NULL;
}

static void
disconnect_paint (AfgStepsBar *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (clock != NULL && self->paint_handler != 0)
    g_signal_handler_disconnect (clock, self->paint_handler);
  self->paint_handler = 0;
  self->painted = NULL;
}

/* "steps 10–12", "step 11", "step 11 while the NPU is idle", or NULL for
 * the whole profile. */
char *
afg_steps_bar_scope_words (const AfgScope *scope)
{
  g_autofree char *steps = afg_scope_describe_range (scope);

  if (!scope->npu_idle)
    return g_steal_pointer (&steps);
  /* TRANSLATORS: "steps 10–12 while the NPU is idle" */
  return steps ? g_strdup_printf (_("%s while the NPU is idle"), steps) : g_strdup (_("while the NPU is idle"));
}

/* The click-to-redraw figure of docs/benchmarks.md: the first frame painted
 * once the view has the new tree's layout. */
static void
on_after_paint (GdkFrameClock *clock, AfgStepsBar *self)
{
  const AfgFlameLayout *layout = afg_flame_view_get_layout (self->painted);
  g_autofree char *words = NULL;

  if (afg_flame_view_is_busy (self->painted) || layout == NULL
      || afg_flame_layout_get_tree (layout) != shown_tree (self))
    return;
  words = afg_steps_bar_scope_words (afg_tree_get_scope (shown_tree (self)));
  g_debug ("%s drawn %.1f ms after the click", words ? words : "whole profile",
           (g_get_monotonic_time () - self->clicked) / 1000.0);
  disconnect_paint (self);
}

static gboolean
is_whole (const AfgScope *scope)
{
  return !scope->bounded && !scope->npu_idle;
}

/* A stale or cancelled build never gets here (AfgWorker drops it). */
static void
on_scope_built (gpointer owner, gpointer tree, const GError *error, gpointer data)
{
  AfgStepsBar *self = owner;

  if (tree == NULL)
    {
      g_debug ("dropped a scoped tree: %s", error->message);
      return;
    }
  g_debug ("scoped tree built %.1f ms after the click", (g_get_monotonic_time () - self->clicked) / 1000.0);
  if (is_whole (afg_tree_get_scope (tree)))
    afg_steps_bar_keep_whole (self, tree);
  g_signal_emit (self, signals[SCOPE_BUILT], 0, tree);
}

static const AfgWorkerFuncs scope_funcs = {
  .name = "afg-scope",
  .run = afg_tree_build_request_run,
  .done = on_scope_built,
  .free_result = (GDestroyNotify) afg_tree_unref,
};

/* The kept tree, through the worker all the same: it arrives, and is
 * cancelled or replaced, as a build does. */
static gpointer
take_whole (gpointer tree, GCancellable *cancellable, GError **error)
{
  return afg_tree_ref (tree);
}

static const AfgWorkerFuncs whole_funcs = {
  .name = "afg-scope",
  .run = take_whole,
  .done = on_scope_built,
  .free_result = (GDestroyNotify) afg_tree_unref,
};

static void
on_per_step_toggled (AfgStepsBar *self, GtkToggleButton *button)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PER_STEP]);
}

static void
on_all_clicked (AfgStepsBar *self, GtkButton *button)
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
    if (afg_step_get_ns (&steps[i]) > afg_step_get_ns (&steps[slowest]))
      slowest = i;
  time = afg_format_duration (afg_step_get_ns (&steps[slowest]));
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

/* "steps 10–12 (3 of 22 steps, 1.72 s)", or "all 22 steps (19.2 s)";
 * NULL for a DB without steps. */
static char *
describe_steps (AfgStepsBar *self)
{
  const AfgScope *scope = afg_tree_get_scope (shown_tree (self));
  g_autofree char *words = afg_steps_bar_scope_words (scope);
  g_autofree char *time = NULL;
  guint n;

  afg_document_get_steps (shown_document (self), &n);
  if (n == 0)
    return NULL;
  time = afg_steps_bar_format_ns (self, afg_tree_get_value (shown_tree (self), AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT));
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
describe_device (AfgStepsBar *self)
{
  const AfgDocument *document = shown_document (self);
  const AfgDeviceTimeline *timeline = afg_document_get_timeline (document);
  const AfgScope *scope = afg_tree_get_scope (shown_tree (self));
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
        sum.compute_ns = afg_sat_add (sum.compute_ns, split.compute_ns);
        sum.comm_ns = afg_sat_add (sum.comm_ns, split.comm_ns);
        sum.other_ns = afg_sat_add (sum.other_ns, split.other_ns);
        sum.free_ns = afg_sat_add (sum.free_ns, split.free_ns);
        /* A reversed step (a hostile DB's) has nothing in it. */
        window = afg_sat_add (window, afg_span_length (steps[i].start_ns, steps[i].end_ns));
      }
  if (n == 0)
    {
      /* No step and no window (usable TASK rows but none with a length):
       * no split, as the command line prints none. */
      if (!afg_document_get_profile_window (document, &start, &end))
        return NULL;
      afg_device_timeline_split (timeline, start, end, &sum);
      window = afg_span_length (start, end);
    }
  words = afg_device_split_describe (&sum, window, FALSE);
  return g_strdup_printf (_("NPU: %s"), words);
}

/* The whole DB's device time, the CLI summary's figures: linked to a
 * frame, and unlinked (no launching call), then by kind, which is what
 * the device weights show; NULL without NPU data. */
static char *
describe_document_npu (AfgDocument *document)
{
  const AfgNpuStats *npu = document ? afg_document_get_npu_stats (document) : NULL;
  const AfgNpuKindStats *k = document ? afg_document_get_npu_kind_stats (document) : NULL;
  g_autofree char *linked = NULL;
  g_autofree char *unlinked = NULL;
  g_autofree char *n_linked = NULL;
  g_autofree char *n_unlinked = NULL;
  g_autofree char *text = NULL;

  if (npu == NULL)
    return NULL;
  linked = afg_format_duration (npu->ns - npu->unlinked_ns);
  unlinked = afg_format_duration (npu->unlinked_ns);
  n_linked = afg_format_count (npu->tasks - npu->unlinked_tasks);
  n_unlinked = afg_format_count (npu->unlinked_tasks);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "NPU %s linked (%s task), %s unlinked (%s)",
                                       "NPU %s linked (%s tasks), %s unlinked (%s)",
                                       afg_format_plural_n (npu->tasks - npu->unlinked_tasks)),
                          linked, n_linked, unlinked, n_unlinked);
  if (k != NULL)
    {
      g_autofree char *compute = afg_format_duration (k->compute_ns);
      g_autofree char *comm = afg_format_duration (k->comm_ns);
      g_autofree char *exposed = afg_format_duration (k->exposed_ns);
      g_autofree char *other = afg_format_duration (k->other_ns);
      g_autofree char *kinds = g_strdup_printf (_("compute %s, communication %s (%s exposed), other %s"),
                                                compute, comm, exposed, other);

      return g_strdup_printf ("%s · %s", text, kinds);
    }
  return g_steal_pointer (&text);
}

static void
afg_steps_bar_dispose (GObject *object)
{
  AfgStepsBar *self = AFG_STEPS_BAR (object);
  GtkWidget *child;

  afg_steps_bar_cancel (self);
  g_clear_object (&self->worker);
  g_clear_pointer (&self->whole, afg_tree_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), AFG_TYPE_STEPS_BAR);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (afg_steps_bar_parent_class)->dispose (object);
}

static void
afg_steps_bar_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgStepsBar *self = AFG_STEPS_BAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_PER_STEP:
      g_value_set_boolean (value, afg_steps_bar_get_per_step (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_steps_bar_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  AfgStepsBar *self = AFG_STEPS_BAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      afg_steps_bar_set_session (self, g_value_get_object (value));
      break;
    case PROP_PER_STEP:
      gtk_toggle_button_set_active (self->per_step_button, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_steps_bar_class_init (AfgStepsBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_steps_bar_dispose;
  object_class->get_property = afg_steps_bar_get_property;
  object_class->set_property = afg_steps_bar_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, AFG_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PER_STEP] =
    g_param_spec_boolean ("per-step", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /* An AfgTree of the document shown, scoped as asked. */
  signals[SCOPE_BUILT] = g_signal_new ("scope-built", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  g_type_ensure (AFG_TYPE_STEP_STRIP);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-steps-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, AfgStepsBar, step_strip);
  gtk_widget_class_bind_template_child (widget_class, AfgStepsBar, steps_label);
  gtk_widget_class_bind_template_child (widget_class, AfgStepsBar, per_step_button);
  gtk_widget_class_bind_template_child (widget_class, AfgStepsBar, all_steps_button);
  gtk_widget_class_bind_template_callback (widget_class, on_per_step_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_all_clicked);
}

static void
afg_steps_bar_init (AfgStepsBar *self)
{
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 12);
  gtk_widget_init_template (GTK_WIDGET (self));
  self->worker = afg_worker_new (self);
}

void
afg_steps_bar_set_session (AfgStepsBar *self, AfgSession *session)
{
  g_return_if_fail (AFG_IS_STEPS_BAR (self));
  g_return_if_fail (AFG_IS_SESSION (session));

  if (g_set_object (&self->session, session))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

AfgStepStrip *
afg_steps_bar_get_strip (AfgStepsBar *self)
{
  g_return_val_if_fail (AFG_IS_STEPS_BAR (self), NULL);
  return self->step_strip;
}

/* A DB without steps has the idle scope of its whole window still: the
 * bar shows for its device tasks alone. */
void
afg_steps_bar_show_document (AfgStepsBar *self, AfgDocument *document)
{
  guint n;
  const AfgStep *steps;
  g_autofree char *summary = NULL;
  g_autofree AfgDeviceSplit *splits = NULL;

  g_return_if_fail (AFG_IS_STEPS_BAR (self));

  steps = afg_document_get_steps (document, &n);
  summary = n > 0 ? strip_summary (steps, n) : NULL;
  splits = step_splits (document, steps, n);
  afg_steps_bar_cancel (self);
  if (self->whole != NULL && afg_tree_get_document (self->whole) != document)
    g_clear_pointer (&self->whole, afg_tree_unref);
  afg_step_strip_set_steps (self->step_strip, steps, n);
  afg_step_strip_set_device (self->step_strip, splits);
  gtk_label_set_text (self->steps_label, summary ? summary : "");
  gtk_widget_set_sensitive (self->all_steps_button, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self), n > 0 || afg_document_get_timeline (document) != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->step_strip), n > 0);
}

void
afg_steps_bar_hide (AfgStepsBar *self)
{
  g_return_if_fail (AFG_IS_STEPS_BAR (self));
  afg_steps_bar_cancel (self);
  /* Its document goes with it, before the next one loads. */
  g_clear_pointer (&self->whole, afg_tree_unref);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

void
afg_steps_bar_append (AfgStepsBar *self, GtkWidget *widget)
{
  g_return_if_fail (AFG_IS_STEPS_BAR (self));
  gtk_widget_set_parent (widget, GTK_WIDGET (self));
}

gboolean
afg_steps_bar_get_scope (AfgStepsBar *self, AfgDocument *document, AfgScope *scope)
{
  g_autoptr(GError) error = NULL;
  guint first, last, n;
  const AfgStep *steps;
  gboolean picked;

  g_return_val_if_fail (AFG_IS_STEPS_BAR (self), FALSE);

  steps = afg_document_get_steps (document, &n);
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

void
afg_steps_bar_build (AfgStepsBar *self, AfgDocument *document, const AfgScope *scope)
{
  AfgTreeFlags flags;

  g_return_if_fail (AFG_IS_STEPS_BAR (self));

  afg_steps_bar_cancel (self);
  flags = afg_session_get_tree_flags (self->session) | AFG_TREE_DURATIONS;
  if (is_whole (scope) && self->whole != NULL && afg_tree_get_document (self->whole) == document
      && afg_tree_get_flags (self->whole) == flags)
    afg_worker_start (self->worker, &whole_funcs, afg_tree_ref (self->whole), (GDestroyNotify) afg_tree_unref);
  else
    afg_worker_start (self->worker, &scope_funcs, afg_tree_build_request_new (document, scope, flags),
                      afg_tree_build_request_free);
}

void
afg_steps_bar_keep_whole (AfgStepsBar *self, AfgTree *tree)
{
  g_return_if_fail (AFG_IS_STEPS_BAR (self));
  g_return_if_fail (tree != NULL && is_whole (afg_tree_get_scope (tree)));

  afg_tree_ref (tree);
  g_clear_pointer (&self->whole, afg_tree_unref);
  self->whole = tree;
}

void
afg_steps_bar_cancel (AfgStepsBar *self)
{
  g_return_if_fail (AFG_IS_STEPS_BAR (self));
  if (self->worker != NULL)
    afg_worker_cancel (self->worker);
  disconnect_paint (self);
}

void
afg_steps_bar_start_clock (AfgStepsBar *self)
{
  g_return_if_fail (AFG_IS_STEPS_BAR (self));
  self->clicked = g_get_monotonic_time ();
}

void
afg_steps_bar_scope_shown (AfgStepsBar *self, AfgTree *tree, AfgFlameView *view)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  g_return_if_fail (AFG_IS_STEPS_BAR (self));

  gtk_widget_set_sensitive (self->all_steps_button, afg_tree_get_scope (tree)->bounded);
  if (clock == NULL)
    return;
  self->painted = view;
  self->paint_handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), self);
}

gboolean
afg_steps_bar_escape (AfgStepsBar *self)
{
  guint first, last;

  g_return_val_if_fail (AFG_IS_STEPS_BAR (self), FALSE);

  if (!gtk_widget_get_visible (GTK_WIDGET (self))
      || !afg_step_strip_get_range (self->step_strip, &first, &last))
    return FALSE;
  afg_step_strip_clear_range (self->step_strip);
  return TRUE;
}

gboolean
afg_steps_bar_get_per_step (AfgStepsBar *self)
{
  g_return_val_if_fail (AFG_IS_STEPS_BAR (self), FALSE);
  return gtk_toggle_button_get_active (self->per_step_button);
}

/* What every value shown is divided by: 1, or with "Per step" the steps
 * in scope (all the DB's steps for the whole profile). */
guint
afg_steps_bar_get_divisor (AfgStepsBar *self)
{
  guint n;

  g_return_val_if_fail (AFG_IS_STEPS_BAR (self), 1);

  if (shown_tree (self) == NULL || !afg_steps_bar_get_per_step (self))
    return 1;
  n = afg_scope_count_steps (afg_tree_get_scope (shown_tree (self)), shown_document (self));
  return MAX (n, 1);
}

/* A time as "Per step" shows it: "1.72 s", or "0.57 s / step". */
char *
afg_steps_bar_format_ns (AfgStepsBar *self, gint64 ns)
{
  guint divisor = afg_steps_bar_get_divisor (self);
  g_autofree char *time = afg_format_duration (ns / divisor);

  /* TRANSLATORS: a time per step, "0.57 s / step" */
  return afg_steps_bar_get_per_step (self) ? g_strdup_printf (_("%s / step"), time) : g_steal_pointer (&time);
}

/* The status line's scope: "steps 10–12 (3 of 22 steps, 1.72 s) · NPU:
 * compute 6.4%, …", or "all 22 steps (19.2 s) · …"; NULL for a DB
 * without steps or device tasks. */
char *
afg_steps_bar_describe (AfgStepsBar *self)
{
  g_autofree char *steps = describe_steps (self);
  g_autofree char *device = describe_device (self);

  if (steps != NULL && device != NULL)
    return g_strdup_printf ("%s · %s", steps, device);
  return steps != NULL ? g_steal_pointer (&steps) : g_steal_pointer (&device);
}

/* The device time the shown tree's frames launched: the scope's, divided
 * as Per step divides; NULL for the whole profile as it is (the DB's
 * linked and unlinked time is told then) or without NPU data. */
static char *
describe_scope_npu (AfgStepsBar *self)
{
  AfgTree *tree = shown_tree (self);
  guint divisor = afg_steps_bar_get_divisor (self);
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
  time = afg_steps_bar_format_ns (self, afg_tree_get_value (tree, AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT));
  count = afg_format_count ((double) n_tasks / divisor);
  return divisor > 1 ? g_strdup_printf (_("NPU %s linked (%s tasks / step)"), time, count)
                     : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "NPU %s linked (%s task)", "NPU %s linked (%s tasks)",
                                                     afg_format_plural_n ((guint64) n_tasks)), time, count);
}

/* The status line's device time: the scope's, or the whole DB's. */
char *
afg_steps_bar_describe_npu (AfgStepsBar *self)
{
  char *scoped;

  g_return_val_if_fail (AFG_IS_STEPS_BAR (self), NULL);

  scoped = describe_scope_npu (self);
  if (scoped != NULL || shown_document (self) == NULL)
    return scoped;
  return describe_document_npu (shown_document (self));
}

/* The tree shown built again, same scope, with the session's flags. */
void
afg_steps_bar_rebuild (AfgStepsBar *self)
{
  AfgScope scope;

  g_return_if_fail (AFG_IS_STEPS_BAR (self));

  scope = *afg_tree_get_scope (shown_tree (self));
  afg_steps_bar_build (self, shown_document (self), &scope);
}

/* The state line's step fields: the step under the pointer ("7" or
 * empty) and the slow ones ("5" or "5,9"). */
void
afg_steps_bar_append_state (AfgStepsBar *self, GString *hover, GString *slow)
{
  guint n;
  const AfgStep *steps = shown_tree (self) ? afg_document_get_steps (shown_document (self), &n) : NULL;
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
afg_steps_bar_scope_field (AfgStepsBar *self)
{
  const AfgScope *scope = shown_tree (self) ? afg_tree_get_scope (shown_tree (self)) : NULL;

  if (scope == NULL || scope->n_steps == 0)
    return g_strdup ("");
  if (scope->first_step == scope->last_step)
    return g_strdup_printf ("%" PRId64, scope->first_step);
  return g_strdup_printf ("%" PRId64 "-%" PRId64, scope->first_step, scope->last_step);
}
