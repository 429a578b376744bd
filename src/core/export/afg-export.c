/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-export"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "afg-error.h"
#include "afg-tree-builder.h"
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

static const char * const weight_names[] = { "host", "npu" };

gboolean
afg_weight_from_string (const char *text, AfgWeight *weight)
{
  for (guint i = 0; i < G_N_ELEMENTS (weight_names); i++)
    if (g_strcmp0 (text, weight_names[i]) == 0)
      {
        *weight = i;
        return TRUE;
      }
  return FALSE;
}

AfgColumn
afg_weight_get_self_column (AfgWeight weight)
{
  return weight == AFG_WEIGHT_NPU ? AFG_COLUMN_NPU_SELF_NS : AFG_COLUMN_SELF_NS;
}

/* JSON v2 and the page always carry the durations: a tree built without
 * them (the window's) is built again with them, same scope and flags, so
 * that the window's export is the command line's byte for byte. */
static AfgTree *
with_durations (const AfgTree *tree, AfgFormat format, GError **error)
{
  if (format == AFG_FORMAT_FOLDED || afg_tree_has_column (tree, AFG_COLUMN_DURATION_MIN))
    return afg_tree_ref ((AfgTree *) tree);
  return afg_tree_build (afg_tree_get_document (tree), afg_tree_get_scope (tree),
                         afg_tree_get_flags (tree) | AFG_TREE_DURATIONS, NULL, error);
}

static GString *
serialize (const AfgTree *whole, AfgFormat format, AfgWeight weight, GError **error)
{
  g_autoptr(AfgTree) tree = with_durations (whole, format, error);
  GString *out;

  if (tree == NULL)
    return NULL;
  out = g_string_sized_new (4096 + 160 * (gsize) afg_tree_get_n_nodes (tree));

  switch (format)
    {
    case AFG_FORMAT_JSON:
      afg_json_write (tree, out);
      break;
    case AFG_FORMAT_FOLDED:
      afg_folded_write (tree, afg_weight_get_self_column (weight), out);
      break;
    case AFG_FORMAT_HTML:
    default:
      if (!afg_html_write (tree, out, error))
        {
          g_string_free (out, TRUE);
          return NULL;
        }
    }
  return out;
}

static gboolean
fail_path (GError **error, GFileError code, const char *path, const char *reason)
{
  return afg_error_set_path (error, G_FILE_ERROR, code, path, reason);
}

static gboolean
fail_errno (GError **error, const char *path, const char *what, int saved_errno)
{
  g_autofree char *reason = g_strdup_printf ("%s: %s", what, g_strerror (saved_errno));

  return fail_path (error, g_file_error_from_errno (saved_errno), path, reason);
}

static gboolean
write_all (int fd, const char *data, gsize len)
{
  while (len > 0)
    {
      gssize n = write (fd, data, MIN (len, 1 << 30));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      len -= n;
    }
  return TRUE;
}

/* Writes a hidden temp file beside @path, fsyncs it and renames it over
 * @path: readers see the old file or the new one, never a part of one. */
static gboolean
write_atomically (const char *path, const char *data, gsize len, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  int fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0644);
  int saved;

  if (fd < 0)
    return fail_errno (error, path, _("cannot create the output file"), errno);
  if (!write_all (fd, data, len) || fsync (fd) != 0)
    {
      saved = errno ? errno : EIO;
      close (fd);
      g_unlink (tmp);
      return fail_errno (error, path, _("cannot write the output file"), saved);
    }
  if (close (fd) != 0 || g_rename (tmp, path) != 0)
    {
      saved = errno;
      g_unlink (tmp);
      return fail_errno (error, path, _("cannot write the output file"), saved);
    }
  return TRUE;
}

static gboolean
is_same_file (const char *a, const char *b)
{
  GStatBuf sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static gboolean
export_to_file (const AfgTree *tree, AfgFormat format, AfgWeight weight, const char *path, GError **error)
{
  g_autoptr(GString) out = NULL;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return fail_path (error, G_FILE_ERROR_ISDIR, path, _("is a directory"));
  if (is_same_file (path, afg_document_get_source_path (afg_tree_get_document (tree))))
    return fail_path (error, G_FILE_ERROR_EXIST, path,
                      _("is the profiler database itself; it is never overwritten"));
  out = serialize (tree, format, weight, error);
  return out != NULL && write_atomically (path, out->str, out->len, error);
}

gboolean
afg_export_to_file (const AfgTree *tree, AfgFormat format, const char *path, GError **error)
{
  return export_to_file (tree, format, AFG_WEIGHT_HOST, path, error);
}

gboolean
afg_export_to_dir (const AfgTree *tree, AfgFormat format, const char *dir, char **out_path,
                   GError **error)
{
  return afg_export_to_dir_weighted (tree, format, AFG_WEIGHT_HOST, dir, out_path, error);
}

gboolean
afg_export_to_dir_weighted (const AfgTree *tree, AfgFormat format, AfgWeight weight, const char *dir,
                            char **out_path, GError **error)
{
  g_autofree char *path = g_build_filename (dir, afg_format_file_name (format), NULL);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      return fail_errno (error, dir, _("cannot create the output directory"), saved);
    }
  if (!export_to_file (tree, format, weight, path, error))
    return FALSE;
  if (out_path != NULL)
    *out_path = g_steal_pointer (&path);
  return TRUE;
}
