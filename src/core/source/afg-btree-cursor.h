/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-btree.h"
#include "afg-sql-value.h"

G_BEGIN_DECLS

#define AFG_RECORD_ROWID (-1)  /* the value is the rowid (an INTEGER PRIMARY KEY) */
#define AFG_RECORD_NONE  (-2)  /* the value is always NULL (a column the table lacks) */
#define AFG_RECORD_MAX_COLUMN 64

/* Which record column fills each value of a row, as SQLite returns it. */
typedef struct {
  guint    n_values;
  gint     column[AFG_ROW_MAX_VALUES];        /* record column, or AFG_RECORD_ROWID / _NONE */
  gboolean real[AFG_ROW_MAX_VALUES];          /* REAL affinity: integers read as floats */
  gboolean default_null[AFG_ROW_MAX_VALUES];  /* a short record may omit it */
  guint    n_needed;                          /* 1 + the highest record column used */
} AfgRecordMap;

typedef enum {
  AFG_BTREE_ROW,
  AFG_BTREE_DONE,
  AFG_BTREE_FALLBACK,  /* something SQLite may see otherwise: let it read the table */
} AfgBtreeStep;

/* Reads the rows of a run of leaf pages in order, batching runs of
 * consecutive pages into one pread of up to 1 MiB. */
typedef struct _AfgBtreeCursor AfgBtreeCursor;

/* @leaves (not copied) are in key order; @root is the table's root page
 * (the only leaf that may be empty). */
AfgBtreeCursor *afg_btree_cursor_new  (const AfgBtree     *btree,
                                       const AfgRecordMap *map,
                                       guint32             root,
                                       const guint32      *leaves,
                                       guint               n_leaves);
void            afg_btree_cursor_free (AfgBtreeCursor     *self);
/* The next row; its text and blob values stay valid until the next call. */
AfgBtreeStep    afg_btree_cursor_next (AfgBtreeCursor     *self,
                                       AfgRow             *row);
/* Cells and overflow pages read so far: what a row costs varies, so a
 * check for cancelling goes by this rather than by rows. */
guint64         afg_btree_cursor_get_work (const AfgBtreeCursor *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgBtreeCursor, afg_btree_cursor_free)

G_END_DECLS
