/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-diff-function-list.h"
#include "afg-diff-view.h"
#include "afg-flame-view.h"
#include "afg-function-panel.h"
#include "afg-session.h"
#include "afg-steps-bar.h"

G_BEGIN_DECLS

#define AFG_TYPE_FUNCTIONS_PANE (afg_functions_pane_get_type ())

G_DECLARE_FINAL_TYPE (AfgFunctionsPane, afg_functions_pane, AFG, FUNCTIONS_PANE, GtkWidget)

/* The Functions side panel beside the flame graph, or a diff's list in
 * its place: the end child of a paned whose start is the graph. Bound,
 * it follows the session's tree, @view's layout and weight, @bar's "Per
 * step" and @search; "changed" tells what the state line shows changed.
 * Its action "toggle-functions" goes in the window's action map. */
void              afg_functions_pane_bind          (AfgFunctionsPane  *self,
                                                    AfgSession        *session,
                                                    AfgFlameView      *view,
                                                    AfgDiffView       *diff_view,
                                                    AfgStepsBar       *bar,
                                                    GtkSearchEntry    *search);
void              afg_functions_pane_add_actions   (AfgFunctionsPane  *self,
                                                    GActionMap        *map);
/* What is on screen changed: a profile's tree or a diff. */
void              afg_functions_pane_sync          (AfgFunctionsPane  *self);
/* "Per step" toggled: the same tree (and pick), its values divided anew. */
void              afg_functions_pane_sync_divisor  (AfgFunctionsPane  *self);
GtkPaned         *afg_functions_pane_get_paned     (AfgFunctionsPane  *self);
AfgFunctionPanel *afg_functions_pane_get_panel     (AfgFunctionsPane  *self);
/* The state line's fields from functions to durations. */
void              afg_functions_pane_append_state  (AfgFunctionsPane  *self,
                                                    GString           *line,
                                                    gboolean           graph);
/* The state line's kernels and kernel_top. */
void              afg_functions_pane_append_kernels (AfgFunctionsPane *self,
                                                    GString           *line,
                                                    gboolean           graph,
                                                    AfgWeight          shown);

G_END_DECLS
