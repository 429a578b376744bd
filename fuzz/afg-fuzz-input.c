/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "afg-fuzz-input.h"

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

const char *
afg_fuzz_write_input (const guint8 *data, gsize size)
{
  const guint8 *mark = memmem (data, size, AFG_FUZZ_WAL_MARK, strlen (AFG_FUZZ_WAL_MARK));
  gsize db_size = mark ? (gsize) (mark - data) : size;

  if (db_path == NULL)
    setup ();
  write_all (db_path, data, db_size);
  g_unlink (wal_path);
  if (mark != NULL)
    write_all (wal_path, mark + strlen (AFG_FUZZ_WAL_MARK), size - db_size - strlen (AFG_FUZZ_WAL_MARK));
  return db_path;
}
