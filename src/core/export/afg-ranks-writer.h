/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-rank-summary.h"
#include "afg-summary-file.h"

G_BEGIN_DECLS

/* ranks.json: {"format":"ascend-flamegraph-ranks","version":2,…,"ranks":[…]}. */
char *afg_ranks_json_write  (AfgRankSummary * const *ranks,
                             guint                   n,
                             const AfgJobFigures    *figures);
/* index.html: a self-contained page, one row per rank (linking to
 * rank{N}/flamegraph.html) and the ranks × frames table; @options (may
 * be NULL) are those the ranks were summed up with: the straggler's
 * comparison command keeps their steps. */
char *afg_ranks_index_write (AfgRankSummary * const *ranks,
                             guint                   n,
                             const AfgJobFigures    *figures,
                             const AfgSummaryOptions *options);

G_END_DECLS
