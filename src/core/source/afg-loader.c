/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-loader"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-cores.h"
#include "afg-error.h"
#include "afg-event-sort.h"
#include "afg-huge.h"
#include "afg-loader.h"
#include "afg-npu-reader.h"
#include "afg-task-keeper.h"
#include "afg-document-private.h"
#include "afg-document-timeline.h"
#include "afg-source.h"
#include "afg-sql-value.h"
#include "afg-table-scan.h"

#define FIRST_CHUNK_EVENTS 8
#define REPORT_EVERY_ROWS 16384
#define PARALLEL_MIN_ROWS 100000
#define PARALLEL_MIN_LEAVES 1024  /* about PARALLEL_MIN_ROWS rows of 4 KiB pages */
#define N_READERS 2  /* at most 2: a link keeps the reader in one bit */

typedef struct {
  AfgSource            source;
  AfgDocument         *document;
  gint64              *types;
  guint                n_types;
  GCancellable        *cancellable;
  gint                 abort;
  gint                 fast_abort;    /* a part of the direct read gave up: stop the others */
  guint64              rows_read;
  guint64              rows_total;
  AfgLoadProgressFunc  progress;
  gpointer             progress_data;
  AfgNpuSchema         npu_schema;
  AfgNpuTasks         *npu_tasks;     /* read before PYTORCH_API; NULL for no device data */
  gboolean             device_only;   /* no link to the host: the timeline and collectives, no NPU time */
  gboolean             ops_only;      /* no usable TASK either: the collectives alone */
  gboolean             kinds_read;    /* the collectives were read: the tasks can be classified */
  gboolean             keeps_links;   /* wants_links() as the readers began, read per row */
  AfgVec               npu_rows[N_READERS];  /* their links (afg_npu_tasks_wants) per reader, until linking */
  guint64              npu_rows_first[N_READERS];  /* the ordinal of each reader's first row */
  AfgTableScan        *scan;          /* the direct read of PYTORCH_API, while it runs */
  AfgLoadFlags         flags;
  AfgTaskKeeper       *keeper;        /* TASK's rows, with AFG_LOAD_KEEP_TASKS and TASK's tracks */
  guint64              n_npu_rows;    /* the rows of npu_rows, once linking begins */
  guint64             *thread_first;  /* with keeper: the ordinal of each store thread's first event */
  guint32             *row_ordinals;  /* with keeper: where each row of npu_rows landed, by ordinal */
} LoadContext;

typedef struct {
  gint64    global_tid;
  AfgChunk *head;
  AfgChunk *tail;
} ThreadSlot;

typedef struct {
  LoadContext *ctx;
  guint        index;
  sqlite3     *db;
  gboolean     ranged;
  gint64       lo;
  gint64       hi;
  gboolean     reports;
  AfgStats     stats;
  GArray      *steps;     /* AfgStep, in row order */
  GArray      *step_tids; /* gint64: the global tid of each ProfilerStep# row */
  AfgIntMap    slot_map;
  GArray      *slots;
  gint64       last_tid;
  guint32      last_slot;
  AfgEvent    *scratch;
  guint32      scratch_capacity;
  guint        unreported;
  int          rc;
  AfgScanResult scan_result;  /* of its part of the direct read */
} __attribute__ ((aligned (128))) Reader;  /* no false sharing between readers */

static void
report (LoadContext *ctx, AfgLoadPhase phase, guint64 rows)
{
  if (ctx->progress != NULL)
    ctx->progress (phase, rows, ctx->rows_total, ctx->progress_data);
}

static int
progress_handler (void *data)
{
  LoadContext *ctx = data;

  return g_atomic_int_get (&ctx->abort) || g_cancellable_is_cancelled (ctx->cancellable);
}

static ThreadSlot *
slot_for (Reader *r, gint64 global_tid)
{
  guint32 index;

  if (r->slots->len > 0 && global_tid == r->last_tid)
    return &g_array_index (r->slots, ThreadSlot, r->last_slot);
  if (!afg_int_map_lookup (&r->slot_map, (guint64) global_tid, &index))
    {
      ThreadSlot slot = { global_tid, NULL, NULL };

      index = r->slots->len;
      g_array_append_val (r->slots, slot);
      afg_int_map_insert (&r->slot_map, (guint64) global_tid, index);
    }
  r->last_tid = global_tid;
  r->last_slot = index;
  return &g_array_index (r->slots, ThreadSlot, index);
}

static void
free_scratch (Reader *r)
{
  afg_huge_free (r->scratch, sizeof (AfgEvent) * r->scratch_capacity);
  r->scratch = NULL;
  r->scratch_capacity = 0;
}

static void
sort_chunk (Reader *r, AfgChunk *chunk)
{
  /* The scratch grows with the chunks (they double): a small profile
   * does not pay for a full chunk's buffer. */
  if (r->scratch_capacity < chunk->len)
    {
      free_scratch (r);
      r->scratch_capacity = chunk->capacity;
      r->scratch = afg_huge_alloc (sizeof (AfgEvent) * r->scratch_capacity);
    }
  afg_chunk_sort (chunk, r->scratch);
}

static void
append_event (Reader *r, gint64 global_tid, gint64 start, gint64 end, guint32 name, guint32 link)
{
  ThreadSlot *slot = slot_for (r, global_tid);
  AfgChunk *tail = slot->tail;

  if (tail == NULL || tail->len == tail->capacity)
    {
      /* Eightfold: chunks under 2 MB cannot be huge pages and fault in
       * 4 kB pages; what a chunk holds beyond its events is never touched. */
      AfgChunk *chunk = afg_chunk_new (tail ? MIN (tail->capacity * 8, AFG_CHUNK_MAX_EVENTS)
                                            : FIRST_CHUNK_EVENTS);
      if (tail != NULL)
        {
          sort_chunk (r, tail);
          tail->next = chunk;
        }
      else
        slot->head = chunk;
      slot->tail = tail = chunk;
    }
  tail->events[tail->len] = (AfgEvent) { start, end, name, link };
  tail->len++;
}

static inline gboolean
type_accepted (Reader *r, const AfgRow *row)
{
  gint64 type;

  if (afg_value_int64 (&row->values[4], &type) != AFG_VALUE_OK)
    return FALSE;
  for (guint i = 0; i < r->ctx->n_types; i++)
    if (r->ctx->types[i] == type)
      return TRUE;
  return FALSE;
}

static guint32
name_index (Reader *r, const AfgRow *row)
{
  AfgStringTable *strings = &r->ctx->document->strings;
  gint64 id;

  if (afg_value_int64 (&row->values[3], &id) != AFG_VALUE_OK)
    return strings->null_name;
  return afg_string_table_lookup_id (strings, id);
}

/* A link numbers the reader's rows with a connection id from 1, the
 * reader in the top bit: it must survive the sort to find where the row
 * lands in the store. */
static guint32
npu_link (Reader *r, const AfgRow *values)
{
  AfgVec *rows = &r->ctx->npu_rows[r->index];
  gint64 connection_id;
  guint64 link;

  if (!r->ctx->keeps_links || afg_value_int64 (&values->values[5], &connection_id) != AFG_VALUE_OK
      || !afg_npu_tasks_wants (r->ctx->npu_tasks, connection_id, &link) || rows->len >= G_MAXINT32)
    return 0;
  AFG_VEC_APPEND (rows, guint64, link);
  return (guint32) r->index << 31 | (guint32) rows->len;
}

static void
place_link (guint32 link, guint thread, guint64 event, gpointer data)
{
  LoadContext *ctx = data;

  guint64 row = ctx->npu_rows_first[link >> 31] + (link & G_MAXINT32) - 1;

  afg_npu_tasks_link_place (ctx->npu_tasks, thread, event, row);
  if (ctx->row_ordinals != NULL)
    ctx->row_ordinals[row] = (guint32) MIN (ctx->thread_first[thread] + event, AFG_CHART_LAUNCH_NONE);
}

/* "ProfilerStep#N", N decimal: step N. */
static gboolean
parse_step_id (const char *name, gint64 *id)
{
  const char *digits = name + strlen ("ProfilerStep#");

  return *digits != '\0' && afg_parse_int64 ((const unsigned char *) digits, strlen (digits), id)
         && g_ascii_isdigit (*digits);
}

static void
record_step (Reader *r, guint32 name, gint64 start, gint64 end)
{
  AfgStep step = { 0, start, end };

  if (parse_step_id (afg_string_table_get (&r->ctx->document->strings, name), &step.id))
    g_array_append_val (r->steps, step);
}

/* Steps come from ProfilerStep# rows of any type. */
static void
read_times (const AfgRow *row, AfgValueStatus s[3], gint64 *start, gint64 *end, gint64 *global_tid)
{
  s[0] = afg_value_int64 (&row->values[0], start);
  s[1] = afg_value_int64 (&row->values[1], end);
  s[2] = afg_value_int64 (&row->values[2], global_tid);
}

/* A ProfilerStep# row counts for its thread's role (afg-thread-role.h)
 * whatever its type and times, as it makes a step whatever its type. */
static void
record_step_thread (Reader *r, AfgValueStatus tid_status, gint64 global_tid)
{
  if (tid_status == AFG_VALUE_OK)
    g_array_append_val (r->step_tids, global_tid);
}

/* A row skipped for its values still marks a step when it is one and
 * its times are whole: steps come from rows of any thread, a NULL or
 * malformed globalTid included. */
static void
record_unused_step (Reader *r, const AfgRow *row, const AfgValueStatus s[3], gint64 start, gint64 end,
                    gint64 global_tid)
{
  guint32 name = name_index (r, row);

  if (!afg_string_table_is_step (&r->ctx->document->strings, name))
    return;
  record_step_thread (r, s[2], global_tid);
  if (s[0] == AFG_VALUE_OK && s[1] == AFG_VALUE_OK)
    record_step (r, name, start, end);
}

/* Only a step row's times are read: the rows of other types are many. */
static void
read_skipped_type_row (Reader *r, const AfgRow *row)
{
  AfgValueStatus s[3];
  gint64 start = 0, end = 0, global_tid = 0;

  if (!afg_string_table_is_step (&r->ctx->document->strings, name_index (r, row)))
    return;
  read_times (row, s, &start, &end, &global_tid);
  record_unused_step (r, row, s, start, end, global_tid);
}

/* One logic for the rows of SQLite and of the direct reader. */
static void
read_row (Reader *r, const AfgRow *row)
{
  AfgValueStatus s[3];
  gint64 start = 0, end = 0, global_tid = 0;
  guint32 name;

  r->stats.rows++;
  if (r->ctx->source.has_type && !type_accepted (r, row))
    {
      r->stats.skipped_type++;
      read_skipped_type_row (r, row);
      return;
    }
  read_times (row, s, &start, &end, &global_tid);
  if (s[0] == AFG_VALUE_NULL || s[1] == AFG_VALUE_NULL || s[2] == AFG_VALUE_NULL)
    {
      r->stats.skipped_null++;
      record_unused_step (r, row, s, start, end, global_tid);
      return;
    }
  if (s[0] != AFG_VALUE_OK || s[1] != AFG_VALUE_OK || s[2] != AFG_VALUE_OK)
    {
      r->stats.skipped_malformed++;
      record_unused_step (r, row, s, start, end, global_tid);
      return;
    }
  name = name_index (r, row);
  if (afg_string_table_is_step (&r->ctx->document->strings, name))
    {
      r->stats.profiler_steps++;
      record_step_thread (r, s[2], global_tid);
      record_step (r, name, start, end);
    }
  else if (end <= start)
    r->stats.skipped_nonpositive++;
  else
    append_event (r, global_tid, start, end, name, npu_link (r, row));
}

static void
count_progress (Reader *r)
{
  guint64 total;

  if (++r->unreported < REPORT_EVERY_ROWS)
    return;
  total = __atomic_add_fetch (&r->ctx->rows_read, r->unreported, __ATOMIC_RELAXED);
  r->unreported = 0;
  if (r->reports)
    report (r->ctx, AFG_LOAD_PHASE_READING, total);
}

static gboolean
wants_links (LoadContext *ctx)
{
  return ctx->npu_tasks != NULL && afg_npu_tasks_has_links (ctx->npu_tasks);
}

/* startNs, endNs, globalTid, name, type (or NULL), connectionId when a task may link. */
static int
n_scan_columns (LoadContext *ctx)
{
  return wants_links (ctx) ? 6 : 5;
}

static int
prepare_scan (Reader *r, sqlite3_stmt **stmt)
{
  g_autofree char *range = r->ranged ? g_strdup_printf (" WHERE %s BETWEEN ?1 AND ?2",
                                                        r->ctx->source.rowid_alias) : NULL;
  const char *rowid = r->ctx->source.rowid_alias;
  /* As afg_source_rowid_order(): rowid order, by its name or by the
   * table's own b-tree (no range then: a range needs the name). */
  g_autofree char *order = rowid != NULL ? g_strdup_printf (" ORDER BY %s", rowid) : NULL;
  g_autofree char *sql = g_strdup_printf ("SELECT startNs, endNs, globalTid, name, %s%s FROM PYTORCH_API%s%s%s",
                                          r->ctx->source.has_type ? "type" : "NULL",
                                          r->ctx->keeps_links ? ", connectionId" : "",
                                          rowid == NULL ? " NOT INDEXED" : "", range ? range : "",
                                          order ? order : "");
  int rc = sqlite3_prepare_v2 (r->db, sql, -1, stmt, NULL);

  if (rc == SQLITE_OK && r->ranged)
    {
      sqlite3_bind_int64 (*stmt, 1, r->lo);
      sqlite3_bind_int64 (*stmt, 2, r->hi);
    }
  return rc;
}

static void
finish_reader (Reader *r)
{
  for (guint i = 0; i < r->slots->len; i++)
    sort_chunk (r, g_array_index (r->slots, ThreadSlot, i).tail);
  free_scratch (r);
}

static gpointer
reader_run (gpointer data)
{
  Reader *r = data;
  sqlite3_stmt *stmt = NULL;
  AfgRow row;
  int rc, n_columns = n_scan_columns (r->ctx);

  sqlite3_progress_handler (r->db, 4096, progress_handler, r->ctx);
  rc = prepare_scan (r, &stmt);
  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      afg_row_from_stmt (stmt, n_columns, &row);
      read_row (r, &row);
      count_progress (r);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  finish_reader (r);
  r->rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
  if (r->rc != SQLITE_OK)
    g_atomic_int_set (&r->ctx->abort, TRUE);
  return NULL;
}

static void
reader_init (Reader *r, guint index, LoadContext *ctx, sqlite3 *db)
{
  memset (r, 0, sizeof *r);
  r->ctx = ctx;
  r->index = index;
  r->db = db;
  if (wants_links (ctx))
    {
      ctx->keeps_links = TRUE;
      afg_vec_init (&ctx->npu_rows[index], sizeof (guint64), afg_npu_tasks_get_n_links (ctx->npu_tasks));
    }
  r->slots = g_array_new (FALSE, FALSE, sizeof (ThreadSlot));
  r->steps = g_array_new (FALSE, FALSE, sizeof (AfgStep));
  r->step_tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  afg_int_map_init (&r->slot_map, 64);
}

static void
reader_clear (Reader *r)
{
  for (guint i = 0; r->slots != NULL && i < r->slots->len; i++)
    afg_chunk_list_free (g_array_index (r->slots, ThreadSlot, i).head);
  g_clear_pointer (&r->slots, g_array_unref);
  g_clear_pointer (&r->steps, g_array_unref);
  g_clear_pointer (&r->step_tids, g_array_unref);
  afg_int_map_clear (&r->slot_map);
  free_scratch (r);
}

typedef struct {
  gint64   lo, hi;
  gboolean found;
} RowidRange;

/* SQLITE_OK with *@found set when the one value is an integer, else
 * SQLite's error. */
static int
query_int64 (sqlite3 *db, const char *sql, gint64 *out, gboolean *found)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);

  *found = FALSE;
  if (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      *found = sqlite3_column_type (stmt, 0) == SQLITE_INTEGER;
      *out = sqlite3_column_int64 (stmt, 0);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int
load_types (LoadContext *ctx, sqlite3 *db)
{
  return afg_source_read_api_types (&ctx->source, db, &ctx->types, &ctx->n_types);
}

static gboolean
fail_sqlite (LoadContext *ctx, sqlite3 *db, int rc, GError **error)
{
  if (g_cancellable_set_error_if_cancelled (ctx->cancellable, error))
    return FALSE;
  afg_source_set_error (&ctx->source, db, rc, error);
  return FALSE;
}

/* The rowid range of PYTORCH_API, which sets the rows progress counts
 * to; range->found is FALSE without one (no rowid alias, no rows, or a
 * damaged b-tree whose first rowid is past its last: it is read in one
 * go). An SQLite error means the table is damaged where any reader would
 * go first: the load fails, whichever reader would have read the rows,
 * as SQLite answers differently from one query plan to another past
 * such an error. */
static int
rowid_range (LoadContext *ctx, sqlite3 *db, RowidRange *range)
{
  g_autofree char *min_sql = NULL;
  g_autofree char *max_sql = NULL;
  gboolean has_lo, has_hi;
  int rc;

  range->found = FALSE;
  if (ctx->source.rowid_alias == NULL)
    return SQLITE_OK;
  min_sql = g_strdup_printf ("SELECT min(%s) FROM PYTORCH_API", ctx->source.rowid_alias);
  max_sql = g_strdup_printf ("SELECT max(%s) FROM PYTORCH_API", ctx->source.rowid_alias);
  if ((rc = query_int64 (db, min_sql, &range->lo, &has_lo)) != SQLITE_OK
      || (rc = query_int64 (db, max_sql, &range->hi, &has_hi)) != SQLITE_OK)
    return rc;
  range->found = has_lo && has_hi && range->hi >= range->lo;
  if (range->found)  /* saturates */
    ctx->rows_total = MAX ((guint64) range->hi - (guint64) range->lo, (guint64) range->hi - (guint64) range->lo + 1);
  return SQLITE_OK;
}

/* Splits the table by rowid between two connections when it is big
 * (@second, when open already, is taken). */
static guint
plan_readers (LoadContext *ctx, sqlite3 *db, const RowidRange *range, sqlite3 **second, Reader readers[N_READERS])
{
  gint64 lo = range->lo, hi = range->hi;
  guint n = 1;

  reader_init (&readers[0], 0, ctx, db);
  readers[0].reports = TRUE;
  if (!range->found)
    return 1;
  if (ctx->rows_total >= PARALLEL_MIN_ROWS && afg_cores_get () > 1)
    {
      if (*second == NULL)
        *second = afg_source_connect (&ctx->source, NULL);
      if (*second != NULL)
        {
          /* Unsigned: hi - lo may not fit a gint64 in a hostile file. */
          gint64 mid = (gint64) ((guint64) lo + ((guint64) hi - (guint64) lo) / 2);

          reader_init (&readers[1], 1, ctx, g_steal_pointer (second));
          readers[1].ranged = TRUE;
          readers[1].lo = mid + 1;
          readers[1].hi = hi;
          readers[0].ranged = TRUE;
          readers[0].lo = lo;
          readers[0].hi = mid;
          n = 2;
        }
    }
  return n;
}

static gboolean
stop_fast (gpointer data)
{
  LoadContext *ctx = data;

  return g_atomic_int_get (&ctx->fast_abort) || progress_handler (ctx);
}

static gboolean
take_row (gpointer data, const AfgRow *row)
{
  Reader *r = data;

  read_row (r, row);
  count_progress (r);
  return TRUE;
}

static gpointer
fast_reader_run (gpointer data)
{
  Reader *r = data;

  r->scan_result = afg_table_scan_run (r->ctx->scan, r->index, take_row, r, stop_fast, r->ctx);
  finish_reader (r);
  if (r->scan_result == AFG_SCAN_FALLBACK)
    g_atomic_int_set (&r->ctx->fast_abort, TRUE);
  return NULL;
}

static void
reset_readers (LoadContext *ctx, Reader readers[N_READERS], guint n)
{
  for (guint i = 0; i < n; i++)
    {
      reader_clear (&readers[i]);
      afg_vec_clear (&ctx->npu_rows[i]);
    }
  ctx->keeps_links = FALSE;
  ctx->rows_read = 0;
  g_atomic_int_set (&ctx->fast_abort, FALSE);
}

/* PYTORCH_API read from its b-tree, a part of its leaves per reader
 * (reader 0 the lowest rowids). FALSE when this cannot be done or gave up
 * on something SQLite must judge: nothing of it is kept then. */
static gboolean
read_rows_direct (LoadContext *ctx, sqlite3 *db, Reader readers[N_READERS], guint *n)
{
  const char *columns[] = { "startNs", "endNs", "globalTid", "name",
                            ctx->source.has_type ? "type" : NULL, "connectionId" };
  GThread *helpers[N_READERS] = { NULL };
  gboolean ok = TRUE;

  ctx->scan = afg_table_scan_new (ctx->source.btree, db, "PYTORCH_API", columns, n_scan_columns (ctx),
                                  afg_cores_get () > 1 ? N_READERS : 1, PARALLEL_MIN_LEAVES);
  if (ctx->scan == NULL)
    return FALSE;
  *n = afg_table_scan_get_n_parts (ctx->scan);
  for (guint i = 0; i < *n; i++)
    reader_init (&readers[i], i, ctx, NULL);
  readers[0].reports = TRUE;
  for (guint i = 1; i < *n; i++)
    helpers[i] = g_thread_new ("afg-reader", fast_reader_run, &readers[i]);
  fast_reader_run (&readers[0]);
  for (guint i = 0; i < *n; i++)
    {
      if (helpers[i] != NULL)
        g_thread_join (helpers[i]);
      ok = ok && readers[i].scan_result != AFG_SCAN_FALLBACK;
    }
  g_clear_pointer (&ctx->scan, afg_table_scan_free);
  if (!ok)
    {
      g_debug ("PYTORCH_API: the direct read gave up, SQLite reads it");
      reset_readers (ctx, readers, *n);
      *n = 0;
    }
  return ok;
}

static gboolean
read_rows (LoadContext *ctx, Reader readers[N_READERS], guint n, GError **error)
{
  GThread *helper = NULL;

  if (n > 1)
    helper = g_thread_new ("afg-reader", reader_run, &readers[1]);
  reader_run (&readers[0]);
  if (helper != NULL)
    g_thread_join (helper);
  for (guint i = 0; i < n; i++)
    if (readers[i].rc != SQLITE_OK)
      {
        for (guint j = 0; j < n; j++)
          if (readers[j].rc != SQLITE_OK && readers[j].rc != SQLITE_INTERRUPT)
            return fail_sqlite (ctx, readers[j].db, readers[j].rc, error);
        return fail_sqlite (ctx, readers[i].db, readers[i].rc, error);
      }
  return !g_cancellable_set_error_if_cancelled (ctx->cancellable, error);
}

static void
add_stats (AfgStats *into, const AfgStats *from)
{
  into->rows += from->rows;
  into->skipped_type += from->skipped_type;
  into->skipped_null += from->skipped_null;
  into->skipped_malformed += from->skipped_malformed;
  into->skipped_nonpositive += from->skipped_nonpositive;
  into->profiler_steps += from->profiler_steps;
}

static int
compare_slots (gconstpointer a, gconstpointer b)
{
  gint64 ta = ((const ThreadSlot *) a)->global_tid, tb = ((const ThreadSlot *) b)->global_tid;

  return ta < tb ? -1 : ta > tb;
}

/* One slot per thread, its chunks in row order (reader 0 holds the lower rowids). */
static GArray *
merge_slots (Reader readers[N_READERS], guint n)
{
  GArray *merged = g_array_new (FALSE, FALSE, sizeof (ThreadSlot));
  AfgIntMap index;

  afg_int_map_init (&index, 64);
  for (guint i = 0; i < n; i++)
    {
      for (guint s = 0; s < readers[i].slots->len; s++)
        {
          ThreadSlot *slot = &g_array_index (readers[i].slots, ThreadSlot, s);
          guint32 at = afg_int_map_insert (&index, (guint64) slot->global_tid, merged->len);

          if (at == merged->len)
            g_array_append_val (merged, *slot);
          else
            {
              ThreadSlot *into = &g_array_index (merged, ThreadSlot, at);
              into->tail->next = slot->head;
              into->tail = slot->tail;
            }
          slot->head = slot->tail = NULL;
        }
    }
  afg_int_map_clear (&index);
  g_array_sort (merged, compare_slots);
  return merged;
}

/* Below this the biggest thread is not worth the split (split_biggest). */
#define SPLIT_MIN_EVENTS 100000

/* Units of work, taken in order by two workers: with @split, units 0 and
 * 1 are its lower and upper parts and unit k > 1 is @order[k - 1];
 * without, unit k is @order[k]. */
typedef struct {
  LoadContext   *ctx;
  GArray        *slots;
  guint         *order;  /* slot indices, most events first */
  AfgEventSplit *split;  /* the biggest thread in two parts, or NULL */
  guint          n_units;
  guint          next;   /* atomic: the next unit to encode */
} StoreWork;

static gpointer
store_worker (gpointer data)
{
  StoreWork *work = data;
  guint k;

  while ((k = (guint) g_atomic_int_add ((gint *) &work->next, 1)) < work->n_units
         && !g_cancellable_is_cancelled (work->ctx->cancellable))
    {
      guint i;
      ThreadSlot *slot;

      if (work->split != NULL && k < 2)
        {
          afg_event_split_fill (work->split, k == 1);
          continue;
        }
      i = work->order[work->split != NULL ? k - 1 : k];
      slot = &g_array_index (work->slots, ThreadSlot, i);
      afg_event_store_fill (work->ctx->document->events, i, slot->global_tid, g_steal_pointer (&slot->head),
                            place_link, work->ctx);
    }
  return NULL;
}

static guint64
count_events (const ThreadSlot *slot)
{
  guint64 n = 0;

  for (const AfgChunk *c = slot->head; c != NULL; c = c->next)
    n += c->len;
  return n;
}

static int
compare_counts (gconstpointer a, gconstpointer b, gpointer counts)
{
  guint64 x = ((const guint64 *) counts)[*(const guint *) a], y = ((const guint64 *) counts)[*(const guint *) b];

  return x > y ? -1 : x < y;
}

/* A thread with more than half the events would keep one core busy
 * alone: it is split by start time so that its lower part is half of
 * all, and its upper part and the other threads are the other half. */
static AfgEventSplit *
split_biggest (LoadContext *ctx, GArray *slots, const guint *order, const guint64 *counts)
{
  ThreadSlot *slot = &g_array_index (slots, ThreadSlot, order[0]);
  guint64 total = 0;
  AfgEventSplit *split;

  for (guint i = 0; i < slots->len; i++)
    total += counts[i];
  if (counts[order[0]] < SPLIT_MIN_EVENTS || counts[order[0]] <= total / 2)
    return NULL;
  split = afg_event_store_split (ctx->document->events, order[0], slot->global_tid, slot->head, total / 2,
                                 place_link, ctx);
  if (split != NULL)
    {
      g_debug ("store: a thread of %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " events in two parts",
               counts[order[0]], total);
      slot->head = NULL;
    }
  return split;
}

/* Threads are encoded on both cores, the biggest first; each slot's
 * place in the store is its place in @slots (ascending global tid). */
static gboolean
store_events (LoadContext *ctx, GArray *slots, gboolean parallel, GError **error)
{
  StoreWork work = { ctx, slots, g_new (guint, MAX (slots->len, 1)), NULL, slots->len, 0 };
  g_autofree guint64 *counts = g_new (guint64, MAX (slots->len, 1));
  GThread *helper = NULL;

  report (ctx, AFG_LOAD_PHASE_BUILDING, ctx->document->stats.rows);
  for (guint i = 0; i < slots->len; i++)
    {
      work.order[i] = i;
      counts[i] = count_events (&g_array_index (slots, ThreadSlot, i));
    }
  g_qsort_with_data (work.order, slots->len, sizeof (guint), compare_counts, counts);
  afg_event_store_reserve (ctx->document->events, slots->len);
  if (parallel && slots->len > 0 && (work.split = split_biggest (ctx, slots, work.order, counts)) != NULL)
    work.n_units++;
  if (parallel && work.n_units > 1)
    helper = g_thread_new ("afg-store", store_worker, &work);
  store_worker (&work);
  if (helper != NULL)
    g_thread_join (helper);
  if (work.split != NULL)
    afg_event_split_finish (work.split);
  g_free (work.order);
  return !g_cancellable_set_error_if_cancelled (ctx->cancellable, error);
}

static int
compare_step_ids (gconstpointer a, gconstpointer b)
{
  gint64 ia = ((const AfgStep *) a)->id, ib = ((const AfgStep *) b)->id;

  return ia < ib ? -1 : ia > ib;
}

/* @steps in rowid order: sorted by id (stably), of two rows of one step
 * the later (higher rowid) wins. */
static void
dedup_steps (GArray *steps)
{
  guint kept = 0;

  g_array_sort (steps, compare_step_ids);  /* stable: a merge sort */
  for (guint i = 0; i < steps->len; i++)
    {
      if (i + 1 < steps->len && g_array_index (steps, AfgStep, i + 1).id == g_array_index (steps, AfgStep, i).id)
        continue;
      g_array_index (steps, AfgStep, kept++) = g_array_index (steps, AfgStep, i);
    }
  g_array_set_size (steps, kept);
}

/* Reader 0 holds the lower rowids. */
static void
collect_steps (LoadContext *ctx, Reader readers[N_READERS], guint n)
{
  for (guint i = 0; i < n; i++)
    {
      g_array_append_vals (ctx->document->steps, readers[i].steps->data, readers[i].steps->len);
      g_array_append_vals (ctx->document->step_tids, readers[i].step_tids->data, readers[i].step_tids->len);
    }
  dedup_steps (ctx->document->steps);
}

/* Without ProfilerStep# rows, STEP_TIME(id, startNs, endNs) when it is a
 * plain table; rows that are not three integers are passed over. */
static int
load_step_table (LoadContext *ctx, sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;
  const char *rowid;
  g_autofree char *sql = NULL;
  int rc;

  if (ctx->document->steps->len > 0 || !afg_source_has_plain_table (db, "STEP_TIME"))
    return SQLITE_OK;
  /* In rowid order, by its name or by the table's own b-tree (WITHOUT
   * ROWID: in its key's order), as afg_source_rowid_order() has it. */
  rowid = afg_source_rowid_name (db, "STEP_TIME");
  sql = g_strdup_printf ("SELECT id, startNs, endNs FROM STEP_TIME%s WHERE typeof(id) = 'integer'"
                         " AND typeof(startNs) = 'integer' AND typeof(endNs) = 'integer'%s%s",
                         rowid == NULL ? " NOT INDEXED" : "", rowid != NULL ? " ORDER BY " : "",
                         rowid != NULL ? rowid : "");
  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return SQLITE_OK;  /* columns missing: the DB has no steps */
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      AfgStep step = { sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1),
                       sqlite3_column_int64 (stmt, 2) };
      g_array_append_val (ctx->document->steps, step);
    }
  sqlite3_finalize (stmt);
  dedup_steps (ctx->document->steps);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

typedef struct {
  AfgNpuTasks *tasks;
  sqlite3     *db;
  int          rc;
} TaskScan;

static gpointer
scan_tasks (gpointer data)
{
  TaskScan *scan = data;

  scan->rc = afg_npu_tasks_read_tasks (scan->tasks, scan->db);
  return NULL;
}

/* The stack chart's tasks come from TASK's one scan, when TASK says
 * where each ran; without deviceId and streamId the chart has no lanes. */
static void
start_keeping (LoadContext *ctx, sqlite3 *db)
{
  g_autofree char *problem = NULL;

  if (!(ctx->flags & AFG_LOAD_KEEP_TASKS))
    return;
  problem = afg_npu_table_problem (db, "TASK", afg_task_keeper_columns, G_N_ELEMENTS (afg_task_keeper_columns));
  if (problem != NULL)
    return;
  ctx->keeper = afg_task_keeper_new ();
  afg_npu_tasks_set_hook (ctx->npu_tasks, afg_task_keeper_get_hook (ctx->keeper));
}

/* TASK on @second in a thread while this one reads STRING_IDS and
 * CONNECTION_IDS: about the same work. Without @second, one after the other. */
static GThread *
start_npu (LoadContext *ctx, sqlite3 *db, sqlite3 *second, TaskScan *scan)
{
  ctx->npu_schema = afg_npu_check_schema (db, &ctx->source, &ctx->document->npu_warning);
  ctx->device_only = ctx->npu_schema != AFG_NPU_SCHEMA_USABLE;
  ctx->ops_only = ctx->device_only && !afg_npu_task_table_usable (db);
  if (ctx->ops_only && !afg_source_has_object (db, "COMMUNICATION_OP"))
    return NULL;
  ctx->npu_tasks = afg_npu_tasks_new ();
  afg_npu_tasks_set_direct (ctx->npu_tasks, ctx->source.btree, ctx->cancellable);
  if (ctx->ops_only)
    {
      afg_npu_tasks_skip_tasks (ctx->npu_tasks, ctx->document->kind_warnings);
      return NULL;
    }
  afg_npu_tasks_check_kinds (ctx->npu_tasks, db, ctx->document->kind_warnings);
  start_keeping (ctx, db);
  *scan = (TaskScan) { ctx->npu_tasks, second, SQLITE_OK };
  if (second == NULL)
    return NULL;
  sqlite3_progress_handler (second, 4096, progress_handler, ctx);
  return g_thread_new ("afg-tasks", scan_tasks, scan);
}

/* An id resolves as everywhere, `<unknown:ID>` when STRING_IDS lacks it;
 * only a NULL id (or -1, 4294967295) has no string. */
static guint32
collective_string (AfgStringTable *strings, gint64 id)
{
  return id != AFG_TASK_NO_ID ? afg_string_table_lookup_id (strings, id) : AFG_COLLECTIVE_NO_STRING;
}

/* The collectives by their names' strings: what ranks are matched by. */
static GArray *
document_collectives (LoadContext *ctx)
{
  AfgTaskKinds *kinds = afg_npu_tasks_get_kinds (ctx->npu_tasks);
  AfgStringTable *strings = &ctx->document->strings;
  GArray *out;
  gsize n;
  const AfgCollective *ops;

  if (kinds == NULL)
    return NULL;
  ops = afg_task_kinds_get_collectives (kinds, &n);
  out = g_array_sized_new (FALSE, FALSE, sizeof (AfgDocCollective), n);
  for (gsize i = 0; i < n; i++)
    {
      AfgDocCollective op = { collective_string (strings, ops[i].group_id), collective_string (strings, ops[i].name_id),
                              ops[i].end_ns - ops[i].start_ns };

      g_array_append_val (out, op);
    }
  return out;
}

/* Kinds' tables that cannot be read cost the kinds, not the NPU time.
 * The strings are in by now: kernels are named with them. */
static void
read_ops (LoadContext *ctx, sqlite3 *db)
{
  AfgStringTable *strings = &ctx->document->strings;
  int rc = afg_npu_tasks_read_ops (ctx->npu_tasks, db, strings, ctx->document->kind_warnings);

  if (rc != SQLITE_OK && rc != SQLITE_INTERRUPT)
    g_ptr_array_add (ctx->document->kind_warnings,
                     g_strdup_printf (_("no device task kinds: reading their tables failed: %s"), sqlite3_errstr (rc)));
  ctx->kinds_read = rc == SQLITE_OK;
}

static gpointer
classify_job (gpointer data)
{
  LoadContext *ctx = data;

  afg_npu_tasks_classify (ctx->npu_tasks, &ctx->document->strings);
  return NULL;
}

/* The tasks' kinds and the device timeline need nothing from PYTORCH_API
 * and the readers nothing from them: with cores to spare they are made
 * while the rows are read, on a thread of their own. But what they hold
 * meanwhile (about 90 bytes a task, freed at their end) then adds to the
 * read's own peak, as the readers leave them a third of two cores: past
 * CONCURRENT_MAX_TASKS tasks (about 70 MB of it) they come first. */
#define CONCURRENT_MAX_TASKS 800000

static GThread *
start_classify (LoadContext *ctx)
{
  if (ctx->npu_tasks == NULL || !ctx->kinds_read)
    return NULL;
  if (afg_cores_get () > 1 && afg_npu_tasks_get_n_unclassified (ctx->npu_tasks) <= CONCURRENT_MAX_TASKS)
    return g_thread_new ("afg-kinds", classify_job, ctx);
  classify_job (ctx);
  return NULL;
}

/* Joins @thread; then the collectives, named in the strings (which only
 * this thread adds to), and the timeline go to the document. */
static void
finish_classify (LoadContext *ctx, GThread *thread)
{
  AfgDeviceTimeline *timeline;

  if (thread != NULL)
    g_thread_join (thread);
  if (ctx->npu_tasks == NULL || !ctx->kinds_read)
    return;
  afg_npu_tasks_add_collectives (ctx->npu_tasks, &ctx->document->strings);
  timeline = afg_npu_tasks_steal_timeline (ctx->npu_tasks);
  /* Collectives alone make no timeline: it is of TASK's rows. */
  if (ctx->ops_only)
    g_clear_pointer (&timeline, afg_device_timeline_unref);
  _afg_document_set_timeline (ctx->document, timeline);
  _afg_document_set_collectives (ctx->document, document_collectives (ctx));
}

/* A TASK or CONNECTION_IDS that cannot be read costs the NPU data, not
 * the host graph; cancelling still cancels. Read before PYTORCH_API: the
 * readers then keep only the rows that can take a task. */
static gboolean
finish_npu (LoadContext *ctx, sqlite3 *db, GThread *thread, TaskScan *scan, GError **error)
{
  int rc = SQLITE_OK;

  if (ctx->npu_tasks == NULL)
    return TRUE;
  /* With a thread, scan->rc is not read before the join: which of the
   * two ends first must not decide what is read. */
  if (thread == NULL && !ctx->ops_only)
    scan->rc = afg_npu_tasks_read_tasks (ctx->npu_tasks, db);
  if ((thread != NULL || scan->rc == SQLITE_OK) && !ctx->device_only)
    rc = afg_npu_tasks_read_pairs (ctx->npu_tasks, db);
  if (thread != NULL)
    g_thread_join (thread);
  if (rc == SQLITE_OK)
    rc = scan->rc;
  if (g_cancellable_set_error_if_cancelled (ctx->cancellable, error))
    {
      g_clear_pointer (&ctx->npu_tasks, afg_npu_tasks_free);
      return FALSE;
    }
  if (rc != SQLITE_OK)
    {
      g_clear_pointer (&ctx->npu_tasks, afg_npu_tasks_free);
      g_free (ctx->document->npu_warning);
      ctx->document->npu_warning = g_strdup_printf (_("no NPU device time: reading TASK or CONNECTION_IDS"
                                                      " failed: %s"), sqlite3_errstr (rc));
      return TRUE;
    }
  read_ops (ctx, db);
  if (g_cancellable_set_error_if_cancelled (ctx->cancellable, error))
    {
      g_clear_pointer (&ctx->npu_tasks, afg_npu_tasks_free);
      return FALSE;
    }
  if (!ctx->ops_only)
    afg_npu_tasks_index (ctx->npu_tasks);
  return TRUE;
}

/* Each store thread's first ordinal, so that a row's place is one
 * ordinal among every event (AFG_CHART_LAUNCH_NONE until placed). */
static void
begin_keeping (LoadContext *ctx, guint n_threads, const guint64 *counts)
{
  ctx->thread_first = g_new0 (guint64, n_threads + 1);
  for (guint i = 0; i < n_threads; i++)
    ctx->thread_first[i + 1] = ctx->thread_first[i] + counts[i];
  ctx->row_ordinals = g_new (guint32, MAX (ctx->n_npu_rows, 1));
  for (guint64 i = 0; i < ctx->n_npu_rows; i++)
    ctx->row_ordinals[i] = AFG_CHART_LAUNCH_NONE;
}

/* Tasks go to rows before the store is encoded, which then tells where
 * each row landed. Without a row list (no task could link), every task
 * stays unlinked. The lists go at once: the rows are known by ordinal. */
static void
begin_link (LoadContext *ctx, guint n_readers, GArray *slots)
{
  guint n_lists = ctx->keeps_links ? n_readers : 0;
  g_autofree guint64 *counts = NULL;

  if (ctx->npu_tasks == NULL || ctx->device_only)
    return;
  for (guint i = 1; i < n_lists; i++)
    ctx->npu_rows_first[i] = ctx->npu_rows_first[i - 1] + ctx->npu_rows[i - 1].len;
  counts = g_new (guint64, MAX (slots->len, 1));
  for (guint i = 0; i < slots->len; i++)
    counts[i] = count_events (&g_array_index (slots, ThreadSlot, i));
  ctx->n_npu_rows = n_lists > 0 ? ctx->npu_rows_first[n_lists - 1] + ctx->npu_rows[n_lists - 1].len : 0;
  if (ctx->keeper != NULL)
    begin_keeping (ctx, slots->len, counts);
  afg_npu_tasks_link_begin (ctx->npu_tasks, ctx->npu_rows, n_lists, slots->len, counts);
  for (guint i = 0; i < G_N_ELEMENTS (ctx->npu_rows); i++)
    afg_vec_clear (&ctx->npu_rows[i]);
}

/* The tasks in the chart's form, their launching rows known by where
 * they landed; what the keeper held goes at once. None (an empty set,
 * not NULL: the DB has no tasks to draw) without usable TASK columns. */
static void
keep_tasks (LoadContext *ctx)
{
  g_autoptr(GArray) launch_rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(AfgDeviceTasks) tasks = NULL;
  g_autofree guint32 *ordinals = NULL;

  if (ctx->keeper != NULL && ctx->npu_tasks != NULL && ctx->kinds_read)
    tasks = afg_task_keeper_finish (ctx->keeper, ctx->npu_tasks, &ctx->document->strings, ctx->n_npu_rows, NULL,
                                    launch_rows);
  else
    tasks = afg_device_tasks_new ();
  g_clear_pointer (&ctx->keeper, afg_task_keeper_free);
  ordinals = g_new (guint32, MAX (launch_rows->len, 1));
  for (guint i = 0; i < launch_rows->len; i++)
    ordinals[i] = ctx->row_ordinals[g_array_index (launch_rows, guint64, i)];
  ctx->document->chart_tasks = afg_chart_tasks_new (tasks, ordinals);
}

static void
end_link (LoadContext *ctx)
{
  if (ctx->flags & AFG_LOAD_KEEP_TASKS)
    keep_tasks (ctx);
  if (ctx->npu_tasks != NULL && !ctx->device_only)
    ctx->document->npu = afg_npu_tasks_link_end (ctx->npu_tasks);
}

static void
free_slots (gpointer data)
{
  GArray *slots = data;

  for (guint i = 0; i < slots->len; i++)
    afg_chunk_list_free (g_array_index (slots, ThreadSlot, i).head);
  g_array_unref (slots);
}

/* Whether the rowid ranges held every row. In a b-tree whose keys are
 * out of order (damage SQLite reads without a word) a range's seek skips
 * rows that a walk of the whole tree, the direct reader's, meets. */
static gboolean
ranges_read_all (sqlite3 *db, const Reader readers[N_READERS], guint n)
{
  guint64 read = 0;
  gint64 count = 0;
  gboolean found;

  if (n < 2 || !readers[0].ranged)
    return TRUE;
  for (guint i = 0; i < n; i++)
    read += readers[i].stats.rows;
  if (query_int64 (db, "SELECT count(*) FROM PYTORCH_API", &count, &found) != SQLITE_OK || !found)
    return TRUE;
  return (guint64) count == read;
}

/* The whole table in one walk, as the direct reader reads it. */
static gboolean
read_rows_again (LoadContext *ctx, sqlite3 *db, Reader readers[N_READERS], guint *n, GError **error)
{
  RowidRange whole = { .found = FALSE };
  sqlite3 *none = NULL;

  g_debug ("rowid ranges missed rows: PYTORCH_API read again in one walk");
  for (guint i = 1; i < *n; i++)
    sqlite3_close (readers[i].db);
  reset_readers (ctx, readers, *n);
  *n = plan_readers (ctx, db, &whole, &none, readers);
  return read_rows (ctx, readers, *n, error);
}

static gboolean
load_into (LoadContext *ctx, sqlite3 *db, GError **error)
{
  Reader readers[N_READERS] = { 0 };
  sqlite3 *second = NULL;
  GThread *npu_thread, *classify;
  TaskScan task_scan = { NULL, NULL, SQLITE_OK };
  RowidRange range;
  guint n = 0;
  GArray *slots = NULL;
  gboolean ok = FALSE, read_ok;
  gint64 t0, t1, t2;
  int rc;

  t0 = g_get_monotonic_time ();
  if ((rc = load_types (ctx, db)) != SQLITE_OK)
    return fail_sqlite (ctx, db, rc, error);
  if (afg_cores_get () > 1)
    second = afg_source_connect (&ctx->source, NULL);
  npu_thread = start_npu (ctx, db, second, &task_scan);
  rc = afg_string_table_load (&ctx->document->strings, db, ctx->source.btree, ctx->cancellable);
  if (!finish_npu (ctx, db, npu_thread, &task_scan, error) || (rc != SQLITE_OK && !fail_sqlite (ctx, db, rc, error)))
    {
      g_clear_pointer (&ctx->npu_tasks, afg_npu_tasks_free);
      g_clear_pointer (&ctx->keeper, afg_task_keeper_free);
      g_clear_pointer (&second, sqlite3_close);
      return FALSE;
    }
  t1 = g_get_monotonic_time ();
  classify = start_classify (ctx);
  if ((rc = rowid_range (ctx, db, &range)) != SQLITE_OK)
    read_ok = fail_sqlite (ctx, db, rc, error);
  else if (read_rows_direct (ctx, db, readers, &n))
    read_ok = !g_cancellable_set_error_if_cancelled (ctx->cancellable, error);
  else
    {
      n = plan_readers (ctx, db, &range, &second, readers);
      read_ok = read_rows (ctx, readers, n, error);
      if (read_ok && !ranges_read_all (db, readers, n))
        read_ok = read_rows_again (ctx, db, readers, &n, error);
    }
  finish_classify (ctx, classify);
  g_clear_pointer (&second, sqlite3_close);
  if (read_ok)
    {
      t2 = g_get_monotonic_time ();
      for (guint i = 0; i < n; i++)
        add_stats (&ctx->document->stats, &readers[i].stats);
      collect_steps (ctx, readers, n);
      slots = merge_slots (readers, n);
      begin_link (ctx, n, slots);
      ok = store_events (ctx, slots, n > 1, error);
      g_clear_pointer (&slots, free_slots);
      if (ok && (rc = load_step_table (ctx, db)) != SQLITE_OK)
        ok = fail_sqlite (ctx, db, rc, error);
      if (ok)
        end_link (ctx);
      g_debug ("strings %.3f s, %u readers %.3f s, store %.3f s", (t1 - t0) / 1e6, n,
               (t2 - t1) / 1e6, (g_get_monotonic_time () - t2) / 1e6);
    }
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        sqlite3_close (readers[i].db);
      reader_clear (&readers[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (ctx->npu_rows); i++)
    afg_vec_clear (&ctx->npu_rows[i]);
  g_clear_pointer (&ctx->npu_tasks, afg_npu_tasks_free);
  g_clear_pointer (&ctx->keeper, afg_task_keeper_free);
  g_clear_pointer (&ctx->thread_first, g_free);
  g_clear_pointer (&ctx->row_ordinals, g_free);
  return ok;
}

/* Must run before SQLite initialises. Memory statistics take a global
 * mutex on every allocation, which serialises the two readers. */
static void
configure_sqlite (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      sqlite3_config (SQLITE_CONFIG_MEMSTATUS, 0);
      g_once_init_leave (&done, 1);
    }
}

AfgDocument *
afg_document_load (const char *path, GCancellable *cancellable, AfgLoadProgressFunc progress,
                  gpointer progress_data, GError **error)
{
  return afg_document_load_with_flags (path, AFG_LOAD_DEFAULT, cancellable, progress, progress_data, error);
}

AfgDocument *
afg_document_load_with_flags (const char *path, AfgLoadFlags flags, GCancellable *cancellable,
                              AfgLoadProgressFunc progress, gpointer progress_data, GError **error)
{
  LoadContext ctx = { .cancellable = cancellable, .progress = progress, .progress_data = progress_data,
                      .flags = flags };
  gint64 started = g_get_monotonic_time ();
  sqlite3 *db = NULL;
  AfgDocument *document = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  configure_sqlite ();
  report (&ctx, AFG_LOAD_PHASE_OPENING, 0);
  if (afg_source_open (&ctx.source, path, cancellable, &db, error))
    {
      ctx.document = afg_document_new (path, ctx.source.bytes);
      sqlite3_progress_handler (db, 4096, progress_handler, &ctx);
      if (load_into (&ctx, db, error))
        document = g_steal_pointer (&ctx.document);
      g_clear_pointer (&ctx.document, afg_document_unref);
    }
  sqlite3_close (db);
  g_free (ctx.types);
  afg_source_clear (&ctx.source);
  if (document != NULL)
    {
      afg_document_seal (document);
      document->load_seconds = (g_get_monotonic_time () - started) / 1e6;
    }
  return document;
}
