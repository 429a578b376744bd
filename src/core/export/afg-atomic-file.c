/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "afg-atomic-file.h"
#include "afg-error.h"

struct _AfgAtomicFile {
  char *path;
  char *tmp;
  int   fd;
};

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

AfgAtomicFile *
afg_atomic_file_open (const char *path, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  AfgAtomicFile *self = g_new0 (AfgAtomicFile, 1);

  self->path = g_strdup (path);
  self->tmp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  self->fd = g_mkstemp_full (self->tmp, O_WRONLY | O_CLOEXEC, 0644);
  if (self->fd < 0)
    {
      afg_error_set_errno (error, path, _("cannot create the output file"), errno);
      g_free (self->path);
      g_free (self->tmp);
      g_free (self);
      return NULL;
    }
  return self;
}

gboolean
afg_atomic_file_write (AfgAtomicFile *self, const char *data, gsize len, GError **error)
{
  if (write_all (self->fd, data, len))
    return TRUE;
  return afg_error_set_errno (error, self->path, _("cannot write the output file"), errno ? errno : EIO);
}

void
afg_atomic_file_abort (AfgAtomicFile *self)
{
  if (self->fd >= 0)
    close (self->fd);
  g_unlink (self->tmp);
  g_free (self->path);
  g_free (self->tmp);
  g_free (self);
}

gboolean
afg_atomic_file_commit (AfgAtomicFile *self, GError **error)
{
  int fd = self->fd;
  int saved;

  self->fd = -1;
  if (fsync (fd) != 0)
    {
      saved = errno ? errno : EIO;
      close (fd);
      afg_error_set_errno (error, self->path, _("cannot write the output file"), saved);
      afg_atomic_file_abort (self);
      return FALSE;
    }
  if (close (fd) != 0 || g_rename (self->tmp, self->path) != 0)
    {
      saved = errno;
      afg_error_set_errno (error, self->path, _("cannot write the output file"), saved);
      afg_atomic_file_abort (self);
      return FALSE;
    }
  g_free (self->path);
  g_free (self->tmp);
  g_free (self);
  return TRUE;
}
