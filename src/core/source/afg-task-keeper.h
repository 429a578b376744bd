/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-device-tasks.h"
#include "afg-npu-reader.h"
#include "afg-string-table.h"

G_BEGIN_DECLS

/* TASK's used rows as the NPU reader's one scan of TASK hands them over
 * (afg_npu_tasks_read_hooked, afg_npu_tasks_set_hook), kept until the
 * kinds are read and the launching rows claimed, then made the
 * AfgDeviceTasks of the trace export and the stack chart. */
typedef struct _AfgTaskKeeper AfgTaskKeeper;

/* The columns the hook needs TASK to have beside the NPU reader's. */
extern const char * const afg_task_keeper_columns[2];

AfgTaskKeeper   *afg_task_keeper_new      (void);
void             afg_task_keeper_free     (AfgTaskKeeper *self);
/* Valid while @self lives. */
const AfgNpuTaskHook *afg_task_keeper_get_hook (AfgTaskKeeper *self);
/* Once @npu's kinds are sealed and its rows claimed: each task linked to
 * the claimed row's ordinal, classified and named with @strings (looked
 * up, not added to), and the collectives. A launch is a claimed row:
 * @n_rows rows were claimed; with @candidates (AfgDeviceLaunch by row
 * ordinal) a launch is copied into launches, and the row ordinal of each
 * launch goes to @launch_rows (guint64, may be NULL). The tasks are
 * dropped from @self. */
AfgDeviceTasks  *afg_task_keeper_finish   (AfgTaskKeeper        *self,
                                           AfgNpuTasks          *npu,
                                           const AfgStringTable *strings,
                                           guint64               n_rows,
                                           const GArray         *candidates,
                                           GArray               *launch_rows);

G_END_DECLS
