/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-export"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "afg-writers.h"

static const char * const format_names[] = { "html", "json", "folded" };
static const char * const file_names[] = { "flamegraph.html", "flamegraph.json", "flamegraph.folded" };

const char *
afg_format_file_name (AfgFormat format)
{
  g_return_val_if_fail (format <= AFG_FORMAT_FOLDED, NULL);
  return file_names[format];
}

gboolean
afg_format_from_string (const char *text, AfgFormat *format)
{
  for (guint i = 0; i < G_N_ELEMENTS (format_names); i++)
    if (g_strcmp0 (text, format_names[i]) == 0)
      {
        *format = i;
        return TRUE;
      }
  return FALSE;
}

static GString *
serialize (const AfgProfile *profile, AfgFormat format, GError **error)
{
  GString *out = g_string_sized_new (4096 + 160 * (gsize) afg_profile_get_n_nodes (profile));

  switch (format)
    {
    case AFG_FORMAT_JSON:
      afg_json_write (profile, out);
      break;
    case AFG_FORMAT_FOLDED:
      afg_folded_write (profile, out);
      break;
    case AFG_FORMAT_HTML:
    default:
      if (!afg_html_write (profile, out, error))
        {
          g_string_free (out, TRUE);
          return NULL;
        }
    }
  return out;
}

/* g_file_set_contents_full writes a temp file beside @path, fsyncs and
 * renames it over: readers see the old file or the new one, never a part. */
gboolean
afg_export_to_file (const AfgProfile *profile, AfgFormat format, const char *path, GError **error)
{
  g_autoptr(GString) out = serialize (profile, format, error);
  g_autoptr(GError) local_error = NULL;

  if (out == NULL)
    return FALSE;
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR, _("%s: is a directory"), path);
      return FALSE;
    }
  if (!g_file_set_contents_full (path, out->str, out->len, G_FILE_SET_CONTENTS_CONSISTENT, 0644,
                                 &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code, "%s", local_error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
afg_export_to_dir (const AfgProfile *profile, AfgFormat format, const char *dir, char **out_path,
                   GError **error)
{
  g_autofree char *path = g_build_filename (dir, afg_format_file_name (format), NULL);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("%s: cannot create the output directory: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  if (!afg_export_to_file (profile, format, path, error))
    return FALSE;
  if (out_path != NULL)
    *out_path = g_steal_pointer (&path);
  return TRUE;
}
