/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <stdio.h>

#include "afg-format.h"
#include "afg-test-control.h"
#include "afg-state-line.h"
#include "afg-window-private.h"

struct _AfgStateLine {
  GObject    parent_instance;

  AfgWindow *window;       /* not a reference: the window keeps the line */
  char      *last;         /* the last line printed */
  guint      idle_source;
};

G_DEFINE_FINAL_TYPE (AfgStateLine, afg_state_line, G_TYPE_OBJECT)

/* With AFG_TEST_STATE set, each window prints one line to stderr whenever
 * what it shows changes, for end-to-end tests to wait on (not on the
 * wording of debug messages). The format is fixed
 * (docs/test-state-line.md): "afg-state" then TAB-separated KEY=VALUE fields in this order:
 *   page      empty | loading | error | graph
 *   file      the path the window loads or shows, or empty
 *   zoom      the name of the zoom root on screen (graph only)
 *   selected  the name of the selected frame, or empty
 *   hover     the name of the frame under the pointer, or empty
 *   selected_at  "X,Y": the middle of the selected frame on screen, in
 *             the window's X coordinates (where a test points), or empty
 *   matches   search matches in the zoom, or empty with no search
 *   matched   their share of the zoom's time, "33.3%", or empty
 *   recent    how many recent profiles the start page lists
 *   exported  the path of the last export, or empty
 *   icicle    0 for the flame orientation, 1 for icicle
 *   error     the error message (error page only)
 *   scope     the steps shown, "10-12" or "11"; empty for the whole profile
 *   perstep   1 when "Per step" divides the values, else 0
 *   divisor   what the values shown are divided by (1 without "Per step")
 *   thread    the label of the thread picked, or empty for all threads
 *   root_ns   the shown tree's root total (AFG_COLUMN_TOTAL_NS), graph only
 *   nodes     the shown tree's node count (root and threads included)
 *   npu_ns    the shown tree's root NPU total, empty without NPU data
 *   weight    what the widths show: host | npu | compute | comm | exposed
 *             (the weight menu)
 *   step      the id of the step under the pointer in the step strip, or empty
 *   slow      the ids of the steps the strip marks slow, "5" or "5,9"
 *   strip     how many steps the step strip shows; empty when it is hidden
 *   transforms  the call-tree transforms applied, "OP ARG" each joined by " > "
 *   idle      1 when the tree shown covers only the NPU-idle instants, else 0
 *   bars      the strip's stacked bars, "COMPUTE COMM OTHER FREE" ns per
 *             step joined by ",", or empty without device tasks
 *   mode      profile | diff
 *   compared  B's path while a diff is shown (file is A's), else empty
 *   shape, color, norm  the diff's options: a|b, self|total,
 *             raw|per-step|equal-totals; empty without a diff
 *   hover_path    the hovered frame's path in a diff, names joined by ";"
 *   hover_values  its "a_calls a_total a_self b_calls b_total b_self"
 *   tooltip   its tooltip's text, lines joined by spaces; outside a diff,
 *             the tooltip of the frame under the pointer
 *   scope_a   comparing two step ranges of one DB: A's steps, "10-12",
 *             "11" or "all", while B is picked and while the diff shows
 *   scope_b   B's steps while that diff shows, else empty
 *   strip_a   the steps the strip marks A (read from the strip), as
 *             scope_a; empty when none
 *   merged    1 while "Merge Address Variants" is on, else 0
 *   ranks     with a job folder open: "READ/N" ranks read; else empty
 *   rank      the rank picked in the rank sidebar, "all", or empty
 *   straggler the ranks the sidebar marks stragglers, "3" or "3,5"
 *   cancelled how many ranks Cancel left unread (with a job folder)
 *   functions 1 while the Functions panel is shown, else 0
 *   rows      the panel's table rows (after the search filter), or empty
 *   top       the name in its first row, or empty
 *   function  the function picked in it, or empty
 *   highlighted  how many frames of the tree are that function's
 *   callers, callees  "CHILDREN ROOT_NS" of each sandwich half, or empty
 *   histogram how many call durations the histogram shows; empty while
 *             they are collected or with no function picked
 *   durations 1 when the shown tree has the percentile columns (tooltips)
 *   seq       the number of the last test barrier passed (afg-test-control.c)
 *   kernels   the kernel leaves drawn in the layout shown (compute, comm and
 *             exposed weights), else empty
 *   kernel_top  the Kernels tab's first row, "COUNT [KIND] NAME", while the
 *             Functions panel is shown, else empty
 *   explain   while the diff "Explain the Straggler" asked for shows, its
 *             words on when the straggler's steps start, else empty
 *   status    the status bar's text
 *   (the stack chart's fields: docs/test-state-line.md)
 *   notice    the message over the pages (what an export did), empty once
 *             dismissed
 *   open      its open button's label, empty when it has none
 *   verdict   with a job folder open: the job's verdict, as index.html
 *             words it (no collective matched, balanced, or the straggler)
 * Tabs and newlines in values become spaces. */

void
_afg_window_append_state_field (GString *line, const char *key, const char *value)
{
  g_string_append_printf (line, "\t%s=", key);
  for (const char *p = value ? value : ""; *p != '\0'; p++)
    g_string_append_c (line, *p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p);
}

static const char *
node_name (AfgWindow *self, guint32 node)
{
  if (_afg_window_get_tree (self) == NULL || node == AFG_FLAME_NO_FRAME)
    return NULL;
  return afg_tree_get_node_name (_afg_window_get_tree (self), node);
}

static void
append_search (AfgWindow *self, GString *line)
{
  AfgFlameSearchResult result;
  g_autofree char *count = NULL;
  g_autofree char *percent = NULL;

  if (afg_flame_view_get_search_result (self->flame_view, &result))
    {
      count = g_strdup_printf ("%u", result.n_matches);
      percent = afg_format_percent (result.matched_ns, result.view_ns);
    }
  _afg_window_append_state_field (line, "matches", count);
  _afg_window_append_state_field (line, "matched", percent);
}

static const char *
picked_thread (AfgWindow *self)
{
  guint picked = gtk_drop_down_get_selected (self->thread_dropdown);

  if (_afg_window_get_tree (self) == NULL || picked == 0 || picked == GTK_INVALID_LIST_POSITION)
    return NULL;
  return afg_tree_get_thread (_afg_window_get_tree (self), picked - 1)->label;
}

static void
append_tree (AfgWindow *self, GString *line, gboolean graph)
{
  g_autofree char *scope = afg_steps_bar_scope_field (self->steps_bar);
  g_autofree char *divisor = g_strdup_printf ("%u", afg_steps_bar_get_divisor (self->steps_bar));
  g_autofree char *root = NULL;
  g_autofree char *nodes = NULL;
  g_autofree char *npu = NULL;

  if (graph && _afg_window_get_tree (self) != NULL && afg_tree_has_column (_afg_window_get_tree (self), AFG_COLUMN_NPU_TOTAL_NS))
    npu = g_strdup_printf ("%" G_GINT64_FORMAT, afg_tree_get_value (_afg_window_get_tree (self), AFG_COLUMN_NPU_TOTAL_NS, AFG_TREE_ROOT));
  if (graph && _afg_window_get_tree (self) != NULL)
    {
      root = g_strdup_printf ("%" G_GINT64_FORMAT, afg_tree_get_value (_afg_window_get_tree (self), AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT));
      nodes = g_strdup_printf ("%u", afg_tree_get_n_nodes (_afg_window_get_tree (self)));
    }
  _afg_window_append_state_field (line, "scope", scope);
  _afg_window_append_state_field (line, "perstep", afg_steps_bar_get_per_step (self->steps_bar) ? "1" : "0");
  _afg_window_append_state_field (line, "divisor", divisor);
  _afg_window_append_state_field (line, "thread", graph ? picked_thread (self) : NULL);
  _afg_window_append_state_field (line, "root_ns", root);
  _afg_window_append_state_field (line, "nodes", nodes);
  _afg_window_append_state_field (line, "npu_ns", npu);
  _afg_window_append_state_field (line, "weight", afg_weight_to_string (_afg_window_weight_shown (self)));
}

static void
append_device (AfgWindow *self, GString *line)
{
  AfgTree *tree = _afg_window_get_tree (self);
  AfgDiffShape *shape = afg_diff_view_get_shape (self->diff_view);
  g_autoptr(GString) bars = g_string_new (NULL);
  AfgDeviceSplit split;

  /* A diff's tree is made of paths; its sides carry the scope. */
  if (_afg_window_is_comparing (self) && shape != NULL)
    tree = afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_B);

  for (guint i = 0; afg_step_strip_get_device (afg_steps_bar_get_strip (self->steps_bar), i, &split); i++)
    g_string_append_printf (bars, "%s%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                            i > 0 ? "," : "", split.compute_ns, split.comm_ns, split.other_ns, split.free_ns);
  /* "All ranks" in the NPU-idle instants is its ranks' idle trees merged:
   * no one document's instants are its scope. */
  _afg_window_append_state_field (line, "idle", (tree != NULL && afg_tree_get_scope (tree)->npu_idle)
                                                 || afg_ranks_section_showing_idle (self->ranks) ? "1" : "0");
  _afg_window_append_state_field (line, "bars", bars->str);
}

static void
append_strip (AfgWindow *self, GString *line)
{
  g_autoptr(GString) step = g_string_new (NULL);
  g_autoptr(GString) slow = g_string_new (NULL);
  /* A DB without steps may show the bar for "While NPU idle" alone. */
  AfgStepStrip *step_strip = afg_steps_bar_get_strip (self->steps_bar);
  g_autofree char *strip = gtk_widget_get_visible (GTK_WIDGET (self->steps_bar))
                           && gtk_widget_get_visible (GTK_WIDGET (step_strip))
    ? g_strdup_printf ("%u", afg_step_strip_get_n_steps (step_strip)) : NULL;

  afg_steps_bar_append_state (self->steps_bar, step, slow);
  _afg_window_append_state_field (line, "step", step->str);
  _afg_window_append_state_field (line, "slow", slow->str);
  _afg_window_append_state_field (line, "strip", strip);
  append_device (self, line);
}

/* transforms: "op arg" of each, joined by " > ". */
static void
append_transforms (AfgWindow *self, GString *line)
{
  AfgTransformList *list = afg_session_get_transforms (self->session);
  g_autoptr(GString) value = g_string_new (NULL);

  for (guint i = 0; list != NULL && i < afg_transform_list_get_length (list); i++)
    g_string_append_printf (value, "%s%s %s", i > 0 ? " > " : "",
                            afg_transform_op_to_string (afg_transform_list_get (list, i)->op),
                            afg_transform_list_get (list, i)->arg);
  _afg_window_append_state_field (line, "transforms", value->str);
}

/* match: the match F3 went to last, from 1; empty before a step. */
static void
append_match (AfgWindow *self, GString *line, gboolean graph)
{
  guint match = graph ? afg_flame_view_get_match (self->flame_view) : 0;
  g_autofree char *field = match > 0 ? g_strdup_printf ("%u", match) : NULL;

  _afg_window_append_state_field (line, "match", field);
}

/* In the surface's coordinates, which are the X window's: a test moves
 * the pointer there with xdotool rather than guess pixels. */
static void
append_selected_at (AfgWindow *self, GString *line, gboolean graph)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self->flame_view));
  graphene_point_t in_view, in_native;
  g_autofree char *at = NULL;
  double dx, dy;

  if (graph && native != NULL
      && afg_flame_view_get_selected_point (self->flame_view, &in_view)
      && gtk_widget_compute_point (GTK_WIDGET (self->flame_view), GTK_WIDGET (native), &in_view, &in_native))
    {
      gtk_native_get_surface_transform (native, &dx, &dy);
      at = g_strdup_printf ("%d,%d", (int) (in_native.x + dx), (int) (in_native.y + dy));
    }
  _afg_window_append_state_field (line, "selected_at", at);
}

static char *
build_line (AfgWindow *self)
{
  g_autoptr(GString) line = g_string_new ("afg-state");
  const char *page = gtk_stack_get_visible_child_name (self->stack);
  gboolean graph = g_strcmp0 (page, "graph") == 0;
  g_autofree char *file = _afg_window_get_file (self) ? g_file_get_path (_afg_window_get_file (self)) : NULL;
  GFile *last = afg_export_section_get_exported (self->export);
  g_autofree char *exported = last ? g_file_get_path (last) : NULL;
  g_autofree char *recent = g_strdup_printf ("%u", afg_start_page_get_n_recent (self->start_page));
  const AfgFlameLayout *layout = afg_flame_view_get_layout (self->flame_view);
  g_autofree char *seq = NULL;

  _afg_window_append_state_field (line, "page", page);
  _afg_window_append_state_field (line, "file", file);
  _afg_window_append_state_field (line, "zoom", graph && layout ? node_name (self, afg_flame_layout_get_zoom_root (layout)) : NULL);
  _afg_window_append_state_field (line, "selected", graph ? node_name (self, afg_flame_view_get_selected_node (self->flame_view)) : NULL);
  _afg_window_append_state_field (line, "hover", graph ? node_name (self, afg_flame_view_get_hover_node (self->flame_view)) : NULL);
  append_selected_at (self, line, graph);
  append_search (self, line);
  _afg_window_append_state_field (line, "recent", recent);
  _afg_window_append_state_field (line, "exported", exported);
  _afg_window_append_state_field (line, "icicle", afg_session_get_icicle (self->session) ? "1" : "0");
  _afg_window_append_state_field (line, "error", g_strcmp0 (page, "error") == 0 ? afg_error_page_get_message (self->error_page) : NULL);
  afg_compare_section_append_state (self->compare, line, graph);
  afg_step_compare_append_state (self->step_compare, line);
  append_tree (self, line, graph);
  append_strip (self, line);
  _afg_window_append_state_field (line, "merged", _afg_window_tree_flags (self) ? "1" : "0");
  afg_ranks_section_append_state (self->ranks, line);
  append_transforms (self, line);
  afg_functions_pane_append_state (self->functions_pane, line, graph);
  seq = g_strdup_printf ("%u", afg_test_control_get_seq ());
  _afg_window_append_state_field (line, "seq", seq);
  append_match (self, line, graph);
  afg_functions_pane_append_kernels (self->functions_pane, line, graph, _afg_window_weight_shown (self));
  afg_ranks_section_append_explain (self->ranks, line);
  _afg_window_append_state_field (line, "status", afg_status_bar_get_text (self->status_bar));
  _afg_window_chart_append_state (self, line);
  _afg_window_append_state_field (line, "notice", afg_notice_bar_get_message (self->notice_bar));
  _afg_window_append_state_field (line, "open", afg_notice_bar_get_open_label (self->notice_bar));
  afg_ranks_section_append_verdict (self->ranks, line);
  return g_string_free (g_steal_pointer (&line), FALSE);
}

/* Also whatever the session changes without a report after it: once
 * the main loop is idle, so that the line is never half updated. */
static gboolean
report_idle (gpointer data)
{
  AfgStateLine *self = data;

  self->idle_source = 0;
  afg_state_line_report (self);
  return G_SOURCE_REMOVE;
}

static void
on_session_notify (AfgStateLine *self, GParamSpec *pspec, AfgSession *session)
{
  if (self->idle_source == 0)
    self->idle_source = g_idle_add (report_idle, self);
}

static void
afg_state_line_dispose (GObject *object)
{
  AfgStateLine *self = AFG_STATE_LINE (object);

  g_clear_handle_id (&self->idle_source, g_source_remove);
  g_clear_pointer (&self->last, g_free);

  G_OBJECT_CLASS (afg_state_line_parent_class)->dispose (object);
}

static void
afg_state_line_class_init (AfgStateLineClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = afg_state_line_dispose;
}

static void
afg_state_line_init (AfgStateLine *self)
{
}

static gboolean
is_enabled (void)
{
  static int enabled = -1;

  if (enabled < 0)
    enabled = g_getenv ("AFG_TEST_STATE") != NULL;
  return enabled;
}

/* Prints nothing unless AFG_TEST_STATE is set. */
AfgStateLine *
afg_state_line_new (AfgWindow *window)
{
  AfgStateLine *self = g_object_new (AFG_TYPE_STATE_LINE, NULL);

  self->window = window;
  if (is_enabled ())
    g_signal_connect_object (window->session, "notify", G_CALLBACK (on_session_notify), self, G_CONNECT_SWAPPED);
  return self;
}

/* The line again, printed when it differs from the last one. */
void
afg_state_line_report (AfgStateLine *self)
{
  g_autofree char *line = NULL;

  g_return_if_fail (AFG_IS_STATE_LINE (self));

  if (!is_enabled () || self->window->stack == NULL)
    return;
  line = build_line (self->window);
  if (g_strcmp0 (line, self->last) == 0)
    return;
  fprintf (stderr, "%s\n", line);
  fflush (stderr);
  g_free (self->last);
  self->last = g_steal_pointer (&line);
}

void
afg_window_report_state (AfgWindow *self)
{
  g_return_if_fail (AFG_IS_WINDOW (self));

  _afg_window_report_state (self);
}
