/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-device-tasks.h"

G_BEGIN_DECLS

#define AFG_CHART_NONE G_MAXUINT32
/* Launching rows are known by their ordinal among every thread's events
 * of the event store (thread by thread, in its order); an ordinal from
 * this one on stands for none. */
#define AFG_CHART_LAUNCH_NONE ((1u << 30) - 1)

/* One device lane: a (device, stream) pair of TASK, or the collectives
 * (COMMUNICATION_OP rows, one box each over their tasks). */
typedef struct {
  gint64   device_id;    /* AFG_DEVICE_UNKNOWN when not an integer */
  gint64   stream_id;
  gboolean collectives;  /* the lane of COMMUNICATION_OP, no stream */
} AfgChartLane;

/* A task (or collective) as the chart draws it. */
typedef struct {
  gint64  start;
  gint64  end;
  guint32 name;           /* the document's string, or AFG_DEVICE_NO_NAME */
  guint32 kind;           /* AfgTaskKind */
  guint32 launch_thread;  /* the event store's thread of the launching row, AFG_CHART_NONE */
  guint64 launch_event;   /* that row's index in its thread */
} AfgChartTask;

/* Every TASK row but the profiler's markers, by lane, and the
 * collectives, each lane indexed by time so that the tasks of a range
 * are found without scanning the others: 16 bytes a task (see
 * afg-chart-tasks.c). The document keeps them from a window's load, so
 * that the stack chart opens without reading the DB again. Immutable
 * once made; any thread. */
typedef struct _AfgChartTasks AfgChartTasks;

/* @ordinals: each launch of @tasks's launching row as an ordinal
 * (AFG_CHART_LAUNCH_NONE: none). @tasks is read, not kept. */
AfgChartTasks      *afg_chart_tasks_new        (const AfgDeviceTasks *tasks,
                                                const guint32        *ordinals);
void                afg_chart_tasks_free       (AfgChartTasks        *self);
guint               afg_chart_tasks_get_n_lanes (const AfgChartTasks *self);
const AfgChartLane *afg_chart_tasks_get_lane   (const AfgChartTasks  *self,
                                                guint                 lane);
guint64             afg_chart_tasks_get_n_tasks (const AfgChartTasks *self);
/* Bytes held: the tasks with their index. */
guint64             afg_chart_tasks_get_bytes  (const AfgChartTasks  *self);
/* Called in start order for each task of @lane overlapping [@t0, @t1)
 * (a task of no length counts as 1 ns); returns FALSE to stop. The
 * launching row's ordinal is split by @thread_first (@n_threads + 1:
 * the ordinal of each thread's first event). */
typedef gboolean (*AfgChartTaskFunc) (const AfgChartTask *task,
                                      gpointer            user_data);
void                afg_chart_tasks_visit      (const AfgChartTasks  *self,
                                                guint                 lane,
                                                gint64                t0,
                                                gint64                t1,
                                                const guint64        *thread_first,
                                                guint                 n_threads,
                                                AfgChartTaskFunc      func,
                                                gpointer              user_data);

/* The first of @n blocks (their running max ends @stride bytes apart)
 * whose running max end passes @t0; @n when none. */
guint64             afg_chart_first_block      (const gint64         *max_end,
                                                gsize                 stride,
                                                guint64               n,
                                                gint64                t0);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgChartTasks, afg_chart_tasks_free)

G_END_DECLS
