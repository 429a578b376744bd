/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-duration-histogram.h"
#include "afg-flame-view.h"
#include "afg-kernel-list.h"
#include "afg-function-table.h"

G_BEGIN_DECLS

#define AFG_TYPE_FUNCTION_PANEL (afg_function_panel_get_type ())

G_DECLARE_FINAL_TYPE (AfgFunctionPanel, afg_function_panel, AFG, FUNCTION_PANEL, GtkWidget)

/* The Functions side panel: the function table of a tree (a
 * GtkColumnView over a sorted, filtered list model, sortable by every
 * column), the sandwich of the function picked in it (callers inverted
 * above, callees below, each an AfgFlameView of its own) and a histogram
 * of call durations. ::notify::selected tells when the pick changes. */
GtkWidget            *afg_function_panel_new           (void);
/* Builds the table of @tree (NULL: none) and picks the same function
 * again if the new tree has it. */
void                  afg_function_panel_set_tree      (AfgFunctionPanel *self,
                                                        AfgTree          *tree);
AfgFunctionTable     *afg_function_panel_get_table     (AfgFunctionPanel *self);
/* Rows whose name holds @text (case-insensitive); NULL or "" for all. */
void                  afg_function_panel_set_filter    (AfgFunctionPanel *self,
                                                        const char       *text);
guint                 afg_function_panel_get_n_shown   (AfgFunctionPanel *self);
/* Picks the function named @name (NULL: none) and scrolls to its row. */
void                  afg_function_panel_select        (AfgFunctionPanel *self,
                                                        const char       *name);
/* The picked function's index in the table, AFG_FUNCTION_NONE for none. */
guint                 afg_function_panel_get_selected  (AfgFunctionPanel *self);
/* The histogram shows the calls of the frame @node of the tree, or with
 * AFG_NODE_NONE those of every frame of the picked function. */
void                  afg_function_panel_show_frame    (AfgFunctionPanel *self,
                                                        guint32           node);
AfgFlameView         *afg_function_panel_get_callers   (AfgFunctionPanel *self);
AfgFlameView         *afg_function_panel_get_callees   (AfgFunctionPanel *self);
AfgDurationHistogram *afg_function_panel_get_histogram (AfgFunctionPanel *self);
/* TRUE while the histogram's durations are being collected. */
gboolean              afg_function_panel_is_busy       (AfgFunctionPanel *self);
void                  afg_function_panel_set_weight    (AfgFunctionPanel *self,
                                                        AfgColumn         weight);
void                  afg_function_panel_set_divisor   (AfgFunctionPanel *self,
                                                        guint             divisor);
/* Shown row @position's cells, tab-separated ("" past the end). */
char                 *afg_function_panel_get_row_text  (AfgFunctionPanel *self,
                                                        guint             position);
/* The column view, for tests that sort by a column. */
GtkColumnView        *afg_function_panel_get_column_view (AfgFunctionPanel *self);
/* The Kernels tab. */
AfgKernelList        *afg_function_panel_get_kernels (AfgFunctionPanel *self);

G_END_DECLS
