/* SPDX-License-Identifier: MIT */
/* Runs the fuzz harness once on every file of the given files and
 * directories, without libFuzzer: the committed corpus and crash inputs
 * become a regression test of every build (gcc, ASan, valgrind). */
#include "config.h"

#include <glib.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static guint
replay_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, &error))
    g_error ("%s", error->message);
  LLVMFuzzerTestOneInput ((const guint8 *) data, len);
  return 1;
}

static guint
replay (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint n = 0;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return replay_file (path);
  dir = g_dir_open (path, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      n += replay (child);
    }
  return n;
}

int
main (int argc, char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    n += replay (argv[i]);
  g_print ("replayed %u inputs\n", n);
  return n > 0 ? 0 : 1;
}
