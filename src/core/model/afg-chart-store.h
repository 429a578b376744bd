/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-chart-tasks.h"
#include "afg-device-tasks.h"
#include "afg-document.h"

G_BEGIN_DECLS

/* A used host row (an event of the store) placed as the tree builder
 * nests it: depth 0 for a row under no other. Rows cut at the depth
 * limit have depth AFG_CHART_NONE and are not drawn. */
typedef struct {
  gint64  start;
  gint64  end;
  guint32 parent;  /* the enclosing row's event index, AFG_CHART_NONE */
  guint32 depth;
} AfgChartRow;

/* What the stack chart draws, kept only while a window shows it (the
 * command line never builds one): every host row of the document by
 * thread and depth, and every TASK row but the profiler's markers by
 * lane, each indexed by time so that the rows and tasks of a range are
 * found without scanning the others. The tasks are the document's when
 * its load kept them (afg-chart-tasks.h). Immutable once made; any
 * thread. */
typedef struct _AfgChartStore AfgChartStore;

/* @tasks may be NULL (no device lanes); it is read, not kept. */
AfgChartStore      *afg_chart_store_new           (AfgDocument          *document,
                                                   const AfgDeviceTasks *tasks);
/* The same in two steps, so that the rows can be built while the tasks
 * are read: the host rows alone (no device lanes), then, once, @tasks'
 * lanes (read, not kept). */
AfgChartStore      *afg_chart_store_new_rows      (AfgDocument          *document);
void                afg_chart_store_add_tasks     (AfgChartStore        *self,
                                                   const AfgDeviceTasks *tasks);
/* The host rows, and the tasks the document's load kept
 * (afg_document_get_chart_tasks, not NULL): no DB is read. */
AfgChartStore      *afg_chart_store_new_kept      (AfgDocument          *document);
/* A worker may keep the store past the chart that shows it. */
AfgChartStore      *afg_chart_store_ref           (AfgChartStore        *self);
void                afg_chart_store_unref         (AfgChartStore        *self);
AfgDocument        *afg_chart_store_get_document  (const AfgChartStore  *self);
guint               afg_chart_store_get_n_lanes   (const AfgChartStore  *self);
const AfgChartLane *afg_chart_store_get_lane      (const AfgChartStore  *self,
                                                   guint                 lane);
/* Called in start order for each task of @lane overlapping [@t0, @t1)
 * (a task of no length counts as 1 ns); returns FALSE to stop. */
void                afg_chart_store_visit_tasks   (const AfgChartStore  *self,
                                                   guint                 lane,
                                                   gint64                t0,
                                                   gint64                t1,
                                                   AfgChartTaskFunc      func,
                                                   gpointer              user_data);
/* The same for drawing: a task's launch is left as kept, possibly a row
 * past the depth limit, which saves a lookup in the rows a task. */
void                afg_chart_store_visit_task_boxes (const AfgChartStore *self,
                                                   guint                 lane,
                                                   gint64                t0,
                                                   gint64                t1,
                                                   AfgChartTaskFunc      func,
                                                   gpointer              user_data);
guint64             afg_chart_store_get_n_tasks   (const AfgChartStore  *self);
/* The event store's threads, in its order. */
guint               afg_chart_store_get_n_threads (const AfgChartStore  *self);
/* The number of depths thread @thread's rows take. */
guint               afg_chart_store_get_n_depths  (const AfgChartStore  *self,
                                                   guint                 thread);
/* Thread @thread's rows in event order (as the event store keeps them). */
const AfgChartRow  *afg_chart_store_get_rows      (const AfgChartStore  *self,
                                                   guint                 thread,
                                                   guint64              *n_rows);
/* Called in start order for each row of @thread at @depth overlapping
 * [@t0, @t1), with its event index; returns FALSE to stop. */
typedef gboolean (*AfgChartRowFunc) (guint64             event,
                                     const AfgChartRow  *row,
                                     gpointer            user_data);
void                afg_chart_store_visit_rows    (const AfgChartStore  *self,
                                                   guint                 thread,
                                                   guint                 depth,
                                                   gint64                t0,
                                                   gint64                t1,
                                                   AfgChartRowFunc       func,
                                                   gpointer              user_data);
/* The row of @thread at @depth a pointer at @at points to, within @slack
 * ns either side: boxes drawn later cover the ones before (rows at one
 * depth overlap when a frame outlives its parent, tasks of a stream when
 * a collective holds its own), so the last one in start order that holds
 * @at, else the last one near it. FALSE when there is none. */
gboolean            afg_chart_store_row_at        (const AfgChartStore  *self,
                                                   guint                 thread,
                                                   guint                 depth,
                                                   gint64                at,
                                                   gint64                slack,
                                                   guint64              *event);
/* The same for the tasks of @lane. */
gboolean            afg_chart_store_task_at       (const AfgChartStore  *self,
                                                   guint                 lane,
                                                   gint64                at,
                                                   gint64                slack,
                                                   AfgChartTask         *task);
/* [first start, last end) of the host rows with a length: the span of a
 * profile with neither steps nor device tasks; FALSE for none. */
gboolean            afg_chart_store_get_row_span  (const AfgChartStore  *self,
                                                   gint64               *start,
                                                   gint64               *end);
/* The names (the document's strings; merged with afg_address_merge()
 * when @merge) from the thread's top row down to @event; their number. */
guint               afg_chart_store_get_path      (const AfgChartStore  *self,
                                                   guint                 thread,
                                                   guint64               event,
                                                   gboolean              merge,
                                                   GArray               *names);
/* The events of @thread whose path is @names (as get_path gives it) and
 * that overlap [@t0, @t1), in start order (guint64). */
GArray             *afg_chart_store_find_rows     (const AfgChartStore  *self,
                                                   guint                 thread,
                                                   const guint32        *names,
                                                   guint                 n_names,
                                                   gboolean              merge,
                                                   gint64                t0,
                                                   gint64                t1);
/* Whether a path (names from the top, as get_path gives them) is one
 * wanted. */
typedef gboolean (*AfgChartPathFunc) (const guint32 *names,
                                      guint          n_names,
                                      gpointer       user_data);
/* The events of @thread that overlap [@t0, @t1) and whose path @wanted
 * accepts, in start order (guint64): @wanted is asked once per distinct
 * path, not once per row. Once @cancellable (may be NULL) fires, the
 * walk stops: what it found so far. */
GArray             *afg_chart_store_find_rows_by_path (const AfgChartStore *self,
                                                       guint                thread,
                                                       gboolean             merge,
                                                       gint64               t0,
                                                       gint64               t1,
                                                       AfgChartPathFunc     wanted,
                                                       gpointer             user_data,
                                                       GCancellable        *cancellable);
/* Bytes held: the tasks with their index, and the rows with theirs. */
guint64             afg_chart_store_get_task_bytes (const AfgChartStore *self);
guint64             afg_chart_store_get_row_bytes  (const AfgChartStore *self);

G_END_DECLS
