/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 key;
  guint32 value;
  guint32 used;
} AfgIntMapEntry;

/* Open-addressing map from 64-bit keys to 32-bit values: no allocation
 * per entry, one multiplicative hash and usually one cache line per
 * lookup. */
typedef struct {
  AfgIntMapEntry *entries;
  gsize           mask;
  gsize           n_items;
} AfgIntMap;

void     afg_int_map_init    (AfgIntMap *map,
                              gsize      expected);
void     afg_int_map_clear   (AfgIntMap *map);
/* Returns the existing value for @key, or inserts @value and returns it. */
guint32  afg_int_map_insert  (AfgIntMap *map,
                              guint64    key,
                              guint32    value);

static inline gsize
afg_int_map_slot (guint64 key, gsize mask)
{
  key ^= key >> 31;
  key *= G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  return (gsize) (key >> 17) & mask;
}

static inline gboolean
afg_int_map_lookup (const AfgIntMap *map, guint64 key, guint32 *value)
{
  for (gsize i = afg_int_map_slot (key, map->mask);; i = (i + 1) & map->mask)
    {
      const AfgIntMapEntry *e = &map->entries[i];

      if (!e->used)
        return FALSE;
      if (e->key == key)
        {
          *value = e->value;
          return TRUE;
        }
    }
}

G_END_DECLS
