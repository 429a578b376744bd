/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-histogram"

#include "config.h"

#include "afg-log-histogram.h"

#define N_BOUNDS (18 * AFG_LOG_HISTOGRAM_PER_DECADE + 1)

/* ⌈10^(i/4)⌉ for i < N_BOUNDS (up to 10^18 ns); no libm needed. */
static const gint64 *
bounds (void)
{
  static gint64 table[N_BOUNDS];
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      static const double steps[AFG_LOG_HISTOGRAM_PER_DECADE] = {
        1.0, 1.7782794100389228, 3.1622776601683795, 5.6234132519034912 };

      for (int i = 0; i < N_BOUNDS; i++)
        {
          double v = steps[i % AFG_LOG_HISTOGRAM_PER_DECADE];

          for (int d = 0; d < i / AFG_LOG_HISTOGRAM_PER_DECADE; d++)
            v *= 10;
          table[i] = (double) (gint64) v < v ? (gint64) v + 1 : (gint64) v;
        }
      g_once_init_leave (&done, 1);
    }
  return table;
}

static gint64
bound (int i)
{
  if (i <= 0)
    return 1;
  return i < N_BOUNDS ? bounds ()[i] : G_MAXINT64;
}

/* The i with bound(i) <= ns < bound(i + 1): a binary search in the table. */
int
afg_log_histogram_index (gint64 ns)
{
  int lo = 0, hi = N_BOUNDS;

  g_return_val_if_fail (ns > 0, 0);

  while (hi - lo > 1)
    {
      int mid = (lo + hi) / 2;

      if (bound (mid) <= ns)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

AfgLogHistogram *
afg_log_histogram_new (const gint64 *ns, gsize n)
{
  AfgLogHistogram *self = g_new0 (AfgLogHistogram, 1);
  int lo = G_MAXINT, hi = G_MININT;

  for (gsize i = 0; i < n; i++)
    {
      int k = afg_log_histogram_index (MAX (ns[i], 1));

      lo = MIN (lo, k);
      hi = MAX (hi, k);
    }
  if (n == 0)
    return self;
  self->first = lo;
  self->n_buckets = hi - lo + 1;
  self->counts = g_new0 (guint64, self->n_buckets);
  self->n_values = n;
  for (gsize i = 0; i < n; i++)
    {
      guint64 c = ++self->counts[afg_log_histogram_index (MAX (ns[i], 1)) - lo];

      self->max_count = MAX (self->max_count, c);
    }
  return self;
}

void
afg_log_histogram_free (AfgLogHistogram *self)
{
  if (self == NULL)
    return;
  g_free (self->counts);
  g_free (self);
}

gint64
afg_log_histogram_lower (const AfgLogHistogram *self, guint k)
{
  g_return_val_if_fail (k <= self->n_buckets, 0);
  return bound (self->first + (int) k);
}
