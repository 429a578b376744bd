/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-huge.h"
#include "afg-key-sort.h"

#define DIGIT_BITS 11
#define N_BUCKETS (1u << DIGIT_BITS)

static inline guint64
key_at (const guint8 *element, gint64 min)
{
  gint64 key;

  memcpy (&key, element, sizeof key);
  /* Unsigned difference: exact for any two gint64. */
  return (guint64) key - (guint64) min;
}

static void
key_range (const guint8 *base, gsize n, gsize size, gint64 *min, guint64 *span)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  for (gsize i = 0; i < n; i++)
    {
      gint64 key;

      memcpy (&key, base + i * size, sizeof key);
      lo = MIN (lo, key);
      hi = MAX (hi, key);
    }
  *min = lo;
  *span = (guint64) hi - (guint64) lo;
}

/* One stable counting pass on the digit at @shift, @from into @to. */
static void
pass (const guint8 *from, guint8 *to, gsize n, gsize size, gint64 min, guint shift)
{
  gsize count[N_BUCKETS] = { 0 };
  gsize at = 0;

  for (gsize i = 0; i < n; i++)
    count[(key_at (from + i * size, min) >> shift) & (N_BUCKETS - 1)]++;
  for (guint b = 0; b < N_BUCKETS; b++)
    {
      gsize c = count[b];

      count[b] = at;
      at += c;
    }
  for (gsize i = 0; i < n; i++)
    {
      const guint8 *element = from + i * size;
      gsize slot = count[(key_at (element, min) >> shift) & (N_BUCKETS - 1)]++;

      memcpy (to + slot * size, element, size);
    }
}

void
afg_key_sort (gpointer base, gsize n, gsize size)
{
  guint8 *data = base, *scratch, *from, *to;
  gint64 min;
  guint64 span;
  gsize bytes;

  g_return_if_fail (size >= sizeof (gint64));
  if (n < 2)
    return;
  key_range (data, n, size, &min, &span);
  if (span == 0)
    return;
  bytes = n * size;
  scratch = afg_huge_alloc (bytes);
  from = data, to = scratch;
  for (guint shift = 0; shift < 64 && (span >> shift) != 0; shift += DIGIT_BITS)
    {
      guint8 *swap;

      pass (from, to, n, size, min, shift);
      swap = from, from = to, to = swap;
    }
  if (from != data)
    memcpy (data, from, bytes);
  afg_huge_free (scratch, bytes);
}
