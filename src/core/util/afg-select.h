/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Order statistics without a full sort: rearranges @values (@n of them)
 * so that @values[k] is the (k+1)-th smallest for each k of @ks (@n_ks
 * indices, ascending, each < @n), everything before it no larger and
 * everything after it no smaller. Linear time on average; a range that
 * partitions badly is sorted instead, so hostile input stays O(n log n). */
/* qsort() order of gint64 values. */
int  afg_compare_int64 (const void *a,
                        const void *b);

void afg_select_ranks (gint64        *values,
                       guint64        n,
                       const guint64 *ks,
                       guint          n_ks);

/* The durations of a frame's @n calls as its five columns, nearest rank
 * (the ceil(p*n/100)-th smallest): min, p50, p90, p99, max; all 0 when
 * @n is 0. Rearranges @ns. */
void afg_select_durations (gint64        *ns,
                           guint64        n,
                           gint64         out[5]);

G_END_DECLS
