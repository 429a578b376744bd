/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-trace-reader"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-document-private.h"
#include "afg-npu-reader.h"
#include "afg-source.h"
#include "afg-sql-value.h"
#include "afg-trace-reader.h"

static const char * const track_columns[] = { "deviceId", "streamId" };
static const char * const kind_columns[] = { "globalTaskId", "taskType" };

typedef struct {
  AfgSource          source;
  const AfgDocument *document;
  GCancellable      *cancellable;
  sqlite3           *db;
  gint64            *types;
  guint              n_types;
  AfgNpuTasks       *npu;
  AfgVec             rows;        /* links (afg_npu_tasks_wants) of the rows that may launch, in rowid order */
  GArray            *candidates;  /* AfgDeviceLaunch, one per row of rows */
  guint32           *launch_of;   /* candidate -> index in launches, or AFG_DEVICE_NO_LAUNCH */
  GHashTable        *tracks;      /* "device/stream" -> track index + 1 */
  AfgDeviceTasks    *out;
} TraceRead;

static int
progress_handler (void *data)
{
  return g_cancellable_is_cancelled (data);
}

static gboolean
type_accepted (const TraceRead *self, sqlite3_stmt *stmt)
{
  gint64 type;

  if (!self->source.has_type)
    return TRUE;
  if (afg_column_int64 (stmt, 4, &type) != AFG_VALUE_OK)
    return FALSE;
  for (guint i = 0; i < self->n_types; i++)
    if (self->types[i] == type)
      return TRUE;
  return FALSE;
}

static gboolean
is_step_name (const TraceRead *self, sqlite3_stmt *stmt)
{
  const AfgStringTable *strings = &self->document->strings;
  gint64 id;
  guint32 index;

  return afg_column_int64 (stmt, 3, &id) == AFG_VALUE_OK && afg_string_table_find_id (strings, id, &index)
         && afg_string_table_is_step (strings, index);
}

/* The loader's rule for a used row (afg-loader.c, read_row). */
static gboolean
read_used_row (const TraceRead *self, sqlite3_stmt *stmt, AfgDeviceLaunch *row)
{
  gint64 duration;

  return type_accepted (self, stmt)
         && afg_column_int64 (stmt, 0, &row->start_ns) == AFG_VALUE_OK
         && afg_column_int64 (stmt, 1, &row->end_ns) == AFG_VALUE_OK
         && afg_column_int64 (stmt, 2, &row->global_tid) == AFG_VALUE_OK
         && !is_step_name (self, stmt)
         && row->end_ns > row->start_ns
         && !__builtin_sub_overflow (row->end_ns, row->start_ns, &duration);
}

static void
add_api_row (TraceRead *self, sqlite3_stmt *stmt)
{
  gint64 connection_id;
  guint64 link;
  AfgDeviceLaunch launch;

  if (afg_column_int64 (stmt, 5, &connection_id) != AFG_VALUE_OK
      || !afg_npu_tasks_wants (self->npu, connection_id, &link) || !read_used_row (self, stmt, &launch))
    return;
  AFG_VEC_APPEND (&self->rows, guint64, link);
  g_array_append_val (self->candidates, launch);
}

/* An id of the kinds' rules (afg-task-kinds.h), AFG_TASK_NO_ID when it
 * cannot match. */
static gint64
kind_id (sqlite3_stmt *stmt, int col)
{
  gint64 id;

  return afg_column_int64 (stmt, col, &id) == AFG_VALUE_OK && afg_npu_is_link (id) ? id : AFG_TASK_NO_ID;
}

/* @id of STRING_IDS as the document's string, AFG_DEVICE_NO_NAME when
 * it names none. */
static guint32
document_string (const TraceRead *self, gint64 id)
{
  guint32 index;

  return id != AFG_TASK_NO_ID && afg_string_table_find_id (&self->document->strings, id, &index)
           ? index : AFG_DEVICE_NO_NAME;
}

/* The kind, the name (a compute task's kernel, else its type) and
 * whether it is one of the profiler's markers. */
static void
classify (TraceRead *self, sqlite3_stmt *stmt, AfgDeviceTask *task)
{
  AfgTaskKinds *kinds = afg_npu_tasks_get_kinds (self->npu);
  gint64 name_id = AFG_TASK_NO_ID, type = kind_id (stmt, 6);

  task->kind = afg_task_kinds_classify (kinds, kind_id (stmt, 4), kind_id (stmt, 5), type, &name_id);
  task->name = document_string (self, task->kind == AFG_TASK_KIND_COMPUTE && name_id != AFG_TASK_NO_ID
                                        ? name_id : type);
  task->profiling = afg_task_kinds_is_profiling (kinds, type);
}

static gint64
column_or_unknown (sqlite3_stmt *stmt, int col)
{
  gint64 value;

  return afg_column_int64 (stmt, col, &value) == AFG_VALUE_OK ? value : AFG_DEVICE_UNKNOWN;
}

/* Candidates become launches in the order their first task comes. */
static guint32
launch_for (TraceRead *self, guint64 candidate)
{
  if (self->launch_of[candidate] == AFG_DEVICE_NO_LAUNCH)
    {
      self->launch_of[candidate] = self->out->launches->len;
      g_array_append_val (self->out->launches, g_array_index (self->candidates, AfgDeviceLaunch, candidate));
    }
  return self->launch_of[candidate];
}

static void
add_task (TraceRead *self, sqlite3_stmt *stmt)
{
  AfgDeviceTask task = { 0, 0, 0, AFG_DEVICE_NO_LAUNCH, AFG_TASK_KIND_OTHER, FALSE, AFG_DEVICE_NO_NAME };
  gint64 ns, connection_id;
  guint64 candidate;

  if (!afg_npu_task_time (stmt, &ns))
    return;
  task.start_ns = sqlite3_column_int64 (stmt, 0);
  task.end_ns = sqlite3_column_int64 (stmt, 1);
  task.track = afg_device_tasks_track (self->out, self->tracks, column_or_unknown (stmt, 2), column_or_unknown (stmt, 3));
  if (afg_column_int64 (stmt, 4, &connection_id) == AFG_VALUE_OK
      && afg_npu_tasks_find_row (self->npu, connection_id, &candidate))
    task.launch = launch_for (self, candidate);
  classify (self, stmt, &task);
  g_array_append_val (self->out->tasks, task);
}

static void
add_collectives (TraceRead *self)
{
  gsize n;
  const AfgCollective *ops = afg_task_kinds_get_collectives (afg_npu_tasks_get_kinds (self->npu), &n);

  for (gsize i = 0; i < n; i++)
    {
      AfgDeviceCollective op = { ops[i].start_ns, ops[i].end_ns, document_string (self, ops[i].name_id),
                                 AFG_DEVICE_NO_LAUNCH };
      guint64 candidate;

      if (afg_npu_tasks_find_row (self->npu, ops[i].link, &candidate))
        op.launch = launch_for (self, candidate);

      g_array_append_val (self->out->collectives, op);
    }
}

static int
scan (TraceRead *self, const char *sql, void (*row_func) (TraceRead *, sqlite3_stmt *))
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);

  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      row_func (self, stmt);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The loader's columns: startNs, endNs, globalTid, name, type, connectionId. */
static int
scan_api (TraceRead *self)
{
  g_autofree char *order = afg_source_rowid_order (self->db, "PYTORCH_API");
  g_autofree char *sql = g_strdup_printf ("SELECT startNs, endNs, globalTid, name, %s, connectionId FROM PYTORCH_API%s",
                                          self->source.has_type ? "type" : "NULL", order);

  return scan (self, sql, add_api_row);
}

/* TASK and CONNECTION_IDS, then the launching rows, then TASK row by row. */
static int
read_tasks (TraceRead *self)
{
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);  /* the export's own */
  g_autofree char *order = NULL;
  g_autofree char *task_sql = NULL;
  g_autofree char *problem = afg_npu_table_problem (self->db, "TASK", kind_columns, G_N_ELEMENTS (kind_columns));
  int rc;

  if ((rc = afg_npu_tasks_read (self->db, self->source.btree, self->cancellable, &self->document->strings,
                                    warnings, &self->npu)) != SQLITE_OK
      || (rc = afg_source_read_api_types (&self->source, self->db, &self->types, &self->n_types)) != SQLITE_OK)
    return rc;
  afg_vec_init (&self->rows, sizeof (guint64), 0);
  self->candidates = g_array_new (FALSE, FALSE, sizeof (AfgDeviceLaunch));
  if (afg_npu_tasks_has_links (self->npu) && (rc = scan_api (self)) != SQLITE_OK)
    return rc;
  afg_npu_tasks_claim (self->npu, &self->rows, 1);
  self->launch_of = g_new (guint32, MAX (self->candidates->len, 1));
  memset (self->launch_of, 0xff, sizeof (guint32) * MAX (self->candidates->len, 1));
  add_collectives (self);
  self->tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  order = afg_source_rowid_order (self->db, "TASK");
  task_sql = g_strdup_printf ("SELECT startNs, endNs, deviceId, streamId, connectionId, %s FROM TASK%s",
                              problem == NULL ? "globalTaskId, taskType" : "NULL, NULL", order);
  return scan (self, task_sql, add_task);
}

/* Why the device tracks cannot be drawn, or NULL when they can. */
static char *
schema_warning (TraceRead *self, gboolean *absent)
{
  g_autofree char *warning = NULL;
  g_autofree char *problem = NULL;

  *absent = afg_npu_check_schema (self->db, &self->source, &warning) == AFG_NPU_SCHEMA_ABSENT;
  if (*absent || warning != NULL)
    return g_steal_pointer (&warning);
  problem = afg_npu_table_problem (self->db, "TASK", track_columns, G_N_ELEMENTS (track_columns));
  return problem ? g_strdup_printf (_("no NPU device tracks: %s"), problem) : NULL;
}

static gboolean
read_from (TraceRead *self, GError **error)
{
  gboolean absent;
  int rc;

  sqlite3_progress_handler (self->db, 4096, progress_handler, self->cancellable);
  self->out->warning = schema_warning (self, &absent);
  if (absent || self->out->warning != NULL)
    return TRUE;
  rc = read_tasks (self);
  if (g_cancellable_set_error_if_cancelled (self->cancellable, error))
    return FALSE;
  if (rc != SQLITE_OK)
    {
      afg_source_set_error (&self->source, self->db, rc, error);
      return FALSE;
    }
  afg_device_tasks_seal (self->out);
  return TRUE;
}

static void
trace_read_clear (TraceRead *self)
{
  sqlite3_close (self->db);
  afg_source_clear (&self->source);
  g_free (self->types);
  g_clear_pointer (&self->npu, afg_npu_tasks_free);
  afg_vec_clear (&self->rows);
  g_clear_pointer (&self->candidates, g_array_unref);
  g_free (self->launch_of);
  g_clear_pointer (&self->tracks, g_hash_table_unref);
}

AfgDeviceTasks *
afg_trace_reader_read (const AfgDocument *document, GCancellable *cancellable, GError **error)
{
  TraceRead self = { .document = document, .cancellable = cancellable };
  g_autoptr(AfgDeviceTasks) out = afg_device_tasks_new ();
  gboolean ok;

  g_return_val_if_fail (document != NULL, NULL);

  self.out = out;
  ok = afg_source_open (&self.source, afg_document_get_source_path (document), cancellable, &self.db, error)
       && read_from (&self, error);
  trace_read_clear (&self);
  return ok ? g_steal_pointer (&out) : NULL;
}
