/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-diff-color.h"
#include "afg-diff-shape.h"
#include "afg-flame-view.h"

G_BEGIN_DECLS

/* Draws an AfgDiffShape in an AfgFlameView: the view gets one side's tree
 * (B's shape by default) and colours and tooltips from the change A → B;
 * the "diff" action group (shape, colour, norm, noise; AfgDiffOptions
 * shows them) and a legend change and explain them. Not a widget: the flame view stays the one
 * that draws, searches and zooms. */
typedef struct _AfgDiffView AfgDiffView;

AfgDiffView *afg_diff_view_new              (AfgFlameView   *view);
void         afg_diff_view_free             (AfgDiffView    *self);
/* Shows @shape in the view (NULL: gives the view back to the palette);
 * @layout, if given, is the first layout of B's shape, and is taken. */
void         afg_diff_view_set_shape        (AfgDiffView    *self,
                                             AfgDiffShape   *shape,
                                             AfgFlameLayout *layout);
AfgDiffShape *afg_diff_view_get_shape       (AfgDiffView    *self);
/* The side whose shape (widths) is drawn. */
AfgTree     *afg_diff_view_get_tree         (AfgDiffView    *self);
/* The "diff" actions: shape ('a' | 'b'), color ('self' | 'total'),
 * norm ('raw' | 'per-step' | 'equal-totals'), min-ms and min-percent. */
GActionGroup *afg_diff_view_get_actions     (AfgDiffView    *self);
/* The legend of the colours (AfgDiffOptions shows the actions). */
GtkWidget   *afg_diff_view_get_legend       (AfgDiffView    *self);
/* The tooltip of @node as plain text (the state line shows it). */
char        *afg_diff_view_get_tooltip_text (AfgDiffView    *self,
                                             guint32         node);
/* The factors Per step or Equal totals multiply each side's times by
 * (1 and 1 when raw, or without a diff); "diff.norm" changes them. */
void         afg_diff_view_get_scales       (AfgDiffView    *self,
                                             double         *a_scale,
                                             double         *b_scale);
/* "side=b color=self norm=raw" as the state line's fields want them. */
const char  *afg_diff_view_get_option      (AfgDiffView    *self,
                                             const char     *name);

G_END_DECLS
