/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-chart-store.h"

G_BEGIN_DECLS

#define AFG_TYPE_STACK_CHART (afg_stack_chart_get_type ())

G_DECLARE_FINAL_TYPE (AfgStackChart, afg_stack_chart, AFG, STACK_CHART, GtkWidget)

GtkWidget     *afg_stack_chart_new            (void);
/* Takes @store (NULL: nothing to draw); the view goes back to the scope. */
void           afg_stack_chart_set_store      (AfgStackChart *self,
                                               AfgChartStore *store);
AfgChartStore *afg_stack_chart_get_store      (AfgStackChart *self);
/* The time the axis spans at most, [@start, @end): the view goes there. */
void           afg_stack_chart_set_scope      (AfgStackChart *self,
                                               gint64         start,
                                               gint64         end);
/* The visible range; FALSE without a store. */
/* The scope set last: what Home shows. */
void           afg_stack_chart_get_scope      (AfgStackChart *self,
                                               gint64        *start,
                                               gint64        *end);
gboolean       afg_stack_chart_get_view       (AfgStackChart *self,
                                               gint64        *start,
                                               gint64        *end);
void           afg_stack_chart_set_view       (AfgStackChart *self,
                                               gint64         start,
                                               gint64         end);
/* @factor > 1 zooms in, around @at (0 left edge .. 1 right edge). */
void           afg_stack_chart_zoom           (AfgStackChart *self,
                                               double         factor,
                                               double         at);
/* Moves the view by @fraction of its width (negative: earlier). */
void           afg_stack_chart_pan            (AfgStackChart *self,
                                               double         fraction);
void           afg_stack_chart_reset_view     (AfgStackChart *self);
/* The selected host row: FALSE when none. */
gboolean       afg_stack_chart_get_selected   (AfgStackChart *self,
                                               guint         *thread,
                                               guint64       *event);
void           afg_stack_chart_set_selected   (AfgStackChart *self,
                                               guint          thread,
                                               guint64        event);
/* The rows of @thread to outline (guint64 events in start order, taken;
 * NULL: none), as F3 steps through them. */
void           afg_stack_chart_set_instances  (AfgStackChart *self,
                                               guint          thread,
                                               GArray        *events);
/* Shows the next (@forward) or previous instance; FALSE when none. */
gboolean       afg_stack_chart_step_instance  (AfgStackChart *self,
                                               gboolean       forward);
/* The lanes' labels from the top, joined by "|"; NULL without a store. */
char          *afg_stack_chart_describe_lanes (AfgStackChart *self);
/* "K/N": the instance shown last (0 before F3) of N; NULL when none. */
char          *afg_stack_chart_describe_instances (AfgStackChart *self);
/* The name of the box under the pointer, NULL when none. */
const char    *afg_stack_chart_get_hover_name (AfgStackChart *self);
/* The boxes the last frame drew (a pixel column of boxes counts once). */
guint          afg_stack_chart_get_n_drawn    (AfgStackChart *self);
/* The flame graph's search: boxes whose names lack @text are dimmed;
 * NULL or "" lights them all. */
void           afg_stack_chart_set_search     (AfgStackChart *self,
                                               const char    *text);
/* Of those, the boxes the last frame drew dimmed. */
guint          afg_stack_chart_get_n_dimmed   (AfgStackChart *self);
/* Whether the names drawn and searched are merged (afg_address_merge). */
void           afg_stack_chart_set_merge      (AfgStackChart *self,
                                               gboolean       merge);

G_END_DECLS
