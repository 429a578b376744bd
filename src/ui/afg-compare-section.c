/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-diff-load.h"
#include "afg-settings.h"
#include "afg-compare-section.h"
#include "afg-document-timeline.h"
#include "afg-diff-options.h"
#include "afg-window-private.h"

struct _AfgCompareSection {
  GObject    parent_instance;

  AfgWindow *window;  /* not a reference: the window keeps the section */
};

G_DEFINE_FINAL_TYPE (AfgCompareSection, afg_compare_section, G_TYPE_OBJECT)

/* The request, and its result once both sides are read. */
typedef struct {
  char           *paths[2];
  AfgLoadCounters counters[2];  /* the sides' */
  AfgTreeFlags    flags;
  AfgDiffShape   *shape;
  AfgFlameLayout *layout;
  AfgColumn       weight;  /* the session's, when the comparison was asked for */
  gboolean        npu_idle;  /* each side's NPU-idle instants (host time) */
} CompareRequest;

static void
compare_request_free (CompareRequest *req)
{
  for (guint s = 0; s < 2; s++)
    g_free (req->paths[s]);
  g_clear_pointer (&req->shape, afg_diff_shape_unref);
  g_clear_pointer (&req->layout, afg_flame_layout_free);
  g_free (req);
}

gboolean
afg_compare_section_make_diff (AfgTree *a, AfgTree *b, const char *title, AfgColumn weight, GCancellable *cancellable,
                               AfgDiffShape **shape, AfgFlameLayout **layout)
{
  if (!afg_tree_has_column (a, weight) || !afg_tree_has_column (b, weight))
    weight = AFG_COLUMN_TOTAL_NS;
  *shape = afg_diff_shape_new_weighted (a, b, title, weight, cancellable);
  if (*shape == NULL)
    return FALSE;
  *layout = afg_flame_layout_new (afg_diff_shape_get_tree (*shape, AFG_DIFF_SIDE_B),
                                  AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT);
  return TRUE;
}

/* Both DBs at once, one per core, each built as the window builds one DB
 * (address variants merged unless the window's toggle says otherwise: no
 * two processes share addresses, so unmerged sides of two ranks hardly
 * line up), then their diff and its first layout: the result is the
 * request filled in. */
static gpointer
compare_in_thread (gpointer data, GCancellable *cancellable, GError **error)
{
  CompareRequest *req = data;
  AfgDiffLoadOptions options = { .flags = req->flags, .npu_idle = req->npu_idle, .progress = afg_load_counters_store,
                                 .progress_data = { &req->counters[0], &req->counters[1] } };
  AfgDiffSideLoad sides[2];
  GError **failed = NULL;
  gboolean made = FALSE;

  afg_diff_load ((const char * const *) req->paths, &options, cancellable, sides);
  for (guint s = 0; s < 2; s++)
    if (sides[s].tree != NULL && !afg_tree_check_not_empty (sides[s].tree, &sides[s].error))
      g_clear_pointer (&sides[s].tree, afg_tree_unref);
  /* A's error first, as the command line's. */
  for (guint s = 0; s < 2 && failed == NULL; s++)
    if (sides[s].error != NULL)
      failed = &sides[s].error;
  if (failed != NULL)
    g_propagate_error (error, g_steal_pointer (failed));
  else if (!(made = afg_compare_section_make_diff (sides[0].tree, sides[1].tree, req->paths[0], req->weight,
                                                   cancellable, &req->shape, &req->layout)))
    /* The shape is built unless cancelled. */
    g_cancellable_set_error_if_cancelled (cancellable, error);
  for (guint s = 0; s < 2; s++)
    afg_diff_side_load_clear (&sides[s]);
  return made ? req : NULL;
}

static void
poll_progress (gpointer owner, gpointer data)
{
  CompareRequest *req = data;

  afg_loading_page_show_counters (owner, req->counters, 2);
}

static char *
side_name (AfgDiffShape *shape, AfgDiffSide side)
{
  return g_strdup (afg_document_get_source_name (afg_tree_get_document (afg_diff_shape_get_source (shape, side))));
}

char *
afg_compare_section_describe (AfgDiffShape *shape, const char *a, const char *b)
{
  g_autofree char *ta = afg_format_duration (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS,
                                                                       AFG_TREE_ROOT));
  g_autofree char *tb = afg_format_duration (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS,
                                                                       AFG_TREE_ROOT));
  guint n = afg_tree_get_n_nodes (afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_B)) - 1;
  g_autofree char *n_frames = afg_format_count (n);
  g_autofree char *frames = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s frame", "%s frames", n), n_frames);
  AfgWeight weight = AFG_WEIGHT_HOST;

  /* The totals are of what the frames weigh. */
  afg_weight_from_total_column (afg_diff_shape_get_weight (shape), &weight);
  return g_strdup_printf (_("A: %s (%s) → B: %s (%s), %s · %s, threads merged"), a, ta, b, tb,
                          weight == AFG_WEIGHT_HOST ? _("host time on all threads") : afg_weight_menu_get_label (weight),
                          frames);
}

static void
update_status (AfgWindow *self, AfgDiffShape *shape)
{
  g_autofree char *a = side_name (shape, AFG_DIFF_SIDE_A);
  g_autofree char *b = side_name (shape, AFG_DIFF_SIDE_B);
  g_autofree char *text = afg_compare_section_describe (shape, a, b);

  afg_status_bar_set_text (self->status_bar, text);
}

/* Two ranks of the job open by their ranks and the job, as its other
 * titles name it; any other two files by their names. */
static char *
compare_title (AfgWindow *self, GFile *a, GFile *b)
{
  g_autofree char *rank_a = afg_ranks_section_rank_label (self->ranks, a);
  g_autofree char *rank_b = afg_ranks_section_rank_label (self->ranks, b);
  g_autofree char *name_a = g_file_get_basename (a);
  g_autofree char *name_b = g_file_get_basename (b);
  g_autofree char *safe_a = afg_format_path (name_a);
  g_autofree char *safe_b = afg_format_path (name_b);
  g_autofree char *job = _afg_window_title_name (self, NULL);

  if (rank_a != NULL && rank_b != NULL && job != NULL)
    return g_strdup_printf ("%s ↔ %s — %s", rank_a, rank_b, job);
  return g_strdup_printf ("%s ↔ %s", safe_a, safe_b);
}

static GFile *
side_file (AfgDiffShape *shape, AfgDiffSide side)
{
  return g_file_new_for_path (afg_document_get_source_path (afg_tree_get_document (afg_diff_shape_get_source (shape, side))));
}

/* The title of the diff on screen: also after a cancelled load. */
static void
show_title (AfgWindow *self)
{
  AfgDiffShape *shape = afg_diff_view_get_shape (self->diff_view);
  g_autoptr(GFile) a = side_file (shape, AFG_DIFF_SIDE_A);
  g_autoptr(GFile) b = side_file (shape, AFG_DIFF_SIDE_B);
  g_autofree char *steps = afg_step_compare_title (self->step_compare);
  g_autofree char *title = steps ? g_steal_pointer (&steps) : compare_title (self, a, b);

  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* The selected frame in the status line as A → B, not as B alone. */
static void
on_selection_changed (AfgWindow *self, GParamSpec *pspec, AfgFlameView *view)
{
  guint32 node = afg_flame_view_get_selected_node (view);
  AfgDiffShape *shape = afg_diff_view_get_shape (self->diff_view);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *text = NULL;

  if (shape == NULL || node == AFG_FLAME_NO_FRAME)
    return;
  a = afg_format_duration (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_A, AFG_COLUMN_TOTAL_NS, node));
  b = afg_format_duration (afg_diff_shape_get_value (shape, AFG_DIFF_SIDE_B, AFG_COLUMN_TOTAL_NS, node));
  text = g_strdup_printf (_("Selected: %s · total %s → %s"),
                          afg_tree_get_node_name (afg_diff_view_get_tree (self->diff_view), node), a, b);
  afg_status_bar_set_selection_text (self->status_bar, text);
}

/* "While NPU idle" compares the idle instants when both sides have a
 * device timeline to take them from. */
static void
enable_npu_idle (AfgWindow *self, AfgDiffShape *shape)
{
  GAction *idle = g_action_map_lookup_action (G_ACTION_MAP (self), "npu-idle");
  gboolean both = TRUE;

  for (AfgDiffSide s = AFG_DIFF_SIDE_A; s <= AFG_DIFF_SIDE_B; s++)
    both = both && afg_document_get_timeline (afg_tree_get_document (afg_diff_shape_get_source (shape, s))) != NULL;
  g_simple_action_set_enabled (G_SIMPLE_ACTION (idle), both);
}

void
afg_compare_section_show_diff (AfgCompareSection *section, AfgDiffShape *shape, AfgFlameLayout *layout)
{
  AfgWindow *self = section->window;

  afg_session_set_comparing (self->session, TRUE);
  afg_session_set_tree (self->session, afg_diff_shape_get_tree (shape, AFG_DIFF_SIDE_B));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  afg_flame_view_set_weight (self->flame_view, AFG_COLUMN_TOTAL_NS);
  afg_diff_view_set_shape (self->diff_view, shape, layout);
  update_status (self, shape);
  show_title (self);
  gtk_stack_set_visible_child_name (self->stack, "graph");
  gtk_widget_grab_focus (GTK_WIDGET (self->flame_view));
  afg_functions_pane_sync (self->functions_pane);
  afg_ranks_section_diff_shown (self->ranks, shape);
  enable_npu_idle (self, shape);
  _afg_window_update_actions (self);
}

static void compare_files (AfgWindow *self, GFile *a, GFile *b);

/* While NPU idle, a side without a device timeline has no idle instants:
 * the two are compared as a whole instead, and the notice says why. */
static gboolean
compare_whole (AfgWindow *self, const CompareRequest *req, const GError *error)
{
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;

  if (!req->npu_idle || !g_error_matches (error, AFG_SCOPE_ERROR, AFG_SCOPE_ERROR_NO_DEVICE))
    return FALSE;
  afg_session_set_npu_idle (self->session, FALSE);
  a = g_file_new_for_path (req->paths[0]);
  b = g_file_new_for_path (req->paths[1]);
  compare_files (self, a, b);
  _afg_window_show_notice (self, error->message, NULL);
  return TRUE;
}

static void
on_compared (gpointer owner, gpointer result, const GError *error, gpointer data)
{
  AfgWindow *self = AFG_WINDOW (gtk_widget_get_root (owner));
  CompareRequest *req = result;

  if (req == NULL && !compare_whole (self, data, error))
    _afg_window_show_error (self, error);
  else if (req != NULL)
    afg_compare_section_show_diff (self->compare, req->shape, g_steal_pointer (&req->layout));
}

static const AfgWorkerFuncs compare_funcs = {
  .name = "afg-compare",
  .run = compare_in_thread,
  .poll = poll_progress,
  .done = on_compared,
};

/* Shows A's profile against B's; like opening a DB, the load can be
 * cancelled, and a failure on either side is the window's error page. */
static void
compare_files (AfgWindow *self, GFile *a, GFile *b)
{
  g_autofree char *title = compare_title (self, a, b);
  g_autofree char *loading = g_strdup_printf (_("Comparing %s…"), title);
  CompareRequest *req;

  afg_worker_cancel (afg_loading_page_get_worker (self->loading_page));
  afg_session_set_file (self->session, a);
  afg_loading_page_begin (self->loading_page, loading);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  gtk_window_set_title (GTK_WINDOW (self), title);
  _afg_window_update_actions (self);

  req = g_new0 (CompareRequest, 1);
  for (guint s = 0; s < 2; s++)
    req->paths[s] = g_file_get_path (s == 0 ? a : b);
  req->flags = _afg_window_tree_flags (self);
  /* While NPU idle, as --diff --npu-idle: host time only. */
  req->npu_idle = afg_session_get_npu_idle (self->session);
  req->weight = req->npu_idle ? AFG_COLUMN_TOTAL_NS
                              : afg_weight_get_total_column (afg_session_get_weight (self->session));
  for (guint s = 0; s < 2; s++)
    if (req->paths[s] == NULL)
      {
        g_autoptr(GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                               _("%s: only local files can be opened"), title);
        compare_request_free (req);
        _afg_window_show_error (self, error);
        return;
      }
  afg_worker_start (afg_loading_page_get_worker (self->loading_page), &compare_funcs, req,
                    (GDestroyNotify) compare_request_free);
}

static void
on_compare_response (GtkNativeDialog *chooser, int response, AfgWindow *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_clear_object (&self->chooser);
  if (file != NULL && _afg_window_get_file (self) != NULL)
    {
      afg_settings_remember_folder (file);
      compare_files (self, _afg_window_get_file (self), file);
    }
}

/* A of the comparison is the profile on screen (A of the diff on screen). */
static void
compare_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *self = AFG_WINDOW (widget);

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Compare with a Profiler Database"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Compare"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  _afg_window_add_filter (GTK_FILE_CHOOSER (self->chooser), _("Profiler databases"), "*.db");
  _afg_window_add_filter (GTK_FILE_CHOOSER (self->chooser), _("All files"), "*");
  afg_settings_restore_folder (GTK_FILE_CHOOSER (self->chooser));
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_compare_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

void
afg_compare_section_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, compare_action);
}

static void
afg_compare_section_class_init (AfgCompareSectionClass *klass)
{
}

static void
afg_compare_section_init (AfgCompareSection *section)
{
}

/* The diff view on @window's flame graph: its options go to the header
 * bar and show while a diff is compared; its legend goes beside the
 * status line. */
AfgCompareSection *
afg_compare_section_new (AfgWindow *self)
{
  AfgCompareSection *section = g_object_new (AFG_TYPE_COMPARE_SECTION, NULL);
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (self));
  GtkWidget *options;

  self->diff_view = afg_diff_view_new (self->flame_view);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "diff", afg_diff_view_get_actions (self->diff_view));
  options = afg_diff_options_new (afg_diff_view_get_actions (self->diff_view));
  g_object_bind_property (self->session, "comparing", options, "visible", G_BINDING_SYNC_CREATE);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), options);
  afg_status_bar_add_legend (self->status_bar, afg_diff_view_get_legend (self->diff_view));
  /* After the window's own handler, which it corrects. */
  g_signal_connect_object (self->flame_view, "notify::selected-node", G_CALLBACK (on_selection_changed),
                           self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  section->window = self;
  return section;
}

gboolean
afg_compare_section_stop (AfgCompareSection *section)
{
  AfgWindow *self = section->window;
  AfgDiffShape *shape = _afg_window_is_comparing (self) ? afg_diff_view_get_shape (self->diff_view) : NULL;
  g_autoptr(AfgTree) a = shape ? afg_tree_ref (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_A)) : NULL;
  g_autoptr(GFile) file = NULL;

  if (a == NULL)
    return FALSE;
  file = side_file (shape, AFG_DIFF_SIDE_A);
  afg_session_set_file (self->session, file);
  _afg_window_show_profile (self, a, NULL);
  return TRUE;
}

static char *
node_path (AfgTree *tree, guint32 node)
{
  g_autoptr(GString) path = g_string_new (afg_tree_get_node_name (tree, node));

  for (node = afg_tree_get_node (tree, node)->parent; node != AFG_TREE_ROOT && node != AFG_NODE_NONE;
       node = afg_tree_get_node (tree, node)->parent)
    {
      g_string_prepend_c (path, ';');
      g_string_prepend (path, afg_tree_get_node_name (tree, node));
    }
  return g_string_free (g_steal_pointer (&path), FALSE);
}

static char *
node_values (AfgDiffShape *shape, guint32 node)
{
  g_autoptr(GString) values = g_string_new (NULL);

  for (AfgDiffSide s = AFG_DIFF_SIDE_A; s <= AFG_DIFF_SIDE_B; s++)
    for (AfgColumn c = AFG_COLUMN_CALLS; c <= AFG_COLUMN_SELF_NS; c++)
      g_string_append_printf (values, "%s%" G_GINT64_FORMAT, values->len ? " " : "",
                              afg_diff_shape_get_value (shape, s, c, node));
  return g_string_free (g_steal_pointer (&values), FALSE);
}

/* The state line's diff fields (docs/test-state-line.md). */
void
afg_compare_section_append_state (AfgCompareSection *section, GString *line, gboolean graph)
{
  AfgWindow *self = section->window;
  AfgDiffShape *shape = graph && self->diff_view ? afg_diff_view_get_shape (self->diff_view) : NULL;
  guint32 hover = shape ? afg_flame_view_get_hover_node (self->flame_view) : AFG_FLAME_NO_FRAME;
  g_autofree char *compared = NULL;
  g_autofree char *path = NULL;
  g_autofree char *values = NULL;
  g_autofree char *tooltip = NULL;

  if (shape != NULL)
    compared = g_strdup (afg_document_get_source_path (afg_tree_get_document (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_B))));
  if (hover != AFG_FLAME_NO_FRAME && hover != AFG_TREE_ROOT)
    {
      path = node_path (afg_diff_view_get_tree (self->diff_view), hover);
      values = node_values (shape, hover);
      tooltip = afg_diff_view_get_tooltip_text (self->diff_view, hover);
    }
  else if (shape == NULL && graph && afg_flame_view_get_hover_node (self->flame_view) != AFG_FLAME_NO_FRAME)
    tooltip = afg_flame_view_get_tooltip_text (self->flame_view, afg_flame_view_get_hover_node (self->flame_view));
  else if (shape == NULL && graph)
    tooltip = afg_flame_view_get_hover_leaf_text (self->flame_view);
  _afg_window_append_state_field (line, "mode", shape ? "diff" : "profile");
  _afg_window_append_state_field (line, "compared", compared);
  _afg_window_append_state_field (line, "shape", shape ? afg_diff_view_get_option (self->diff_view, "shape") : NULL);
  _afg_window_append_state_field (line, "color", shape ? afg_diff_view_get_option (self->diff_view, "color") : NULL);
  _afg_window_append_state_field (line, "norm", shape ? afg_diff_view_get_option (self->diff_view, "norm") : NULL);
  _afg_window_append_state_field (line, "hover_path", path);
  _afg_window_append_state_field (line, "hover_values", values);
  _afg_window_append_state_field (line, "tooltip", tooltip);
}

void
afg_compare_section_compare (AfgCompareSection *self, GFile *a, GFile *b)
{
  g_return_if_fail (AFG_IS_COMPARE_SECTION (self));

  compare_files (self->window, a, b);
}

/* The two files on screen compared again (While NPU idle toggled); a
 * comparison of two step ranges keeps its own scopes. */
void
afg_compare_section_recompare (AfgCompareSection *self)
{
  AfgDiffShape *shape;
  g_autofree char *steps = NULL;
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;

  g_return_if_fail (AFG_IS_COMPARE_SECTION (self));

  shape = afg_diff_view_get_shape (self->window->diff_view);
  steps = afg_step_compare_title (self->window->step_compare);
  if (shape == NULL || steps != NULL)
    return;
  a = side_file (shape, AFG_DIFF_SIDE_A);
  b = side_file (shape, AFG_DIFF_SIDE_B);
  compare_files (self->window, a, b);
}

void
afg_compare_section_show_title (AfgCompareSection *self)
{
  g_return_if_fail (AFG_IS_COMPARE_SECTION (self));

  show_title (self->window);
}
