/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-task-keeper.h"

const char * const afg_task_keeper_columns[2] = { "deviceId", "streamId" };

/* A used TASK row as the one scan of TASK leaves it: classified and
 * linked once the kinds and the launching rows are read. */
typedef struct {
  gint64   start_ns;
  gint64   end_ns;
  gint64   connection_id;
  gint64   global_task_id;  /* AFG_TASK_NO_ID when it cannot match */
  gint64   type;            /* the same */
  guint32  track;
  gboolean has_connection;
} RawTask;

/* TASK's columns as afg_npu_tasks_read_hooked() gives them. */
enum { TASK_START, TASK_END, TASK_CONNECTION, TASK_GLOBAL_ID, TASK_TYPE };

struct _AfgTaskKeeper {
  AfgNpuTaskHook  hook;
  GHashTable     *tracks;     /* "device/stream" -> track index + 1 */
  GArray         *raw;        /* RawTask */
  AfgDeviceTasks *out;
  /* While finishing. */
  AfgNpuTasks          *npu;
  const AfgStringTable *strings;
  const GArray         *candidates;
  GArray               *launch_rows;
  guint32              *launch_of;  /* row ordinal -> launch, or AFG_DEVICE_NO_LAUNCH */
  guint32               n_launches;
};

static inline AfgValueStatus
row_int64 (const AfgRow *row, int col, gint64 *out)
{
  return afg_value_int64 (&row->values[col], out);
}

/* An id of the kinds' rules (afg-task-kinds.h), AFG_TASK_NO_ID when it
 * cannot match. */
static gint64
kind_id (const AfgRow *row, int col, guint device)
{
  gint64 id;

  return (guint) col < device && row_int64 (row, col, &id) == AFG_VALUE_OK && afg_npu_is_link (id)
           ? id : AFG_TASK_NO_ID;
}

static gint64
column_or_unknown (const AfgRow *row, int col)
{
  gint64 value;

  return row_int64 (row, col, &value) == AFG_VALUE_OK ? value : AFG_DEVICE_UNKNOWN;
}

/* The hook on the NPU reader's scan of TASK (rows with a valid time). */
static void
keep_task (gpointer data, const AfgRow *row, guint device)
{
  AfgTaskKeeper *self = data;
  RawTask raw = { row->values[TASK_START].i, row->values[TASK_END].i, 0, kind_id (row, TASK_GLOBAL_ID, device),
                  kind_id (row, TASK_TYPE, device), 0, FALSE };

  raw.has_connection = row_int64 (row, TASK_CONNECTION, &raw.connection_id) == AFG_VALUE_OK;
  raw.track = afg_device_tasks_track (self->out, self->tracks, column_or_unknown (row, device),
                                      column_or_unknown (row, device + 1));
  g_array_append_val (self->raw, raw);
}

static void
forget_tasks (gpointer data)
{
  AfgTaskKeeper *self = data;

  g_array_set_size (self->raw, 0);
  g_array_set_size (self->out->tracks, 0);
  g_hash_table_remove_all (self->tracks);
}

AfgTaskKeeper *
afg_task_keeper_new (void)
{
  AfgTaskKeeper *self = g_new0 (AfgTaskKeeper, 1);

  self->hook = (AfgNpuTaskHook) { keep_task, forget_tasks, self };
  self->tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->raw = g_array_new (FALSE, FALSE, sizeof (RawTask));
  self->out = afg_device_tasks_new ();
  return self;
}

void
afg_task_keeper_free (AfgTaskKeeper *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->tracks);
  g_array_unref (self->raw);
  g_clear_pointer (&self->out, afg_device_tasks_free);
  g_free (self->launch_of);
  g_free (self);
}

const AfgNpuTaskHook *
afg_task_keeper_get_hook (AfgTaskKeeper *self)
{
  return &self->hook;
}

/* @id of STRING_IDS as the document's string, AFG_DEVICE_NO_NAME when
 * it names none. */
static guint32
document_string (const AfgTaskKeeper *self, gint64 id)
{
  guint32 index;

  return id != AFG_TASK_NO_ID && afg_string_table_find_id (self->strings, id, &index) ? index : AFG_DEVICE_NO_NAME;
}

/* The kind, the name (a compute task's kernel, else its type) and
 * whether it is one of the profiler's markers. */
static void
classify (AfgTaskKeeper *self, const RawTask *raw, AfgDeviceTask *task)
{
  AfgTaskKinds *kinds = afg_npu_tasks_get_kinds (self->npu);
  gint64 name_id = AFG_TASK_NO_ID, type = raw->type;
  gint64 link = raw->has_connection && afg_npu_is_link (raw->connection_id) ? raw->connection_id : AFG_TASK_NO_ID;

  task->kind = afg_task_kinds_classify (kinds, link, raw->global_task_id, type, &name_id);
  task->name = document_string (self, task->kind == AFG_TASK_KIND_COMPUTE && name_id != AFG_TASK_NO_ID
                                        ? name_id : type);
  task->profiling = afg_task_kinds_is_profiling (kinds, type);
}

/* Rows become launches in the order their first task comes. */
static guint32
launch_for (AfgTaskKeeper *self, guint64 row)
{
  if (self->launch_of[row] == AFG_DEVICE_NO_LAUNCH)
    {
      self->launch_of[row] = self->n_launches++;
      if (self->candidates != NULL)
        g_array_append_val (self->out->launches, g_array_index (self->candidates, AfgDeviceLaunch, row));
      if (self->launch_rows != NULL)
        g_array_append_val (self->launch_rows, row);
    }
  return self->launch_of[row];
}

/* Each kept row, once the launching rows are known. */
static void
add_tasks (AfgTaskKeeper *self)
{
  g_array_set_size (self->out->tasks, self->raw->len);
  for (guint i = 0; i < self->raw->len; i++)
    {
      const RawTask *raw = &g_array_index (self->raw, RawTask, i);
      AfgDeviceTask *task = &g_array_index (self->out->tasks, AfgDeviceTask, i);
      guint64 row;

      *task = (AfgDeviceTask) { raw->start_ns, raw->end_ns, raw->track, AFG_DEVICE_NO_LAUNCH, AFG_TASK_KIND_OTHER,
                                FALSE, AFG_DEVICE_NO_NAME };
      if (raw->has_connection && afg_npu_tasks_find_row (self->npu, raw->connection_id, &row))
        task->launch = launch_for (self, row);
      classify (self, raw, task);
    }
  g_array_set_size (self->raw, 0);
}

static void
add_collectives (AfgTaskKeeper *self)
{
  gsize n;
  const AfgCollective *ops = afg_task_kinds_get_collectives (afg_npu_tasks_get_kinds (self->npu), &n);

  for (gsize i = 0; i < n; i++)
    {
      AfgDeviceCollective op = { ops[i].start_ns, ops[i].end_ns, document_string (self, ops[i].name_id),
                                 AFG_DEVICE_NO_LAUNCH };
      guint64 row;

      if (afg_npu_tasks_find_row (self->npu, ops[i].link, &row))
        op.launch = launch_for (self, row);
      g_array_append_val (self->out->collectives, op);
    }
}

AfgDeviceTasks *
afg_task_keeper_finish (AfgTaskKeeper *self, AfgNpuTasks *npu, const AfgStringTable *strings, guint64 n_rows,
                        const GArray *candidates, GArray *launch_rows)
{
  g_return_val_if_fail (self != NULL && npu != NULL && self->out != NULL, NULL);

  self->npu = npu;
  self->strings = strings;
  self->candidates = candidates;
  self->launch_rows = launch_rows;
  self->launch_of = g_new (guint32, MAX (n_rows, 1));
  memset (self->launch_of, 0xff, sizeof (guint32) * MAX (n_rows, 1));
  add_tasks (self);
  add_collectives (self);
  g_clear_pointer (&self->launch_of, g_free);
  afg_device_tasks_seal (self->out);
  return g_steal_pointer (&self->out);
}
