/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-error.h"
#include "afg-settings.h"
#include "afg-stack-chart.h"
#include "afg-window-private.h"

G_DEFINE_FINAL_TYPE (AfgWindow, afg_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_ICICLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
on_search_changed (AfgWindow *self, GtkSearchEntry *entry)
{
  afg_flame_view_set_search (self->flame_view, gtk_editable_get_text (GTK_EDITABLE (entry)));
  if (self->search != NULL)
    afg_search_section_update_match_label (self->search);
}

/* Two step ranges go back to A's range, two files or two ranks to A
 * alone; FALSE when nothing was compared. */
static gboolean
stop_comparing (AfgWindow *self)
{
  return self->step_compare != NULL
      && (afg_step_compare_stop (self->step_compare) || afg_compare_section_stop (self->compare));
}

void
_afg_window_escape (AfgWindow *self)
{
  if (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] != '\0')
    {
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      gtk_widget_grab_focus (GTK_WIDGET (self->flame_view));
    }
  else if (afg_flame_view_is_zoomed (self->flame_view)
           || (!afg_transforms_section_escape (self->transforms) && !stop_comparing (self)
               && !afg_steps_bar_escape (self->steps_bar)))
    afg_flame_view_reset_zoom (self->flame_view);
}

static void
compare_steps_action (GtkWidget *widget, const char *name, GVariant *param)
{
  afg_step_compare_begin (AFG_WINDOW (widget)->step_compare);
}

static void
stop_comparing_action (GtkWidget *widget, const char *name, GVariant *param)
{
  stop_comparing (AFG_WINDOW (widget));
}

static void
on_stop_search (AfgWindow *self, GtkSearchEntry *entry)
{
  _afg_window_escape (self);
}

static void
on_zoom_changed (AfgWindow *self, GParamSpec *pspec, AfgFlameView *view)
{
  if (self->search != NULL)
    afg_search_section_update_match_label (self->search);
  _afg_window_update_actions (self);
}

static void
on_node_activated (AfgWindow *self, guint node, AfgFlameView *view)
{
  afg_flame_view_zoom_to (view, node);
}

static void
on_selection_changed (AfgWindow *self, GParamSpec *pspec, AfgFlameView *view)
{
  afg_status_bar_set_selection (self->status_bar, afg_flame_view_get_selected_node (view));
  if (self->transforms != NULL)
    afg_transforms_section_update_actions (self->transforms);
  _afg_window_report_state (self);
}

static void
on_hover_changed (AfgWindow *self, GParamSpec *pspec, AfgFlameView *view)
{
  _afg_window_report_state (self);
}

/* Typing in the graph starts a search. The search entry's own key capture
 * is not used: it forwards Return and BackSpace to the entry too, and so
 * swallowed the graph's zoom keys. */
static gboolean
on_graph_key_pressed (AfgWindow *self, guint keyval, guint keycode, GdkModifierType state,
                      GtkEventControllerKey *key)
{
  gunichar c = gdk_keyval_to_unicode (keyval);
  char utf8[7] = { 0 };

  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK)) != 0
      || c == 0 || !g_unichar_isgraph (c))
    return FALSE;
  g_unichar_to_utf8 (c, utf8);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), utf8);
  gtk_editable_set_position (GTK_EDITABLE (self->search_entry), -1);
  return TRUE;
}

static void
on_thread_selected (AfgWindow *self, GParamSpec *pspec, GtkDropDown *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (_afg_window_get_tree (self) == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  afg_flame_view_set_view_root (self->flame_view, selected == 0 ? AFG_TREE_ROOT
                                : afg_tree_get_thread (_afg_window_get_tree (self), selected - 1)->node);
}

static void
on_start_page_open (AfgWindow *self, GFile *file, AfgStartPage *page)
{
  afg_window_open (self, file);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, AfgWindow *self)
{
  GSList *files = g_value_get_boxed (value);

  if (files == NULL)
    return FALSE;
  afg_window_open (self, files->data);
  return TRUE;
}

static void
afg_window_dispose (GObject *object)
{
  AfgWindow *self = AFG_WINDOW (object);

  g_clear_object (&self->ranks);
  g_clear_object (&self->compare);
  g_clear_object (&self->export);
  g_clear_object (&self->search);
  g_clear_object (&self->chooser);
  if (self->steps_bar != NULL)
    afg_steps_bar_cancel (self->steps_bar);
  g_clear_object (&self->step_compare);
  _afg_window_chart_dispose (self);
  g_clear_object (&self->transforms);
  g_clear_object (&self->session);
  g_clear_object (&self->state_line);
  gtk_widget_dispose_template (GTK_WIDGET (self), AFG_TYPE_WINDOW);
  g_clear_pointer (&self->diff_view, afg_diff_view_free);
  G_OBJECT_CLASS (afg_window_parent_class)->dispose (object);
}

/* The window's "icicle" is the session's, for its action and setting. */
static void
on_icicle (AfgWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICICLE]);
  _afg_window_report_state (self);
}

static void
afg_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgWindow *self = AFG_WINDOW (object);

  switch (prop_id)
    {
    case PROP_ICICLE:
      g_value_set_boolean (value, self->session != NULL && afg_session_get_icicle (self->session));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  AfgWindow *self = AFG_WINDOW (object);

  switch (prop_id)
    {
    case PROP_ICICLE:
      if (self->session != NULL)
        afg_session_set_icicle (self->session, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_window_class_init (AfgWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_window_dispose;
  object_class->get_property = afg_window_get_property;
  object_class->set_property = afg_window_set_property;

  /* TRUE for the icicle orientation (roots at the top), FALSE for the
   * default flame. */
  properties[PROP_ICICLE] =
    g_param_spec_boolean ("icicle", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (AFG_TYPE_FLAME_VIEW);
  g_type_ensure (AFG_TYPE_NOTICE_BAR);
  g_type_ensure (AFG_TYPE_START_PAGE);
  g_type_ensure (AFG_TYPE_LOADING_PAGE);
  g_type_ensure (AFG_TYPE_ERROR_PAGE);
  g_type_ensure (AFG_TYPE_WEIGHT_MENU);
  g_type_ensure (AFG_TYPE_STEPS_BAR);
  g_type_ensure (AFG_TYPE_STATUS_BAR);
  g_type_ensure (AFG_TYPE_FUNCTIONS_PANE);
  g_type_ensure (AFG_TYPE_STACK_CHART);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, thread_dropdown);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, notice_bar);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, start_page);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, flame_view);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, status_bar);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, weight_menu);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, steps_bar);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, functions_pane);
  _afg_window_chart_class_init (widget_class);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_search);
  gtk_widget_class_bind_template_callback (widget_class, on_zoom_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_thread_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_start_page_open);
  gtk_widget_class_bind_template_callback (widget_class, on_node_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_hover_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_graph_key_pressed);
  _afg_window_class_install_actions (widget_class);
  gtk_widget_class_install_action (widget_class, "win.compare-steps", NULL, compare_steps_action);
  /* Any comparison ends (afg_step_compare_stop(), else the files'). */
  gtk_widget_class_install_action (widget_class, "win.stop-comparing", NULL, stop_comparing_action);
  /* Past the outermost zoom, BackSpace goes one level further: out of
   * the comparison. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "win.stop-comparing", NULL);
  afg_ranks_section_install_actions (widget_class);
  afg_transforms_section_install_actions (widget_class);
  afg_search_section_install_actions (widget_class);
}

/* "Merge Address Variants" (win.merge-addresses), on by default
 * and remembered (the merge-addresses setting): every ` at 0x<hex>` in a
 * frame name becomes ` at 0x…` before the tree is built, so that the
 * variants of one call are one frame. Toggling it builds again what the
 * window shows, a profile (its steps kept) or a comparison. */
static gboolean
is_merged (AfgTree *tree)
{
  return (afg_tree_get_flags (tree) & AFG_TREE_MERGE_ADDRESSES) != 0;
}

static GFile *
source_file (AfgDiffShape *shape, AfgDiffSide side)
{
  AfgDocument *document = afg_tree_get_document (afg_diff_shape_get_source (shape, side));

  return g_file_new_for_path (afg_document_get_source_path (document));
}

/* A load under way follows the setting once its tree shows. */
static void
on_merge_changed (AfgWindow *self)
{
  gboolean merge = _afg_window_tree_flags (self) != AFG_TREE_FLAGS_NONE;

  if (_afg_window_is_comparing (self))
    {
      AfgDiffShape *shape = afg_diff_view_get_shape (self->diff_view);
      g_autoptr(GFile) a = source_file (shape, AFG_DIFF_SIDE_A);
      g_autoptr(GFile) b = source_file (shape, AFG_DIFF_SIDE_B);

      if (is_merged (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_B)) != merge)
        afg_compare_section_compare (self->compare, a, b);
    }
  /* "All ranks" merges addresses whatever the setting: no two ranks'
   * processes share addresses (afg-merged-tree.h). */
  else if (_afg_window_get_tree (self) != NULL && is_merged (_afg_window_get_tree (self)) != merge && !afg_ranks_section_showing_all (self->ranks))
    afg_steps_bar_rebuild (self->steps_bar);
  _afg_window_report_state (self);
}

/* The session's merge-addresses, kept in the setting of that name.
 * Without the installed schema (a build tree) the toggle still works,
 * but is not kept. */
static void
init_merge (AfgWindow *self)
{
  GSettings *settings = afg_settings_get ();
  g_autoptr(GPropertyAction) action = g_property_action_new ("merge-addresses", self->session, "merge-addresses");

  if (settings != NULL)
    g_settings_bind (settings, "merge-addresses", self->session, "merge-addresses", G_SETTINGS_BIND_DEFAULT);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));
  g_signal_connect_object (self->session, "notify::merge-addresses", G_CALLBACK (on_merge_changed), self,
                           G_CONNECT_SWAPPED);
}

/* The window's side of the weight (the menu itself is AfgWeightMenu):
 * the flame view, the thread picker and the status line follow the
 * weight chosen. */

static gboolean
showing_graph (AfgWindow *self)
{
  return _afg_window_get_tree (self) != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "graph") == 0;
}

/* Keeps the thread picked (and so the zoom) while its totals change. */
static void
refill_threads_in_place (AfgWindow *self)
{
  guint picked = gtk_drop_down_get_selected (self->thread_dropdown);

  g_signal_handlers_block_matched (self->thread_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  _afg_window_fill_threads (self);
  gtk_drop_down_set_selected (self->thread_dropdown, picked);
  g_signal_handlers_unblock_matched (self->thread_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
}

static void
apply_weight (AfgWindow *self)
{
  if (showing_graph (self) && afg_session_get_column (self->session) != afg_flame_view_get_weight (self->flame_view))
    {
      afg_flame_view_set_weight (self->flame_view, afg_session_get_column (self->session));
      refill_threads_in_place (self);
      afg_status_bar_refresh (self->status_bar);
      /* The status line's selected frame: its share is of the weight. */
      g_object_notify (G_OBJECT (self->flame_view), "selected-node");
    }
  _afg_window_update_actions (self);
}

/* A tree or a comparison shown brings its own column along
 * (_afg_window_weight_prepare); a choice applies to the tree on screen. */
static void
on_weight_chosen (AfgWindow *self, GParamSpec *pspec, AfgSession *session)
{
  apply_weight (self);
}

/* The weight of the widths on screen: a diff's frames weigh what it was
 * made in, drawn as its trees' host columns. */
AfgWeight
_afg_window_weight_shown (AfgWindow *self)
{
  AfgDiffShape *shape = self->diff_view ? afg_diff_view_get_shape (self->diff_view) : NULL;
  AfgColumn column = _afg_window_is_comparing (self) && shape ? afg_diff_shape_get_weight (shape)
                                                             : afg_flame_view_get_weight (self->flame_view);
  AfgWeight weight = AFG_WEIGHT_HOST;

  afg_weight_from_total_column (column, &weight);
  return weight;
}

static gboolean
is_graph_page (GBinding *binding, const GValue *from, GValue *to, gpointer data)
{
  g_value_set_boolean (to, g_strcmp0 (g_value_get_string (from), "graph") == 0);
  return TRUE;
}

static void
init_weight (AfgWindow *self)
{
  afg_weight_menu_set_session (self->weight_menu, self->session);
  g_object_bind_property_full (self->stack, "visible-child-name", self->weight_menu, "on-graph",
                               G_BINDING_SYNC_CREATE, is_graph_page, NULL, NULL, NULL);
  afg_weight_menu_add_actions (self->weight_menu, G_ACTION_MAP (self));
  g_signal_connect_object (self->session, "notify::weight", G_CALLBACK (on_weight_chosen), self, G_CONNECT_SWAPPED);
}

static void
afg_window_init (AfgWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  self->session = afg_session_new ();
  self->state_line = afg_state_line_new (self);
  g_signal_connect_object (self->session, "notify::icicle", G_CALLBACK (on_icicle), self, G_CONNECT_SWAPPED);
  self->export = afg_export_section_new (self);
  gtk_widget_init_template (GTK_WIDGET (self));
  init_weight (self);
  afg_status_bar_set_session (self->status_bar, self->session);
  self->compare = afg_compare_section_new (self);
  init_merge (self);
  _afg_window_steps_init (self);
  self->transforms = afg_transforms_section_new (self);
  self->ranks = afg_ranks_section_new (self);
  afg_functions_pane_bind (self->functions_pane, self->session, self->flame_view, self->diff_view, self->steps_bar,
                           self->search_entry);
  afg_functions_pane_add_actions (self->functions_pane, G_ACTION_MAP (self));
  g_signal_connect_object (self->functions_pane, "changed", G_CALLBACK (_afg_window_report_state), self,
                           G_CONNECT_SWAPPED);
  _afg_window_chart_init (self);
  self->step_compare = afg_step_compare_new (self);
  self->search = afg_search_section_new (self);
  gtk_window_set_title (GTK_WINDOW (self), _("Ascend Flame Graph"));
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  afg_start_page_populate (self->start_page);
  _afg_window_report_state (self);
  afg_settings_bind_window (GTK_WINDOW (self));
  _afg_window_update_actions (self);
}

void
_afg_window_show_notice (AfgWindow *self, const char *message, const char *open_label)
{
  g_assert (AFG_IS_WINDOW (self));

  afg_notice_bar_show (self->notice_bar, message, open_label);
  _afg_window_update_actions (self);
  _afg_window_report_state (self);
}

static char *
thread_entry (AfgWindow *self, guint32 node, const char *label)
{
  g_autofree char *total = afg_steps_bar_format_ns (self->steps_bar, afg_tree_get_value (_afg_window_get_tree (self), afg_session_get_column (self->session), node));

  /* The page names a thread the same way: "main · pid/tid · 1.64 s". */
  return g_strdup_printf (_("%s · %s"), label, total);
}

/* The totals of the weight shown, divided as "Per step" asks
 * (AfgStepsBar). */
void
_afg_window_fill_threads (AfgWindow *self)
{
  AfgTree *tree = _afg_window_get_tree (self);
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  g_autofree char *total = afg_steps_bar_format_ns (self->steps_bar, afg_tree_get_value (tree, afg_session_get_column (self->session), AFG_TREE_ROOT));
  /* TRANSLATORS: the threads' times added up, "All threads, summed over threads · 1.64 s" */
  g_autofree char *all = g_strdup_printf (_("All threads, summed over threads · %s"), total);

  gtk_string_list_append (list, all);
  for (guint i = 0; i < afg_tree_get_n_threads (tree); i++)
    {
      const AfgThread *thread = afg_tree_get_thread (tree, i);
      g_autofree char *entry = thread_entry (self, thread->node, thread->title != NULL ? thread->title : thread->label);

      gtk_string_list_append (list, entry);
    }
  gtk_drop_down_set_model (self->thread_dropdown, G_LIST_MODEL (list));
  gtk_drop_down_set_selected (self->thread_dropdown, 0);
}

char *
_afg_window_title_name (AfgWindow *self, const char *name)
{
  GFile *folder = afg_window_get_job_folder (self);

  /* A job's window is named after its folder whichever rank it shows:
   * the rank read first is chance. */
  return folder != NULL ? g_file_get_basename (folder) : g_strdup (name);
}

/* A rank picked in a job's sidebar is not a profile opened: the job's
 * folder is what the start page offers again. */
static void
add_recent (AfgWindow *self, AfgTree *tree)
{
  GFile *folder = afg_window_get_job_folder (self);
  g_autoptr(GFile) file = folder != NULL ? g_object_ref (folder)
                        : g_file_new_for_path (afg_document_get_source_path (afg_tree_get_document (tree)));

  afg_start_page_add_recent (file, folder != NULL);
}

/* Takes LAYOUT: TREE's whole-profile layout, or NULL to build it here. */
void
_afg_window_show_profile (AfgWindow *self, AfgTree *tree, AfgFlameLayout *layout)
{
  g_autoptr(GError) empty = NULL;
  g_autofree char *title = NULL;
  AfgColumn column;

  g_assert (AFG_IS_WINDOW (self));

  if (!afg_tree_check_not_empty (tree, &empty))
    {
      _afg_window_show_error (self, empty);
      g_clear_pointer (&layout, afg_flame_layout_free);
      return;
    }
  afg_diff_view_set_shape (self->diff_view, NULL, NULL);
  afg_session_set_comparing (self->session, FALSE);
  afg_session_set_tree (self->session, tree);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  /* The loader's layout is in host time: dropped when it does not fit,
   * and the view builds one in the chosen weight. */
  column = afg_session_column_for (self->session, tree);
  afg_flame_view_set_weight (self->flame_view, column);
  if (layout != NULL && afg_flame_layout_get_weight (layout) != column)
    g_clear_pointer (&layout, afg_flame_layout_free);
  afg_flame_view_set_tree_with_layout (self->flame_view, tree, layout);
  _afg_window_steps_show (self);
  _afg_window_fill_threads (self);
  afg_status_bar_refresh (self->status_bar);
  add_recent (self, tree);
  title = _afg_window_title_name (self, afg_document_get_source_name (afg_tree_get_document (tree)));
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_stack_set_visible_child_name (self->stack, "graph");
  gtk_widget_grab_focus (GTK_WIDGET (self->flame_view));
  _afg_window_update_actions (self);
}

void
_afg_window_show_error (AfgWindow *self, const GError *error)
{
  const char *hint = error->domain == AFG_LOAD_ERROR ? afg_load_error_get_hint (error) : NULL;

  g_assert (AFG_IS_WINDOW (self));

  afg_error_page_show (self->error_page, error, hint);
  _afg_window_steps_hide (self);
  gtk_stack_set_visible_child_name (self->stack, "error");
  _afg_window_update_actions (self);
}

AfgWindow *
afg_window_new (GtkApplication *application)
{
  return g_object_new (AFG_TYPE_WINDOW, "application", application, NULL);
}

void
afg_window_open (AfgWindow *self, GFile *file)
{
  g_return_if_fail (AFG_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (!afg_ranks_section_open (self->ranks, file))
    _afg_window_load (self, file);
}

void
afg_window_compare (AfgWindow *self, GFile *a, GFile *b)
{
  g_return_if_fail (AFG_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (a) && G_IS_FILE (b));

  afg_compare_section_compare (self->compare, a, b);
}

gboolean
afg_window_is_comparing (AfgWindow *self)
{
  g_return_val_if_fail (AFG_IS_WINDOW (self), FALSE);

  return _afg_window_is_comparing (self);
}

GFile *
afg_window_get_job_folder (AfgWindow *self)
{
  g_return_val_if_fail (AFG_IS_WINDOW (self), NULL);

  return self->session != NULL ? afg_session_get_job_folder (self->session) : NULL;
}

/* The file the window loads, shows or failed to load; NULL on the start page. */
GFile *
afg_window_get_file (AfgWindow *self)
{
  g_return_val_if_fail (AFG_IS_WINDOW (self), NULL);

  return _afg_window_get_file (self);
}

gboolean
afg_window_has_failed (AfgWindow *self)
{
  g_return_val_if_fail (AFG_IS_WINDOW (self), FALSE);

  return g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "error") == 0;
}
