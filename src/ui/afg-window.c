/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-error.h"
#include "afg-format.h"
#include "afg-settings.h"
#include "afg-window-private.h"

#define N_RECENT 5

G_DEFINE_FINAL_TYPE (AfgWindow, afg_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_FLAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
update_match_label (AfgWindow *self)
{
  AfgFlameSearchResult result;
  g_autofree char *percent = NULL;
  g_autofree char *text = NULL;

  if (!afg_flame_view_get_search_result (self->flame_view, &result))
    {
      gtk_label_set_text (self->match_label, "");
      return;
    }
  percent = afg_format_percent (result.matched_ns, result.view_ns);
  text = result.n_matches == 0
    ? g_strdup (_("No matches"))
    : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u match · %s", "%u matches · %s",
                                    result.n_matches), result.n_matches, percent);
  gtk_label_set_text (self->match_label, text);
  g_debug ("search: %s", text);
}

static void
on_search_changed (AfgWindow *self, GtkSearchEntry *entry)
{
  afg_flame_view_set_search (self->flame_view, gtk_editable_get_text (GTK_EDITABLE (entry)));
  update_match_label (self);
}

static void
escape (AfgWindow *self)
{
  if (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] != '\0')
    {
      g_debug ("escape: clear search");
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      gtk_widget_grab_focus (GTK_WIDGET (self->flame_view));
    }
  else
    {
      g_debug ("escape: reset zoom");
      afg_flame_view_reset_zoom (self->flame_view);
    }
}

static void
on_stop_search (AfgWindow *self, GtkSearchEntry *entry)
{
  escape (self);
}

static void
on_zoom_changed (AfgWindow *self, GParamSpec *pspec, AfgFlameView *view)
{
  update_match_label (self);
  afg_window_update_actions (self);
}

static void
on_thread_selected (AfgWindow *self, GParamSpec *pspec, GtkDropDown *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->tree == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  afg_flame_view_set_view_root (self->flame_view, selected == 0 ? AFG_TREE_ROOT
                                : afg_tree_get_thread (self->tree, selected - 1)->node);
}

static void
on_recent_activated (AfgWindow *self, GtkListBoxRow *row, GtkListBox *list)
{
  GFile *file = g_object_get_data (G_OBJECT (row), "file");

  afg_window_open (self, file);
}

static GtkWidget *
recent_row_new (GtkRecentInfo *info)
{
  g_autoptr(GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
  g_autofree char *dir = g_file_get_path (file);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (gtk_recent_info_get_display_name (info));
  GtkWidget *location = gtk_label_new (dir);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_xalign (GTK_LABEL (location), 0);
  gtk_label_set_ellipsize (GTK_LABEL (location), PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (location, "dim-label");
  gtk_widget_add_css_class (location, "caption");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), location);
  g_object_set (box, "margin-top", 6, "margin-bottom", 6, "margin-start", 12, "margin-end", 12, NULL);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), "file", g_steal_pointer (&file), g_object_unref);
  return row;
}

static int
compare_recent (gconstpointer a, gconstpointer b)
{
  return g_date_time_compare (gtk_recent_info_get_modified ((GtkRecentInfo *) b),
                              gtk_recent_info_get_modified ((GtkRecentInfo *) a));
}

static void
populate_recent (AfgWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  guint shown = 0;

  items = g_list_sort (items, compare_recent);
  for (GList *l = items; l != NULL && shown < N_RECENT; l = l->next)
    if (gtk_recent_info_has_application (l->data, g_get_application_name ())
        && gtk_recent_info_exists (l->data))
      {
        gtk_list_box_append (self->recent_list, recent_row_new (l->data));
        shown++;
      }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  gtk_widget_set_visible (self->recent_heading, shown > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->recent_list), shown > 0);
  /* Enter on the start page reopens the last profile. */
  if (shown > 0)
    gtk_window_set_focus (GTK_WINDOW (self),
                          GTK_WIDGET (gtk_list_box_get_row_at_index (self->recent_list, 0)));
  g_debug ("recent files: %u", shown);
}

static void
on_open_response (GtkNativeDialog *chooser, int response, AfgWindow *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_clear_object (&self->chooser);
  if (file != NULL)
    {
      afg_settings_remember_folder (file);
      afg_window_open (self, file);
    }
}

static void
add_filter (GtkFileChooser *chooser, const char *name, const char *pattern)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_chooser_add_filter (chooser, filter);
}

static void
open_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *self = AFG_WINDOW (widget);

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Open a Profiler Database"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  add_filter (GTK_FILE_CHOOSER (self->chooser), _("Profiler databases"), "*.db");
  add_filter (GTK_FILE_CHOOSER (self->chooser), _("All files"), "*");
  afg_settings_restore_folder (GTK_FILE_CHOOSER (self->chooser));
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
export_action (GtkWidget *widget, const char *name, GVariant *param)
{
  afg_window_export (AFG_WINDOW (widget));
}

static void
reset_zoom_action (GtkWidget *widget, const char *name, GVariant *param)
{
  afg_flame_view_reset_zoom (AFG_WINDOW (widget)->flame_view);
}

static void
search_action (GtkWidget *widget, const char *name, GVariant *param)
{
  gtk_widget_grab_focus (GTK_WIDGET (AFG_WINDOW (widget)->search_entry));
}

static void
escape_action (GtkWidget *widget, const char *name, GVariant *param)
{
  escape (AFG_WINDOW (widget));
}

static void
close_action (GtkWidget *widget, const char *name, GVariant *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
cancel_load_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *self = AFG_WINDOW (widget);

  g_debug ("load cancelled");
  g_cancellable_cancel (self->load_cancellable);
  gtk_stack_set_visible_child_name (self->stack, self->tree ? "graph" : "empty");
  g_clear_object (&self->file);
  if (self->tree == NULL)
    gtk_window_set_title (GTK_WINDOW (self), _("Ascend Flame Graph"));
  else
    {
      self->file = g_file_new_for_path (afg_document_get_source_path (self->document));
      gtk_window_set_title (GTK_WINDOW (self), afg_document_get_source_name (self->document));
    }
  afg_window_update_actions (self);
}

static void
open_exported_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *self = AFG_WINDOW (widget);
  g_autofree char *uri = g_file_get_uri (self->exported);

  gtk_show_uri (GTK_WINDOW (self), uri, GDK_CURRENT_TIME);
}

static void
dismiss_notice_action (GtkWidget *widget, const char *name, GVariant *param)
{
  gtk_revealer_set_reveal_child (AFG_WINDOW (widget)->notice_revealer, FALSE);
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

  g_cancellable_cancel (self->load_cancellable);
  g_cancellable_cancel (self->export_cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->export_cancellable);
  g_clear_object (&self->exported);
  g_clear_object (&self->chooser);
  g_clear_object (&self->file);
  g_clear_pointer (&self->tree, afg_tree_unref);
  g_clear_pointer (&self->document, afg_document_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), AFG_TYPE_WINDOW);
  G_OBJECT_CLASS (afg_window_parent_class)->dispose (object);
}

static void
afg_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgWindow *self = AFG_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FLAME:
      g_value_set_boolean (value, self->flame);
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
    case PROP_FLAME:
      if (self->flame != g_value_get_boolean (value))
        {
          self->flame = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.reset-zoom", NULL, reset_zoom_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.escape", NULL, escape_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.open-exported", NULL, open_exported_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-notice", NULL, dismiss_notice_action);
  gtk_widget_class_install_property_action (widget_class, "win.flame", "flame");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.escape", NULL);
}

static void
afg_window_class_init (AfgWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_window_dispose;
  object_class->get_property = afg_window_get_property;
  object_class->set_property = afg_window_set_property;

  properties[PROP_FLAME] =
    g_param_spec_boolean ("flame", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (AFG_TYPE_FLAME_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, thread_dropdown);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, match_label);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, notice_revealer);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, notice_label);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, notice_button);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, recent_heading);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, loading_title);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, loading_bar);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, hint_label);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, flame_view);
  gtk_widget_class_bind_template_child (widget_class, AfgWindow, status_label);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_search);
  gtk_widget_class_bind_template_callback (widget_class, on_zoom_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_thread_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_recent_activated);
  install_actions (widget_class);
}

static void
afg_window_init (AfgWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  self->flame = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_window_set_title (GTK_WINDOW (self), _("Ascend Flame Graph"));
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->flame_view));
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  populate_recent (self);
  afg_settings_bind_window (GTK_WINDOW (self));
  afg_window_update_actions (self);
}

void
afg_window_update_actions (AfgWindow *self)
{
  const char *page = gtk_stack_get_visible_child_name (self->stack);
  gboolean graph = g_strcmp0 (page, "graph") == 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", graph && self->tree != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reset-zoom",
                                 graph && afg_flame_view_is_zoomed (self->flame_view));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.search", graph);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-load", g_strcmp0 (page, "loading") == 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-exported", self->exported != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_entry), graph);
  gtk_widget_set_visible (GTK_WIDGET (self->thread_dropdown), graph);
}

void
afg_window_show_notice (AfgWindow *self, const char *message, gboolean can_open)
{
  g_assert (AFG_IS_WINDOW (self));

  gtk_label_set_text (self->notice_label, message);
  gtk_widget_set_visible (self->notice_button, can_open);
  gtk_revealer_set_reveal_child (self->notice_revealer, TRUE);
  afg_window_update_actions (self);
}

static char *
thread_entry (AfgTree *tree, guint32 node, const char *label)
{
  g_autofree char *total = afg_format_duration (afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, node));

  return g_strdup_printf (_("Thread %s (%s)"), label, total);
}

static void
fill_thread_dropdown (AfgWindow *self, AfgTree *tree)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  g_autofree char *total = afg_format_duration (afg_tree_get_value (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT));
  g_autofree char *all = g_strdup_printf (_("All threads (%s)"), total);

  gtk_string_list_append (list, all);
  for (guint i = 0; i < afg_tree_get_n_threads (tree); i++)
    {
      const AfgThread *thread = afg_tree_get_thread (tree, i);
      g_autofree char *entry = thread_entry (tree, thread->node, thread->label);

      gtk_string_list_append (list, entry);
    }
  gtk_drop_down_set_model (self->thread_dropdown, G_LIST_MODEL (list));
  gtk_drop_down_set_selected (self->thread_dropdown, 0);
}

static guint64
skipped_rows (const AfgStats *s)
{
  return s->skipped_type + s->skipped_null + s->skipped_malformed + s->skipped_nonpositive
         + s->profiler_steps;
}

static void
update_status (AfgWindow *self, AfgTree *tree)
{
  const AfgStats *s = afg_tree_get_stats (tree);
  guint threads = afg_tree_get_n_threads (tree);
  g_autofree char *text = g_strdup_printf (
    _("%s — %'" PRIu64 " rows used, %'" PRIu64 " skipped · %u threads · "
      "%'u frames · %'" PRIu64 " partial overlaps · loaded in %.2f s"),
    afg_document_get_source_name (afg_tree_get_document (tree)), s->used, skipped_rows (s), threads,
    afg_tree_get_n_nodes (tree) - 1 - threads, s->partial_overlaps,
    afg_document_get_load_seconds (afg_tree_get_document (tree)));

  gtk_label_set_text (self->status_label, text);
}

static void
add_recent (AfgDocument *document)
{
  g_autoptr(GFile) file = g_file_new_for_path (afg_document_get_source_path (document));
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData data = {
    .mime_type = (char *) "application/vnd.sqlite3",
    .app_name = (char *) g_get_application_name (),
    .app_exec = (char *) "ascend-flamegraph %f",
  };

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

/* Takes LAYOUT: TREE's whole-profile layout, or NULL to build it here. */
void
afg_window_show_profile (AfgWindow *self, AfgDocument *document, AfgTree *tree, AfgFlameLayout *layout)
{
  g_autoptr(GError) empty = NULL;

  g_assert (AFG_IS_WINDOW (self));

  if (!afg_tree_check_not_empty (tree, &empty))
    {
      afg_window_show_error (self, empty);
      g_clear_pointer (&layout, afg_flame_layout_free);
      return;
    }
  g_clear_pointer (&self->tree, afg_tree_unref);
  g_clear_pointer (&self->document, afg_document_unref);
  self->document = afg_document_ref (document);
  self->tree = afg_tree_ref (tree);
  g_clear_object (&self->exported);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  afg_flame_view_set_tree_with_layout (self->flame_view, tree, layout);
  fill_thread_dropdown (self, tree);
  update_status (self, tree);
  add_recent (document);
  gtk_window_set_title (GTK_WINDOW (self), afg_document_get_source_name (document));
  gtk_stack_set_visible_child_name (self->stack, "graph");
  gtk_widget_grab_focus (GTK_WIDGET (self->flame_view));
  afg_window_update_actions (self);
  g_debug ("state: graph, %u frames", afg_tree_get_n_nodes (tree) - 1);
}

void
afg_window_show_error (AfgWindow *self, const GError *error)
{
  const char *hint = error->domain == AFG_LOAD_ERROR ? afg_load_error_get_hint (error) : NULL;

  g_assert (AFG_IS_WINDOW (self));

  gtk_label_set_text (self->error_label, error->message);
  gtk_label_set_text (self->hint_label, hint ? hint : "");
  gtk_widget_set_visible (GTK_WIDGET (self->hint_label), hint != NULL);
  gtk_stack_set_visible_child_name (self->stack, "error");
  afg_window_update_actions (self);
  g_debug ("state: error: %s", error->message);
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

  afg_window_load (self, file);
}

/* The file the window loads, shows or failed to load; NULL on the start page. */
GFile *
afg_window_get_file (AfgWindow *self)
{
  g_return_val_if_fail (AFG_IS_WINDOW (self), NULL);

  return self->file;
}

gboolean
afg_window_has_failed (AfgWindow *self)
{
  g_return_val_if_fail (AFG_IS_WINDOW (self), FALSE);

  return g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "error") == 0;
}
