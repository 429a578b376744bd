/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "afg-int-map.h"
#include "afg-category.h"
#include "afg-btree.h"
#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  gint64  first;
  guint32 count;
  guint32 offset;
} AfgIdRun;

/* The names of STRING_IDS, repaired to valid UTF-8. Readers map ids to
 * indices concurrently; ids without a string get "<unknown:ID>" entries
 * added under a lock. */
typedef struct {
  GPtrArray    *strings;      /* char *, owned by chunk */
  GStringChunk *chunk;
  GHashTable   *by_value;     /* text -> index */
  guint8       *is_step;      /* per known string: starts with ProfilerStep# */
  guint32       n_known;
  AfgIntMap     ids;
  GArray       *known;        /* AfgIntMapEntry: ids as first read, until sealed */
  GArray       *id_runs;      /* IdRun, sorted, when STRING_IDS ids are dense */
  guint32      *run_strings;  /* string index per id, run after run */
  GMutex        lock;
  AfgIntMap     unknown_ids;
  guint32       null_name;
  guint8       *categories;   /* lazily computed per string */
} AfgStringTable;

void     afg_string_table_init        (AfgStringTable *table);
void     afg_string_table_clear       (AfgStringTable *table);
/* Reads STRING_IDS, from @btree when it can (afg-table-scan.h); returns
 * an SQLite result code. */
int      afg_string_table_load        (AfgStringTable *table,
                                       sqlite3        *db,
                                       const AfgBtree *btree,
                                       GCancellable   *cancellable);
guint32  afg_string_table_lookup_unknown (AfgStringTable *table,
                                         gint64          id);

/* torch_npu numbers strings in a few dense runs (0.., 2^28.., 2^29..):
 * a binary search over the runs and an array beat hashing every row.
 * FALSE for an id STRING_IDS lacks; never adds a string. */
static inline gboolean
afg_string_table_find_id (const AfgStringTable *table, gint64 id, guint32 *index)
{
  if (table->id_runs != NULL)
    {
      const AfgIdRun *runs = (const AfgIdRun *) table->id_runs->data;
      guint lo = 0, hi = table->id_runs->len;

      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;

          if (id < runs[mid].first)
            hi = mid;
          else if ((guint64) (id - runs[mid].first) >= runs[mid].count)
            lo = mid + 1;
          else
            {
              *index = table->run_strings[runs[mid].offset + (id - runs[mid].first)];
              return TRUE;
            }
        }
      return FALSE;
    }
  return afg_int_map_lookup (&table->ids, (guint64) id, index);
}

static inline guint32
afg_string_table_lookup_id (AfgStringTable *table, gint64 id)
{
  guint32 index;

  if (afg_string_table_find_id (table, id, &index))
    return index;
  return afg_string_table_lookup_unknown (table, id);
}
guint32  afg_string_table_add         (AfgStringTable *table,
                                       const char     *text);
/* Call once every string is in; no string may be added afterwards. */
void        afg_string_table_freeze       (AfgStringTable *table);
/* Thread-safe once frozen. */
AfgCategory afg_string_table_get_category (AfgStringTable *table,
                                          guint32         index);

static inline gboolean
afg_string_table_is_step (const AfgStringTable *table, guint32 index)
{
  return index < table->n_known && table->is_step[index];
}

static inline const char *
afg_string_table_get (const AfgStringTable *table, guint32 index)
{
  return g_ptr_array_index (table->strings, index);
}

G_END_DECLS
