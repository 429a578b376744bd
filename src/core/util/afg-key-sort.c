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

#define FLAG_BITS 8
#define FLAG_BUCKETS (1u << FLAG_BITS)
#define FLAG_SMALL 32
#define MAX_ELEMENT 64

static inline void
swap_elements (guint8 *a, guint8 *b, gsize size)
{
  guint8 tmp[MAX_ELEMENT];

  memcpy (tmp, a, size);
  memcpy (a, b, size);
  memcpy (b, tmp, size);
}

static void
insertion_sort (guint8 *base, gsize n, gsize size, gint64 min)
{
  guint8 tmp[MAX_ELEMENT];

  for (gsize i = 1; i < n; i++)
    {
      guint64 key = key_at (base + i * size, min);
      gsize j = i;

      memcpy (tmp, base + i * size, size);
      while (j > 0 && key_at (base + (j - 1) * size, min) > key)
        {
          memcpy (base + j * size, base + (j - 1) * size, size);
          j--;
        }
      memcpy (base + j * size, tmp, size);
    }
}

/* American flag sort: each element swapped straight into its bucket on
 * the digit at @shift, then each bucket on the next digit down. */
static void
flag_sort (guint8 *base, gsize n, gsize size, gint64 min, int shift)
{
  gsize count[FLAG_BUCKETS] = { 0 }, next[FLAG_BUCKETS], end[FLAG_BUCKETS];
  gsize at = 0;

  if (n < FLAG_SMALL)
    {
      insertion_sort (base, n, size, min);
      return;
    }
  for (gsize i = 0; i < n; i++)
    count[(key_at (base + i * size, min) >> shift) & (FLAG_BUCKETS - 1)]++;
  for (guint b = 0; b < FLAG_BUCKETS; b++)
    {
      next[b] = at;
      at += count[b];
      end[b] = at;
    }
  for (guint b = 0; b < FLAG_BUCKETS; b++)
    while (next[b] < end[b])
      {
        guint8 *element = base + next[b] * size;
        guint d = (key_at (element, min) >> shift) & (FLAG_BUCKETS - 1);

        if (d == b)
          next[b]++;
        else
          swap_elements (element, base + next[d]++ * size, size);
      }
  if (shift == 0)
    return;
  at = 0;
  for (guint b = 0; b < FLAG_BUCKETS; at += count[b], b++)
    if (count[b] > 1)
      flag_sort (base + at * size, count[b], size, min, shift - FLAG_BITS);
}

void
afg_key_sort_in_place (gpointer base, gsize n, gsize size)
{
  gint64 min;
  guint64 span;
  int shift = 0;

  g_return_if_fail (size >= sizeof (gint64) && size <= MAX_ELEMENT);
  if (n < 2)
    return;
  key_range (base, n, size, &min, &span);
  if (span == 0)
    return;
  while (shift + FLAG_BITS < 64 && (span >> (shift + FLAG_BITS)) != 0)
    shift += FLAG_BITS;
  flag_sort (base, n, size, min, shift);
}
