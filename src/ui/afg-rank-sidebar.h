/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-job-load.h"

G_BEGIN_DECLS

#define AFG_TYPE_RANK_SIDEBAR (afg_rank_sidebar_get_type ())

G_DECLARE_FINAL_TYPE (AfgRankSidebar, afg_rank_sidebar, AFG, RANK_SIDEBAR, GtkBox)

/* The entry that stands for the job's ranks merged, in ::rank-selected. */
#define AFG_RANK_SIDEBAR_ALL (-1)

GtkWidget *afg_rank_sidebar_new             (void);
/* Lists @load's ranks after an "All ranks" entry; NULL empties it. */
void       afg_rank_sidebar_set_job         (AfgRankSidebar *self,
                                             AfgJobLoad     *load);
/* Reads the ranks' states again and judges the ranks read so far. */
void       afg_rank_sidebar_refresh         (AfgRankSidebar *self);
/* Selects rank @index (or AFG_RANK_SIDEBAR_ALL) without ::rank-selected. */
void       afg_rank_sidebar_select          (AfgRankSidebar *self,
                                             int             index);
/* The index selected, AFG_RANK_SIDEBAR_ALL, or -2 for none. */
int        afg_rank_sidebar_get_selected    (AfgRankSidebar *self);
/* The job's verdict of the ranks read so far, as index.html words it
 * (afg_job_collectives_verdict()), or NULL before one is read. */
const char *afg_rank_sidebar_get_verdict   (AfgRankSidebar *self);
/* The straggler and the rank nearest the median compute time
 * (afg_job_reference_rank()), job indices; FALSE without both. */
gboolean   afg_rank_sidebar_get_explained   (AfgRankSidebar *self,
                                             int            *straggler,
                                             int            *reference);
/* How many ranks are read (done or failed). */
guint      afg_rank_sidebar_get_n_read      (AfgRankSidebar *self);
/* How many ranks were cancelled before they were read. */
guint      afg_rank_sidebar_get_n_cancelled (AfgRankSidebar *self);
/* The stragglers' rank numbers, "3" or "3,5"; "" for none. */
char      *afg_rank_sidebar_get_stragglers  (AfgRankSidebar *self);
/* The picked rank's bars as drawn, one "COMPUTE COMM OTHER FREE" (ns)
 * per step, comma-separated; NULL unless a rank read with a device
 * timeline is picked. */
char      *afg_rank_sidebar_get_device_bars (AfgRankSidebar *self);

G_END_DECLS
