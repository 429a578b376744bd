/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-session.h"
#include "afg-steps-bar.h"

G_BEGIN_DECLS

#define AFG_TYPE_STATUS_BAR (afg_status_bar_get_type ())

G_DECLARE_FINAL_TYPE (AfgStatusBar, afg_status_bar, AFG, STATUS_BAR, GtkWidget)

/* The bar under the graph: the selected frame, the status text and the
 * search's matches. It reads the session's tree and column: the tree's
 * own line (its scope, its NPU time, then the rows and frames loaded) is
 * written by afg_status_bar_refresh(), which the window calls whenever
 * it shows a tree; a section (a comparison, a job's ranks, the step
 * comparison) sets another text over it until then. "steps-bar"
 * (construct-only, following the same session) names the scope and
 * divides times as "Per step" does; "session" is set once. */
void        afg_status_bar_set_session        (AfgStatusBar *self,
                                               AfgSession   *session);
/* The session's tree's own line, over any text set. */
void        afg_status_bar_refresh            (AfgStatusBar *self);
const char *afg_status_bar_get_text           (AfgStatusBar *self);
void        afg_status_bar_set_text           (AfgStatusBar *self,
                                               const char   *text);
/* @text for @tree, a tree that no load describes (a job's ranks merged):
 * kept while the session shows @tree, through a new weight or scope. */
void        afg_status_bar_pin_text           (AfgStatusBar *self,
                                               AfgTree      *tree,
                                               const char   *text);
/* "Selected: NAME · TOTAL · P% of all" for @node of the session's tree
 * in its column; hidden for AFG_FLAME_NO_FRAME. */
void        afg_status_bar_set_selection      (AfgStatusBar *self,
                                               guint32       node);
/* Another text for the frame selected (a comparison's A → B). */
void        afg_status_bar_set_selection_text (AfgStatusBar *self,
                                               const char   *text);
/* The search's count at the bar's end; "" for none. */
void        afg_status_bar_set_matches        (AfgStatusBar *self,
                                               const char   *text);
/* @legend (a diff's colours) right after the status text. */
void        afg_status_bar_add_legend         (AfgStatusBar *self,
                                               GtkWidget    *legend);

G_END_DECLS
