/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Numbers the distinct values of a set of 64-bit ids with slots
 * 0 … n_slots-1, for arrays indexed by id. Profiler ids are nearly
 * always a dense run: the slot is then id - min, found with no memory
 * access (n_slots may then exceed the distinct ids; the caller's arrays
 * tell an empty slot). Otherwise the ids are kept sorted and found by
 * binary search. Built once, then read-only (safe from several threads). */
typedef struct {
  gint64  min;
  gsize   n_slots;
  gint64 *sorted;   /* NULL when dense */
} AfgIdIndex;

void afg_id_index_init  (AfgIdIndex   *index,
                         const gint64 *ids,
                         gsize         n);
void afg_id_index_clear (AfgIdIndex   *index);

static inline gboolean
afg_id_index_find (const AfgIdIndex *index, gint64 id, gsize *slot)
{
  gsize lo = 0, hi;

  if (index->sorted == NULL)
    {
      *slot = (gsize) ((guint64) id - (guint64) index->min);
      return id >= index->min && *slot < index->n_slots;
    }
  hi = index->n_slots;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (index->sorted[mid] < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  *slot = lo;
  return lo < index->n_slots && index->sorted[lo] == id;
}

G_END_DECLS
