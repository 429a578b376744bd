/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the loader: bytes -> SQLite file -> load -> JSON.
 * An input holding WAL_MARK is split: the bytes after it become the -wal
 * file, so the private-copy path of afg-source.c is fuzzed too. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "afg-loader.h"
#include "afg-tree-builder.h"
#include "afg-writers.h"

#define WAL_MARK "AFG-WAL:"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static char *work_dir;
static char *db_path;
static char *wal_path;

/* Plain writes: g_file_set_contents's temp file and rename cost a third
 * of the executions per second. */
static void
write_all (const char *path, const guint8 *data, gsize size)
{
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  gsize done = 0;

  if (fd < 0)
    g_error ("%s: %s", path, g_strerror (errno));
  while (done < size)
    {
      gssize n = write (fd, data + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        g_error ("%s: %s", path, g_strerror (errno));
      done += n;
    }
  close (fd);
}

static void
cleanup (void)
{
  g_unlink (wal_path);
  g_unlink (db_path);
  g_rmdir (work_dir);
}

static void
setup (void)
{
  g_autoptr(GError) error = NULL;
  char *dir;

  /* A tmpfs keeps millions of file writes off the disk; it is also where
   * the loader's private WAL copies go (g_get_tmp_dir () is read once). */
  if (g_getenv ("TMPDIR") == NULL && g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR))
    g_setenv ("TMPDIR", "/dev/shm", TRUE);
  dir = g_dir_make_tmp ("afg-fuzz-XXXXXX", &error);
  if (dir == NULL)
    g_error ("%s", error->message);
  work_dir = dir;
  db_path = g_build_filename (dir, "ascend_pytorch_profiler_0.db", NULL);
  wal_path = g_strconcat (db_path, "-wal", NULL);
  atexit (cleanup);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  const guint8 *mark = memmem (data, size, WAL_MARK, strlen (WAL_MARK));
  gsize db_size = mark ? (gsize) (mark - data) : size;
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) profile = NULL;

  if (db_path == NULL)
    setup ();
  write_all (db_path, data, db_size);
  g_unlink (wal_path);
  if (mark != NULL)
    write_all (wal_path, mark + strlen (WAL_MARK), size - db_size - strlen (WAL_MARK));
  document = afg_document_load (db_path, NULL, NULL, NULL, &error);
  if (document != NULL)
    profile = afg_tree_build (document, NULL, AFG_TREE_FLAGS_NONE, NULL, &error);
  if (profile != NULL)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      g_assert_null (error);
      afg_json_write (profile, json);
      g_assert (json->len > 0);
    }
  else
    {
      g_assert (error != NULL);
      g_assert (error->message != NULL);
    }
  return 0;
}
