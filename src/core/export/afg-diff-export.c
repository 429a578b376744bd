/* SPDX-License-Identifier: MIT */
/* Writing a diff as the single export writes a profile:
 * DIR/flamegraph-diff.{html,json,folded} through a temp file and rename. */
#define G_LOG_DOMAIN "afg-export"

#include "config.h"

#include <errno.h>

#include <glib/gi18n.h>

#include "afg-diff-writers.h"
#include "afg-error.h"

/* flamegraph-diff.html, .json or .folded; NULL for any other format. */
static const char *
file_name_of (AfgFormat format)
{
  switch (format)
    {
    case AFG_FORMAT_HTML:
      return "flamegraph-diff.html";
    case AFG_FORMAT_JSON:
      return "flamegraph-diff.json";
    case AFG_FORMAT_FOLDED:
      return "flamegraph-diff.folded";
    case AFG_FORMAT_TRACE:
    default:
      return NULL;
    }
}

static GString *
serialize (AfgDiffShape *diff, AfgFormat format, GError **error)
{
  guint n_nodes = afg_tree_get_n_nodes (afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B));
  GString *out = g_string_sized_new (4096 + 96 * (gsize) n_nodes);

  if (format == AFG_FORMAT_JSON)
    afg_diff_json_write (diff, out);
  else if (format == AFG_FORMAT_FOLDED)
    afg_diff_folded_write (diff, out);
  else if (!afg_diff_html_write (diff, out, error))
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return out;
}

/* Neither side's DB is ever the output. */
gboolean
afg_diff_export_to_file (AfgDiffShape *diff, AfgFormat format, const char *path, GError **error)
{
  g_autoptr(GString) out = NULL;

  g_return_val_if_fail (diff != NULL && path != NULL, FALSE);

  if (file_name_of (format) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s: a comparison is written as HTML, JSON or folded stacks"), path);
      return FALSE;
    }
  if (!afg_export_check_path (afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_A), path, error)
      || !afg_export_check_path (afg_diff_shape_get_source (diff, AFG_DIFF_SIDE_B), path, error))
    return FALSE;
  out = serialize (diff, format, error);
  return out != NULL && afg_export_write_data (path, out->str, out->len, error);
}

gboolean
afg_diff_export_to_dir (AfgDiffShape *diff, AfgFormat format, const char *dir, char **out_path,
                        GError **error)
{
  const char *name = file_name_of (format);
  g_autofree char *path = NULL;

  g_return_val_if_fail (diff != NULL && name != NULL && dir != NULL, FALSE);

  path = g_build_filename (dir, name, NULL);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      return afg_error_set_errno (error, dir, _("cannot create the output directory"), saved);
    }
  if (!afg_diff_export_to_file (diff, format, path, error))
    return FALSE;
  if (out_path != NULL)
    *out_path = g_steal_pointer (&path);
  return TRUE;
}
