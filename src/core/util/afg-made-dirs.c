/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "afg-made-dirs.h"

char *
afg_made_dirs_first (const char *dir)
{
  g_autofree char *path = g_canonicalize_filename (dir, NULL);
  char *first = NULL;

  while (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *parent = g_path_get_dirname (path);

      g_free (first);
      first = g_strdup (path);
      if (strcmp (parent, path) == 0)
        break;
      g_free (path);
      path = g_steal_pointer (&parent);
    }
  return first;
}

void
afg_made_dirs_remove (const char *dir, const char *first)
{
  g_autofree char *path = NULL;

  if (first == NULL)
    return;
  path = g_canonicalize_filename (dir, NULL);
  while (g_rmdir (path) == 0 && strcmp (path, first) != 0)
    {
      char *parent = g_path_get_dirname (path);

      g_free (path);
      path = parent;
    }
}
