/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-npu"

#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include "afg-id-index.h"
#include "afg-huge.h"
#include "afg-math.h"
#include "afg-npu-reader.h"
#include "afg-source.h"
#include "afg-sql-value.h"
#include "afg-table-scan.h"

#define ROW_NONE G_MAXUINT32
#define MAX_ESTIMATE (1 << 24)

/* The used tasks of one connection id; tasks == 0 is an empty slot. */
typedef struct {
  gint64  ns;
  guint32 tasks;  /* saturates */
  guint32 row;    /* the lowest ordinal of a row it reaches, ROW_NONE */
} TaskGroup;

/* The tasks a row takes, summed over its groups. */
typedef struct {
  gint64  ns;
  guint64 tasks;
} RowSum;

/* What one scan of a table leaves, in rowid order. */
typedef struct {
  AfgVec ids;     /* gint64: TASK.connectionId, CONNECTION_IDS.id */
  AfgVec values;  /* gint64: the task's ns, CONNECTION_IDS.connectionId */
} Column2;

/* No hash table: both sides are indexed by id (AfgIdIndex), the pairs
 * grouped by PYTORCH_API connection id in one array (pair_first[slot] …
 * pair_first[slot + 1] in pair_groups). */
struct _AfgNpuTasks {
  AfgNpuData *data;
  AfgIdIndex  group_index;  /* TASK.connectionId -> slot of groups */
  TaskGroup  *groups;
  AfgIdIndex  api_index;    /* CONNECTION_IDS.id -> slot of pair_first */
  guint32    *pair_first;
  guint32    *pair_groups;
  gsize       n_pairs;
  guint8     *claimed;      /* by api slot */
  RowSum     *sums;         /* by row ordinal, while linking */
  Column2     tasks;        /* until indexed */
  Column2     pairs;
  const AfgBtree *btree;    /* to read the tables directly, or NULL */
  GCancellable   *cancellable;
};

typedef AfgNpuTasks NpuRead;

static const char * const task_columns[] = { "startNs", "endNs", "connectionId", NULL };
static const char * const connection_columns[] = { "id", "connectionId", NULL };

static gboolean
has_columns (sqlite3 *db, const char *table, const char * const *columns, guint n, const char **missing)
{
  g_autofree char *sql = g_strdup_printf ("SELECT 1 FROM pragma_table_info('%s') WHERE name = ?1 COLLATE NOCASE", table);
  sqlite3_stmt *stmt = NULL;
  gboolean ok = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK;

  for (guint i = 0; ok && i < n; i++)
    {
      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, columns[i], -1, SQLITE_STATIC);
      if (sqlite3_step (stmt) != SQLITE_ROW)
        {
          *missing = columns[i];
          ok = FALSE;
        }
    }
  sqlite3_finalize (stmt);
  return ok;
}

char *
afg_npu_table_problem (sqlite3 *db, const char *table, const char * const *columns, guint n)
{
  const char *missing = NULL;

  if (!afg_source_has_plain_table (db, table))
    return g_strdup_printf (_("%s is a view or has triggers, not a plain table"), table);
  if (!has_columns (db, table, columns, n, &missing))
    return missing ? g_strdup_printf (_("table %s has no column %s"), table, missing)
                   : g_strdup_printf (_("the columns of table %s cannot be read"), table);
  return NULL;
}

AfgNpuSchema
afg_npu_check_schema (sqlite3 *db, const AfgSource *source, char **warning)
{
  g_autofree char *problem = NULL;

  g_return_val_if_fail (warning != NULL && *warning == NULL, AFG_NPU_SCHEMA_ABSENT);

  if (!afg_source_has_object (db, "TASK") || !afg_source_has_object (db, "CONNECTION_IDS"))
    return AFG_NPU_SCHEMA_ABSENT;
  problem = afg_npu_table_problem (db, "TASK", task_columns, G_N_ELEMENTS (task_columns) - 1);
  if (problem == NULL)
    problem = afg_npu_table_problem (db, "CONNECTION_IDS", connection_columns,
                                     G_N_ELEMENTS (connection_columns) - 1);
  if (problem == NULL && !source->has_connection_id)
    problem = g_strdup (_("table PYTORCH_API has no column connectionId"));
  if (problem == NULL)
    return AFG_NPU_SCHEMA_USABLE;
  *warning = g_strdup_printf (_("no NPU device time: %s"), problem);
  return AFG_NPU_SCHEMA_UNUSABLE;
}

static gboolean
task_time (const AfgRow *row, gint64 *ns)
{
  gint64 start, end;

  if (row->values[0].type != SQLITE_INTEGER || row->values[1].type != SQLITE_INTEGER)
    return FALSE;
  start = row->values[0].i;
  end = row->values[1].i;
  return end >= start && !__builtin_sub_overflow (end, start, ns);
}

gboolean
afg_npu_task_time (sqlite3_stmt *stmt, gint64 *ns)
{
  AfgRow row;

  afg_row_from_stmt (stmt, 2, &row);
  return task_time (&row, ns);
}

static inline gboolean
read_link (const AfgRow *row, int col, gint64 *id)
{
  return afg_value_int64 (&row->values[col], id) == AFG_VALUE_OK && afg_npu_is_link (*id);
}

static void
add_task (NpuRead *self, Column2 *out, const AfgRow *row)
{
  AfgNpuStats *stats = &self->data->stats;
  gint64 ns, id;

  if (!task_time (row, &ns))
    {
      stats->skipped++;
      return;
    }
  stats->tasks++;
  stats->ns = afg_sat_add (stats->ns, ns);
  if (!read_link (row, 2, &id))
    {
      stats->unlinked_tasks++;
      stats->unlinked_ns = afg_sat_add (stats->unlinked_ns, ns);
      return;
    }
  AFG_VEC_APPEND (&out->ids, gint64, id);
  AFG_VEC_APPEND (&out->values, gint64, ns);
}

static void
add_pair (NpuRead *self, Column2 *out, const AfgRow *row)
{
  gint64 api_id, task_id;

  if (read_link (row, 0, &api_id) && read_link (row, 1, &task_id))
    {
      AFG_VEC_APPEND (&out->ids, gint64, api_id);
      AFG_VEC_APPEND (&out->values, gint64, task_id);
    }
}

/* About how many rows @table has (its largest rowid, O(log n)), for the
 * columns' first allocation; a hostile value only reserves address space. */
static gsize
estimate_rows (sqlite3 *db, const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT max(rowid) FROM %s", table);
  sqlite3_stmt *stmt = NULL;
  gint64 rows = 0;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK && sqlite3_step (stmt) == SQLITE_ROW
      && sqlite3_column_type (stmt, 0) == SQLITE_INTEGER)
    rows = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return (gsize) CLAMP (rows, 0, MAX_ESTIMATE);
}

typedef void (*NpuRowFunc) (NpuRead *self, Column2 *out, const AfgRow *row);

typedef struct {
  NpuRead   *self;
  Column2   *out;
  NpuRowFunc func;
} ScanData;

static gboolean
scan_row (gpointer data, const AfgRow *row)
{
  ScanData *d = data;

  d->func (d->self, d->out, row);
  return TRUE;
}

static int
scan_sql (sqlite3 *db, const char *table, const char * const *columns, guint n, ScanData *d)
{
  g_autofree char *list = g_strjoinv (", ", (char **) columns);
  g_autofree char *order = afg_source_rowid_order (db, table);
  g_autofree char *sql = g_strdup_printf ("SELECT %s FROM %s%s", list, table, order);
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  AfgRow row;

  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      afg_row_from_stmt (stmt, (int) n, &row);
      d->func (d->self, d->out, &row);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Directly from the b-tree when it can, else (undoing what that read
 * added, @stats included) with SQLite. @columns ends with NULL. */
static int
scan (sqlite3 *db, const char *table, const char * const *columns, NpuRowFunc func, NpuRead *self, Column2 *out,
      AfgNpuStats *stats)
{
  gint64 t0 = g_get_monotonic_time ();
  gsize estimate = estimate_rows (db, table);
  guint n = g_strv_length ((char **) columns);
  AfgNpuStats saved = stats ? *stats : (AfgNpuStats) { 0 };
  ScanData d = { self, out, func };
  int rc;

  afg_vec_init (&out->ids, sizeof (gint64), estimate);
  afg_vec_init (&out->values, sizeof (gint64), estimate);
  rc = afg_table_scan_read (self->btree, db, table, columns, n, scan_row, &d, self->cancellable);
  if (rc < 0)
    {
      out->ids.len = out->values.len = 0;
      if (stats != NULL)
        *stats = saved;
      rc = scan_sql (db, table, columns, n, &d);
    }
  g_debug ("%s %.3f s", table, (g_get_monotonic_time () - t0) / 1e6);
  return rc;
}

static void
column2_clear (Column2 *c)
{
  afg_vec_clear (&c->ids);
  afg_vec_clear (&c->values);
}

static void
group_tasks (NpuRead *self, const Column2 *tasks)
{
  const gint64 *ids = tasks->ids.data;
  const gint64 *ns = tasks->values.data;

  afg_id_index_init (&self->group_index, ids, tasks->ids.len);
  self->groups = afg_huge_alloc0 (sizeof (TaskGroup) * MAX (self->group_index.n_slots, 1));
  for (gsize i = 0; i < tasks->ids.len; i++)
    {
      gsize slot;
      TaskGroup *group;

      afg_id_index_find (&self->group_index, ids[i], &slot);
      group = &self->groups[slot];
      group->ns = afg_sat_add (group->ns, ns[i]);
      if (group->tasks < G_MAXUINT32)
        group->tasks++;
      group->row = ROW_NONE;
    }
}

static gboolean
find_group (const NpuRead *self, gint64 task_id, gsize *slot)
{
  return afg_id_index_find (&self->group_index, task_id, slot) && self->groups[*slot].tasks > 0;
}

/* Keeps the pairs whose task side has tasks, grouped by api id (the
 * order within an id does not matter: a group takes the lowest row). */
static void
index_pairs (NpuRead *self, Column2 *pairs)
{
  gint64 *api_ids = pairs->ids.data;
  gint64 *task_ids = pairs->values.data;
  g_autofree guint32 *group_of = afg_huge_alloc (sizeof (guint32) * MAX (pairs->ids.len, 1));
  gsize kept = 0, slot, n_slots;

  for (gsize i = 0; i < pairs->ids.len; i++)
    if (find_group (self, task_ids[i], &slot))
      {
        api_ids[kept] = api_ids[i];
        group_of[kept++] = (guint32) slot;
      }
  self->n_pairs = kept;
  afg_id_index_init (&self->api_index, api_ids, kept);
  n_slots = self->api_index.n_slots;
  self->pair_first = afg_huge_alloc0 (sizeof (guint32) * (n_slots + 1));
  self->pair_groups = afg_huge_alloc (sizeof (guint32) * MAX (kept, 1));
  self->claimed = afg_huge_alloc0 (MAX (n_slots, 1));
  for (gsize i = 0; i < kept; i++)
    {
      afg_id_index_find (&self->api_index, api_ids[i], &slot);
      self->pair_first[slot + 1]++;
    }
  for (gsize k = 0; k < n_slots; k++)
    self->pair_first[k + 1] += self->pair_first[k];
  for (gsize i = 0; i < kept; i++)
    {
      afg_id_index_find (&self->api_index, api_ids[i], &slot);
      self->pair_groups[self->pair_first[slot]++] = group_of[i];
    }
  /* Each start was moved to the next slot's: shift back. */
  memmove (self->pair_first + 1, self->pair_first, n_slots * sizeof (guint32));
  self->pair_first[0] = 0;
}

static gboolean
find_pairs (const NpuRead *self, gint64 api_id, gsize *slot)
{
  return self->n_pairs > 0 && afg_id_index_find (&self->api_index, api_id, slot)
         && self->pair_first[*slot + 1] > self->pair_first[*slot];
}

/* Rows come in rowid order, so the first row to reach an id is its
 * lowest: each id's pairs are visited once. */
static void
claim_groups (NpuRead *self, const AfgVec *row_lists, guint n_lists)
{
  guint32 ordinal = 0;

  for (guint l = 0; l < n_lists; l++)
    for (gsize r = 0; r < row_lists[l].len; r++, ordinal++)
      {
        guint64 slot = AFG_VEC_INDEX (&row_lists[l], guint64, r);

        if (self->claimed[slot])
          continue;
        self->claimed[slot] = TRUE;
        for (guint32 p = self->pair_first[slot]; p < self->pair_first[slot + 1]; p++)
          {
            TaskGroup *group = &self->groups[self->pair_groups[p]];
            group->row = MIN (group->row, ordinal);
          }
      }
}

static gsize
count_rows (const AfgVec *row_lists, guint n_lists)
{
  gsize n = 0;

  for (guint l = 0; l < n_lists; l++)
    n += row_lists[l].len;
  return n;
}

/* Each claimed group's tasks added to its row: a row then takes its
 * tasks in one entry, appended in event order as the store places it
 * (no sorting, no merging afterwards). */
static gsize
sum_groups (NpuRead *self, gsize n_rows)
{
  AfgNpuStats *stats = &self->data->stats;
  gsize n_linked = 0;

  self->sums = afg_huge_alloc0 (sizeof (RowSum) * MAX (n_rows, 1));
  for (gsize g = 0; g < self->group_index.n_slots; g++)
    {
      const TaskGroup *group = &self->groups[g];
      RowSum *sum;

      if (group->tasks == 0)
        continue;
      if (group->row == ROW_NONE)
        {
          stats->unlinked_tasks += group->tasks;
          stats->unlinked_ns = afg_sat_add (stats->unlinked_ns, group->ns);
          continue;
        }
      sum = &self->sums[group->row];
      n_linked += sum->tasks == 0;
      sum->ns = afg_sat_add (sum->ns, group->ns);
      sum->tasks += group->tasks;
    }
  return n_linked;
}

void
afg_npu_tasks_free (AfgNpuTasks *self)
{
  if (self == NULL)
    return;
  afg_npu_data_free (self->data);
  afg_id_index_clear (&self->group_index);
  afg_id_index_clear (&self->api_index);
  g_free (self->groups);
  g_free (self->pair_first);
  g_free (self->pair_groups);
  g_free (self->claimed);
  g_free (self->sums);
  column2_clear (&self->tasks);
  column2_clear (&self->pairs);
  g_free (self);
}

AfgNpuTasks *
afg_npu_tasks_new (void)
{
  AfgNpuTasks *self = g_new0 (AfgNpuTasks, 1);

  self->data = afg_npu_data_new (0);
  return self;
}

/* Grouped at once, on the thread that read them: the loader reads
 * CONNECTION_IDS on another meanwhile. */
int
afg_npu_tasks_read_tasks (AfgNpuTasks *self, sqlite3 *db)
{
  int rc = scan (db, "TASK", task_columns, add_task, self, &self->tasks, &self->data->stats);
  gint64 t0 = g_get_monotonic_time ();

  if (rc == SQLITE_OK)
    group_tasks (self, &self->tasks);
  column2_clear (&self->tasks);
  g_debug ("TASK grouped %.3f s", (g_get_monotonic_time () - t0) / 1e6);
  return rc;
}

int
afg_npu_tasks_read_pairs (AfgNpuTasks *self, sqlite3 *db)
{
  return scan (db, "CONNECTION_IDS", connection_columns, add_pair, self, &self->pairs, NULL);
}

void
afg_npu_tasks_set_direct (AfgNpuTasks *self, const AfgBtree *btree, GCancellable *cancellable)
{
  self->btree = btree;
  self->cancellable = cancellable;
}

void
afg_npu_tasks_index (AfgNpuTasks *self)
{
  gint64 t0 = g_get_monotonic_time ();

  index_pairs (self, &self->pairs);
  column2_clear (&self->pairs);
  g_debug ("NPU index %.3f s", (g_get_monotonic_time () - t0) / 1e6);
}

int
afg_npu_tasks_read (sqlite3 *db, AfgNpuTasks **out)
{
  AfgNpuTasks *self = afg_npu_tasks_new ();
  int rc = afg_npu_tasks_read_tasks (self, db);

  if (rc == SQLITE_OK)
    rc = afg_npu_tasks_read_pairs (self, db);
  if (rc == SQLITE_OK)
    {
      afg_npu_tasks_index (self);
      *out = self;
    }
  else
    afg_npu_tasks_free (self);
  return rc;
}

gboolean
afg_npu_tasks_has_links (const AfgNpuTasks *self)
{
  return self->n_pairs > 0;
}

gsize
afg_npu_tasks_get_n_links (const AfgNpuTasks *self)
{
  return self->n_pairs;
}

gboolean
afg_npu_tasks_wants (const AfgNpuTasks *self, gint64 api_id, guint64 *link)
{
  gsize slot;

  if (!find_pairs (self, api_id, &slot))
    return FALSE;
  *link = slot;
  return TRUE;
}

void
afg_npu_tasks_link_begin (AfgNpuTasks *self, const AfgVec *row_lists, guint n_lists, guint n_threads,
                          const guint64 *thread_events)
{
  AfgNpuData *data = afg_npu_data_new (n_threads);
  gsize n_linked;

  g_return_if_fail (self->sums == NULL);

  data->stats = self->data->stats;
  afg_npu_data_free (self->data);
  self->data = data;
  claim_groups (self, row_lists, n_lists);
  n_linked = sum_groups (self, count_rows (row_lists, n_lists));
  /* Bounds, not counts: the room past the entries is never touched. */
  for (guint t = 0; t < n_threads; t++)
    afg_npu_data_reserve (data, t, MIN (thread_events[t], n_linked));
}

void
afg_npu_tasks_link_place (AfgNpuTasks *self, guint thread, guint64 event, guint64 row)
{
  const RowSum *sum = &self->sums[row];

  if (sum->tasks > 0)
    afg_npu_data_add (self->data, thread, event, sum->ns, sum->tasks);
}

AfgNpuData *
afg_npu_tasks_link_end (AfgNpuTasks *self)
{
  g_clear_pointer (&self->sums, g_free);
  return g_steal_pointer (&self->data);
}

void
afg_npu_tasks_claim (AfgNpuTasks *self, const AfgVec *row_lists, guint n_lists)
{
  claim_groups (self, row_lists, n_lists);
}

gboolean
afg_npu_tasks_find_row (const AfgNpuTasks *self, gint64 task_id, guint64 *ordinal)
{
  gsize slot;

  if (!afg_npu_is_link (task_id) || !find_group (self, task_id, &slot) || self->groups[slot].row == ROW_NONE)
    return FALSE;
  *ordinal = self->groups[slot].row;
  return TRUE;
}
