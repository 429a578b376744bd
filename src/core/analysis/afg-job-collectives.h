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
/* The job's verdict in one sentence, translated, as index.html and the
 * window's job view say it: no collective matched, the ranks balanced, or
 * "Straggler: rank N. others waited …". */
char              *afg_job_collectives_verdict (const AfgJobCollectives *self,
                                               AfgRankSummary * const *ranks);

/* The rank to compare the straggler with (index @straggler of @ranks):
 * the one whose compute time (its device split's compute_ns, summed over
 * its steps, as ranks.json has it) is nearest the median of the ranks'
 * (the mean of the middle two for an even count), other than the
 * straggler; ties: the lowest rank number. Ranks without a device
 * timeline or with an error take no part. -1 when none is left. */
int                afg_job_reference_rank     (AfgRankSummary * const *ranks,
                                               guint                   n,
                                               int                     straggler);
/* How much later @a's steps start than @b's: the mean, over the steps
 * both have (by id), of a step's start on @a minus its start on @b (ns,
 * rounded toward zero). FALSE when they have no step in common. */
gboolean           afg_job_step_offset        (AfgDocument            *a,
                                               AfgDocument            *b,
                                               guint                  *n_common,
                                               gint64                 *offset_ns);
/* "rank 3's steps start 4.10 ms later than rank 5's (mean over the 2
 * steps both have)", translated, for the straggler's document @a and the
 * reference's @b. */
char              *afg_job_explain_offset     (int                     rank_a,
                                               AfgDocument            *a,
                                               int                     rank_b,
                                               AfgDocument            *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgJobCollectives, afg_job_collectives_free)

G_END_DECLS
