/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-category.h"
#include "afg-source.h"
#include "afg-string-table.h"
#include "afg-table-scan.h"

#define STEP_PREFIX "ProfilerStep#"

void
afg_string_table_init (AfgStringTable *table)
{
  memset (table, 0, sizeof *table);
  table->strings = g_ptr_array_new ();
  table->chunk = g_string_chunk_new (64 * 1024);
  table->by_value = g_hash_table_new (g_str_hash, g_str_equal);
  g_mutex_init (&table->lock);
  afg_int_map_init (&table->unknown_ids, 16);
}

void
afg_string_table_clear (AfgStringTable *table)
{
  g_clear_pointer (&table->strings, g_ptr_array_unref);
  g_clear_pointer (&table->chunk, g_string_chunk_free);
  g_clear_pointer (&table->by_value, g_hash_table_unref);
  g_clear_pointer (&table->is_step, g_free);
  g_clear_pointer (&table->id_runs, g_array_unref);
  g_clear_pointer (&table->known, g_array_unref);
  g_clear_pointer (&table->run_strings, g_free);
  g_clear_pointer (&table->categories, g_free);
  afg_int_map_clear (&table->ids);
  afg_int_map_clear (&table->unknown_ids);
  g_mutex_clear (&table->lock);
}

/* Equal texts share one index, so that same-named siblings merge even when
 * STRING_IDS repeats a value or repairing made two values equal. */
static guint32
intern (AfgStringTable *table, const char *text, gsize len)
{
  g_autofree char *repaired = NULL;
  gpointer found;

  if (!g_utf8_validate_len (text, len, NULL))
    {
      repaired = g_utf8_make_valid (text, len);
      text = repaired;
      len = strlen (repaired);
    }
  if (memchr (text, '\0', len) == NULL
      && g_hash_table_lookup_extended (table->by_value, text, NULL, &found))
    return GPOINTER_TO_UINT (found);
  text = g_string_chunk_insert_len (table->chunk, text, len);
  g_ptr_array_add (table->strings, (gpointer) text);
  g_hash_table_insert (table->by_value, (gpointer) text, GUINT_TO_POINTER (table->strings->len - 1));
  return table->strings->len - 1;
}

static void
add_known (AfgStringTable *table, gint64 id, const char *text, gsize len)
{
  AfgIntMapEntry entry = { (guint64) id, 0, 1 };
  guint32 unused;

  if (afg_int_map_lookup (&table->ids, (guint64) id, &unused))
    return; /* a duplicate id: the first row wins */
  entry.value = afg_int_map_insert (&table->ids, (guint64) id, intern (table, text, len));
  g_array_append_val (table->known, entry);
}

/* Before the first add_known(). */
static void
begin_known (AfgStringTable *table)
{
  afg_int_map_init (&table->ids, 1024);
  table->known = g_array_new (FALSE, FALSE, sizeof (AfgIntMapEntry));
}

#define MAX_ID_RUNS 256

static int
compare_entries (gconstpointer a, gconstpointer b)
{
  gint64 ka = (gint64) ((const AfgIntMapEntry *) a)->key, kb = (gint64) ((const AfgIntMapEntry *) b)->key;

  return ka < kb ? -1 : ka > kb;
}

static gboolean
ascending (const GArray *entries)
{
  for (guint i = 1; i < entries->len; i++)
    if ((gint64) g_array_index (entries, AfgIntMapEntry, i - 1).key >= (gint64) g_array_index (entries, AfgIntMapEntry, i).key)
      return FALSE;
  return TRUE;
}

/* The ids as read, sorted: STRING_IDS' INTEGER PRIMARY KEY comes in
 * order, so there is rarely a sort to do. */
static void
build_id_runs (AfgStringTable *table)
{
  g_autoptr(GArray) entries = g_steal_pointer (&table->known);
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (AfgIdRun));

  if (!ascending (entries))
    g_array_sort (entries, compare_entries);
  for (guint i = 0; i < entries->len; i++)
    {
      gint64 id = (gint64) g_array_index (entries, AfgIntMapEntry, i).key;
      AfgIdRun *last = runs->len ? &g_array_index (runs, AfgIdRun, runs->len - 1) : NULL;

      if (last != NULL && id == last->first + last->count)
        last->count++;
      else if (runs->len == MAX_ID_RUNS)
        return; /* sparse ids: keep hashing */
      else
        g_array_append_val (runs, ((AfgIdRun) { id, 1, i }));
    }
  table->run_strings = g_new (guint32, MAX (entries->len, 1));
  for (guint i = 0; i < entries->len; i++)
    table->run_strings[i] = g_array_index (entries, AfgIntMapEntry, i).value;
  table->id_runs = g_steal_pointer (&runs);
}

static int
seal (AfgStringTable *table)
{
  table->n_known = table->strings->len;
  table->is_step = g_new0 (guint8, MAX (table->n_known, 1));
  for (guint32 i = 0; i < table->n_known; i++)
    table->is_step[i] = g_str_has_prefix (afg_string_table_get (table, i), STEP_PREFIX);
  table->null_name = afg_string_table_add (table, "<unknown:NULL>");
  build_id_runs (table);
  return SQLITE_OK;
}

typedef struct {
  AfgStringTable *table;
  GString        *text;  /* NUL-terminated, as intern() wants */
} DirectLoad;

/* What sqlite3_column_text() gives, except for the cases left to it
 * (a float's text, an empty blob). */
static gboolean
add_row (gpointer data, const AfgRow *row)
{
  DirectLoad *load = data;
  const AfgValue *value = &row->values[1];

  if (row->values[0].type != SQLITE_INTEGER || value->type == SQLITE_NULL)
    return TRUE;
  if (value->type == SQLITE_FLOAT || (value->type == SQLITE_BLOB && value->len == 0))
    return FALSE;
  if (value->type == SQLITE_INTEGER)
    g_string_printf (load->text, "%" G_GINT64_FORMAT, value->i);
  else
    {
      g_string_truncate (load->text, 0);
      g_string_append_len (load->text, (const char *) value->bytes, value->len);
    }
  add_known (load->table, row->values[0].i, load->text->str, load->text->len);
  return TRUE;
}

static const char * const columns[] = { "id", "value" };

static int
load_direct (AfgStringTable *table, sqlite3 *db, const AfgBtree *btree, GCancellable *cancellable)
{
  DirectLoad load = { table, NULL };
  int rc;

  if (btree == NULL)
    return -1;
  load.text = g_string_new (NULL);
  begin_known (table);
  rc = afg_table_scan_read (btree, db, "STRING_IDS", columns, G_N_ELEMENTS (columns), add_row, &load, cancellable);
  g_string_free (load.text, TRUE);
  if (rc < 0)
    {
      afg_string_table_clear (table);  /* what the direct read added */
      afg_string_table_init (table);
    }
  return rc;
}

int
afg_string_table_load (AfgStringTable *table, sqlite3 *db, const AfgBtree *btree, GCancellable *cancellable)
{
  sqlite3_stmt *stmt = NULL;
  g_autofree char *order = NULL;
  g_autofree char *sql = NULL;
  int rc = load_direct (table, db, btree, cancellable);

  if (rc == SQLITE_OK)
    return seal (table);
  if (rc != -1)
    return rc;
  begin_known (table);
  order = afg_source_rowid_order (db, "STRING_IDS");
  sql = g_strconcat ("SELECT id, value FROM STRING_IDS", order, NULL);
  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *text = (const char *) sqlite3_column_text (stmt, 1);

      rc = SQLITE_OK;
      if (sqlite3_column_type (stmt, 0) != SQLITE_INTEGER || text == NULL)
        continue; /* no usable mapping: rows naming it show <unknown:ID> */
      add_known (table, sqlite3_column_int64 (stmt, 0), text, sqlite3_column_bytes (stmt, 1));
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return rc;
  return seal (table);
}

guint32
afg_string_table_add (AfgStringTable *table, const char *text)
{
  guint32 index;

  g_mutex_lock (&table->lock);
  index = intern (table, text, strlen (text));
  g_mutex_unlock (&table->lock);
  return index;
}

guint32
afg_string_table_lookup_unknown (AfgStringTable *table, gint64 id)
{
  guint32 index;

  g_mutex_lock (&table->lock);
  if (!afg_int_map_lookup (&table->unknown_ids, (guint64) id, &index))
    {
      char text[48];

      g_snprintf (text, sizeof text, "<unknown:%" G_GINT64_FORMAT ">", id);
      index = intern (table, text, strlen (text));
      afg_int_map_insert (&table->unknown_ids, (guint64) id, index);
    }
  g_mutex_unlock (&table->lock);
  return index;
}

#define CATEGORY_UNSET 0xff

/* Lazy: STRING_IDS also holds shapes and dtypes that never name a frame.
 * Trees are built in several threads at once: each entry is computed by
 * whoever asks first (the same value whoever it is), read and written
 * atomically. */
void
afg_string_table_freeze (AfgStringTable *table)
{
  g_clear_pointer (&table->categories, g_free);
  table->categories = g_new (guint8, MAX (table->strings->len, 1));
  memset (table->categories, CATEGORY_UNSET, MAX (table->strings->len, 1));
}

AfgCategory
afg_string_table_get_category (AfgStringTable *table, guint32 index)
{
  guint8 category = __atomic_load_n (&table->categories[index], __ATOMIC_RELAXED);

  if (category == CATEGORY_UNSET)
    {
      category = afg_category_for_name (afg_string_table_get (table, index));
      __atomic_store_n (&table->categories[index], category, __ATOMIC_RELAXED);
    }
  return category;
}
