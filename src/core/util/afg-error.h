/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AFG_LOAD_ERROR (afg_load_error_quark ())

typedef enum {
  AFG_LOAD_ERROR_NOT_FOUND,
  AFG_LOAD_ERROR_NOT_REGULAR,
  AFG_LOAD_ERROR_TOO_LARGE,
  AFG_LOAD_ERROR_UNREADABLE,
  AFG_LOAD_ERROR_NOT_SQLITE,
  AFG_LOAD_ERROR_OPEN_FAILED,
  AFG_LOAD_ERROR_MISSING_TABLE,
  AFG_LOAD_ERROR_NOT_A_TABLE,
  AFG_LOAD_ERROR_MISSING_COLUMN,
  AFG_LOAD_ERROR_CORRUPT,
  AFG_LOAD_ERROR_EMPTY,       /* a valid profile with no row to draw */
  AFG_LOAD_ERROR_TEMP_COPY,   /* the private copy a -wal or -journal needs */
} AfgLoadError;

GQuark      afg_load_error_quark    (void);
/* A translated one-line hint for the user, or NULL when none helps. */
const char *afg_load_error_get_hint (const GError *error);

/* Sets "PATH: reason" with PATH made printable (afg_format_path);
 * returns FALSE, so that a check can end with `return afg_error_set_path …`. */
gboolean    afg_error_set_path      (GError      **error,
                                     GQuark        domain,
                                     int           code,
                                     const char   *path,
                                     const char   *reason);
/* The same with G_FILE_ERROR and "what: strerror(errno)" as the reason. */
gboolean    afg_error_set_errno     (GError      **error,
                                     const char   *path,
                                     const char   *what,
                                     int           saved_errno);

G_END_DECLS
