/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-rank-summary.h"

G_BEGIN_DECLS

/* A spread of at least this and of at least 1/AFG_COLLECTIVE_MIN_SHARE
 * of the longest duration makes a matched collective qualify. */
#define AFG_COLLECTIVE_MIN_SPREAD_NS 50000
#define AFG_COLLECTIVE_MIN_SHARE     20

/* A collective, (groupName, opName), that occurs exactly once on each of
 * the ranks with any row of its groupName, at least two. */
typedef struct {
  const char *group;      /* in the ranks' summaries */
  const char *op;
  gint64     *ns;         /* by rank index: its duration, -1 when not one of its ranks */
  gint64      min_ns;
  gint64      max_ns;
  gboolean    qualifies;  /* max - min >= 50 µs and >= max / 20 */
} AfgMatchedCollective;

/* Who waits for whom inside the job's collectives: a rank's wait is its
 * duration minus the shortest one's; the rank with the shortest duration
 * came last. The straggler is the rank that came last at more than half
 * of the qualifying collectives it took part in. */
struct _AfgJobCollectives {
  GArray  *matched;        /* AfgMatchedCollective, by group then op (byte order) */
  guint    n_qualifying;
  gint64  *wait_ns;        /* by rank index: the sum of its waits over the matched */
  guint   *last_arrivals;  /* by rank index, over the qualifying */
  guint   *took_part;      /* by rank index: the qualifying it is one of the ranks of */
  int      straggler;      /* a rank index, or -1 */
};

/* From the summaries' collectives; failed ranks have none. */
AfgJobCollectives *afg_job_collectives_new    (AfgRankSummary * const *ranks,
                                               guint                   n);
void               afg_job_collectives_free   (AfgJobCollectives      *self);
/* "others waited 4.10 ms for rank 0 at 1 of 1 collectives", translated;
 * NULL without a straggler. */
char              *afg_job_collectives_explain (const AfgJobCollectives *self,
                                               AfgRankSummary * const *ranks);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgJobCollectives, afg_job_collectives_free)

G_END_DECLS
