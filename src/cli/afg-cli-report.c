/* SPDX-License-Identifier: MIT */
/* What the command line says: errors with their hints, warnings, and the
 * summary lines of an export. */
#define G_LOG_DOMAIN "afg-cli"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-cli-report.h"
#include "afg-document-timeline.h"
#include "afg-error.h"
#include "afg-format.h"
#include "afg-loader.h"
#include "afg-math.h"
#include "afg-tree-transform.h"

/* Whole lines are translated, so that a language may use its own colon. */
void
afg_cli_print_error (const char *message, const char *hint)
{
  g_printerr (_("%s: error: %s\n"), AFG_CLI_PROG, message);
  if (hint != NULL)
    g_printerr (_("%s: hint: %s\n"), AFG_CLI_PROG, hint);
}

void
afg_cli_print_warning (const char *who, const char *message)
{
  g_printerr (_("%s: warning: %s\n"), who, message);
}

static void
print_read_summary (const AfgTree *tree, double seconds, const char *out_path)
{
  const AfgStats *s = afg_tree_get_stats (tree);
  g_autofree char *shown = afg_format_path (out_path);
  guint threads = afg_tree_get_n_threads (tree);
  guint frames = afg_tree_get_n_nodes (tree) - 1 - threads;
  /* The counts with a plural of their own: the window's words. */
  g_autofree char *thread_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'u thread", "%'u threads", threads), threads);
  g_autofree char *frame_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'u frame", "%'u frames", frames), frames);
  g_autofree char *overlap_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'" PRIu64 " partial overlap",
                                                                "%'" PRIu64 " partial overlaps",
                                                                afg_format_plural_n (s->partial_overlaps)),
                                                   s->partial_overlaps);
  g_autofree char *row_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'" PRIu64 " row", "%'" PRIu64 " rows",
                                                            afg_format_plural_n (s->rows)), s->rows);

  g_printerr (_("%s: %s: %s, %'" PRIu64 " used; skipped: %'"
                PRIu64 " other type, %'" PRIu64 " NULL, %'" PRIu64
                " malformed, %'" PRIu64 " non-positive duration, %'" PRIu64
                " ProfilerStep; %s, %s, %s, %'"
                PRIu64 " cut below depth 1000; %.2f s; wrote %s\n"),
              AFG_CLI_PROG, afg_document_get_source_name (afg_tree_get_document (tree)), row_text, s->used,
              s->skipped_type, s->skipped_null, s->skipped_malformed, s->skipped_nonpositive,
              s->profiler_steps, thread_text, frame_text, overlap_text, s->depth_truncated, seconds, shown);
}

static char *
task_count (guint64 n)
{
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'" PRIu64 " task", "%'" PRIu64 " tasks",
                                       afg_format_plural_n (n)), n);
}

/* The whole DB's device work by kind: what really costs, at a glance. */
static void
print_kinds_summary (const AfgTree *tree)
{
  const AfgNpuKindStats *k = afg_document_get_npu_kind_stats (afg_tree_get_document (tree));
  g_autofree char *compute = afg_format_duration (k->compute_ns);
  g_autofree char *comm = afg_format_duration (k->comm_ns);
  g_autofree char *exposed = afg_format_duration (k->exposed_ns);
  g_autofree char *other = afg_format_duration (k->other_ns);

  g_printerr (_("%s: NPU: compute %s, communication %s (%s exposed), other %s\n"),
              AFG_CLI_PROG, compute, comm, exposed, other);
}

/* What the device did over the whole profile, in shares of its window. */
static void
print_timeline_summary (const AfgTree *tree)
{
  const AfgDocument *document = afg_tree_get_document (tree);
  const AfgDeviceTimeline *timeline = afg_document_get_timeline (document);
  AfgDeviceSplit split;
  gint64 start, end;
  g_autofree char *words = NULL;

  if (timeline == NULL || !afg_document_get_profile_window (document, &start, &end))
    return;
  afg_device_timeline_split (timeline, start, end, &split);
  words = afg_device_split_describe (&split, afg_span_length (start, end), FALSE);
  g_printerr (_("%s: NPU timeline: %s\n"), AFG_CLI_PROG, words);
}

/* Device time of the whole profile, beside the summary line; the
 * timeline's split even without the links NPU time needs. */
static void
print_npu_summary (const AfgTree *tree)
{
  const AfgNpuStats *npu = afg_document_get_npu_stats (afg_tree_get_document (tree));
  g_autofree char *linked = NULL;
  g_autofree char *unlinked = NULL;

  if (npu != NULL)
    {
      linked = afg_format_duration (npu->ns - npu->unlinked_ns);
      unlinked = afg_format_duration (npu->unlinked_ns);
      g_autofree char *linked_tasks = task_count (npu->tasks - npu->unlinked_tasks);
      g_autofree char *unlinked_tasks = task_count (npu->unlinked_tasks);
      g_autofree char *skipped = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'" PRIu64 " TASK row skipped",
                                                               "%'" PRIu64 " TASK rows skipped",
                                                               afg_format_plural_n (npu->skipped)), npu->skipped);

      g_printerr (_("%s: NPU device time: %s linked (%s), %s unlinked (%s); %s\n"),
                  AFG_CLI_PROG, linked, linked_tasks, unlinked, unlinked_tasks, skipped);
      print_kinds_summary (tree);
    }
  print_timeline_summary (tree);
}

/* A list of warnings: each a strv of the line and, when there is one,
 * what to do about it. */
static GPtrArray *
warnings_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
}

/* Takes @message. */
static void
add_warning (GPtrArray *warnings, char *message, const char *hint)
{
  char **w = g_new0 (char *, 3);

  w[0] = message;
  w[1] = g_strdup (hint);
  g_ptr_array_add (warnings, w);
}

/* An empty tree of a bounded scope: the steps asked for, the NPU-idle
 * instants of those steps, or of a profile without steps. */
static char *
describe_empty_scope (const AfgScope *scope)
{
  g_autofree char *steps = afg_scope_describe_range (scope);

  if (scope->npu_idle && steps == NULL)
    return g_strdup (_("no usable rows while the NPU is idle"));
  if (scope->npu_idle)
    /* TRANSLATORS: %s is "step 7" or "steps 3–5" */
    return g_strdup_printf (_("no usable rows while the NPU is idle in %s"), steps);
  return g_strdup_printf (_("no usable rows in %s"), steps != NULL ? steps : _("the whole profile"));
}

static void
add_stats_warnings (GPtrArray *warnings, const AfgStats *s)
{
  if (s->skipped_nonpositive > 0)
    add_warning (warnings,
                 g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'" PRIu64 " row with endNs <= startNs was skipped",
                                               "%'" PRIu64 " rows with endNs <= startNs were skipped",
                                               afg_format_plural_n (s->skipped_nonpositive)),
                                  s->skipped_nonpositive),
                 NULL);
  if (s->depth_truncated > 0)
    add_warning (warnings,
                 g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'" PRIu64 " call deeper than %d frames was left out;"
                                               " its time stays in the frame above",
                                               "%'" PRIu64 " calls deeper than %d frames were left out;"
                                               " their time stays in the frame above",
                                               afg_format_plural_n (s->depth_truncated)),
                                  s->depth_truncated, AFG_MAX_DEPTH),
                 NULL);
}

/* Why @tree, as built, has no frame. */
static void
add_empty_warnings (GPtrArray *warnings, const AfgTree *tree)
{
  g_autoptr(GError) empty = NULL;

  if (afg_tree_is_empty (tree) && afg_tree_get_scope (tree)->bounded)
    add_warning (warnings, describe_empty_scope (afg_tree_get_scope (tree)), NULL);
  else if (!afg_tree_check_not_empty (tree, &empty))
    add_warning (warnings, g_strdup (empty->message), afg_load_error_get_hint (empty));
}

static gboolean
is_transformed (const AfgTree *tree)
{
  const AfgTransformList *list = afg_tree_get_transforms (tree);

  return list != NULL && afg_transform_list_get_length (list) > 0;
}

GPtrArray *
afg_cli_tree_warnings (const AfgTree *tree, AfgWeight weight)
{
  GPtrArray *warnings = warnings_new ();
  AfgDocument *document = afg_tree_get_document (tree);
  const GPtrArray *kinds = afg_document_get_kind_warnings (document);

  add_stats_warnings (warnings, afg_tree_get_stats (tree));
  /* A transformed tree's emptiness is afg_cli_transform_warnings()'s to
   * explain: the rows may all be there. */
  if (!is_transformed (tree))
    add_empty_warnings (warnings, tree);
  if (afg_document_get_npu_warning (document) != NULL)
    add_warning (warnings, g_strdup (afg_document_get_npu_warning (document)), NULL);
  for (guint i = 0; i < kinds->len; i++)
    add_warning (warnings, g_strdup (g_ptr_array_index (kinds, i)), NULL);
  if (weight != AFG_WEIGHT_HOST && afg_document_get_npu_stats (document) == NULL)
    add_warning (warnings, g_strdup (_("the profile has no NPU device time (no usable TASK and CONNECTION_IDS"
                                       " tables): the NPU-weighted output is empty")), NULL);
  return warnings;
}

GPtrArray *
afg_cli_transform_warnings (const AfgTree *base, const AfgTransformList *list, const gboolean *named,
                            const AfgTree *transformed)
{
  GPtrArray *warnings = warnings_new ();

  /* An empty tree names nothing: its own reason is the one to give. */
  for (guint i = 0; !afg_tree_is_empty (base) && i < afg_transform_list_get_length (list); i++)
    {
      const AfgTransform *t = afg_transform_list_get (list, i);

      if (named[i])
        continue;
      /* TRANSLATORS: "--focus-function 'aten::add' names no frame" */
      add_warning (warnings, g_strdup_printf (_("--%s '%s' names no frame"), afg_transform_op_to_string (t->op), t->arg),
                   t->op == AFG_TRANSFORM_FOCUS_SUBTREE
                   ? _("A;B;C is the path of names from a thread's top frame, each name whole")
                   : _("F is a frame's whole name; /REGEX/ matches part of one (see --help)"));
    }
  if (!afg_tree_is_empty (transformed))
    return warnings;
  if (afg_tree_is_empty (base))
    add_empty_warnings (warnings, base);
  else
    add_warning (warnings, g_strdup (_("the transforms leave no frame")), NULL);
  return warnings;
}

void
afg_cli_print_warning_list (const char *who, int rank, GPtrArray *warnings)
{
  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    {
      char **w = g_ptr_array_index (warnings, i);
      g_autofree char *ranked = NULL;

      if (rank != AFG_CLI_NO_RANK)
        ranked = g_strdup_printf (_("rank %d: %s"), rank, w[0]);
      afg_cli_print_warning (who, ranked != NULL ? ranked : w[0]);
      if (w[1] != NULL)
        g_printerr (_("%s: hint: %s\n"), who, w[1]);
    }
}

void
afg_cli_print_warnings (const char *who, const AfgTree *tree, AfgWeight weight)
{
  g_autoptr(GPtrArray) warnings = afg_cli_tree_warnings (tree, weight);

  afg_cli_print_warning_list (who, AFG_CLI_NO_RANK, warnings);
}

static char *
scope_error_hint (const GError *error, const AfgDocument *document)
{
  guint n;
  const AfgStep *steps = afg_document_get_steps (document, &n);
  guint k = 0;

  if (error->code == AFG_SCOPE_ERROR_NO_STEPS)
    return g_strdup (_("export without --steps; torch_npu marks a step each time the profiler's step() is called"));
  /* No device time to be idle against: the steps are not the cause. */
  if (error->code == AFG_SCOPE_ERROR_NO_DEVICE)
    return g_strdup (_("export without --npu-idle; collect with torch_npu.profiler.ProfilerActivity.NPU for the "
                       "device's tasks"));
  /* --steps takes no sign: only a hand-made STEP_TIME numbers a step
   * below 0, and the hint names none of those. Steps come sorted. */
  while (k < n && steps[k].id < 0)
    k++;
  if (k == n)
    return g_strdup (_("the profile numbers its steps below 0, which --steps cannot name: export without --steps"));
  if (n == 1)
    return g_strdup_printf (_("the profile has one step: --steps %" PRId64), steps[0].id);
  if (k == n - 1)
    return g_strdup_printf (_("choose a step the profile has, e.g. --steps %" PRId64), steps[k].id);
  return g_strdup_printf (_("choose steps the profile has, e.g. --steps %" PRId64 " or --steps %"
                            PRId64 "-%" PRId64), steps[k].id, steps[k].id, steps[n - 1].id);
}

int
afg_cli_report_build_error (const GError *error, const AfgDocument *document)
{
  g_autofree char *hint = NULL;

  if (error->domain == AFG_SCOPE_ERROR)
    hint = scope_error_hint (error, document);
  afg_cli_print_error (error->message, hint ? hint : afg_load_error_get_hint (error));
  return AFG_EXIT_BAD_INPUT;
}

int
afg_cli_report_export_error (const GError *error, const AfgDocument *document)
{
  if (error->domain != G_FILE_ERROR)
    return afg_cli_report_build_error (error, document);
  afg_cli_print_error (error->message, _("choose another output directory with -o DIR"));
  return AFG_EXIT_WRITE_FAILED;
}

void
afg_cli_print_tree_summary (const AfgTree *tree, double seconds, const char *out_path)
{
  print_read_summary (tree, seconds, out_path);
  print_npu_summary (tree);
}

void
afg_cli_print_diff_summary (AfgDiffShape *diff, double seconds, const char *out_path)
{
  AfgTree *tree = afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B);
  guint only[2] = { 0, 0 };
  guint frames = afg_tree_get_n_nodes (tree) - 1;
  g_autofree char *shown = afg_format_path (out_path);
  g_autofree char *frame_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'u frame", "%'u frames", frames), frames);

  for (guint32 n = 1; n < afg_tree_get_n_nodes (tree); n++)
    for (AfgDiffSide s = AFG_DIFF_SIDE_A; s <= AFG_DIFF_SIDE_B; s++)
      if (!afg_diff_shape_has_node (diff, 1 - s, n))
        only[s]++;
  g_printerr (_("%s: A %s, B %s: %s, %'u only in A, %'u only in B; %.2f s; wrote %s\n"), AFG_CLI_PROG,
              afg_document_get_source_name (afg_tree_get_document (afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_A))),
              afg_document_get_source_name (afg_tree_get_document (afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_B))),
              frame_text, only[AFG_DIFF_SIDE_A], only[AFG_DIFF_SIDE_B], seconds, shown);
}
