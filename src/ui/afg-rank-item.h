/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib-object.h>

#include "afg-job-load.h"

G_BEGIN_DECLS

#define AFG_TYPE_RANK_ITEM (afg_rank_item_get_type ())

G_DECLARE_FINAL_TYPE (AfgRankItem, afg_rank_item, AFG, RANK_ITEM, GObject)

/* What the rank sidebar shows of a rank, as the job's figures judge it. */
typedef struct {
  AfgRankState  state;
  double        fraction;     /* of the rows read, while READING */
  gint64        wait_ns;      /* its waits in collectives matched across ranks */
  guint         last_arrivals;
  guint         took_part;    /* the qualifying collectives it is one of the ranks of */
  gboolean      straggler;    /* the rank the others wait for */
  char          why[160];     /* the straggler's explanation, translated; "" for others */
  gint64        max_step_ns;  /* the job's longest step as the bars draw it, their scale */
} AfgRankView;

/* @summary (borrowed from the job, kept alive by the caller) is read only
 * once the view's state is DONE or FAILED; NULL for the "All ranks" entry. */
AfgRankItem          *afg_rank_item_new         (guint                 index,
                                                 const AfgRankSummary *summary);
gboolean              afg_rank_item_is_all      (AfgRankItem          *self);
guint                 afg_rank_item_get_index   (AfgRankItem          *self);
const AfgRankSummary *afg_rank_item_get_summary (AfgRankItem          *self);
const AfgRankView    *afg_rank_item_get_view    (AfgRankItem          *self);
/* Emits ::changed when @view differs from the one shown. */
void                  afg_rank_item_set_view    (AfgRankItem          *self,
                                                 const AfgRankView    *view);

G_END_DECLS
