/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-trace-reader"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-document-private.h"
#include "afg-npu-reader.h"
#include "afg-source.h"
#include "afg-sql-value.h"
#include "afg-table-scan.h"
#include "afg-task-keeper.h"
#include "afg-trace-reader.h"

typedef struct {
  AfgSource          source;
  const AfgDocument *document;
  GCancellable      *cancellable;
  sqlite3           *db;
  gint64            *types;
  guint              n_types;
  AfgNpuTasks       *npu;
  AfgVec             rows;        /* links (afg_npu_tasks_wants) of the rows that may launch, in rowid order */
  AfgVec             api_ids;     /* connection ids (gint64) of the used rows that have one */
  GArray            *candidates;  /* AfgDeviceLaunch, one per id, then one per row of rows */
  AfgTaskKeeper     *keeper;      /* TASK's rows until their launches are known */
  gboolean           device_only;  /* no link to the host: the tasks, none launched */
  AfgDeviceTasks    *out;
} TraceRead;

/* The columns read, by the index the row functions take them at. */
enum { API_START, API_END, API_TID, API_NAME, API_CONNECTION, API_TYPE };
static const char * const api_columns[] = { "startNs", "endNs", "globalTid", "name", "connectionId", "type", NULL };

static inline AfgValueStatus
row_int64 (const AfgRow *row, int col, gint64 *out)
{
  return afg_value_int64 (&row->values[col], out);
}

static int
progress_handler (void *data)
{
  return g_cancellable_is_cancelled (data);
}

static gboolean
type_accepted (const TraceRead *self, const AfgRow *row)
{
  gint64 type;

  if (!self->source.has_type)
    return TRUE;
  if (row_int64 (row, API_TYPE, &type) != AFG_VALUE_OK)
    return FALSE;
  for (guint i = 0; i < self->n_types; i++)
    if (self->types[i] == type)
      return TRUE;
  return FALSE;
}

static gboolean
is_step_name (const TraceRead *self, const AfgRow *row)
{
  const AfgStringTable *strings = &self->document->strings;
  gint64 id;
  guint32 index;

  return row_int64 (row, API_NAME, &id) == AFG_VALUE_OK && afg_string_table_find_id (strings, id, &index)
         && afg_string_table_is_step (strings, index);
}

/* The loader's rule for a used row (afg-loader.c, read_row). */
static gboolean
read_used_row (const TraceRead *self, const AfgRow *values, AfgDeviceLaunch *row)
{
  return type_accepted (self, values)
         && row_int64 (values, API_START, &row->start_ns) == AFG_VALUE_OK
         && row_int64 (values, API_END, &row->end_ns) == AFG_VALUE_OK
         && row_int64 (values, API_TID, &row->global_tid) == AFG_VALUE_OK
         && !is_step_name (self, values)
         && row->end_ns > row->start_ns;
}

/* Which rows launch is known once CONNECTION_IDS is read: every used row
 * with a connection id is kept meanwhile (keep_launching). */
static gboolean
add_api_row (gpointer data, const AfgRow *row)
{
  TraceRead *self = data;
  gint64 connection_id;
  AfgDeviceLaunch launch;

  if (row_int64 (row, API_CONNECTION, &connection_id) != AFG_VALUE_OK || !read_used_row (self, row, &launch))
    return TRUE;
  AFG_VEC_APPEND (&self->api_ids, gint64, connection_id);
  g_array_append_val (self->candidates, launch);
  return TRUE;
}

/* The rows kept whose connection id reaches a task, in rowid order. */
static void
keep_launching (TraceRead *self)
{
  const gint64 *ids = self->api_ids.data;
  gboolean links = afg_npu_tasks_has_links (self->npu);
  guint n = 0;

  for (guint i = 0; i < self->candidates->len; i++)
    {
      guint64 link;

      if (links && afg_npu_tasks_wants (self->npu, ids[i], &link))
        {
          AFG_VEC_APPEND (&self->rows, guint64, link);
          g_array_index (self->candidates, AfgDeviceLaunch, n++) = g_array_index (self->candidates, AfgDeviceLaunch, i);
        }
    }
  g_array_set_size (self->candidates, n);
  afg_vec_clear (&self->api_ids);
}

/* What a direct read that gave up added, before SQLite reads the table. */
static void
undo_api (gpointer data)
{
  TraceRead *self = data;

  self->api_ids.len = 0;
  g_array_set_size (self->candidates, 0);
}

/* The loader's columns, type last (absent without the column); directly
 * from the file where it can be, else with SQLite: both in rowid order
 * with the same values (afg-table-scan.h). */
static int
scan_api (TraceRead *self, sqlite3 *db)
{
  return afg_table_scan_read_or_sql (self->source.btree, db, "PYTORCH_API", api_columns,
                                     self->source.has_type ? API_TYPE + 1 : API_TYPE, add_api_row, self, undo_api,
                                     self, self->cancellable);
}

/* PYTORCH_API on a second connection (a connection is for one thread)
 * while TASK is read on the first: they touch nothing in common. */
typedef struct {
  TraceRead *self;
  sqlite3   *db;
  int        rc;
} ApiScan;

static gpointer
api_thread (gpointer data)
{
  ApiScan *scan = data;

  scan->rc = scan_api (scan->self, scan->db);
  return NULL;
}

static GThread *
start_api (TraceRead *self, ApiScan *scan)
{
  *scan = (ApiScan) { self, afg_source_connect (&self->source, NULL), SQLITE_OK };
  if (scan->db == NULL)
    return NULL;
  sqlite3_progress_handler (scan->db, 4096, progress_handler, self->cancellable);
  return g_thread_new ("afg-trace-api", api_thread, scan);
}

/* TASK with CONNECTION_IDS and the kinds, and PYTORCH_API on two threads
 * (one after the other without a second connection). Without links no
 * row launches a task: TASK and the kinds alone. */
static int
read_both (TraceRead *self, const AfgNpuTaskHook *hook, GPtrArray *warnings)
{
  ApiScan api;
  GThread *thread;
  int rc;

  if (self->device_only)
    return afg_npu_tasks_read_hooked (self->db, self->source.btree, self->cancellable, &self->document->strings,
                                      warnings, hook, FALSE, &self->npu);
  thread = start_api (self, &api);
  rc = afg_npu_tasks_read_hooked (self->db, self->source.btree, self->cancellable, &self->document->strings,
                                  warnings, hook, TRUE, &self->npu);
  if (thread != NULL)
    g_thread_join (thread);
  sqlite3_close (api.db);
  if (rc != SQLITE_OK)
    return rc;
  return thread != NULL ? api.rc : scan_api (self, self->db);
}

/* TASK (its rows kept) and CONNECTION_IDS with the rows that may launch,
 * then the launching rows, then TASK's rows linked and classified. */
static int
read_tasks (TraceRead *self)
{
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);  /* the export's own */
  AfgDeviceTasks *kept;
  int rc;

  self->keeper = afg_task_keeper_new ();
  afg_vec_init (&self->rows, sizeof (guint64), 0);
  afg_vec_init (&self->api_ids, sizeof (gint64), 0);
  self->candidates = g_array_new (FALSE, FALSE, sizeof (AfgDeviceLaunch));
  if ((rc = afg_source_read_api_types (&self->source, self->db, &self->types, &self->n_types)) != SQLITE_OK
      || (rc = read_both (self, afg_task_keeper_get_hook (self->keeper), warnings)) != SQLITE_OK)
    return rc;
  keep_launching (self);
  afg_npu_tasks_claim (self->npu, &self->rows, 1);
  kept = afg_task_keeper_finish (self->keeper, self->npu, &self->document->strings, self->candidates->len,
                                 self->candidates, NULL);
  kept->warning = g_steal_pointer (&self->out->warning);
  afg_device_tasks_free (self->out);
  self->out = kept;
  return SQLITE_OK;
}

/* Why the device tracks cannot be drawn, or NULL when they can. A TASK
 * the loader reads without links (afg-loader.c, device_only) is drawn,
 * its tasks launched by no row: why it has no links is the document's
 * warning already. */
static char *
schema_warning (TraceRead *self, gboolean *absent)
{
  g_autofree char *warning = NULL;
  g_autofree char *problem = NULL;

  *absent = FALSE;
  if (afg_npu_check_schema (self->db, &self->source, &warning) != AFG_NPU_SCHEMA_USABLE)
    {
      self->device_only = afg_npu_task_table_usable (self->db);
      if (!self->device_only)
        {
          *absent = warning == NULL;
          return g_steal_pointer (&warning);
        }
    }
  problem = afg_npu_table_problem (self->db, "TASK", afg_task_keeper_columns,
                                   G_N_ELEMENTS (afg_task_keeper_columns));
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
  afg_vec_clear (&self->api_ids);
  g_clear_pointer (&self->candidates, g_array_unref);
  g_clear_pointer (&self->keeper, afg_task_keeper_free);
}

AfgDeviceTasks *
afg_trace_reader_read (const AfgDocument *document, GCancellable *cancellable, GError **error)
{
  TraceRead self = { .document = document, .cancellable = cancellable };
  gboolean ok;

  g_return_val_if_fail (document != NULL, NULL);

  self.out = afg_device_tasks_new ();
  ok = afg_source_open (&self.source, afg_document_get_source_path (document), cancellable, &self.db, error)
       && read_from (&self, error);
  trace_read_clear (&self);
  if (!ok)
    g_clear_pointer (&self.out, afg_device_tasks_free);
  return self.out;
}
