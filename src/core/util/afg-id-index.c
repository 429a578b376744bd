/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "afg-id-index.h"
#include "afg-select.h"

/* Dense when the slots would be at most this many per id given (plus a
 * little): a few bytes per slot, and usually the ids are consecutive. */
#define DENSE_FACTOR 2
#define DENSE_SLACK  1024

static void
init_sorted (AfgIdIndex *index, const gint64 *ids, gsize n)
{
  gsize kept = 0;

  index->sorted = g_new (gint64, MAX (n, 1));
  memcpy (index->sorted, ids, n * sizeof *ids);
  qsort (index->sorted, n, sizeof *ids, afg_compare_int64);
  for (gsize i = 0; i < n; i++)
    if (kept == 0 || index->sorted[kept - 1] != index->sorted[i])
      index->sorted[kept++] = index->sorted[i];
  index->n_slots = kept;
}

void
afg_id_index_init (AfgIdIndex *index, const gint64 *ids, gsize n)
{
  gint64 min = G_MAXINT64, max = G_MININT64;
  guint64 span;

  index->sorted = NULL;
  index->min = 0;
  index->n_slots = 0;
  for (gsize i = 0; i < n; i++)
    {
      min = MIN (min, ids[i]);
      max = MAX (max, ids[i]);
    }
  if (n == 0)
    return;
  span = (guint64) max - (guint64) min;  /* unsigned: the range of any two gint64 fits */
  index->min = min;
  if (span < (guint64) n * DENSE_FACTOR + DENSE_SLACK)
    index->n_slots = (gsize) span + 1;
  else
    init_sorted (index, ids, n);
}

void
afg_id_index_clear (AfgIdIndex *index)
{
  g_clear_pointer (&index->sorted, g_free);
  index->n_slots = 0;
}
