/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-int-map.h"

static inline gsize
slot_for (guint64 key, gsize mask)
{
  key ^= key >> 31;
  key *= G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  return (gsize) (key >> 17) & mask;
}

static void
alloc_slots (AfgIntMap *map, gsize capacity)
{
  map->keys = g_new (guint64, capacity);
  map->values = g_new (guint32, capacity);
  map->used = g_new0 (guint8, capacity);
  map->mask = capacity - 1;
}

void
afg_int_map_init (AfgIntMap *map, gsize expected)
{
  gsize capacity = 16;

  while (capacity < expected * 2)
    capacity *= 2;
  map->n_items = 0;
  alloc_slots (map, capacity);
}

void
afg_int_map_clear (AfgIntMap *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->values, g_free);
  g_clear_pointer (&map->used, g_free);
  map->n_items = 0;
  map->mask = 0;
}

gboolean
afg_int_map_lookup (const AfgIntMap *map, guint64 key, guint32 *value)
{
  for (gsize i = slot_for (key, map->mask);; i = (i + 1) & map->mask)
    {
      if (!map->used[i])
        return FALSE;
      if (map->keys[i] == key)
        {
          *value = map->values[i];
          return TRUE;
        }
    }
}

static void
grow (AfgIntMap *map)
{
  AfgIntMap old = *map;

  alloc_slots (map, (old.mask + 1) * 2);
  map->n_items = 0;
  for (gsize i = 0; i <= old.mask; i++)
    if (old.used[i])
      afg_int_map_insert (map, old.keys[i], old.values[i]);
  afg_int_map_clear (&old);
}

guint32
afg_int_map_insert (AfgIntMap *map, guint64 key, guint32 value)
{
  gsize i;

  if ((map->n_items + 1) * 2 > map->mask + 1)
    grow (map);
  for (i = slot_for (key, map->mask); map->used[i]; i = (i + 1) & map->mask)
    if (map->keys[i] == key)
      return map->values[i];
  map->used[i] = 1;
  map->keys[i] = key;
  map->values[i] = value;
  map->n_items++;
  return value;
}
