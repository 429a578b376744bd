/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The TASK rows one by one, for the trace export only: the document keeps
 * device time summed per event, the trace draws each task. */

/* AFG_DEVICE_UNKNOWN stands for a deviceId or streamId that is no integer. */
#define AFG_DEVICE_UNKNOWN G_MININT64
#define AFG_DEVICE_NO_LAUNCH G_MAXUINT32
#define AFG_DEVICE_NO_NAME   G_MAXUINT32

/* One (device, stream) pair; the tracks are sorted by device, then stream. */
typedef struct {
  gint64 device_id;
  gint64 stream_id;
} AfgDeviceTrack;

/* The used PYTORCH_API row that launched tasks (docs/npu.md's rules). */
typedef struct {
  gint64 global_tid;
  gint64 start_ns;
  gint64 end_ns;
} AfgDeviceLaunch;

/* A used TASK row, in TASK's row order. */
typedef struct {
  gint64  start_ns;
  gint64  end_ns;
  guint32 track;   /* index in tracks */
  guint32 launch;  /* index in launches, or AFG_DEVICE_NO_LAUNCH: unlinked */
  guint16 kind;    /* AfgTaskKind (afg-task-kinds.h) */
  guint16 profiling;  /* a PROFILING_* marker of the profiler, not work */
  guint32 name;    /* the document's string: the kernel of a compute task,
                    * else its taskType; AFG_DEVICE_NO_NAME */
} AfgDeviceTask;

/* A used COMMUNICATION_OP row: one collective over its tasks. */
typedef struct {
  gint64  start_ns;
  gint64  end_ns;
  guint32 name;    /* opName as the document's string, or AFG_DEVICE_NO_NAME */
  guint32 launch;  /* by its connectionId, as a task's; AFG_DEVICE_NO_LAUNCH */
} AfgDeviceCollective;

typedef struct {
  GArray *tracks;    /* AfgDeviceTrack */
  GArray *launches;  /* AfgDeviceLaunch */
  GArray *tasks;     /* AfgDeviceTask */
  GArray *collectives;  /* AfgDeviceCollective, in rowid order */
  char   *warning;   /* why tables that are there gave no tasks; NULL if none */
} AfgDeviceTasks;

AfgDeviceTasks *afg_device_tasks_new   (void);
void            afg_device_tasks_free  (AfgDeviceTasks *self);
/* The index of the track (@device_id, @stream_id); tracks must then be
 * sorted with afg_device_tasks_seal() before they are read. */
guint32         afg_device_tasks_track (AfgDeviceTasks *self,
                                        GHashTable     *index,
                                        gint64          device_id,
                                        gint64          stream_id);
/* Sorts the tracks and renumbers the tasks' track indices. */
void            afg_device_tasks_seal  (AfgDeviceTasks *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgDeviceTasks, afg_device_tasks_free)

G_END_DECLS
