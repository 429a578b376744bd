/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-trace"

#include "config.h"

#include "afg-json-writer.h"
#include "afg-task-kinds.h"
#include "afg-writers.h"

/* Written in pieces of about this size: a 1M-row profile is ~240 MB. */
#define CHUNK_BYTES (1 << 20)
/* Synthetic processes (steps, devices) count down from here, past any
 * host pid: int32, as some trace viewers read pids. */
#define FIRST_SYNTHETIC_PID G_MAXINT32

typedef struct {
  const AfgDocument    *document;
  const AfgScope       *scope;
  gboolean              merge_addresses;  /* names as the tree's frames have them */
  const AfgDeviceTasks *tasks;
  AfgWriteFunc          write_func;
  gpointer              write_data;
  GString              *out;
  gint64                base_ns;
  GHashTable           *host_pids;
  guint32               next_pid;
  guint32               steps_pid;
  guint64               n_flows;
  guint64               n_events;
  gboolean              failed;
  GError              **error;
} TraceWriter;

static void
flush (TraceWriter *w, gsize at_least)
{
  if (w->failed || w->out->len < at_least)
    return;
  w->failed = !w->write_func (w->out->str, w->out->len, w->write_data, w->error);
  g_string_truncate (w->out, 0);
}

/* Hundreds of millions of numbers: digits by hand, not printf. */
static void
append_uint (GString *out, guint64 value)
{
  char digits[20];
  guint n = 0;

  do
    digits[n++] = (char) ('0' + value % 10);
  while ((value /= 10) > 0);
  while (n > 0)
    g_string_append_c (out, digits[--n]);
}

/* Microseconds with the nanoseconds as three decimals, from integers: a
 * double would round 1.7e18 ns. @ns >= 0. */
static void
append_us (GString *out, guint64 ns)
{
  guint frac = (guint) (ns % 1000);

  append_uint (out, ns / 1000);
  g_string_append_c (out, '.');
  g_string_append_c (out, (char) ('0' + frac / 100));
  g_string_append_c (out, (char) ('0' + frac / 10 % 10));
  g_string_append_c (out, (char) ('0' + frac % 10));
}

/* Offsets from base_ns, which is at or before every time written; as
 * unsigned, the difference is exact even across the whole int64 range. */
static void
append_span (TraceWriter *w, gint64 start, gint64 end)
{
  g_string_append (w->out, ",\"ts\":");
  append_us (w->out, (guint64) start - (guint64) w->base_ns);
  g_string_append (w->out, ",\"dur\":");
  append_us (w->out, (guint64) end - (guint64) start);
}

static void
begin_event (TraceWriter *w, const char *ph, guint32 pid, guint32 tid)
{
  g_string_append (w->out, w->n_events++ > 0 ? ",\n{\"ph\":\"" : "{\"ph\":\"");
  g_string_append (w->out, ph);
  g_string_append (w->out, "\",\"pid\":");
  append_uint (w->out, pid);
  g_string_append (w->out, ",\"tid\":");
  append_uint (w->out, tid);
}

static void
append_complete (TraceWriter *w, guint32 pid, guint32 tid, const char *name, const char *cat,
                 gint64 start, gint64 end)
{
  begin_event (w, "X", pid, tid);
  g_string_append (w->out, ",\"name\":");
  afg_json_append_string (w->out, name);
  g_string_append (w->out, ",\"cat\":\"");
  g_string_append (w->out, cat);
  g_string_append_c (w->out, '"');
  append_span (w, start, end);
  g_string_append_c (w->out, '}');
  flush (w, CHUNK_BYTES);
}

static void
append_metadata (TraceWriter *w, const char *what, guint32 pid, guint32 tid, const char *name)
{
  begin_event (w, "M", pid, tid);
  g_string_append_printf (w->out, ",\"name\":\"%s\",\"args\":{\"name\":", what);
  afg_json_append_string (w->out, name);
  g_string_append (w->out, "}}");
}

/* [start, end) cut to the scope, as the tree counts a row; FALSE when
 * nothing of it is inside. */
static gboolean
clip (const AfgScope *scope, gint64 *start, gint64 *end)
{
  if (!scope->bounded)
    return TRUE;
  *start = MAX (*start, scope->start_ns);
  *end = MIN (*end, scope->end_ns);
  return *end > *start;
}

static guint32
take_pid (TraceWriter *w)
{
  while (g_hash_table_contains (w->host_pids, GUINT_TO_POINTER (w->next_pid)))
    w->next_pid--;
  return w->next_pid--;
}

static const AfgDeviceLaunch *
launch_of (const TraceWriter *w, const AfgDeviceTask *task)
{
  if (task->launch == AFG_DEVICE_NO_LAUNCH)
    return NULL;
  return &g_array_index (w->tasks->launches, AfgDeviceLaunch, task->launch);
}

/* A task belongs to the scope when the row that launched it starts in
 * it (as its device time counts there); an unlinked one by its own start. */
static gboolean
task_in_scope (const TraceWriter *w, const AfgDeviceTask *task)
{
  const AfgDeviceLaunch *launch = launch_of (w, task);

  return afg_scope_contains_start (w->scope, launch ? launch->start_ns : task->start_ns);
}

static void
lower_base (TraceWriter *w, gint64 start, gboolean *any)
{
  w->base_ns = *any ? MIN (w->base_ns, start) : start;
  *any = TRUE;
}

/* Events come by start, so the first one that reaches the scope starts
 * (clipped) earliest. */
static gboolean
first_start (const TraceWriter *w, const AfgEventThread *thread, gint64 *start)
{
  AfgEventCursor cursor;
  AfgEvent e;

  afg_event_cursor_init (&cursor, thread);
  while (afg_event_cursor_next (&cursor, &e))
    {
      gint64 end = e.end;

      *start = e.start;
      if (clip (w->scope, start, &end))
        return TRUE;
      if (*start >= w->scope->end_ns)
        return FALSE;
    }
  return FALSE;
}

/* The earliest time written, so that every offset is >= 0. */
static void
find_base (TraceWriter *w)
{
  const AfgEventStore *store = afg_document_get_events (w->document);
  gboolean any = FALSE;
  guint n_steps;
  const AfgStep *steps = afg_document_get_steps (w->document, &n_steps);
  gint64 start, end;

  w->base_ns = 0;
  for (guint t = 0; t < afg_event_store_get_n_threads (store); t++)
    if (first_start (w, afg_event_store_get_thread (store, t), &start))
      lower_base (w, start, &any);
  for (guint i = 0; i < n_steps; i++)
    if (start = steps[i].start_ns, end = steps[i].end_ns, clip (w->scope, &start, &end))
      lower_base (w, start, &any);
  for (guint i = 0; w->tasks != NULL && i < w->tasks->tasks->len; i++)
    {
      const AfgDeviceTask *task = &g_array_index (w->tasks->tasks, AfgDeviceTask, i);

      if (task_in_scope (w, task))
        lower_base (w, task->start_ns, &any);
    }
}

static void
write_thread (TraceWriter *w, const AfgEventThread *thread)
{
  AfgEventCursor cursor;
  AfgEvent e;

  append_metadata (w, "thread_name", thread->pid, thread->tid, afg_document_get_string (w->document, thread->label));
  afg_event_cursor_init (&cursor, thread);
  while (!w->failed && afg_event_cursor_next (&cursor, &e))
    {
      gint64 start = e.start, end = e.end;

      if (w->merge_addresses)
        e.name = afg_document_get_merged_name (w->document, e.name);
      if (clip (w->scope, &start, &end))
        append_complete (w, thread->pid, thread->tid, afg_document_get_string (w->document, e.name),
                         afg_category_to_string (afg_document_get_category (w->document, e.name)), start, end);
    }
}

static void
write_host (TraceWriter *w)
{
  const AfgEventStore *store = afg_document_get_events (w->document);

  for (guint t = 0; t < afg_event_store_get_n_threads (store) && !w->failed; t++)
    write_thread (w, afg_event_store_get_thread (store, t));
}

static void
write_steps (TraceWriter *w)
{
  guint n_steps;
  const AfgStep *steps = afg_document_get_steps (w->document, &n_steps);

  if (n_steps == 0)
    return;
  w->steps_pid = take_pid (w);
  append_metadata (w, "process_name", w->steps_pid, 0, "Steps");
  append_metadata (w, "thread_name", w->steps_pid, 0, "ProfilerStep");
  for (guint i = 0; i < n_steps && !w->failed; i++)
    {
      g_autofree char *name = g_strdup_printf ("ProfilerStep#%" G_GINT64_FORMAT, steps[i].id);
      gint64 start = steps[i].start_ns, end = steps[i].end_ns;

      if (end > start && clip (w->scope, &start, &end))
        append_complete (w, w->steps_pid, 0, name, "step", start, end);
    }
}

static char *
device_value (gint64 value)
{
  return value == AFG_DEVICE_UNKNOWN ? g_strdup ("?") : g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

/* One process per device, one thread per stream, the tid the track's
 * index; returns each track's pid. */
static guint32 *
write_tracks (TraceWriter *w)
{
  GArray *tracks = w->tasks->tracks;
  guint32 *pids = g_new (guint32, MAX (tracks->len, 1));

  for (guint i = 0; i < tracks->len; i++)
    {
      const AfgDeviceTrack *track = &g_array_index (tracks, AfgDeviceTrack, i);
      g_autofree char *device = device_value (track->device_id);
      g_autofree char *stream = device_value (track->stream_id);
      g_autofree char *thread_name = g_strdup_printf ("Stream %s", stream);

      if (i == 0 || track->device_id != g_array_index (tracks, AfgDeviceTrack, i - 1).device_id)
        {
          g_autofree char *process_name = g_strdup_printf ("NPU device %s", device);

          pids[i] = take_pid (w);
          append_metadata (w, "process_name", pids[i], 0, process_name);
        }
      else
        pids[i] = pids[i - 1];
      append_metadata (w, "thread_name", pids[i], i, thread_name);
    }
  return pids;
}

static void
append_flow_end (TraceWriter *w, const char *ph, guint32 pid, guint32 tid, gint64 ts)
{
  begin_event (w, ph, pid, tid);
  g_string_append_printf (w->out, ",\"name\":\"launch\",\"cat\":\"npu\",\"id\":%" G_GUINT64_FORMAT, w->n_flows);
  if (ph[0] == 'f')
    g_string_append (w->out, ",\"bp\":\"e\"");
  g_string_append (w->out, ",\"ts\":");
  append_us (w->out, (guint64) ts - (guint64) w->base_ns);
  g_string_append_c (w->out, '}');
}

/* The arrow leaves the launching row at its start and ends inside the task. */
static void
write_task (TraceWriter *w, const AfgDeviceTask *task, const guint32 *pids)
{
  const AfgDeviceLaunch *launch = launch_of (w, task);

  append_complete (w, pids[task->track], task->track, "NPU task", afg_task_kind_to_string (task->kind),
                   task->start_ns, task->end_ns);
  if (launch == NULL)
    return;
  w->n_flows++;
  append_flow_end (w, "s", (guint32) ((guint64) launch->global_tid >> 32), (guint32) launch->global_tid,
                   launch->start_ns);
  append_flow_end (w, "f", pids[task->track], task->track, task->start_ns);
}

static void
write_devices (TraceWriter *w)
{
  g_autofree guint32 *pids = NULL;

  if (w->tasks == NULL || w->tasks->tasks->len == 0)
    return;
  pids = write_tracks (w);
  for (guint i = 0; i < w->tasks->tasks->len && !w->failed; i++)
    {
      const AfgDeviceTask *task = &g_array_index (w->tasks->tasks, AfgDeviceTask, i);

      if (task_in_scope (w, task))
        write_task (w, task, pids);
    }
}

static void
write_head (TraceWriter *w)
{
  g_string_append (w->out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ascend-flamegraph\",\"source\":");
  afg_json_append_string (w->out, afg_document_get_source_name (w->document));
  g_string_append (w->out, ",\"base_ns\":");
  afg_json_append_int (w->out, w->base_ns);
  if (w->scope->bounded)
    g_string_append_printf (w->out, ",\"start_ns\":%" G_GINT64_FORMAT ",\"end_ns\":%" G_GINT64_FORMAT,
                            w->scope->start_ns, w->scope->end_ns);
  g_string_append (w->out, "},\"traceEvents\":[\n");
}

static GHashTable *
collect_host_pids (const AfgDocument *document)
{
  const AfgEventStore *store = afg_document_get_events (document);
  GHashTable *pids = g_hash_table_new (NULL, NULL);

  for (guint t = 0; t < afg_event_store_get_n_threads (store); t++)
    g_hash_table_add (pids, GUINT_TO_POINTER (afg_event_store_get_thread (store, t)->pid));
  return pids;
}

gboolean
afg_trace_write (const AfgTree *tree, const AfgDeviceTasks *tasks, AfgWriteFunc write_func, gpointer user_data,
                 GError **error)
{
  TraceWriter w = { .tasks = tasks, .write_func = write_func, .write_data = user_data,
                    .next_pid = FIRST_SYNTHETIC_PID, .error = error };

  g_return_val_if_fail (tree != NULL && write_func != NULL, FALSE);

  w.document = afg_tree_get_document (tree);
  w.scope = afg_tree_get_scope (tree);
  w.merge_addresses = (afg_tree_get_flags (tree) & AFG_TREE_MERGE_ADDRESSES) != 0;
  w.out = g_string_sized_new (CHUNK_BYTES + 4096);
  w.host_pids = collect_host_pids (w.document);
  find_base (&w);
  write_head (&w);
  write_steps (&w);
  write_host (&w);
  write_devices (&w);
  g_string_append (w.out, "\n]}\n");
  flush (&w, 0);
  g_string_free (w.out, TRUE);
  g_hash_table_unref (w.host_pids);
  return !w.failed;
}
