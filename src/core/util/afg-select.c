/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "afg-select.h"

#define SMALL 16

int
afg_compare_int64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static inline void
swap (gint64 *a, gint64 *b)
{
  gint64 t = *a;

  *a = *b;
  *b = t;
}

static void
insertion_sort (gint64 *v, guint64 n)
{
  for (guint64 i = 1; i < n; i++)
    {
      gint64 x = v[i];
      guint64 j = i;

      for (; j > 0 && v[j - 1] > x; j--)
        v[j] = v[j - 1];
      v[j] = x;
    }
}

static inline gint64
median3 (gint64 a, gint64 b, gint64 c)
{
  if (a > b)
    swap (&a, &b);
  if (b > c)
    b = c;
  return MAX (a, b);
}

/* Hoare partition of v[lo..hi] around @pivot: returns p with every
 * v[lo..p] <= pivot and every v[p+1..hi] >= pivot, lo <= p < hi. */
static guint64
partition (gint64 *v, guint64 lo, guint64 hi, gint64 pivot)
{
  guint64 i = lo - 1, j = hi + 1;

  for (;;)
    {
      do i++; while (v[i] < pivot);
      do j--; while (v[j] > pivot);
      if (i >= j)
        return j;
      swap (&v[i], &v[j]);
    }
}

/* Places the k-th smallest of v[lo..hi] at v[k]. */
static void
select_k (gint64 *v, guint64 lo, guint64 hi, guint64 k)
{
  guint budget = 2 * (guint) g_bit_storage (hi - lo + 1) + 8;

  while (hi - lo + 1 > SMALL)
    {
      guint64 p;

      if (budget-- == 0)
        {
          qsort (v + lo, hi - lo + 1, sizeof *v, afg_compare_int64);
          return;
        }
      p = partition (v, lo, hi, median3 (v[lo], v[lo + (hi - lo) / 2], v[hi]));
      if (k <= p)
        hi = p;
      else
        lo = p + 1;
    }
  insertion_sort (v + lo, hi - lo + 1);
}

void
afg_select_ranks (gint64 *values, guint64 n, const guint64 *ks, guint n_ks)
{
  guint64 lo = 0;

  for (guint i = 0; i < n_ks; i++)
    {
      g_return_if_fail (ks[i] < n && ks[i] >= lo);
      select_k (values, lo, n - 1, ks[i]);
      lo = ks[i];
    }
}

/* Nearest rank: the ceil(p*n/100)-th smallest of @n values, as an index. */
static inline guint64
nearest_rank (guint64 n, guint p)
{
  guint64 rank = (p * n + 99) / 100;

  return MAX (rank, 1) - 1;
}

/* The five numbers need no full sort: the three ranks are selected, the
 * minimum lies before the first and the maximum after the last. */
void
afg_select_durations (gint64 *ns, guint64 n, gint64 out[5])
{
  guint64 ks[3];
  gint64 min, max;

  if (n == 0)
    {
      memset (out, 0, sizeof (gint64) * 5);
      return;
    }
  ks[0] = nearest_rank (n, 50);
  ks[1] = nearest_rank (n, 90);
  ks[2] = nearest_rank (n, 99);
  afg_select_ranks (ns, n, ks, G_N_ELEMENTS (ks));
  min = ns[ks[0]];
  for (guint64 i = 0; i < ks[0]; i++)
    min = MIN (min, ns[i]);
  max = ns[ks[2]];
  for (guint64 i = ks[2] + 1; i < n; i++)
    max = MAX (max, ns[i]);
  out[0] = min;
  out[1] = ns[ks[0]];
  out[2] = ns[ks[1]];
  out[3] = ns[ks[2]];
  out[4] = max;
}
