/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-kinds"

#include "config.h"

#include <glib/gi18n.h>

#include <stdlib.h>
#include <string.h>

#include "afg-huge.h"
#include "afg-id-index.h"
#include "afg-int-map.h"
#include "afg-npu-reader.h"
#include "afg-select.h"
#include "afg-source.h"
#include "afg-sql-value.h"
#include "afg-table-scan.h"
#include "afg-task-kinds.h"

/* A set of ids: the index numbers the slots, @present tells the ids
 * given from the gaps of a dense index. */
typedef struct {
  AfgIdIndex index;
  guint8    *present;
} IdSet;

struct _AfgTaskKinds {
  const AfgStringTable *strings;
  IdSet      comm_tasks;     /* COMMUNICATION_TASK_INFO.globalTaskId */
  AfgIdIndex compute_index;  /* COMPUTE_TASK_INFO.globalTaskId */
  gint64    *compute_names;  /* by slot: name id, AFG_TASK_NO_ID */
  guint8    *compute_present;
  AfgVec     links;          /* gint64: connection ids of rule 1, until sealed */
  IdSet      comm_links;
  AfgVec     collectives;    /* AfgCollective */
  AfgIntMap  types;          /* taskType id -> TYPE_SEEN | TYPE_COMPUTE | TYPE_PROFILING */
  gboolean   has_group;      /* COMMUNICATION_OP has groupName (it is read as 5th column) */
  /* While reading a table. */
  AfgVec     ids;
  AfgVec     values;
};

static const char * const kind_names[] = { "communication", "compute", "other" };

const char *
afg_task_kind_to_string (AfgTaskKind kind)
{
  g_return_val_if_fail (kind < AFG_N_TASK_KINDS, NULL);
  return kind_names[kind];
}

static void
id_set_init (IdSet *set, const gint64 *ids, gsize n)
{
  gsize slot;

  afg_id_index_init (&set->index, ids, n);
  set->present = g_malloc0 (MAX (set->index.n_slots, 1));
  for (gsize i = 0; i < n; i++)
    if (afg_id_index_find (&set->index, ids[i], &slot))
      set->present[slot] = TRUE;
}

static void
id_set_clear (IdSet *set)
{
  afg_id_index_clear (&set->index);
  g_clear_pointer (&set->present, g_free);
}

static gboolean
id_set_contains (const IdSet *set, gint64 id)
{
  gsize slot;

  return id != AFG_TASK_NO_ID && set->present != NULL && afg_id_index_find (&set->index, id, &slot)
         && set->present[slot];
}

/* An id that can match, a link's or a name's: an integer, not -1 or
 * 4294967295 (a name's then has no string, as a NULL one). */
static gint64
read_id (const AfgRow *row, int col)
{
  gint64 id;

  if (afg_value_int64 (&row->values[col], &id) != AFG_VALUE_OK || !afg_npu_is_link (id) || id == AFG_TASK_NO_ID)
    return AFG_TASK_NO_ID;
  return id;
}

typedef void (*RowFunc) (AfgTaskKinds *self, const AfgRow *row);

typedef struct {
  AfgTaskKinds *self;
  RowFunc       func;
} ScanData;

static gboolean
scan_row (gpointer data, const AfgRow *row)
{
  ScanData *d = data;

  d->func (d->self, row);
  return TRUE;
}

static void
undo_scan (gpointer data)
{
  AfgTaskKinds *self = data;

  self->ids.len = self->values.len = self->collectives.len = 0;
}

/* From the b-tree when it can, else with SQLite: what the first read
 * collected (in ids, values and collectives) is dropped first. */
static int
scan (AfgTaskKinds *self, sqlite3 *db, const AfgBtree *btree, GCancellable *cancellable, const char *table,
      const char * const *columns, RowFunc func)
{
  ScanData d = { self, func };

  return afg_table_scan_read_or_sql (btree, db, table, columns, g_strv_length ((char **) columns), scan_row, &d,
                                     undo_scan, self, cancellable);
}

static void
add_comm_task (AfgTaskKinds *self, const AfgRow *row)
{
  gint64 id = read_id (row, 0);

  if (id != AFG_TASK_NO_ID)
    AFG_VEC_APPEND (&self->ids, gint64, id);
}

static void
add_compute_task (AfgTaskKinds *self, const AfgRow *row)
{
  gint64 id = read_id (row, 0), name = read_id (row, 1);

  if (id == AFG_TASK_NO_ID)
    return;
  AFG_VEC_APPEND (&self->ids, gint64, id);
  AFG_VEC_APPEND (&self->values, gint64, name);
}

/* Any row's connection id takes part in rule 1, whatever its times; only
 * rows with usable times are collectives. */
static void
add_collective (AfgTaskKinds *self, const AfgRow *row)
{
  AfgCollective op = { 0, 0, read_id (row, 2), AFG_TASK_NO_ID, 0, AFG_TASK_NO_ID };
  gint64 ns;

  if (op.link != AFG_TASK_NO_ID)
    AFG_VEC_APPEND (&self->links, gint64, op.link);
  if (row->values[0].type != SQLITE_INTEGER || row->values[1].type != SQLITE_INTEGER)
    return;
  op.start_ns = row->values[0].i;
  op.end_ns = row->values[1].i;
  if (op.end_ns < op.start_ns || __builtin_sub_overflow (op.end_ns, op.start_ns, &ns))
    return;
  op.name_id = read_id (row, 3);
  if (self->has_group)
    op.group_id = read_id (row, 4);
  op.exposed_ns = ns;
  AFG_VEC_APPEND (&self->collectives, AfgCollective, op);
}

static const char * const comm_task_columns[] = { "globalTaskId", NULL };
static const char * const compute_columns[] = { "globalTaskId", "name", NULL };
static const char * const op_columns[] = { "startNs", "endNs", "connectionId", "opName", NULL };
static const char * const op_group_columns[] = { "startNs", "endNs", "connectionId", "opName", "groupName", NULL };

/* Missing: silently empty; there but unreadable: empty, with a warning. */
static gboolean
table_usable (sqlite3 *db, const char *table, const char * const *columns, GPtrArray *warnings)
{
  g_autofree char *problem = NULL;

  if (!afg_source_has_object (db, table))
    return FALSE;
  problem = afg_npu_table_problem (db, table, columns, g_strv_length ((char **) columns));
  if (problem == NULL)
    return TRUE;
  g_ptr_array_add (warnings, g_strdup_printf (_("no device task kinds from %s: %s"), table, problem));
  return FALSE;
}

/* The first row of a repeated globalTaskId gives the name, as STRING_IDS
 * does for a repeated id. */
static void
index_compute (AfgTaskKinds *self)
{
  const gint64 *ids = self->ids.data;
  const gint64 *names = self->values.data;
  gsize slot;

  afg_id_index_init (&self->compute_index, ids, self->ids.len);
  self->compute_names = g_new (gint64, MAX (self->compute_index.n_slots, 1));
  self->compute_present = g_malloc0 (MAX (self->compute_index.n_slots, 1));
  for (gsize i = 0; i < self->ids.len; i++)
    if (afg_id_index_find (&self->compute_index, ids[i], &slot) && !self->compute_present[slot])
      {
        self->compute_present[slot] = TRUE;
        self->compute_names[slot] = names[i];
      }
}

AfgTaskKinds *
afg_task_kinds_new (void)
{
  AfgTaskKinds *self = g_new0 (AfgTaskKinds, 1);

  afg_vec_init (&self->ids, sizeof (gint64), 0);
  afg_vec_init (&self->values, sizeof (gint64), 0);
  afg_vec_init (&self->links, sizeof (gint64), 0);
  afg_vec_init (&self->collectives, sizeof (AfgCollective), 0);
  afg_int_map_init (&self->types, 64);
  return self;
}

int
afg_task_kinds_read_info (AfgTaskKinds *self, sqlite3 *db, const AfgBtree *btree, GCancellable *cancellable,
                          GPtrArray *warnings)
{
  int rc = SQLITE_OK;

  g_return_val_if_fail (self->compute_present == NULL, SQLITE_MISUSE);
  if (table_usable (db, "COMMUNICATION_TASK_INFO", comm_task_columns, warnings))
    rc = scan (self, db, btree, cancellable, "COMMUNICATION_TASK_INFO", comm_task_columns, add_comm_task);
  if (rc == SQLITE_OK)
    {
      id_set_init (&self->comm_tasks, self->ids.data, self->ids.len);
      self->ids.len = 0;
      if (table_usable (db, "COMPUTE_TASK_INFO", compute_columns, warnings))
        rc = scan (self, db, btree, cancellable, "COMPUTE_TASK_INFO", compute_columns, add_compute_task);
    }
  if (rc == SQLITE_OK)
    index_compute (self);
  afg_vec_clear (&self->ids);
  afg_vec_clear (&self->values);
  return rc;
}

/* A fallback reads the links again: a set, repeats do not matter. */
int
afg_task_kinds_read_ops (AfgTaskKinds *self, sqlite3 *db, const AfgBtree *btree, GCancellable *cancellable,
                         GPtrArray *warnings)
{
  g_autofree char *group_problem = NULL;

  if (!table_usable (db, "COMMUNICATION_OP", op_columns, warnings))
    return SQLITE_OK;
  /* groupName only tells which ranks a collective is matched across: a
   * table without it still gives the kinds. */
  group_problem = afg_npu_table_problem (db, "COMMUNICATION_OP", op_group_columns, 5);
  self->has_group = group_problem == NULL;
  return scan (self, db, btree, cancellable, "COMMUNICATION_OP", self->has_group ? op_group_columns : op_columns,
               add_collective);
}

void
afg_task_kinds_set_types (AfgTaskKinds *self, const AfgStringTable *strings)
{
  self->strings = strings;
}

void
afg_task_kinds_free (AfgTaskKinds *self)
{
  if (self == NULL)
    return;
  id_set_clear (&self->comm_tasks);
  id_set_clear (&self->comm_links);
  afg_id_index_clear (&self->compute_index);
  g_free (self->compute_names);
  g_free (self->compute_present);
  afg_vec_clear (&self->links);
  afg_vec_clear (&self->collectives);
  afg_vec_clear (&self->ids);
  afg_vec_clear (&self->values);
  afg_int_map_clear (&self->types);
  g_free (self);
}

gboolean
afg_task_kinds_is_comm_task (const AfgTaskKinds *self, gint64 global_task_id)
{
  return id_set_contains (&self->comm_tasks, global_task_id);
}

void
afg_task_kinds_note_comm_link (AfgTaskKinds *self, gint64 link)
{
  g_return_if_fail (self->comm_links.present == NULL);
  if (link != AFG_TASK_NO_ID)
    AFG_VEC_APPEND (&self->links, gint64, link);
}

void
afg_task_kinds_seal (AfgTaskKinds *self)
{
  g_return_if_fail (self->comm_links.present == NULL);
  id_set_init (&self->comm_links, self->links.data, self->links.len);
  afg_vec_clear (&self->links);
}

static const char * const compute_prefixes[] = { "AI_", "AIC", "AIV", "KERNEL_", "MIX_", "FFTS" };

enum {
  TYPE_SEEN = 1,
  TYPE_COMPUTE = 2,
  TYPE_PROFILING = 4,
};

/* Upper-cased, spaces as '_': "Notify Wait" is NOTIFY_WAIT. */
static gboolean
type_name_has_prefix (const char *name, const char *prefix)
{
  const char *p = prefix, *s = name;

  for (; *p != '\0' && *s != '\0'; p++, s++)
    if ((*s == ' ' ? '_' : g_ascii_toupper (*s)) != *p)
      break;
  return *p == '\0';
}

static guint32
type_name_flags (const char *name)
{
  guint32 flags = TYPE_SEEN;

  for (guint i = 0; i < G_N_ELEMENTS (compute_prefixes); i++)
    if (type_name_has_prefix (name, compute_prefixes[i]))
      flags |= TYPE_COMPUTE;
  if (type_name_has_prefix (name, "PROFILING_"))
    flags |= TYPE_PROFILING;
  return flags;
}

/* Few distinct types: each is looked up once. An unknown id matches no
 * name. */
static guint32
type_flags (AfgTaskKinds *self, gint64 type)
{
  guint32 index, flags;

  if (type == AFG_TASK_NO_ID || self->strings == NULL)
    return TYPE_SEEN;
  if (afg_int_map_lookup (&self->types, (guint64) type, &flags))
    return flags;
  flags = afg_string_table_find_id (self->strings, type, &index)
          ? type_name_flags (afg_string_table_get (self->strings, index)) : TYPE_SEEN;
  afg_int_map_insert (&self->types, (guint64) type, flags);
  return flags;
}

static gboolean
type_is_compute (AfgTaskKinds *self, gint64 type)
{
  return (type_flags (self, type) & TYPE_COMPUTE) != 0;
}

gboolean
afg_task_kinds_is_profiling (AfgTaskKinds *self, gint64 task_type)
{
  return (type_flags (self, task_type) & TYPE_PROFILING) != 0;
}

static gboolean
find_compute (const AfgTaskKinds *self, gint64 global_task_id, gint64 *name_id)
{
  gsize slot;

  if (global_task_id == AFG_TASK_NO_ID || self->compute_present == NULL
      || !afg_id_index_find (&self->compute_index, global_task_id, &slot)
      || !self->compute_present[slot])
    return FALSE;
  *name_id = self->compute_names[slot];
  return TRUE;
}

AfgTaskKind
afg_task_kinds_classify (AfgTaskKinds *self, gint64 link, gint64 global_task_id, gint64 task_type, gint64 *name_id)
{
  gint64 info_name = AFG_TASK_NO_ID;
  gboolean in_info;

  if (id_set_contains (&self->comm_links, link) || id_set_contains (&self->comm_tasks, global_task_id))
    return AFG_TASK_KIND_COMMUNICATION;
  in_info = find_compute (self, global_task_id, &info_name);
  if (!in_info && !type_is_compute (self, task_type))
    return AFG_TASK_KIND_OTHER;
  *name_id = info_name != AFG_TASK_NO_ID ? info_name : task_type;
  return AFG_TASK_KIND_COMPUTE;
}

AfgCollective *
afg_task_kinds_get_collectives (AfgTaskKinds *self, gsize *n)
{
  *n = self->collectives.len;
  return self->collectives.data;
}

void
afg_task_kinds_measure_exposure (AfgTaskKinds *self, const AfgSpans *compute)
{
  AfgCollective *ops = self->collectives.data;

  for (gsize i = 0; i < self->collectives.len; i++)
    ops[i].exposed_ns = (ops[i].end_ns - ops[i].start_ns)
                        - (compute != NULL ? afg_spans_overlap (compute, ops[i].start_ns, ops[i].end_ns) : 0);
}

static gboolean
all_digits (const char *s, gsize len)
{
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

gsize
afg_task_kinds_strip_op_suffix (const char *name)
{
  gsize len = strlen (name), end = len;

  /* Three runs of digits from the end, '_' between, "__" before. */
  for (guint run = 0; run < 3; run++)
    {
      gsize start = end;

      while (start > 0 && g_ascii_isdigit (name[start - 1]))
        start--;
      if (!all_digits (name + start, end - start) || start == 0 || name[start - 1] != '_')
        return len;
      end = start - 1;
    }
  return end > 0 && name[end - 1] == '_' ? end - 1 : len;
}
