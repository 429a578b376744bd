/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-rank-summary.h"

G_BEGIN_DECLS

/* The frame totals of a job's summaries, kept compact while they are
 * read one by one: 1,024 ranks of 20,000 frames each would take 2 GB as
 * the summaries' hash tables. Once all are in, each summary gets back the
 * totals of the frames that vary most across the ranks, the only ones
 * index.html shows: afg_job_figures_new() picks the same frames from them
 * as from the whole tables. */
typedef struct _AfgFrameReducer AfgFrameReducer;

AfgFrameReducer *afg_frame_reducer_new    (void);
void             afg_frame_reducer_free   (AfgFrameReducer        *self);
/* One frame total of @rank, kept here instead of in its table. */
void             afg_frame_reducer_add    (AfgFrameReducer        *self,
                                           AfgRankSummary         *rank,
                                           const char             *name,
                                           gint64                  ns);
/* Drops what was taken of @rank (another summary of its rank replaces it). */
void             afg_frame_reducer_forget (AfgFrameReducer        *self,
                                           AfgRankSummary         *rank);
/* Gives each of @ranks the totals of the frames that vary most. */
void             afg_frame_reducer_finish (AfgFrameReducer        *self,
                                           AfgRankSummary * const *ranks,
                                           guint                   n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgFrameReducer, afg_frame_reducer_free)

G_END_DECLS
