/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-diff-functions.h"

G_BEGIN_DECLS

#define AFG_TYPE_DIFF_FUNCTION_LIST (afg_diff_function_list_get_type ())

G_DECLARE_FINAL_TYPE (AfgDiffFunctionList, afg_diff_function_list, AFG, DIFF_FUNCTION_LIST, GtkWidget)

/* The Functions panel of a diff: per function A, B, Δ and Δ % of its
 * self time and of its total time, each side's times multiplied by its
 * scale (the diff's Per step or Equal totals), ordered by |Δ self| of
 * the scaled times, then by name in byte order, filtered by name as the
 * profile's table is. */
/* Lists @shape's functions (NULL: none). */
void        afg_diff_function_list_set_shape  (AfgDiffFunctionList *self,
                                               AfgDiffShape        *shape);
/* The factors A's and B's times are multiplied by (1 and 1 at first). */
void        afg_diff_function_list_set_scales (AfgDiffFunctionList *self,
                                               double               a_scale,
                                               double               b_scale);
AfgDiffFunctions *afg_diff_function_list_get_functions (AfgDiffFunctionList *self);
/* Rows whose name holds @text (case-insensitive); NULL or "" for all. */
void        afg_diff_function_list_set_filter (AfgDiffFunctionList *self,
                                               const char          *text);
guint       afg_diff_function_list_get_n_shown (AfgDiffFunctionList *self);
/* The first row's function, NULL without rows. */
const char *afg_diff_function_list_get_top    (AfgDiffFunctionList *self);

G_END_DECLS
