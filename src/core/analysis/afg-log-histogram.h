/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Buckets per factor of ten: each bucket is 10^(1/4) ≈ 1.78× as wide as
 * the one before, so 1 µs and 1 s calls share one readable axis. */
#define AFG_LOG_HISTOGRAM_PER_DECADE 4

/* Durations counted in log-scale buckets. Bucket k holds the values in
 * [lower(k), lower(k + 1)), lower(k) = ⌈10^((first + k) / 4)⌉ ns; the
 * buckets run from the one holding the smallest value to the one holding
 * the largest, empty ones in between included. */
typedef struct {
  int      first;      /* the exponent index of bucket 0 */
  guint    n_buckets;  /* 0 for no values */
  guint64 *counts;
  guint64  max_count;  /* the fullest bucket's count */
  guint64  n_values;
} AfgLogHistogram;

AfgLogHistogram *afg_log_histogram_new    (const gint64          *ns,
                                           gsize                  n);
void             afg_log_histogram_free   (AfgLogHistogram       *self);
/* The smallest value of bucket @k (k may be n_buckets: the end). */
gint64           afg_log_histogram_lower  (const AfgLogHistogram *self,
                                           guint                  k);
/* The exponent index of the bucket holding @ns (> 0). */
int              afg_log_histogram_index  (gint64                 ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgLogHistogram, afg_log_histogram_free)

G_END_DECLS
