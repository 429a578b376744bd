/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>
#include <sqlite3.h>

#include "afg-btree.h"
#include "afg-sql-value.h"

G_BEGIN_DECLS

/* One scan of an ordinary rowid table's columns, in rowid order, read
 * straight from its b-tree (AfgBtree) instead of through SQLite's VDBE,
 * split by leaf pages into parts that threads read at once (part 0 holds
 * the lowest rowids). SQLite describes the table (root page, columns);
 * anything this reader does not handle exactly as SQLite would, or any
 * inconsistency in the file, makes the caller read the table with SQLite. */
typedef struct _AfgTableScan AfgTableScan;

typedef enum {
  AFG_SCAN_DONE,
  AFG_SCAN_STOPPED,   /* @stop said so */
  AFG_SCAN_FALLBACK,  /* discard what the part gave and read with SQLite */
} AfgScanResult;

/* FALSE: the row cannot be taken as read here (the caller's own reason
 * to fall back). */
typedef gboolean (*AfgRowFunc)  (gpointer      data,
                                 const AfgRow *row);
typedef gboolean (*AfgStopFunc) (gpointer      data);

/* NULL when @btree is NULL or the table is not one this reader handles.
 * @columns are names of @table (a NULL entry reads as NULL); at most
 * AFG_ROW_MAX_VALUES. Parts hold at least @min_leaves leaf pages each. */
AfgTableScan *afg_table_scan_new         (const AfgBtree     *btree,
                                          sqlite3            *db,
                                          const char         *table,
                                          const char * const *columns,
                                          guint               n_columns,
                                          guint               max_parts,
                                          guint               min_leaves);
/* Counts whether the scan was read whole by the fast path. */
void          afg_table_scan_free        (AfgTableScan       *self);
guint         afg_table_scan_get_n_parts (const AfgTableScan *self);
/* Calls @func for each row of part @part; threads may run parts at once. */
AfgScanResult afg_table_scan_run         (AfgTableScan       *self,
                                          guint               part,
                                          AfgRowFunc          func,
                                          gpointer            data,
                                          AfgStopFunc         stop,
                                          gpointer            stop_data);
/* In one go on this thread: SQLITE_OK, SQLITE_INTERRUPT when @cancellable
 * was cancelled, or -1 when the caller must undo what @func did and read
 * with SQLite. */
int           afg_table_scan_read        (const AfgBtree     *btree,
                                          sqlite3            *db,
                                          const char         *table,
                                          const char * const *columns,
                                          guint               n_columns,
                                          AfgRowFunc          func,
                                          gpointer            data,
                                          GCancellable       *cancellable);

/* What the direct read's rows added, dropped before SQLite reads them again. */
typedef void (*AfgUndoFunc) (gpointer data);

/* afg_table_scan_read() when it can, else @undo (with @undo_data) and
 * reads the same columns through SQLite, in rowid order (the direct
 * reader's order, whatever index SQLite could use): SQLITE_OK or an
 * SQLite result code. */
int           afg_table_scan_read_or_sql (const AfgBtree     *btree,
                                          sqlite3            *db,
                                          const char         *table,
                                          const char * const *columns,
                                          guint               n_columns,
                                          AfgRowFunc          func,
                                          gpointer            data,
                                          AfgUndoFunc         undo,
                                          gpointer            undo_data,
                                          GCancellable       *cancellable);

/* Tables read whole by the fast path and tables it gave up on, since the
 * process started (for tests). */
void          afg_table_scan_get_counts  (guint              *fast,
                                          guint              *fallbacks);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgTableScan, afg_table_scan_free)

G_END_DECLS
