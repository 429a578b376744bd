/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-diff-shape.h"
#include "afg-window.h"

G_BEGIN_DECLS

#define AFG_TYPE_RANKS_SECTION (afg_ranks_section_get_type ())
G_DECLARE_FINAL_TYPE (AfgRanksSection, afg_ranks_section, AFG, RANKS_SECTION, GObject)

/* A training job's folder in a window: the rank sidebar, the ranks read
 * in the background, "All ranks", the rank diffs and the straggler's
 * explanation. The window keeps it; the actions win.open-folder,
 * win.cancel-ranks, win.compare-rank and win.explain-straggler are its. */
AfgRanksSection *afg_ranks_section_new             (AfgWindow        *window);
void             afg_ranks_section_install_actions (GtkWidgetClass   *widget_class);
/* TRUE when @file is a folder, opened as a job; else any job is closed. */
gboolean         afg_ranks_section_open            (AfgRanksSection  *self,
                                                    GFile            *file);
/* Cancel on the loading page while no rank is shown yet stops the job. */
void             afg_ranks_section_cancel_first    (AfgRanksSection  *self);
gboolean         afg_ranks_section_showing_all     (AfgRanksSection  *self);
/* "All ranks" is shown and While NPU idle can scope it: every rank read
 * has a device timeline. */
gboolean         afg_ranks_section_all_have_device (AfgRanksSection  *self);
/* "All ranks" is shown in its ranks' NPU-idle instants. */
gboolean         afg_ranks_section_showing_idle    (AfgRanksSection  *self);
/* While NPU idle switched: TRUE when "All ranks" is shown, which then
 * shows its ranks in their NPU-idle instants (read again) or whole. */
gboolean         afg_ranks_section_npu_idle_changed (AfgRanksSection *self);
/* "Rank N" when @file is the DB of rank N of the job open, else NULL. */
char            *afg_ranks_section_rank_label      (AfgRanksSection  *self,
                                                    GFile            *file);
/* A diff shows: the one "Explain the Straggler" asked for gets its words. */
void             afg_ranks_section_diff_shown      (AfgRanksSection  *self,
                                                    AfgDiffShape     *shape);
void             afg_ranks_section_append_state    (AfgRanksSection  *self,
                                                    GString          *line);
void             afg_ranks_section_append_explain  (AfgRanksSection  *self,
                                                    GString          *line);
/* The state line's verdict field: the job's verdict (the sidebar's). */
void             afg_ranks_section_append_verdict  (AfgRanksSection  *self,
                                                    GString          *line);

G_END_DECLS
