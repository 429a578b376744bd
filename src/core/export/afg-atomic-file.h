/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An output written to a hidden temp file beside its path, fsynced and
 * renamed over the path on commit: readers see the old file or the new
 * one, never a part of one. Abort (or a failed commit) removes the temp
 * file. Errors name @path. */
typedef struct _AfgAtomicFile AfgAtomicFile;

AfgAtomicFile *afg_atomic_file_open   (const char     *path,
                                       GError        **error);
gboolean       afg_atomic_file_write  (AfgAtomicFile  *self,
                                       const char     *data,
                                       gsize           len,
                                       GError        **error);
/* Frees @self, whatever the result. */
gboolean       afg_atomic_file_commit (AfgAtomicFile  *self,
                                       GError        **error);
void           afg_atomic_file_abort  (AfgAtomicFile  *self);

G_END_DECLS
