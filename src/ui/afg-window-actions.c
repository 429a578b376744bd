/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-settings.h"
#include "afg-window-private.h"

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
      _afg_window_open_beside (self, file);
    }
}

/* A diff stays on screen: what is opened from it gets a window of its
 * own, as opening it from a file manager does. */
void
_afg_window_open_beside (AfgWindow *self, GFile *file)
{
  if (_afg_window_is_comparing (self))
    g_application_open (G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))), &file, 1, "");
  else
    afg_window_open (self, file);
}

void
_afg_window_add_filter (GtkFileChooser *chooser, const char *name, const char *pattern)
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
  _afg_window_add_filter (GTK_FILE_CHOOSER (self->chooser), _("Profiler databases"), "*.db");
  _afg_window_add_filter (GTK_FILE_CHOOSER (self->chooser), _("All files"), "*");
  afg_settings_restore_folder (GTK_FILE_CHOOSER (self->chooser));
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
export_action (GtkWidget *widget, const char *name, GVariant *param)
{
  afg_export_section_export (AFG_WINDOW (widget)->export);
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
  _afg_window_escape (AFG_WINDOW (widget));
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

  afg_worker_cancel (afg_loading_page_get_worker (self->loading_page));
  afg_ranks_section_cancel_first (self->ranks);
  gtk_stack_set_visible_child_name (self->stack, _afg_window_get_tree (self) ? "graph" : "empty");
  if (_afg_window_get_tree (self) == NULL)
    {
      afg_session_set_file (self->session, NULL);
      gtk_window_set_title (GTK_WINDOW (self), _("Ascend Flame Graph"));
    }
  else
    {
      g_autoptr(GFile) shown = g_file_new_for_path (afg_document_get_source_path (afg_tree_get_document (_afg_window_get_tree (self))));
      g_autofree char *title = _afg_window_title_name (self, afg_document_get_source_name (afg_tree_get_document (_afg_window_get_tree (self))));

      afg_session_set_file (self->session, shown);
      gtk_window_set_title (GTK_WINDOW (self), title);
      if (_afg_window_is_comparing (self))
        afg_compare_section_show_title (self->compare);
    }
  _afg_window_update_actions (self);
}

static void
open_exported_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *self = AFG_WINDOW (widget);
  g_autofree char *uri = g_file_get_uri (afg_export_section_get_exported (self->export));

  gtk_show_uri (GTK_WINDOW (self), uri, GDK_CURRENT_TIME);
}

static void
dismiss_notice_action (GtkWidget *widget, const char *name, GVariant *param)
{
  afg_notice_bar_dismiss (AFG_WINDOW (widget)->notice_bar);
  _afg_window_report_state (AFG_WINDOW (widget));
}

void
_afg_window_class_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  afg_compare_section_install_actions (widget_class);
  gtk_widget_class_install_action (widget_class, "win.reset-zoom", NULL, reset_zoom_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.escape", NULL, escape_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.open-exported", NULL, open_exported_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-notice", NULL, dismiss_notice_action);
  /* Checked in the icicle orientation, cleared in the default flame one. */
  gtk_widget_class_install_property_action (widget_class, "win.flip-orientation", "icicle");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.escape", NULL);
}

/* The one place that decides what is enabled, called after every change
 * of page, profile, zoom or export. */
void
_afg_window_update_actions (AfgWindow *self)
{
  const char *page = gtk_stack_get_visible_child_name (self->stack);
  gboolean graph = g_strcmp0 (page, "graph") == 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", graph && _afg_window_get_tree (self) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare", graph && _afg_window_get_file (self) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reset-zoom",
                                 graph && afg_flame_view_is_zoomed (self->flame_view));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.search", graph);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-load", g_strcmp0 (page, "loading") == 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-exported",
                                 afg_export_section_get_exported (self->export) != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_entry), graph);
  gtk_widget_set_visible (GTK_WIDGET (self->thread_dropdown), graph && !_afg_window_is_comparing (self));
  afg_transforms_section_update_actions (self->transforms);
  _afg_window_report_state (self);
}
