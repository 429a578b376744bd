/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-table-scan"

#include "config.h"

#include <string.h>

#include "afg-btree-cursor.h"
#include "afg-source.h"
#include "afg-table-scan.h"

#define STOP_EVERY_WORK 1024  /* cells and overflow pages: at most a few ms */

struct _AfgTableScan {
  const AfgBtree *btree;
  char           *table;
  AfgRecordMap    map;
  guint32         root;
  GArray         *leaves;   /* guint32 page numbers, in key order */
  guint           n_parts;
  gint            parts_done;
  gint            fell_back;
};

static guint fast_count;
static guint fallback_count;

static const char * const rowid_names[] = { "rowid", "oid", "_rowid_" };

static gboolean
contains (const char *type, const char *word)
{
  g_autofree char *upper = g_ascii_strup (type, -1);

  return strstr (upper, word) != NULL;
}

/* SQLite's rules for a declared type's affinity, REAL only. */
static gboolean
is_real_affinity (const char *type)
{
  if (type == NULL || contains (type, "INT") || contains (type, "CHAR") || contains (type, "CLOB")
      || contains (type, "TEXT") || contains (type, "BLOB"))
    return FALSE;
  return contains (type, "REAL") || contains (type, "FLOA") || contains (type, "DOUB");
}

/* Root page; WITHOUT ROWID tables (index b-trees) are left to SQLite.
 * @desc: the definition may say "INTEGER PRIMARY KEY DESC", which makes
 * no rowid alias. */
static gboolean
find_root (sqlite3 *db, const char *table, guint32 *root, gboolean *desc)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok = FALSE;

  if (sqlite3_prepare_v2 (db, "SELECT rootpage, sql FROM sqlite_schema WHERE type = 'table'"
                              " AND name = ?1 COLLATE NOCASE", -1, &stmt, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
      if (sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_type (stmt, 0) == SQLITE_INTEGER
          && sqlite3_column_type (stmt, 1) == SQLITE_TEXT)
        {
          gint64 page = sqlite3_column_int64 (stmt, 0);
          const char *sql = (const char *) sqlite3_column_text (stmt, 1);

          *root = (guint32) page;
          *desc = contains (sql, "DESC");
          ok = page > 0 && page <= G_MAXUINT32 && !contains (sql, "WITHOUT") && sqlite3_step (stmt) == SQLITE_DONE;
        }
    }
  sqlite3_finalize (stmt);
  return ok;
}

typedef struct {
  char    *name;
  gboolean real;
  gboolean default_null;
  gboolean alias;
} Column;

static void
column_clear (gpointer data)
{
  g_free (((Column *) data)->name);
}

/* The table's columns in record order; FALSE with hidden or generated
 * columns (not stored as declared). */
static GArray *
list_columns (sqlite3 *db, const char *table)
{
  g_autoptr(GArray) columns = g_array_new (FALSE, TRUE, sizeof (Column));
  sqlite3_stmt *stmt = NULL;
  int rc, n_pk = 0, alias = -1;

  g_array_set_clear_func (columns, column_clear);
  rc = sqlite3_prepare_v2 (db, "SELECT name, type, dflt_value IS NULL, pk, hidden FROM pragma_table_xinfo(?1)",
                           -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *type = (const char *) sqlite3_column_text (stmt, 1);
      Column c = { g_strdup ((const char *) sqlite3_column_text (stmt, 0)), is_real_affinity (type),
                   sqlite3_column_int (stmt, 2), FALSE };

      rc = c.name != NULL && sqlite3_column_int (stmt, 4) == 0 ? SQLITE_OK : SQLITE_MISMATCH;
      if (sqlite3_column_int (stmt, 3) > 0 && n_pk++ == 0 && type != NULL && g_ascii_strcasecmp (type, "INTEGER") == 0)
        alias = (int) columns->len;
      g_array_append_val (columns, c);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return NULL;
  if (n_pk == 1 && alias >= 0)
    g_array_index (columns, Column, alias).alias = TRUE;
  return g_steal_pointer (&columns);
}

static gboolean
map_value (AfgRecordMap *map, guint v, const GArray *columns, const char *name, gboolean desc)
{
  map->column[v] = AFG_RECORD_NONE;
  if (name == NULL)
    return TRUE;
  for (guint c = 0; c < columns->len; c++)
    {
      const Column *column = &g_array_index (columns, Column, c);

      if (g_ascii_strcasecmp (column->name, name) != 0)
        continue;
      if (c >= AFG_RECORD_MAX_COLUMN || (column->alias && desc))
        return FALSE;
      map->column[v] = column->alias ? AFG_RECORD_ROWID : (gint) c;
      map->real[v] = column->real;
      map->default_null[v] = column->default_null;
      map->n_needed = MAX (map->n_needed, c + 1);
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (rowid_names); i++)
    if (g_ascii_strcasecmp (name, rowid_names[i]) == 0)
      {
        map->column[v] = AFG_RECORD_ROWID;
        return TRUE;
      }
  return FALSE;  /* SQLite would not prepare the query */
}

static gboolean
build_map (AfgRecordMap *map, sqlite3 *db, const char *table, const char * const *names, guint n, gboolean desc)
{
  g_autoptr(GArray) columns = list_columns (db, table);

  memset (map, 0, sizeof *map);
  map->n_values = n;
  if (columns == NULL || n > AFG_ROW_MAX_VALUES)
    return FALSE;
  for (guint v = 0; v < n; v++)
    if (!map_value (map, v, columns, names[v], desc))
      return FALSE;
  return TRUE;
}

AfgTableScan *
afg_table_scan_new (const AfgBtree *btree, sqlite3 *db, const char *table, const char * const *columns,
                    guint n_columns, guint max_parts, guint min_leaves)
{
  g_autoptr(AfgTableScan) self = NULL;
  gboolean desc = FALSE;

  if (btree == NULL || afg_btree_is_damaged (btree))
    return NULL;
  self = g_new0 (AfgTableScan, 1);
  self->btree = btree;
  self->table = g_strdup (table);
  /* Without a name for the rowid SQLite could not be asked for rowid
   * order, the only order this reader knows. */
  if (afg_source_rowid_name (db, table) == NULL || !find_root (db, table, &self->root, &desc) || !build_map (&self->map, db, table, columns, n_columns, desc))
    {
      g_clear_pointer (&self, afg_table_scan_free);
      return NULL;
    }
  self->leaves = afg_btree_list_leaves (btree, self->root);
  if (self->leaves == NULL)
    {
      self->fell_back = TRUE;
      g_clear_pointer (&self, afg_table_scan_free);
      return NULL;
    }
  self->n_parts = CLAMP (self->leaves->len / MAX (min_leaves, 1), 1, MAX (max_parts, 1));
  return g_steal_pointer (&self);
}

void
afg_table_scan_free (AfgTableScan *self)
{
  if (self == NULL)
    return;
  if (self->fell_back)
    {
      g_debug ("%s: the direct read gave up", self->table);
      g_atomic_int_inc (&fallback_count);
    }
  else if (self->leaves != NULL && (guint) self->parts_done == self->n_parts)
    {
      g_debug ("%s: read directly, %u leaves in %u parts", self->table, self->leaves->len, self->n_parts);
      g_atomic_int_inc (&fast_count);
    }
  g_clear_pointer (&self->leaves, g_array_unref);
  g_free (self->table);
  g_free (self);
}

guint
afg_table_scan_get_n_parts (const AfgTableScan *self)
{
  return self->n_parts;
}

AfgScanResult
afg_table_scan_run (AfgTableScan *self, guint part, AfgRowFunc func, gpointer data, AfgStopFunc stop,
                    gpointer stop_data)
{
  guint first = (guint) ((guint64) self->leaves->len * part / self->n_parts);
  guint last = (guint) ((guint64) self->leaves->len * (part + 1) / self->n_parts);
  g_autoptr(AfgBtreeCursor) cursor = NULL;
  AfgBtreeStep step;
  AfgRow row;
  guint64 checked = 0;

  g_return_val_if_fail (part < self->n_parts, AFG_SCAN_FALLBACK);

  cursor = afg_btree_cursor_new (self->btree, &self->map, self->root,
                                 &g_array_index (self->leaves, guint32, first), last - first);
  while ((step = afg_btree_cursor_next (cursor, &row)) == AFG_BTREE_ROW)
    {
      if (!func (data, &row))
        {
          step = AFG_BTREE_FALLBACK;
          break;
        }
      if (afg_btree_cursor_get_work (cursor) - checked >= STOP_EVERY_WORK)
        {
          checked = afg_btree_cursor_get_work (cursor);
          if (stop != NULL && stop (stop_data))
            return AFG_SCAN_STOPPED;
        }
    }
  if (step == AFG_BTREE_FALLBACK)
    {
      g_atomic_int_set (&self->fell_back, TRUE);
      return AFG_SCAN_FALLBACK;
    }
  g_atomic_int_inc (&self->parts_done);
  return AFG_SCAN_DONE;
}

static gboolean
is_cancelled (gpointer cancellable)
{
  return g_cancellable_is_cancelled (cancellable);
}

int
afg_table_scan_read (const AfgBtree *btree, sqlite3 *db, const char *table, const char * const *columns,
                     guint n_columns, AfgRowFunc func, gpointer data, GCancellable *cancellable)
{
  g_autoptr(AfgTableScan) scan = afg_table_scan_new (btree, db, table, columns, n_columns, 1, 1);

  if (scan == NULL)
    return -1;
  switch (afg_table_scan_run (scan, 0, func, data, is_cancelled, cancellable))
    {
    case AFG_SCAN_DONE:
      return SQLITE_OK;
    case AFG_SCAN_STOPPED:
      return SQLITE_INTERRUPT;
    default:
      return -1;
    }
}

void
afg_table_scan_get_counts (guint *fast, guint *fallbacks)
{
  *fast = (guint) g_atomic_int_get (&fast_count);
  *fallbacks = (guint) g_atomic_int_get (&fallback_count);
}

/* The same columns read through SQLite, in rowid order (the direct
 * reader's order, whatever index SQLite could use); an SQLite result
 * code, SQLITE_OK at the end. */
static int
scan_sql (sqlite3 *db, const char *table, const char * const *columns, guint n_columns, AfgRowFunc func,
          gpointer data)
{
  g_autofree char *list = g_strjoinv (", ", (char **) columns);
  g_autofree char *order = afg_source_rowid_order (db, table);
  g_autofree char *sql = g_strdup_printf ("SELECT %s FROM %s%s", list, table, order);
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  AfgRow row;

  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      afg_row_from_stmt (stmt, (int) n_columns, &row);
      func (data, &row);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int
afg_table_scan_read_or_sql (const AfgBtree *btree, sqlite3 *db, const char *table, const char * const *columns,
                            guint n_columns, AfgRowFunc func, gpointer data, AfgUndoFunc undo, gpointer undo_data,
                            GCancellable *cancellable)
{
  int rc = afg_table_scan_read (btree, db, table, columns, n_columns, func, data, cancellable);

  if (rc >= 0)
    return rc;
  undo (undo_data);
  return scan_sql (db, table, columns, n_columns, func, data);
}
