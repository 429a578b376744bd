/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gstdio.h>

#include "afg-flat-dir.h"

void
afg_flat_dir_remove (const char *dir)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *file = g_build_filename (dir, name, NULL);

      g_unlink (file);
    }
  g_rmdir (dir);
}
