/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-settings"

#include "config.h"

#include "afg-settings.h"

GSettings *
afg_settings_get (void)
{
  static GSettings *settings;
  static gboolean looked_up;

  if (!looked_up)
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
      g_autoptr(GSettingsSchema) schema = NULL;

      looked_up = TRUE;
      if (source != NULL)
        schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
      if (schema != NULL)
        settings = g_settings_new_full (schema, NULL, NULL);
      else
        g_debug ("schema %s is not installed: settings are not kept", APP_ID);
    }
  return settings;
}

static gboolean
icicle_from_orientation (GValue *value, GVariant *variant, gpointer data)
{
  g_value_set_boolean (value, g_strcmp0 (g_variant_get_string (variant, NULL), "icicle") == 0);
  return TRUE;
}

static GVariant *
orientation_from_icicle (const GValue *value, const GVariantType *type, gpointer data)
{
  return g_variant_new_string (g_value_get_boolean (value) ? "icicle" : "flame");
}

static gboolean
on_close_request (GtkWindow *window, GSettings *settings)
{
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (settings, "window-width", MAX (width, 360));
      g_settings_set_int (settings, "window-height", MAX (height, 240));
    }
  return FALSE;
}

void
afg_settings_bind_window (GtkWindow *window)
{
  GSettings *settings = afg_settings_get ();

  if (settings == NULL)
    return;
  gtk_window_set_default_size (window, g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (window);
  g_settings_bind_with_mapping (settings, "orientation", window, "icicle", G_SETTINGS_BIND_DEFAULT,
                                icicle_from_orientation, orientation_from_icicle, NULL, NULL);
  g_signal_connect_object (window, "close-request", G_CALLBACK (on_close_request), settings, 0);
}

void
afg_settings_restore_folder (GtkFileChooser *chooser)
{
  GSettings *settings = afg_settings_get ();
  g_autofree char *uri = settings ? g_settings_get_string (settings, "last-folder") : NULL;
  g_autoptr(GFile) folder = NULL;

  if (uri == NULL || *uri == '\0')
    return;
  folder = g_file_new_for_uri (uri);
  if (g_file_query_file_type (folder, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
    gtk_file_chooser_set_current_folder (chooser, folder, NULL);
}

void
afg_settings_remember_folder (GFile *file)
{
  GSettings *settings = afg_settings_get ();
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *uri = NULL;

  if (settings == NULL || parent == NULL)
    return;
  uri = g_file_get_uri (parent);
  g_settings_set_string (settings, "last-folder", uri);
}
