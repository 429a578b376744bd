/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-huge.h"
#include "afg-int-map.h"

void
afg_int_map_init (AfgIntMap *map, gsize expected)
{
  gsize capacity = 16;

  while (capacity < expected * 2)
    capacity *= 2;
  map->entries = afg_huge_alloc0 (sizeof (AfgIntMapEntry) * capacity);
  map->mask = capacity - 1;
  map->n_items = 0;
}

void
afg_int_map_clear (AfgIntMap *map)
{
  if (map->entries != NULL)
    afg_huge_free (map->entries, sizeof (AfgIntMapEntry) * (map->mask + 1));
  map->entries = NULL;
  map->n_items = 0;
  map->mask = 0;
}

static void
grow (AfgIntMap *map)
{
  AfgIntMap old = *map;

  afg_int_map_init (map, old.mask + 1);
  for (gsize i = 0; i <= old.mask; i++)
    if (old.entries[i].used)
      afg_int_map_insert (map, old.entries[i].key, old.entries[i].value);
  afg_int_map_clear (&old);
}

guint32
afg_int_map_insert (AfgIntMap *map, guint64 key, guint32 value)
{
  gsize i;

  if ((map->n_items + 1) * 2 > map->mask + 1)
    grow (map);
  for (i = afg_int_map_slot (key, map->mask); map->entries[i].used; i = (i + 1) & map->mask)
    if (map->entries[i].key == key)
      return map->entries[i].value;
  map->entries[i] = (AfgIntMapEntry) { key, value, 1 };
  map->n_items++;
  return value;
}
