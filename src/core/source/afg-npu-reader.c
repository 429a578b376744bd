/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-npu"

#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include "afg-id-index.h"
#include "afg-huge.h"
#include "afg-math.h"
#include "afg-key-sort.h"
#include "afg-npu-reader.h"
#include "afg-source.h"
#include "afg-sql-value.h"
#include "afg-table-scan.h"
#include "afg-task-kinds.h"

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

/* A used TASK row as the kinds need it; ids AFG_TASK_NO_ID when they
 * cannot match. */
typedef struct {
  gint64 start;
  gint64 end;
  gint64 link;
  gint64 global_task_id;
  gint64 type;
} KindTask;

/* A compute task or a collective that may reach a row: key is the kind
 * (high bit: communication) and the name's string index. Row and key
 * come first, laid out so that the first 8 bytes read as one gint64 are
 * row << 32 | key: afg_key_sort_in_place() then orders items by row, then key. */
typedef struct {
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  guint32 key;
  guint32 row;   /* the row it reaches, once linked */
#else
  guint32 row;
  guint32 key;
#endif
  gint64  link;
  gint64  ns;
  gint64  exposed_ns;
} KindItem;

G_STATIC_ASSERT (G_STRUCT_OFFSET (KindItem, link) == sizeof (gint64));

#define KEY_COMM (1u << 31)

/* A row's leaves in AfgNpuData.kernels: what its compute tasks and
 * collectives give it. */
typedef struct {
  guint32 first_kernel;
  guint32 n_kernels;
} RowKinds;

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
  /* Kinds (afg-task-kinds.h). */
  gboolean        kind_columns;  /* TASK has globalTaskId and taskType */
  gboolean        defer_groups;  /* collectives add connection ids: group after reading them */
  AfgVec          kind_tasks;    /* KindTask, until classified */
  AfgTaskKinds   *kinds;         /* from afg_npu_tasks_check_kinds() on */
  GPtrArray      *warnings;      /* the kinds' (char *), not owned */
  AfgVec          items;         /* KindItem, until linked */
  gsize           n_task_ids;    /* tasks.ids: the tasks', then the collectives' links */
  guint8         *op_slots;      /* by group slot: a collective links through it */
  RowKinds       *row_kinds;     /* by row ordinal, while linking */
  AfgVec          spans;         /* AfgTimelineSpan: every used task and collective */
  AfgDeviceTimeline *timeline;   /* made of them, until taken */
  gboolean        ops_read;      /* afg_npu_tasks_read_ops() succeeded */
  const AfgNpuTaskHook *hook;    /* or NULL */
};

typedef AfgNpuTasks NpuRead;

static const char * const task_columns[] = { "startNs", "endNs", "connectionId", NULL };
static const char * const kind_task_columns[] = { "startNs", "endNs", "connectionId", "globalTaskId", "taskType", NULL };
/* The same with the hook's columns (afg_npu_tasks_read_hooked). */
static const char * const hook_task_columns[] = { "startNs", "endNs", "connectionId", "deviceId", "streamId", NULL };
static const char * const hook_kind_task_columns[] = { "startNs", "endNs", "connectionId", "globalTaskId", "taskType",
                                                       "deviceId", "streamId", NULL };
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

gboolean
afg_npu_task_table_usable (sqlite3 *db)
{
  g_autofree char *problem = NULL;

  if (!afg_source_has_object (db, "TASK"))
    return FALSE;
  problem = afg_npu_table_problem (db, "TASK", task_columns, G_N_ELEMENTS (task_columns) - 1);
  return problem == NULL;
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

static inline gboolean
read_link (const AfgRow *row, int col, gint64 *id)
{
  return afg_value_int64 (&row->values[col], id) == AFG_VALUE_OK && afg_npu_is_link (*id);
}

static gint64
kind_id (const NpuRead *self, const AfgRow *row, int col)
{
  gint64 id;

  return self->kind_columns && read_link (row, col, &id) ? id : AFG_TASK_NO_ID;
}

/* A task of COMMUNICATION_TASK_INFO is communication whatever else, and
 * so is every task of its connection: its connection id is noted now,
 * before any task is classified. Every task waits for the whole rule,
 * those too: each is on the device's timeline. */
static void
add_kind_task (NpuRead *self, const AfgRow *row, gboolean linked, gint64 link)
{
  KindTask task = { row->values[0].i, row->values[1].i, linked ? link : AFG_TASK_NO_ID,
                    kind_id (self, row, 3), kind_id (self, row, 4) };

  if (self->kinds == NULL)
    return;
  if (afg_task_kinds_is_comm_task (self->kinds, task.global_task_id))
    afg_task_kinds_note_comm_link (self->kinds, task.link);
  AFG_VEC_APPEND (&self->kind_tasks, KindTask, task);
}

static void
add_task (NpuRead *self, Column2 *out, const AfgRow *row)
{
  AfgNpuStats *stats = &self->data->stats;
  gint64 ns, id;
  gboolean linked;

  if (!task_time (row, &ns))
    {
      stats->skipped++;
      return;
    }
  if (self->hook != NULL)
    self->hook->row (self->hook->data, row, self->kind_columns ? 5 : 3);
  stats->tasks++;
  stats->ns = afg_sat_add (stats->ns, ns);
  linked = read_link (row, 2, &id);
  add_kind_task (self, row, linked, id);
  if (!linked)
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
 * columns' first allocation; a hostile value only reserves address space.
 * An SQLite error is the table's damage, which fails the read: SQLite
 * marks the page it refused as read, and a later query of the connection
 * would take it unchecked. */
static int
estimate_rows (sqlite3 *db, const char *table, gsize *estimate)
{
  const char *rowid = afg_source_rowid_name (db, table);
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 rows = 0;
  int rc;

  /* No rowid to ask for (WITHOUT ROWID, or hidden by columns): no
   * estimate, and the read goes on. */
  *estimate = 0;
  if (rowid == NULL)
    return SQLITE_OK;
  sql = g_strdup_printf ("SELECT max(%s) FROM %s", rowid, table);
  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);

  if (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      if (sqlite3_column_type (stmt, 0) == SQLITE_INTEGER)
        rows = sqlite3_column_int64 (stmt, 0);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  *estimate = (gsize) CLAMP (rows, 0, MAX_ESTIMATE);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

typedef void (*NpuRowFunc) (NpuRead *self, Column2 *out, const AfgRow *row);

typedef struct {
  NpuRead     *self;
  Column2     *out;
  NpuRowFunc   func;
  AfgNpuStats *stats;  /* NULL: none kept */
  AfgNpuStats  saved;  /* *stats before the read */
} ScanData;

static gboolean
scan_row (gpointer data, const AfgRow *row)
{
  ScanData *d = data;

  d->func (d->self, d->out, row);
  return TRUE;
}

/* What the direct read added, @stats included. */
static void
undo_scan (gpointer data)
{
  ScanData *d = data;

  d->out->ids.len = d->out->values.len = 0;
  if (d->stats == NULL)
    return;
  *d->stats = d->saved;
  d->self->kind_tasks.len = 0;
  if (d->self->hook != NULL)
    d->self->hook->reset (d->self->hook->data);
}

/* Directly from the b-tree when it can, else (undoing what that read
 * added) with SQLite. @columns ends with NULL. */
static int
scan (sqlite3 *db, const char *table, const char * const *columns, NpuRowFunc func, NpuRead *self, Column2 *out,
      AfgNpuStats *stats)
{
  gint64 t0 = g_get_monotonic_time ();
  ScanData d = { self, out, func, stats, stats ? *stats : (AfgNpuStats) { 0 } };
  gsize estimate;
  int rc = estimate_rows (db, table, &estimate);

  afg_vec_init (&out->ids, sizeof (gint64), estimate);
  afg_vec_init (&out->values, sizeof (gint64), estimate);
  if (rc != SQLITE_OK)
    return rc;
  rc = afg_table_scan_read_or_sql (self->btree, db, table, columns, g_strv_length ((char **) columns), scan_row, &d,
                                   undo_scan, &d, self->cancellable);
  g_debug ("%s %.3f s", table, (g_get_monotonic_time () - t0) / 1e6);
  return rc;
}

static void
column2_clear (Column2 *c)
{
  afg_vec_clear (&c->ids);
  afg_vec_clear (&c->values);
}

/* The ids past n_task_ids are collectives' links: groups of their own
 * when no task has them. */
static void
mark_op_slots (NpuRead *self, const Column2 *tasks)
{
  const gint64 *ids = tasks->ids.data;

  self->op_slots = g_malloc0 (MAX (self->group_index.n_slots, 1));
  for (gsize i = self->n_task_ids; i < tasks->ids.len; i++)
    {
      gsize slot;

      afg_id_index_find (&self->group_index, ids[i], &slot);
      self->op_slots[slot] = TRUE;
      if (self->groups[slot].tasks == 0)
        self->groups[slot].row = ROW_NONE;
    }
}

static void
group_tasks (NpuRead *self, const Column2 *tasks)
{
  const gint64 *ids = tasks->ids.data;
  const gint64 *ns = tasks->values.data;

  afg_id_index_init (&self->group_index, ids, tasks->ids.len);
  self->groups = afg_huge_alloc0 (sizeof (TaskGroup) * MAX (self->group_index.n_slots, 1));
  for (gsize i = 0; i < self->n_task_ids; i++)
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
  if (self->n_task_ids < tasks->ids.len)
    mark_op_slots (self, tasks);
}

static gboolean
find_group (const NpuRead *self, gint64 task_id, gsize *slot)
{
  return afg_id_index_find (&self->group_index, task_id, slot)
         && (self->groups[*slot].tasks > 0 || (self->op_slots != NULL && self->op_slots[*slot]));
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
  afg_vec_clear (&self->kind_tasks);
  afg_vec_clear (&self->items);
  afg_task_kinds_free (self->kinds);
  g_free (self->op_slots);
  g_free (self->row_kinds);
  afg_vec_clear (&self->spans);
  g_clear_pointer (&self->timeline, afg_device_timeline_unref);
  g_free (self);
}

AfgNpuTasks *
afg_npu_tasks_new (void)
{
  AfgNpuTasks *self = g_new0 (AfgNpuTasks, 1);

  self->data = afg_npu_data_new (0);
  afg_vec_init (&self->kind_tasks, sizeof (KindTask), 0);
  afg_vec_init (&self->items, sizeof (KindItem), 0);
  afg_vec_init (&self->spans, sizeof (AfgTimelineSpan), 0);
  return self;
}

static const char * const kind_columns[] = { "globalTaskId", "taskType" };

void
afg_npu_tasks_check_kinds (AfgNpuTasks *self, sqlite3 *db, GPtrArray *warnings)
{
  g_autofree char *problem = afg_npu_table_problem (db, "TASK", kind_columns, G_N_ELEMENTS (kind_columns));

  self->kind_columns = problem == NULL;
  self->defer_groups = afg_source_has_object (db, "COMMUNICATION_OP");
  self->kinds = afg_task_kinds_new ();
  self->warnings = warnings;
  if (problem != NULL)
    g_ptr_array_add (warnings, g_strdup_printf (_("no device task kinds from TASK: %s"), problem));
}

void
afg_npu_tasks_skip_tasks (AfgNpuTasks *self, GPtrArray *warnings)
{
  self->kinds = afg_task_kinds_new ();
  self->warnings = warnings;
}

/* Grouped at once, on the thread that read them (the loader reads
 * CONNECTION_IDS on another meanwhile), unless collectives will add
 * connection ids of their own. */
/* Tables that cannot be read cost the kinds' rules from them, not TASK. */
static int
read_info (NpuRead *self, sqlite3 *db)
{
  int rc;

  if (self->kinds == NULL)
    return SQLITE_OK;
  rc = afg_task_kinds_read_info (self->kinds, db, self->btree, self->cancellable, self->warnings);
  if (rc == SQLITE_OK || rc == SQLITE_INTERRUPT)
    return rc;
  g_ptr_array_add (self->warnings, g_strdup_printf (_("no device task kinds: reading their tables failed: %s"),
                                                    sqlite3_errstr (rc)));
  afg_task_kinds_free (self->kinds);
  self->kinds = afg_task_kinds_new ();
  return SQLITE_OK;
}

static const char * const *
task_columns_of (const AfgNpuTasks *self)
{
  if (self->hook != NULL)
    return self->kind_columns ? hook_kind_task_columns : hook_task_columns;
  return self->kind_columns ? kind_task_columns : task_columns;
}

int
afg_npu_tasks_read_tasks (AfgNpuTasks *self, sqlite3 *db)
{
  int rc = read_info (self, db);
  gsize estimate;
  gint64 t0;

  /* Room at once: growing by doubling would hold both copies. */
  if (rc == SQLITE_OK && self->kind_tasks.capacity == 0 && (rc = estimate_rows (db, "TASK", &estimate)) == SQLITE_OK)
    afg_vec_reserve (&self->kind_tasks, estimate);
  if (rc == SQLITE_OK)
    rc = scan (db, "TASK", task_columns_of (self), add_task, self, &self->tasks, &self->data->stats);
  t0 = g_get_monotonic_time ();

  self->n_task_ids = self->tasks.ids.len;
  if (self->defer_groups && rc == SQLITE_OK)
    return rc;
  if (rc == SQLITE_OK)
    group_tasks (self, &self->tasks);
  column2_clear (&self->tasks);
  g_debug ("TASK grouped %.3f s", (g_get_monotonic_time () - t0) / 1e6);
  return rc;
}

static void
count_task (AfgNpuKindStats *stats, AfgTaskKind kind, gint64 ns)
{
  if (kind == AFG_TASK_KIND_COMPUTE)
    {
      stats->compute_ns = afg_sat_add (stats->compute_ns, ns);
      stats->compute_tasks++;
    }
  else if (kind == AFG_TASK_KIND_OTHER)
    {
      stats->other_ns = afg_sat_add (stats->other_ns, ns);
      stats->other_tasks++;
    }
}

static guint32
kernel_name (AfgStringTable *strings, gint64 id)
{
  return id == AFG_TASK_NO_ID ? strings->null_name : afg_string_table_lookup_id (strings, id);
}

static const AfgTimelineKind timeline_kinds[] = {
  [AFG_TASK_KIND_COMMUNICATION] = AFG_TIMELINE_COMMUNICATION,
  [AFG_TASK_KIND_COMPUTE] = AFG_TIMELINE_COMPUTE,
  [AFG_TASK_KIND_OTHER] = AFG_TIMELINE_OTHER,
};

/* Every used task is on the device's timeline; the profiler's own
 * markers and empty tasks do not stretch the profile's window. */
static AfgTimelineSpan
task_span (NpuRead *self, const KindTask *t, AfgTaskKind kind)
{
  gboolean bounds = t->end > t->start && !afg_task_kinds_is_profiling (self->kinds, t->type);

  return (AfgTimelineSpan) { t->start, t->end, timeline_kinds[kind], bounds };
}

G_STATIC_ASSERT (sizeof (AfgTimelineSpan) <= sizeof (KindTask));

/* Each task's kind, and (with @strings) each compute task with a
 * connection id an item to link. The tasks become their timeline spans
 * in place: span i is written once task i is read, and never reaches a
 * task after it (spans are smaller), so no second buffer of every task
 * is needed. */
static void
classify_tasks (NpuRead *self, AfgStringTable *strings)
{
  AfgNpuKindStats *stats = &self->data->kind_stats;
  AfgVec taken = afg_vec_steal (&self->kind_tasks);
  AfgTimelineSpan *spans = taken.data;
  gsize i;

  afg_task_kinds_seal (self->kinds);
  for (i = 0; i < taken.len; i++)
    {
      const KindTask t = ((const KindTask *) taken.data)[i];
      gint64 name_id = AFG_TASK_NO_ID, ns = t.end - t.start;
      AfgTaskKind kind = afg_task_kinds_classify (self->kinds, t.link, t.global_task_id, t.type, &name_id);

      /* Cancelled, the load fails: what was made so far is dropped. */
      if ((i & 0xffff) == 0 && g_cancellable_is_cancelled (self->cancellable))
        break;
      count_task (stats, kind, ns);
      spans[i] = task_span (self, &t, kind);
      if (kind == AFG_TASK_KIND_COMPUTE && strings != NULL && t.link != AFG_TASK_NO_ID)
        AFG_VEC_APPEND (&self->items, KindItem, ((KindItem) { .link = t.link, .ns = ns, .key = kernel_name (strings, name_id) }));
    }
  afg_vec_clear (&self->spans);
  self->spans = (AfgVec) { taken.data, i, taken.capacity * sizeof (KindTask) / sizeof (AfgTimelineSpan),
                           sizeof (AfgTimelineSpan) };
}

/* opName without its index; few distinct names, each made once. */
static guint32
op_name (AfgStringTable *strings, GHashTable *cache, gint64 id)
{
  guint32 index = kernel_name (strings, id);
  gpointer hit;
  const char *text;
  gsize len;

  if (g_hash_table_lookup_extended (cache, GUINT_TO_POINTER (index), NULL, &hit))
    return GPOINTER_TO_UINT (hit);
  text = afg_string_table_get (strings, index);
  len = afg_task_kinds_strip_op_suffix (text);
  if (text[len] != '\0')
    {
      g_autofree char *stripped = g_strndup (text, len);
      guint32 base = afg_string_table_add (strings, stripped);

      g_hash_table_insert (cache, GUINT_TO_POINTER (index), GUINT_TO_POINTER (base));
      return base;
    }
  g_hash_table_insert (cache, GUINT_TO_POINTER (index), GUINT_TO_POINTER (index));
  return index;
}

/* Each collective counts once with its own duration; those with a
 * connection id link through it, as tasks do. */
static void
add_collectives (NpuRead *self, AfgStringTable *strings)
{
  AfgNpuKindStats *stats = &self->data->kind_stats;
  g_autoptr(GHashTable) names = g_hash_table_new (NULL, NULL);
  gsize n;
  const AfgCollective *ops = afg_task_kinds_get_collectives (self->kinds, &n);

  for (gsize i = 0; i < n; i++)
    {
      gint64 ns = ops[i].end_ns - ops[i].start_ns;

      stats->comm_ns = afg_sat_add (stats->comm_ns, ns);
      stats->comm_ops++;
      stats->exposed_ns = afg_sat_add (stats->exposed_ns, ops[i].exposed_ns);
      if (strings == NULL || ops[i].link == AFG_TASK_NO_ID)
        continue;
      AFG_VEC_APPEND (&self->items, KindItem, ((KindItem) { .link = ops[i].link, .ns = ns, .exposed_ns = ops[i].exposed_ns,
                                                             .key = KEY_COMM | op_name (strings, names,
                                                                                        ops[i].name_id) }));
    }
}

/* The collectives' connection ids group tasks as TASK's do. */
static void
add_collective_links (NpuRead *self)
{
  gsize n;
  const AfgCollective *ops = afg_task_kinds_get_collectives (self->kinds, &n);

  if (!self->defer_groups)
    return;
  for (gsize i = 0; i < n; i++)
    if (ops[i].link != AFG_TASK_NO_ID)
      {
        AFG_VEC_APPEND (&self->tasks.ids, gint64, ops[i].link);
        AFG_VEC_APPEND (&self->tasks.values, gint64, 0);
      }
}

static void
add_collective_spans (NpuRead *self)
{
  gsize n;
  const AfgCollective *ops = afg_task_kinds_get_collectives (self->kinds, &n);

  for (gsize i = 0; i < n; i++)
    AFG_VEC_APPEND (&self->spans, AfgTimelineSpan,
                    ((AfgTimelineSpan) { ops[i].start_ns, ops[i].end_ns, AFG_TIMELINE_COMMUNICATION, TRUE }));
}

/* With @links, the collectives that will be linked (items kept) group
 * tasks by their connection ids. */
static int
read_ops (AfgNpuTasks *self, sqlite3 *db, const AfgStringTable *types, GPtrArray *warnings, gboolean links)
{
  int rc;

  g_return_val_if_fail (self->kinds != NULL, SQLITE_MISUSE);
  afg_task_kinds_set_types (self->kinds, types);
  if ((rc = afg_task_kinds_read_ops (self->kinds, db, self->btree, self->cancellable, warnings)) != SQLITE_OK)
    return rc;
  if (links)
    add_collective_links (self);
  self->ops_read = TRUE;
  return SQLITE_OK;
}

int
afg_npu_tasks_read_ops (AfgNpuTasks *self, sqlite3 *db, const AfgStringTable *types, GPtrArray *warnings)
{
  return read_ops (self, db, types, warnings, TRUE);
}

void
afg_npu_tasks_classify (AfgNpuTasks *self, AfgStringTable *strings)
{
  gint64 t0 = g_get_monotonic_time ();

  g_return_if_fail (self->ops_read);
  classify_tasks (self, strings);
  add_collective_spans (self);
  self->timeline = afg_device_timeline_new (self->spans.data, self->spans.len);
  afg_vec_clear (&self->spans);
  /* Exposure is measured against the union of every compute task: the
   * timeline's compute set. */
  if (self->timeline != NULL)
    afg_task_kinds_measure_exposure (self->kinds, afg_device_timeline_get_compute (self->timeline));
  else
    afg_task_kinds_measure_exposure (self->kinds, NULL);
  g_debug ("kinds %.3f s", (g_get_monotonic_time () - t0) / 1e6);
}

gsize
afg_npu_tasks_get_n_unclassified (const AfgNpuTasks *self)
{
  return self->kind_tasks.len;
}

void
afg_npu_tasks_add_collectives (AfgNpuTasks *self, AfgStringTable *strings)
{
  g_return_if_fail (self->ops_read);
  add_collectives (self, strings);
}

int
afg_npu_tasks_read_kinds (AfgNpuTasks *self, sqlite3 *db, AfgStringTable *strings, const AfgStringTable *types,
                          GPtrArray *warnings)
{
  int rc = read_ops (self, db, types, warnings, strings != NULL);

  if (rc != SQLITE_OK)
    return rc;
  afg_npu_tasks_classify (self, strings);
  afg_npu_tasks_add_collectives (self, strings);
  return SQLITE_OK;
}

AfgDeviceTimeline *
afg_npu_tasks_steal_timeline (AfgNpuTasks *self)
{
  return g_steal_pointer (&self->timeline);
}

AfgTaskKinds *
afg_npu_tasks_get_kinds (AfgNpuTasks *self)
{
  return self->kinds;
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

  if (self->defer_groups)
    {
      group_tasks (self, &self->tasks);
      column2_clear (&self->tasks);
    }
  index_pairs (self, &self->pairs);
  column2_clear (&self->pairs);
  g_debug ("NPU index %.3f s", (g_get_monotonic_time () - t0) / 1e6);
}

int
afg_npu_tasks_read_hooked (sqlite3 *db, const AfgBtree *btree, GCancellable *cancellable,
                           const AfgStringTable *types, GPtrArray *warnings, const AfgNpuTaskHook *hook,
                           gboolean links, AfgNpuTasks **out)
{
  AfgNpuTasks *self = afg_npu_tasks_new ();
  int rc;

  afg_npu_tasks_set_hook (self, hook);
  afg_npu_tasks_set_direct (self, btree, cancellable);
  afg_npu_tasks_check_kinds (self, db, warnings);
  rc = afg_npu_tasks_read_tasks (self, db);
  if (rc == SQLITE_OK && links)
    rc = afg_npu_tasks_read_pairs (self, db);
  if (rc == SQLITE_OK)
    rc = afg_npu_tasks_read_kinds (self, db, NULL, types, warnings);
  if (rc == SQLITE_OK)
    {
      afg_npu_tasks_index (self);
      *out = self;
    }
  else
    afg_npu_tasks_free (self);
  return rc;
}

void
afg_npu_tasks_set_hook (AfgNpuTasks *self, const AfgNpuTaskHook *hook)
{
  self->hook = hook;
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

/* The row each item reaches (its connection id's group's), or ROW_NONE. */
static guint32
item_row (const NpuRead *self, const KindItem *item)
{
  gsize slot;

  return find_group (self, item->link, &slot) ? self->groups[slot].row : ROW_NONE;
}

static AfgNpuKernel
kernel_of (const KindItem *item)
{
  return (AfgNpuKernel) { item->key & ~KEY_COMM,
                          item->key & KEY_COMM ? AFG_TASK_KIND_COMMUNICATION : AFG_TASK_KIND_COMPUTE,
                          1, item->ns, item->exposed_ns };
}

/* Items of one row and key are one leaf: @k is the previous leaf. */
static void
merge_item (AfgNpuKernel *k, const KindItem *item)
{
  k->count++;
  k->ns = afg_sat_add (k->ns, item->ns);
  k->exposed_ns = afg_sat_add (k->exposed_ns, item->exposed_ns);
}

G_STATIC_ASSERT (sizeof (AfgNpuKernel) == sizeof (KindItem));

/* The items that reach a row, sorted by row and key, become each row's
 * sums and leaves. Only rows with items are written: most rows launch
 * no compute task and no collective, and their pages stay untouched.
 * The leaves are written over the items (leaf k from item i >= k, of
 * one size), so that the two never take memory at once. */
static gsize
link_kinds (NpuRead *self, gsize n_rows)
{
  KindItem *items = self->items.data;
  AfgNpuKernel *leaves;
  gsize n = 0, n_leaves = 0, n_kind_rows = 0;
  guint32 prev_row = ROW_NONE, prev_key = 0;

  for (gsize i = 0; i < self->items.len; i++)
    if ((items[i].row = item_row (self, &items[i])) != ROW_NONE)
      items[n++] = items[i];
  if (n == 0)
    {
      afg_vec_clear (&self->items);
      return 0;
    }
  self->row_kinds = afg_huge_alloc0 (sizeof (RowKinds) * MAX (n_rows, 1));
  /* In place: a second copy of every item would be the load's peak. Items
   * of one row and key are summed, so their order among equals is free. */
  afg_key_sort_in_place (items, n, sizeof (KindItem));
  leaves = (AfgNpuKernel *) (void *) items;
  for (gsize i = 0; i < n; i++)
    {
      const KindItem item = items[i];
      RowKinds *row = &self->row_kinds[item.row];
      gboolean same_row = item.row == prev_row;

      if (!same_row)
        {
          row->first_kernel = (guint32) n_leaves;
          n_kind_rows++;
        }
      if (same_row && item.key == prev_key)
        merge_item (&leaves[n_leaves - 1], &item);
      else
        {
          leaves[n_leaves++] = kernel_of (&item);
          row->n_kernels++;
        }
      prev_row = item.row;
      prev_key = item.key;
    }
  afg_vec_clear (&self->data->kernels);
  self->data->kernels = afg_vec_steal (&self->items);
  self->data->kernels.len = n_leaves;
  self->data->kernels.element_size = sizeof (AfgNpuKernel);
  return n_kind_rows;
}

/* Once rows have their sums and leaves, linking needs no id: the
 * indexes go before the event store is made, the load's fullest moment
 * (a 5M-row profile's hold tens of MB). */
static void
drop_link_indexes (NpuRead *self)
{
  afg_id_index_clear (&self->group_index);
  afg_id_index_clear (&self->api_index);
  g_clear_pointer (&self->groups, g_free);
  g_clear_pointer (&self->pair_first, g_free);
  g_clear_pointer (&self->pair_groups, g_free);
  g_clear_pointer (&self->claimed, g_free);
  g_clear_pointer (&self->op_slots, g_free);
}

void
afg_npu_tasks_link_begin (AfgNpuTasks *self, const AfgVec *row_lists, guint n_lists, guint n_threads,
                          const guint64 *thread_events)
{
  AfgNpuData *data = afg_npu_data_new (n_threads);
  gsize n_linked, n_kind_rows;

  g_return_if_fail (self->sums == NULL);

  data->stats = self->data->stats;
  data->kind_stats = self->data->kind_stats;
  afg_npu_data_free (self->data);
  self->data = data;
  claim_groups (self, row_lists, n_lists);
  /* The items go before the rows' sums come: both at once would be the
   * load's fullest moment. */
  n_kind_rows = link_kinds (self, count_rows (row_lists, n_lists));
  n_linked = sum_groups (self, count_rows (row_lists, n_lists));
  if (self->hook == NULL)
    drop_link_indexes (self);
  /* Bounds, not counts: the room past the entries is never touched. */
  for (guint t = 0; t < n_threads; t++)
    {
      afg_npu_data_reserve (data, t, MIN (thread_events[t], n_linked));
      afg_npu_data_reserve_kinds (data, t, MIN (thread_events[t], n_kind_rows));
    }
}

void
afg_npu_tasks_link_place (AfgNpuTasks *self, guint thread, guint64 event, guint64 row)
{
  const RowSum *sum = &self->sums[row];
  const RowKinds *kinds = self->row_kinds != NULL ? &self->row_kinds[row] : NULL;

  if (sum->tasks > 0)
    afg_npu_data_add (self->data, thread, event, sum->ns, sum->tasks);
  if (kinds != NULL && kinds->n_kernels > 0)
    {
      AfgNpuKindEntry entry = { event, kinds->first_kernel, kinds->n_kernels };

      afg_npu_data_add_kinds (self->data, thread, &entry);
    }
}

AfgNpuData *
afg_npu_tasks_link_end (AfgNpuTasks *self)
{
  g_clear_pointer (&self->sums, g_free);
  g_clear_pointer (&self->row_kinds, g_free);
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
