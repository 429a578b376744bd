/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n.h>

#include "afg-error.h"
#include "afg-format.h"

G_DEFINE_QUARK (afg-load-error-quark, afg_load_error)

const char *
afg_load_error_get_hint (const GError *error)
{
  if (error == NULL || error->domain != AFG_LOAD_ERROR)
    return NULL;

  switch ((AfgLoadError) error->code)
    {
    case AFG_LOAD_ERROR_NOT_FOUND:
    case AFG_LOAD_ERROR_NOT_REGULAR:
      return _("pass the path of an ascend_pytorch_profiler_{rank}.db file");
    case AFG_LOAD_ERROR_TOO_LARGE:
      return _("the limit is 10 GiB (torch_npu's MAX_FILE_SIZE); profile fewer steps with a schedule");
    case AFG_LOAD_ERROR_UNREADABLE:
      return _("check the file's permissions");
    case AFG_LOAD_ERROR_NOT_SQLITE:
    case AFG_LOAD_ERROR_OPEN_FAILED:
      return _("expected the SQLite database ascend_pytorch_profiler_{rank}.db written by torch_npu's profiler");
    case AFG_LOAD_ERROR_MISSING_TABLE:
    case AFG_LOAD_ERROR_MISSING_COLUMN:
      return _("collect with torch_npu.profiler.ProfilerActivity.CPU and export the db format");
    case AFG_LOAD_ERROR_NOT_A_TABLE:
      return _("the database was altered after profiling; views and triggers are refused");
    case AFG_LOAD_ERROR_CORRUPT:
      return _("the file is damaged or was copied while the profiler was still writing it");
    case AFG_LOAD_ERROR_EMPTY:
      return _("likely causes: the CPU activity was not collected (add "
               "torch_npu.profiler.ProfilerActivity.CPU); the profile holds only ProfilerStep# "
               "markers or mstx ranges; the run stopped before any step was recorded");
    case AFG_LOAD_ERROR_TEMP_COPY:
      return _("a database with a -wal or -journal beside it is read from a private copy in the "
               "temporary folder: make room there, or set TMPDIR to a folder with room");
    default:
      return NULL;
    }
}

gboolean
afg_error_set_path (GError **error, GQuark domain, int code, const char *path, const char *reason)
{
  g_autofree char *shown = afg_format_path (path);

  /* TRANSLATORS: a name (a file, a label), then what is said of it. */
  g_set_error (error, domain, code, _("%s: %s"), shown, reason);
  return FALSE;
}

gboolean
afg_error_set_errno (GError **error, const char *path, const char *what, int saved_errno)
{
  g_autofree char *reason = g_strdup_printf (_("%s: %s"), what, g_strerror (saved_errno));

  return afg_error_set_path (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), path, reason);
}
