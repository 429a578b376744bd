/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "afg-btree.h"

G_BEGIN_DECLS

/* A profiler database opened for reading only: checks the input, decides
 * how to open it without writing anything beside it, and opens as many
 * connections as the loader wants. */
typedef struct {
  char    *path;
  char    *uri;
  char    *tmp_dir;        /* private copy of a DB with a -wal or hot -journal */
  gboolean writable_copy;  /* so that SQLite can replay that file on the copy */
  guint64  bytes;
  gboolean has_type;
  gboolean has_connection_id;  /* PYTORCH_API.connectionId, for the NPU links */
  const char *rowid_alias;  /* a name of the rowid no column hides, or NULL */
  gboolean has_enum_table;
  AfgBtree *btree;  /* the file read directly (afg-table-scan.h), or NULL */
  int      fd;           /* the file opened first, which every reader must see */
  struct stat opened;    /* and what it was then */
} AfgSource;

/* For tests: called once the schema was checked and before the file is
 * read, to change the file at that moment. */
extern void (*afg_source_test_hook) (const char *path);

gboolean  afg_source_open     (AfgSource   *source,
                               const char  *path,
                               GCancellable *cancellable,
                               sqlite3    **db,
                               GError     **error);
sqlite3  *afg_source_connect  (const AfgSource *source,
                               GError     **error);
void      afg_source_clear    (AfgSource   *source);
/* TRUE when @table exists as an ordinary table: no view, no virtual
 * table, no trigger (optional tables are read only then). */
gboolean  afg_source_has_plain_table (sqlite3 *db,
                                      const char *table);
/* TRUE when a table or a view named @name exists (any case). */
gboolean  afg_source_has_object (sqlite3 *db,
                                 const char *name);
/* The name that reads @table's rowid ("rowid", "_rowid_" or "oid", the
 * first no column hides), or NULL for a WITHOUT ROWID table or one whose
 * columns hide all three. */
const char *afg_source_rowid_name (sqlite3 *db,
                                   const char *table);
/* " ORDER BY <rowid>", or "" when afg_source_rowid_name() is NULL: every
 * table is read in rowid order, which is the order of the direct reader,
 * whatever index SQLite could use instead (a covering index would give
 * the index's order). */
char       *afg_source_rowid_order (sqlite3 *db,
                                    const char *table);
/* AFG_SQLITE_ONLY=1 in the environment (read once) or this call turns
 * the direct b-tree reader off: every table is read through SQLite. */
void      afg_source_set_sqlite_only (gboolean sqlite_only);
gboolean  afg_source_get_sqlite_only (void);
/* Maps a failed SQLite call to a load error naming the file. */
void      afg_source_set_error (const AfgSource *source,
                                sqlite3    *db,
                                int         rc,
                                GError    **error);

/* The PYTORCH_API.type values whose rows are used: those ENUM_API_TYPE
 * names op, queue, trace or python_trace, else 50001-50003. Returns an
 * SQLite result code; *@types (g_free) is set on SQLITE_OK. */
int       afg_source_read_api_types (const AfgSource *source,
                                     sqlite3    *db,
                                     gint64    **types,
                                     guint      *n_types);

G_END_DECLS
