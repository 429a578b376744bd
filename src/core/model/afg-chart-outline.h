/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-chart-store.h"
#include "afg-transform-list.h"

G_BEGIN_DECLS

/* The rows of one thread of a chart store that a tree's transforms bring
 * to one of its nodes, from any path and depth: what the stack chart
 * outlines for the node picked in a transformed flame graph. Made on the
 * UI thread, run on any (it walks every row of the thread), freed on
 * either; it keeps the store and the transforms. */
typedef struct _AfgChartOutline AfgChartOutline;

/* @target: the node's names from the thread's top frame down (copied);
 * @merge: the rows' names merged as --merge-addresses does. */
AfgChartOutline *afg_chart_outline_new        (AfgChartStore          *store,
                                               guint                   thread,
                                               gboolean                merge,
                                               gint64                  t0,
                                               gint64                  t1,
                                               const AfgTransformList *transforms,
                                               const char * const     *target,
                                               guint                   n_target);
void             afg_chart_outline_free       (AfgChartOutline        *self);
guint            afg_chart_outline_get_thread (const AfgChartOutline  *self);
/* The thread's rows (event indices, by start) overlapping [t0, t1) that
 * land on the target; empty when the transforms cannot be compiled, a
 * part once @cancellable (may be NULL) fires. */
GArray          *afg_chart_outline_run        (AfgChartOutline        *self,
                                               GCancellable           *cancellable);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgChartOutline, afg_chart_outline_free)

G_END_DECLS
