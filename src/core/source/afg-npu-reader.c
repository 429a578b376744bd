/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-npu"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-int-map.h"
#include "afg-math.h"
#include "afg-npu-reader.h"
#include "afg-sql-value.h"

#define ROW_NONE G_MAXUINT64

/* The used tasks of one connection id. */
typedef struct {
  gint64  ns;
  guint64 tasks;
  guint64 row;    /* the lowest ordinal of a row it reaches, ROW_NONE */
} TaskGroup;

/* One CONNECTION_IDS row whose task side has tasks. */
typedef struct {
  gint64  api_id;
  guint32 group;
} Pair;

struct _AfgNpuTasks {
  AfgNpuData *data;
  AfgIntMap   group_map;   /* TASK.connectionId -> group */
  GArray     *groups;      /* TaskGroup */
  GArray     *pairs;       /* Pair, sorted by api_id once read */
  AfgIntMap   first_pair;  /* api_id -> its first pair */
};

typedef AfgNpuTasks NpuRead;

static const char * const task_columns[] = { "startNs", "endNs", "connectionId" };
static const char * const connection_columns[] = { "id", "connectionId" };

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
  problem = afg_npu_table_problem (db, "TASK", task_columns, G_N_ELEMENTS (task_columns));
  if (problem == NULL)
    problem = afg_npu_table_problem (db, "CONNECTION_IDS", connection_columns, G_N_ELEMENTS (connection_columns));
  if (problem == NULL && !source->has_connection_id)
    problem = g_strdup (_("table PYTORCH_API has no column connectionId"));
  if (problem == NULL)
    return AFG_NPU_SCHEMA_USABLE;
  *warning = g_strdup_printf (_("no NPU device time: %s"), problem);
  return AFG_NPU_SCHEMA_UNUSABLE;
}

gboolean
afg_npu_task_time (sqlite3_stmt *stmt, gint64 *ns)
{
  gint64 start, end;

  if (sqlite3_column_type (stmt, 0) != SQLITE_INTEGER || sqlite3_column_type (stmt, 1) != SQLITE_INTEGER)
    return FALSE;
  start = sqlite3_column_int64 (stmt, 0);
  end = sqlite3_column_int64 (stmt, 1);
  return end >= start && !__builtin_sub_overflow (end, start, ns);
}

static inline gboolean
read_link (sqlite3_stmt *stmt, int col, gint64 *id)
{
  return afg_column_int64 (stmt, col, id) == AFG_VALUE_OK && afg_npu_is_link (*id);
}

static void
add_task (NpuRead *self, sqlite3_stmt *stmt)
{
  AfgNpuStats *stats = &self->data->stats;
  TaskGroup group = { 0, 0, ROW_NONE };
  gint64 ns, id;
  guint32 at;

  if (!afg_npu_task_time (stmt, &ns))
    {
      stats->skipped++;
      return;
    }
  stats->tasks++;
  stats->ns = afg_sat_add (stats->ns, ns);
  if (!read_link (stmt, 2, &id))
    {
      stats->unlinked_tasks++;
      stats->unlinked_ns = afg_sat_add (stats->unlinked_ns, ns);
      return;
    }
  at = afg_int_map_insert (&self->group_map, (guint64) id, self->groups->len);
  if (at == self->groups->len)
    g_array_append_val (self->groups, group);
  g_array_index (self->groups, TaskGroup, at).ns = afg_sat_add (g_array_index (self->groups, TaskGroup, at).ns, ns);
  g_array_index (self->groups, TaskGroup, at).tasks++;
}

static void
add_pair (NpuRead *self, sqlite3_stmt *stmt)
{
  Pair pair;
  gint64 task_id;

  if (read_link (stmt, 0, &pair.api_id) && read_link (stmt, 1, &task_id)
      && afg_int_map_lookup (&self->group_map, (guint64) task_id, &pair.group))
    g_array_append_val (self->pairs, pair);
}

static int
scan (sqlite3 *db, const char *sql, void (*row_func) (NpuRead *, sqlite3_stmt *), NpuRead *self)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);

  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      row_func (self, stmt);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int
compare_pairs (gconstpointer a, gconstpointer b)
{
  gint64 ia = ((const Pair *) a)->api_id, ib = ((const Pair *) b)->api_id;

  return ia < ib ? -1 : ia > ib;
}

/* Rows come in rowid order, so the first row of an id is its lowest, and
 * the first row to reach a group is the group's: each id's pairs are
 * visited once. */
static void
index_pairs (NpuRead *self)
{
  g_array_sort (self->pairs, compare_pairs);
  afg_int_map_init (&self->first_pair, MAX (self->pairs->len, 16));
  for (guint i = 0; i < self->pairs->len; i++)
    afg_int_map_insert (&self->first_pair, (guint64) g_array_index (self->pairs, Pair, i).api_id, i);
}

static void
claim_groups (NpuRead *self, GArray * const *row_lists, guint n_lists)
{
  g_autofree gboolean *claimed = g_new0 (gboolean, MAX (self->pairs->len, 1));
  guint64 ordinal = 0;

  for (guint l = 0; l < n_lists; l++)
    for (guint r = 0; r < row_lists[l]->len; r++, ordinal++)
      {
        gint64 id = g_array_index (row_lists[l], AfgNpuRow, r).connection_id;
        guint32 p;

        if (!afg_int_map_lookup (&self->first_pair, (guint64) id, &p) || claimed[p])
          continue;
        claimed[p] = TRUE;
        for (; p < self->pairs->len && g_array_index (self->pairs, Pair, p).api_id == id; p++)
          {
            TaskGroup *group = &g_array_index (self->groups, TaskGroup, g_array_index (self->pairs, Pair, p).group);
            group->row = MIN (group->row, ordinal);
          }
      }
}

static const AfgNpuRow *
row_at (GArray * const *row_lists, guint n_lists, guint64 ordinal)
{
  for (guint l = 0; l < n_lists; l++)
    {
      if (ordinal < row_lists[l]->len)
        return &g_array_index (row_lists[l], AfgNpuRow, ordinal);
      ordinal -= row_lists[l]->len;
    }
  g_assert_not_reached ();
}

static void
give_groups (NpuRead *self, GArray * const *row_lists, guint n_lists)
{
  AfgNpuStats *stats = &self->data->stats;

  for (guint g = 0; g < self->groups->len; g++)
    {
      const TaskGroup *group = &g_array_index (self->groups, TaskGroup, g);
      const AfgNpuRow *row;

      if (group->row == ROW_NONE)
        {
          stats->unlinked_tasks += group->tasks;
          stats->unlinked_ns = afg_sat_add (stats->unlinked_ns, group->ns);
          continue;
        }
      row = row_at (row_lists, n_lists, group->row);
      afg_npu_data_add (self->data, row->thread, row->event, group->ns, group->tasks);
    }
  afg_npu_data_seal (self->data);
}

void
afg_npu_tasks_free (AfgNpuTasks *self)
{
  if (self == NULL)
    return;
  afg_npu_data_free (self->data);
  afg_int_map_clear (&self->group_map);
  afg_int_map_clear (&self->first_pair);
  g_array_unref (self->groups);
  g_array_unref (self->pairs);
  g_free (self);
}

int
afg_npu_tasks_read (sqlite3 *db, AfgNpuTasks **out)
{
  AfgNpuTasks *self = g_new0 (AfgNpuTasks, 1);
  gint64 t0 = g_get_monotonic_time (), t1, t2;
  int rc;

  self->data = afg_npu_data_new (0);
  afg_int_map_init (&self->group_map, 1024);
  self->groups = g_array_new (FALSE, FALSE, sizeof (TaskGroup));
  self->pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  rc = scan (db, "SELECT startNs, endNs, connectionId FROM TASK", add_task, self);
  t1 = g_get_monotonic_time ();
  if (rc == SQLITE_OK)
    rc = scan (db, "SELECT id, connectionId FROM CONNECTION_IDS", add_pair, self);
  t2 = g_get_monotonic_time ();
  index_pairs (self);
  g_debug ("TASK %.3f s, CONNECTION_IDS %.3f s, index %.3f s", (t1 - t0) / 1e6, (t2 - t1) / 1e6,
           (g_get_monotonic_time () - t2) / 1e6);
  if (rc == SQLITE_OK)
    *out = self;
  else
    afg_npu_tasks_free (self);
  return rc;
}

gboolean
afg_npu_tasks_has_links (const AfgNpuTasks *self)
{
  return self->pairs->len > 0;
}

gboolean
afg_npu_tasks_wants (const AfgNpuTasks *self, gint64 api_id)
{
  guint32 unused;

  return afg_int_map_lookup (&self->first_pair, (guint64) api_id, &unused);
}

/* Once: the groups are handed out. */
AfgNpuData *
afg_npu_tasks_link (AfgNpuTasks *self, GArray * const *row_lists, guint n_lists, guint n_threads)
{
  AfgNpuData *data = afg_npu_data_new (n_threads);

  data->stats = self->data->stats;
  afg_npu_data_free (self->data);
  self->data = data;
  claim_groups (self, row_lists, n_lists);
  give_groups (self, row_lists, n_lists);
  self->data = NULL;
  return data;
}

void
afg_npu_tasks_claim (AfgNpuTasks *self, GArray * const *row_lists, guint n_lists)
{
  claim_groups (self, row_lists, n_lists);
}

gboolean
afg_npu_tasks_find_row (const AfgNpuTasks *self, gint64 task_id, guint64 *ordinal)
{
  guint32 group;

  if (!afg_npu_is_link (task_id) || !afg_int_map_lookup (&self->group_map, (guint64) task_id, &group))
    return FALSE;
  *ordinal = g_array_index (self->groups, TaskGroup, group).row;
  return *ordinal != ROW_NONE;
}
