/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AFG_TYPE_DIFF_OPTIONS (afg_diff_options_get_type ())
G_DECLARE_FINAL_TYPE (AfgDiffOptions, afg_diff_options, AFG, DIFF_OPTIONS, GtkWidget)

/* The header's "Diff" button and its popover: how a diff is drawn. Its
 * toggles and thresholds are the "diff" actions of @actions (an
 * AfgDiffView's), which it shows and changes. */
GtkWidget *afg_diff_options_new (GActionGroup *actions);

G_END_DECLS
