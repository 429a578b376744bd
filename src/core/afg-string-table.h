/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "afg-int-map.h"
#include "afg-profile.h"

G_BEGIN_DECLS

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
  GMutex        lock;
  AfgIntMap     unknown_ids;
  guint32       null_name;
  guint8       *categories;   /* lazily computed per string */
} AfgStringTable;

void     afg_string_table_init        (AfgStringTable *table);
void     afg_string_table_clear       (AfgStringTable *table);
/* Reads STRING_IDS; returns an SQLite result code. */
int      afg_string_table_load        (AfgStringTable *table,
                                       sqlite3        *db);
guint32  afg_string_table_lookup_id   (AfgStringTable *table,
                                       gint64          id);
guint32  afg_string_table_add         (AfgStringTable *table,
                                       const char     *text);
/* Not thread-safe; call once every string is in (the table is then frozen). */
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
