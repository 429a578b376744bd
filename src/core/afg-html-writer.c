/* SPDX-License-Identifier: MIT */
/* Placeholder until the HTML page lands (issue 3). */
#include "config.h"

#include <gio/gio.h>

#include "afg-writers.h"

gboolean
afg_html_write (const AfgProfile *profile, GString *out, GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "HTML export is not built yet");
  return FALSE;
}
