/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "afg-loader.h"
#include "afg-source.h"
#include "afg-table-scan.h"
#include "afg-test-db.h"
#include "afg-writers.h"

#define PYTORCH_API_COLUMNS \
  "connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER," \
  " inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER"

char *
afg_test_make_tmp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("afg-test-XXXXXX", &error);

  g_assert_no_error (error);
  /* Tests that run the CLI as nobody must be able to reach inside. */
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  return dir;
}

const char * const afg_test_unlinks[AFG_TEST_N_UNLINKS] = {
  "DROP TABLE CONNECTION_IDS",
  "ALTER TABLE PYTORCH_API DROP COLUMN connectionId",
  "ALTER TABLE CONNECTION_IDS RENAME TO c; CREATE VIEW CONNECTION_IDS AS SELECT * FROM c",
};

void
afg_test_db_exec (AfgTestDb *self, const char *sql)
{
  char *message = NULL;
  int rc = sqlite3_exec (self->db, sql, NULL, NULL, &message);

  if (rc != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static void
create_schema (AfgTestDb *self, AfgTestDbFlags flags)
{
  const char *time_type = (flags & AFG_TEST_DB_INTEGER_TIME) ? "INTEGER" : "TEXT";
  g_autofree char *api = NULL;

  if (flags & AFG_TEST_DB_EMPTY)
    {
      afg_test_db_exec (self, "PRAGMA user_version=1");
      return;
    }
  if (!(flags & AFG_TEST_DB_NO_STRING_IDS))
    afg_test_db_exec (self, "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT)");
  if (!(flags & AFG_TEST_DB_NO_ENUM))
    afg_test_db_exec (self, "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);"
                            "INSERT INTO ENUM_API_TYPE VALUES (5000, 'runtime'), (20000, 'acl'),"
                            " (50001, 'op'), (50002, 'queue'), (50003, 'trace'), (50004, 'mstx')");
  if (flags & AFG_TEST_DB_NO_PYTORCH_API)
    return;
  api = g_strdup_printf ("CREATE TABLE PYTORCH_API (startNs %s, endNs %s, globalTid INTEGER, "
                         PYTORCH_API_COLUMNS "%s)",
                         time_type, time_type, (flags & AFG_TEST_DB_NO_TYPE) ? "" : ", type INTEGER");
  afg_test_db_exec (self, api);
}

#define NPU_FLAGS (AFG_TEST_DB_NPU | AFG_TEST_DB_TASK_VIEW | AFG_TEST_DB_TASK_TEXT)

/* TASK as in level1 samples: level0 ones lack `depth`, which nothing reads. */
static void
create_npu_schema (AfgTestDb *self, AfgTestDbFlags flags)
{
  g_autofree char *task = g_strdup_printf (
      "CREATE TABLE %s (startNs %s, endNs INTEGER, deviceId INTEGER, connectionId INTEGER,"
      " globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER, contextId INTEGER,"
      " streamId INTEGER, taskId INTEGER, modelId INTEGER, depth INTEGER)",
      (flags & AFG_TEST_DB_TASK_VIEW) ? "TASK_DATA" : "TASK",
      (flags & AFG_TEST_DB_TASK_TEXT) ? "TEXT" : "INTEGER");

  afg_test_db_exec (self, task);
  if (flags & AFG_TEST_DB_TASK_VIEW)
    afg_test_db_exec (self, "CREATE VIEW TASK AS SELECT * FROM TASK_DATA");
  afg_test_db_exec (self, "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
                          "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER)");
}

static sqlite3_stmt *
prepare (AfgTestDb *self, const char *sql)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (self->db));
  return stmt;
}

static void
prepare_npu (AfgTestDb *self, AfgTestDbFlags flags)
{
  g_autofree char *task = g_strdup_printf (
      "INSERT INTO %s VALUES (?1, ?2, ?4, ?3, ?5, 0, 0, 4294967295, ?6, ?5, 4294967295, 0)",
      (flags & AFG_TEST_DB_TASK_VIEW) ? "TASK_DATA" : "TASK");

  self->insert_task = prepare (self, task);
  self->insert_link = prepare (self, "INSERT INTO CONNECTION_IDS VALUES (?1, ?2)");
  self->insert_step = prepare (self, "INSERT INTO STEP_TIME VALUES (?1, ?2, ?3)");
}

AfgTestDb *
afg_test_db_new (AfgTestDbFlags flags)
{
  AfgTestDb *self = g_new0 (AfgTestDb, 1);
  int rc;

  self->dir = afg_test_make_tmp_dir ();
  self->path = g_build_filename (self->dir, "ascend_pytorch_profiler_0.db", NULL);
  self->name_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->next_id = 1;
  rc = sqlite3_open_v2 (self->path, &self->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  g_assert_cmpint (rc, ==, SQLITE_OK);
  afg_test_db_exec (self, "PRAGMA synchronous=OFF");
  if (flags & AFG_TEST_DB_WAL)
    afg_test_db_exec (self, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0");
  create_schema (self, flags);
  if (!(flags & (AFG_TEST_DB_NO_PYTORCH_API | AFG_TEST_DB_EMPTY)))
    {
      const char *sql = (flags & AFG_TEST_DB_NO_TYPE)
        ? "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name) VALUES (?1, ?2, ?3, ?4)"
        : "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES (?1, ?2, ?3, ?4, ?5)";
      rc = sqlite3_prepare_v2 (self->db, sql, -1, &self->insert, NULL);
      g_assert_cmpint (rc, ==, SQLITE_OK);
      self->insert_connected = prepare (self, (flags & AFG_TEST_DB_NO_TYPE)
        ? "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, connectionId) VALUES (?1, ?2, ?3, ?4, ?5)"
        : "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, connectionId, type)"
          " VALUES (?1, ?2, ?3, ?4, ?5, 50001)");
    }
  if (flags & NPU_FLAGS)
    {
      create_npu_schema (self, flags);
      prepare_npu (self, flags);
    }
  return self;
}

void
afg_test_db_close (AfgTestDb *self)
{
  g_clear_pointer (&self->insert, sqlite3_finalize);
  g_clear_pointer (&self->insert_connected, sqlite3_finalize);
  g_clear_pointer (&self->insert_task, sqlite3_finalize);
  g_clear_pointer (&self->insert_link, sqlite3_finalize);
  g_clear_pointer (&self->insert_step, sqlite3_finalize);
  g_clear_pointer (&self->db, sqlite3_close);
}

void
afg_test_write_file (const char *path, const char *data, gssize len)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
}

char *
afg_test_db_copy_live (AfgTestDb *self, const char *dir)
{
  char *copy = g_build_filename (dir, "ascend_pytorch_profiler_0.db", NULL);

  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *from = g_strconcat (self->path, i ? "-wal" : "", NULL);
      g_autofree char *to = g_strconcat (copy, i ? "-wal" : "", NULL);
      g_autofree char *data = NULL;
      g_autoptr(GError) error = NULL;
      gsize len = 0;

      g_file_get_contents (from, &data, &len, &error);
      g_assert_no_error (error);
      afg_test_write_file (to, data, len);
    }
  return copy;
}

char *
afg_test_live_wal_copy (const char *dir)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_WAL);
  char *copy;

  afg_test_db_add (db, GTID (1, 1), 0, 10, "in_db");
  afg_test_db_exec (db, "PRAGMA wal_checkpoint(TRUNCATE)");
  afg_test_db_add (db, GTID (1, 1), 20, 30, "in_wal");
  copy = afg_test_db_copy_live (db, dir);
  afg_test_db_close (db);
  afg_test_db_free (db);
  return copy;
}

void
afg_test_db_free (AfgTestDb *self)
{
  afg_test_db_close (self);
  afg_test_rm_rf (self->dir);
  g_hash_table_unref (self->name_ids);
  g_free (self->dir);
  g_free (self->path);
  g_free (self);
}

char *
afg_test_db_keep (AfgTestDb *self)
{
  char *path = g_steal_pointer (&self->path);

  afg_test_db_close (self);
  g_hash_table_unref (self->name_ids);
  g_free (self->dir);
  g_free (self);
  return path;
}

gint64
afg_test_db_name (AfgTestDb *self, const char *name)
{
  gpointer id;
  sqlite3_stmt *stmt = NULL;

  if (g_hash_table_lookup_extended (self->name_ids, name, NULL, &id))
    return GPOINTER_TO_SIZE (id);
  g_assert_cmpint (sqlite3_prepare_v2 (self->db, "INSERT INTO STRING_IDS VALUES (?1, ?2)", -1,
                                       &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_int64 (stmt, 1, self->next_id);
  sqlite3_bind_text (stmt, 2, name, -1, SQLITE_TRANSIENT);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  sqlite3_finalize (stmt);
  g_hash_table_insert (self->name_ids, g_strdup (name), GSIZE_TO_POINTER (self->next_id));
  return self->next_id++;
}

void
afg_test_db_add_typed (AfgTestDb *self, gint64 global_tid, gint64 start, gint64 end,
                       const char *name, gint64 type)
{
  gint64 id = afg_test_db_name (self, name);

  sqlite3_reset (self->insert);
  sqlite3_bind_int64 (self->insert, 1, start);
  sqlite3_bind_int64 (self->insert, 2, end);
  sqlite3_bind_int64 (self->insert, 3, global_tid);
  sqlite3_bind_int64 (self->insert, 4, id);
  if (sqlite3_bind_parameter_count (self->insert) == 5)
    sqlite3_bind_int64 (self->insert, 5, type);
  g_assert_cmpint (sqlite3_step (self->insert), ==, SQLITE_DONE);
}

void
afg_test_db_add (AfgTestDb *self, gint64 global_tid, gint64 start, gint64 end, const char *name)
{
  afg_test_db_add_typed (self, global_tid, start, end, name, TYPE_OP);
}

void
afg_test_db_add_events (AfgTestDb *self, const AfgTestEvent *events, gsize n_events)
{
  for (gsize i = 0; i < n_events; i++)
    afg_test_db_add (self, events[i].global_tid, events[i].start, events[i].end, events[i].name);
}

static void
bind_value (sqlite3_stmt *stmt, int column, gint64 value)
{
  if (value == AFG_TEST_NULL)
    sqlite3_bind_null (stmt, column);
  else
    sqlite3_bind_int64 (stmt, column, value);
}

/* Binds @values to ?1, ?2, … of @stmt, runs it and returns the new rowid. */
static gint64
insert_values (AfgTestDb *self, sqlite3_stmt *stmt, const gint64 *values, guint n_values)
{
  g_assert_nonnull (stmt);
  sqlite3_reset (stmt);
  for (guint i = 0; i < n_values; i++)
    bind_value (stmt, i + 1, values[i]);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    g_error ("%s: %s", sqlite3_sql (stmt), sqlite3_errmsg (self->db));
  return sqlite3_last_insert_rowid (self->db);
}

gint64
afg_test_db_add_with_connection (AfgTestDb *self, gint64 global_tid, gint64 start, gint64 end,
                                 const char *name, gint64 connection_id)
{
  gint64 values[] = { start, end, global_tid, afg_test_db_name (self, name), connection_id };

  return insert_values (self, self->insert_connected, values, G_N_ELEMENTS (values));
}

gint64
afg_test_db_add_task_on (AfgTestDb *self, gint64 start, gint64 end, gint64 connection_id,
                         gint64 device_id, gint64 stream_id)
{
  gint64 values[] = { start, end, connection_id, device_id, self->n_tasks++, stream_id };

  return insert_values (self, self->insert_task, values, G_N_ELEMENTS (values));
}

gint64
afg_test_db_add_task (AfgTestDb *self, gint64 start, gint64 end, gint64 connection_id)
{
  return afg_test_db_add_task_on (self, start, end, connection_id, 0, 2);
}

static gboolean
has_table (AfgTestDb *self, const char *name)
{
  sqlite3_stmt *stmt = prepare (self, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  gboolean found;

  sqlite3_bind_text (stmt, 1, name, -1, SQLITE_STATIC);
  found = sqlite3_step (stmt) == SQLITE_ROW;
  sqlite3_finalize (stmt);
  return found;
}

static gint64
name_or_null (AfgTestDb *self, const char *name)
{
  return name != NULL ? afg_test_db_name (self, name) : AFG_TEST_NULL;
}

/* Runs @sql (its table made by @schema first) with @values bound. */
static void
insert_row (AfgTestDb *self, const char *schema, const char *sql, const gint64 *values, guint n_values)
{
  sqlite3_stmt *stmt;

  afg_test_db_exec (self, schema);
  stmt = prepare (self, sql);
  insert_values (self, stmt, values, n_values);
  sqlite3_finalize (stmt);
}

gint64
afg_test_db_add_typed_task (AfgTestDb *self, gint64 start, gint64 end, gint64 connection_id, const char *task_type)
{
  gint64 global_task_id = self->n_tasks;
  gint64 rowid = afg_test_db_add_task (self, start, end, connection_id);
  gint64 values[] = { name_or_null (self, task_type), rowid };
  const char *table = has_table (self, "TASK_DATA") ? "TASK_DATA" : "TASK";
  g_autofree char *sql = g_strdup_printf ("UPDATE %s SET taskType = ?1 WHERE rowid = ?2", table);
  sqlite3_stmt *stmt = prepare (self, sql);

  insert_values (self, stmt, values, G_N_ELEMENTS (values));
  sqlite3_finalize (stmt);
  return global_task_id;
}

void
afg_test_db_add_compute_info (AfgTestDb *self, gint64 global_task_id, const char *name)
{
  gint64 values[] = { name_or_null (self, name), global_task_id };

  insert_row (self, "CREATE TABLE IF NOT EXISTS COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER,"
                    " blockDim INTEGER, taskType INTEGER, opType INTEGER)",
              "INSERT INTO COMPUTE_TASK_INFO (name, globalTaskId) VALUES (?1, ?2)", values, G_N_ELEMENTS (values));
}

void
afg_test_db_add_comm_task_info (AfgTestDb *self, gint64 global_task_id)
{
  gint64 values[] = { global_task_id };

  insert_row (self, "CREATE TABLE IF NOT EXISTS COMMUNICATION_TASK_INFO (name INTEGER, globalTaskId INTEGER,"
                    " taskType INTEGER, opId INTEGER)",
              "INSERT INTO COMMUNICATION_TASK_INFO (globalTaskId) VALUES (?1)", values, G_N_ELEMENTS (values));
}

void
afg_test_db_add_collective (AfgTestDb *self, gint64 start, gint64 end, gint64 connection_id, const char *op_name)
{
  gint64 values[] = { name_or_null (self, op_name), start, end, connection_id };

  insert_row (self, "CREATE TABLE IF NOT EXISTS COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER,"
                    " connectionId INTEGER, groupName INTEGER, opId INTEGER PRIMARY KEY, opType INTEGER)",
              "INSERT INTO COMMUNICATION_OP (opName, startNs, endNs, connectionId) VALUES (?1, ?2, ?3, ?4)",
              values, G_N_ELEMENTS (values));
}

void
afg_test_db_link (AfgTestDb *self, gint64 id, gint64 connection_id)
{
  gint64 values[] = { id, connection_id };

  insert_values (self, self->insert_link, values, G_N_ELEMENTS (values));
}

void
afg_test_db_add_step_time (AfgTestDb *self, gint64 id, gint64 start, gint64 end)
{
  gint64 values[] = { id, start, end };

  insert_values (self, self->insert_step, values, G_N_ELEMENTS (values));
}

void
afg_test_db_begin (AfgTestDb *self)
{
  afg_test_db_exec (self, "BEGIN");
}

void
afg_test_db_commit (AfgTestDb *self)
{
  afg_test_db_exec (self, "COMMIT");
}

AfgTree *
afg_test_load_tree (const char *path, GCancellable *cancellable, AfgLoadProgressFunc progress,
                    gpointer progress_data, GError **error)
{
  g_autoptr(AfgDocument) document = afg_document_load (path, cancellable, progress, progress_data, error);

  if (document == NULL)
    return NULL;
  return afg_tree_build (document, NULL, AFG_TREE_FLAGS_NONE, cancellable, error);
}

AfgDocument *
afg_test_db_load_document (AfgTestDb *self)
{
  g_autoptr(GError) error = NULL;
  AfgDocument *document;

  afg_test_db_close (self);
  document = afg_document_load (self->path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (document);
  return document;
}

AfgTree *
afg_test_build (AfgDocument *document, const AfgScope *scope, AfgTreeFlags flags)
{
  g_autoptr(GError) error = NULL;
  AfgTree *tree = afg_tree_build (document, scope, flags, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (tree);
  afg_test_check_invariants (tree);
  return tree;
}

AfgTree *
afg_test_db_load (AfgTestDb *self)
{
  g_autoptr(GError) error = NULL;
  AfgTree *tree;

  afg_test_db_close (self);
  tree = afg_test_load_tree (self->path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (tree);
  afg_test_check_invariants (tree);
  return tree;
}

static gint64
value (const AfgTree *tree, AfgColumn column, guint32 node)
{
  return afg_tree_get_value (tree, column, node);
}

AfgTree *
afg_test_load_events (AfgTestDbFlags flags, const AfgTestEvent *events, gsize n_events)
{
  AfgTestDb *db = afg_test_db_new (flags);
  AfgTree *tree;

  afg_test_db_add_events (db, events, n_events);
  tree = afg_test_db_load (db);
  afg_test_db_free (db);
  return tree;
}

static void
check_thread (const AfgTree *tree, guint i)
{
  const AfgThread *t = afg_tree_get_thread (tree, i);
  g_autofree char *label = g_strdup_printf ("%u/%u", t->pid, t->tid);

  g_assert_cmpuint (t->node, ==, 1 + i);
  g_assert_cmpuint (t->pid, ==, (guint64) t->global_tid >> 32);
  g_assert_cmpuint (t->tid, ==, (guint64) t->global_tid & G_MAXUINT32);
  g_assert_cmpstr (t->label, ==, label);
  g_assert_cmpstr (afg_tree_get_node_name (tree, t->node), ==, label);
  g_assert_cmpuint (afg_tree_get_node (tree, t->node)->thread, ==, i);
  if (i > 0)
    g_assert_cmpint (afg_tree_get_thread (tree, i - 1)->global_tid, <, t->global_tid);
}

static void
check_node (const AfgTree *tree, guint32 i, guint32 *next_child)
{
  const AfgNode *n = afg_tree_get_node (tree, i);
  guint n_threads = afg_tree_get_n_threads (tree);
  gint64 child_total = 0, child_calls = 0;

  g_assert_true (g_utf8_validate (afg_tree_get_node_name (tree, i), -1, NULL));
  if (n->parent == AFG_NODE_NONE)
    {
      g_assert_cmpuint (i, ==, AFG_TREE_ROOT);
      g_assert_cmpuint (n->depth, ==, 0);
      g_assert_cmpuint (n->thread, ==, AFG_THREAD_NONE);
    }
  else
    {
      const AfgNode *p = afg_tree_get_node (tree, n->parent);
      g_assert_cmpuint (n->depth, ==, p->depth + 1);
      g_assert_cmpuint (n->depth, <=, AFG_MAX_DEPTH + 1);
      g_assert_cmpuint (i, >=, p->first_child);
      g_assert_cmpuint (i, <, p->first_child + p->n_children);
      if (n->depth == 1)
        g_assert_cmpuint (i, <=, n_threads);
      else
        {
          g_assert_cmpuint (i, >, n_threads);
          g_assert_cmpuint (n->thread, ==, p->thread);
          g_assert_cmpint (value (tree, AFG_COLUMN_CALLS, i), >=, 1);
          g_assert_cmpint (value (tree, AFG_COLUMN_TOTAL_NS, i), >, 0);
        }
    }
  if (n->n_children == 0)
    g_assert_cmpuint (n->first_child, ==, AFG_NODE_NONE);
  else
    {
      g_assert_cmpuint (n->first_child, ==, *next_child);
      *next_child += n->n_children;
    }
  for (guint32 c = 0; c < n->n_children; c++)
    {
      guint32 child = n->first_child + c;

      g_assert_cmpuint (afg_tree_get_node (tree, child)->parent, ==, i);
      child_total = afg_sat_add (child_total, value (tree, AFG_COLUMN_TOTAL_NS, child));
      child_calls += value (tree, AFG_COLUMN_CALLS, child);
      if (c > 0 && n->depth >= 1)
        g_assert_cmpint (strcmp (afg_tree_get_node_name (tree, child - 1),
                                 afg_tree_get_node_name (tree, child)), <, 0);
    }
  if (n->depth <= 1)
    {
      g_assert_cmpint (value (tree, AFG_COLUMN_TOTAL_NS, i), ==, child_total);
      g_assert_cmpint (value (tree, AFG_COLUMN_CALLS, i), ==, child_calls);
      g_assert_cmpint (value (tree, AFG_COLUMN_SELF_NS, i), ==, 0);
    }
  else
    g_assert_cmpint (value (tree, AFG_COLUMN_SELF_NS, i), ==,
                     MAX (0, value (tree, AFG_COLUMN_TOTAL_NS, i) - child_total));
}

void
afg_test_check_invariants (const AfgTree *tree)
{
  guint n_threads = afg_tree_get_n_threads (tree);
  guint n_nodes = afg_tree_get_n_nodes (tree);
  guint32 next_child = 1;

  g_assert_cmpuint (n_nodes, >=, 1 + n_threads);
  g_assert_cmpuint (afg_tree_get_node (tree, AFG_TREE_ROOT)->n_children, ==, n_threads);
  for (guint i = 0; i < n_threads; i++)
    check_thread (tree, i);
  for (guint32 i = 0; i < n_nodes; i++)
    check_node (tree, i, &next_child);
  g_assert_cmpuint (next_child, ==, n_nodes);
  g_assert_true (afg_tree_is_empty (tree) == (n_threads == 0));
}

/* Paths start at the thread label: the root is not a line. */
GPtrArray *
afg_test_render_tree (const AfgTree *tree)
{
  guint n = afg_tree_get_n_nodes (tree);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_full (n, g_free);
  GPtrArray *lines = g_ptr_array_new_full (n, g_free);

  g_ptr_array_add (paths, g_strdup (""));
  /* Breadth-first order puts every parent before its children. */
  for (guint32 i = 1; i < n; i++)
    {
      const AfgNode *node = afg_tree_get_node (tree, i);
      const char *name = afg_tree_get_node_name (tree, i);
      char *path = node->depth == 1
        ? g_strdup (name)
        : g_strconcat (g_ptr_array_index (paths, node->parent), ";", name, NULL);

      g_ptr_array_add (paths, path);
      g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT
                                               "\t%" G_GINT64_FORMAT, path,
                                               value (tree, AFG_COLUMN_CALLS, i),
                                               value (tree, AFG_COLUMN_TOTAL_NS, i),
                                               value (tree, AFG_COLUMN_SELF_NS, i)));
    }
  return lines;
}

/* `path a_calls a_total a_self b_calls b_total b_self`, the path without a
 * thread part: the format of level0_rank0-vs-level1_rank0.diff.expected. */
GPtrArray *
afg_test_render_diff (AfgDiffShape *diff)
{
  AfgTree *tree = afg_diff_shape_get_tree (diff, AFG_DIFF_SIDE_B);
  guint n = afg_tree_get_n_nodes (tree);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_full (n, g_free);
  GPtrArray *lines = g_ptr_array_new_full (n, g_free);

  g_ptr_array_add (paths, g_strdup (""));
  for (guint32 i = 1; i < n; i++)
    {
      const AfgNode *node = afg_tree_get_node (tree, i);
      const char *name = afg_tree_get_node_name (tree, i);
      char *path = node->depth == 1 ? g_strdup (name)
                                    : g_strconcat (g_ptr_array_index (paths, node->parent), ";", name, NULL);
      AfgDiffValues a, b;

      afg_diff_shape_get_values (diff, AFG_DIFF_SIDE_A, i, &a);
      afg_diff_shape_get_values (diff, AFG_DIFF_SIDE_B, i, &b);
      g_ptr_array_add (paths, path);
      g_ptr_array_add (lines, g_strdup_printf ("%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT
                                               "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT,
                                               path, a.calls, a.total_ns, a.self_ns, b.calls, b.total_ns, b.self_ns));
    }
  return lines;
}

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
add_diff (GString *diff, guint *n_diff, char sign, const char *line)
{
  if (++*n_diff <= 30)
    g_string_append_printf (diff, "\n  %c %s", sign, line);
}

void
afg_test_assert_lines (GPtrArray *actual, GPtrArray *expected, const char *what)
{
  g_autoptr(GString) diff = g_string_new (NULL);
  guint a = 0, e = 0, n_diff = 0;

  g_ptr_array_sort (actual, compare_lines);
  g_ptr_array_sort (expected, compare_lines);
  while (a < actual->len || e < expected->len)
    {
      int cmp = a == actual->len ? 1 : e == expected->len ? -1
                : strcmp (actual->pdata[a], expected->pdata[e]);
      if (cmp < 0)
        add_diff (diff, &n_diff, '+', actual->pdata[a++]);
      else if (cmp > 0)
        add_diff (diff, &n_diff, '-', expected->pdata[e++]);
      else
        a++, e++;
    }
  if (n_diff > 0)
    {
      g_autofree char *message = g_strdup_printf (
          "%s: %u lines differ (- expected, + actual; %u actual, %u expected)%s%s", what, n_diff,
          actual->len, expected->len, diff->str, n_diff > 30 ? "\n  …" : "");
      g_test_message ("%s", message);
      g_assert_cmpstr (message, ==, "");
    }
}

void
afg_test_assert_tree (const AfgTree *tree, const char * const *expected_lines)
{
  g_autoptr(GPtrArray) actual = afg_test_render_tree (tree);
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();

  for (guint i = 0; expected_lines[i] != NULL; i++)
    g_ptr_array_add (expected, (gpointer) expected_lines[i]);
  afg_test_assert_lines (actual, expected, "tree");
}

char *
afg_test_durations_of (const AfgTree *tree, const char *path)
{
  guint32 node = afg_test_find_node (tree, path);
  GString *out = g_string_new (NULL);

  g_assert_cmpuint (node, !=, AFG_NODE_NONE);
  for (guint k = 0; k < AFG_N_DURATION_COLUMNS; k++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT, k > 0 ? " " : "",
                            afg_tree_get_value (tree, AFG_COLUMN_DURATION_MIN + k, node));
  return g_string_free (out, FALSE);
}

guint32
afg_test_find_node (const AfgTree *tree, const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, ";", -1);
  guint32 node = AFG_NODE_NONE;

  for (guint i = 0; i < afg_tree_get_n_threads (tree); i++)
    if (g_strcmp0 (afg_tree_get_thread (tree, i)->label, parts[0]) == 0)
      node = afg_tree_get_thread (tree, i)->node;
  for (guint p = 1; parts[p] != NULL && node != AFG_NODE_NONE; p++)
    {
      const AfgNode *n = afg_tree_get_node (tree, node);
      guint32 found = AFG_NODE_NONE;

      for (guint32 c = n->first_child; c < n->first_child + n->n_children; c++)
        if (strcmp (afg_tree_get_node_name (tree, c), parts[p]) == 0)
          found = c;
      node = found;
    }
  return node;
}

static void
snapshot_entry (GString *out, const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *digest = NULL;
  struct stat st;

  g_assert_cmpint (lstat (path, &st), ==, 0);
  /* The sparse 10 GiB file is compared by size and mtime only. */
  if (S_ISREG (st.st_mode) && st.st_size < 64 * 1024 * 1024)
    {
      g_autofree char *data = NULL;
      gsize len = 0;

      if (g_file_get_contents (path, &data, &len, NULL))
        digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, len);
    }
  g_string_append_printf (out, "%s mode=%o size=%" G_GINT64_FORMAT " mtime=%ld.%09ld %s\n", name,
                          st.st_mode, (gint64) st.st_size, (long) st.st_mtim.tv_sec,
                          (long) st.st_mtim.tv_nsec, digest ? digest : "-");
}

char *
afg_test_snapshot_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_lines);
  for (guint i = 0; i < names->len; i++)
    snapshot_entry (out, dir, names->pdata[i]);
  return g_string_free (out, FALSE);
}

void
afg_test_rm_rf (const char *path)
{
  struct stat st;

  if (path == NULL || lstat (path, &st) != 0)
    return;
  if (S_ISDIR (st.st_mode))
    {
      g_autoptr(GDir) d = NULL;
      const char *name;

      g_chmod (path, 0700);
      d = g_dir_open (path, 0, NULL);
      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          afg_test_rm_rf (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

gint64
afg_test_query_int (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

gboolean
afg_test_is_root (void)
{
  return geteuid () == 0;
}

int
afg_test_run_cli (const char * const *args, gboolean as_nobody, char **out_stdout, char **out_stderr)
{
  const char *exe = g_getenv ("AFG_EXE");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_get_environ ();
  char *out = NULL, *err = NULL;
  int status = 0;

  g_assert_nonnull (exe);
  if (as_nobody && afg_test_is_root ())
    {
      static const char * const drop[] = { "setpriv", "--reuid=nobody", "--regid=nogroup",
                                           "--clear-groups", "--" };
      for (guint i = 0; i < G_N_ELEMENTS (drop); i++)
        g_ptr_array_add (argv, (gpointer) drop[i]);
    }
  g_ptr_array_add (argv, (gpointer) exe);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  env = g_environ_setenv (env, "LC_ALL", "C", TRUE);
  env = g_environ_unsetenv (env, "LANGUAGE");
  g_spawn_sync ("/", (char **) argv->pdata, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                &status, &error);
  g_assert_no_error (error);
  g_test_message ("cli stderr: %s", err);
  g_assert_true (WIFEXITED (status));
  if (out_stdout != NULL)
    *out_stdout = out;
  else
    g_free (out);
  if (out_stderr != NULL)
    *out_stderr = err;
  else
    g_free (err);
  return WEXITSTATUS (status);
}

char *
afg_test_sample_path (const char *name, const char *suffix)
{
  const char *dir = g_getenv ("AFG_SAMPLES_DIR");
  g_autofree char *file = g_strconcat (name, suffix, NULL);

  g_assert_nonnull (dir);
  return g_build_filename (dir, file, NULL);
}

GPtrArray *
afg_test_read_lines (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (out, g_strdup (lines[i]));
  return out;
}

/* Job folders in torch_npu's layout. */
void
afg_test_make_file (const char *dir, const char *name, const char *data)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  afg_test_write_file (path, data, -1);
}

static void
copy_sample (const char *sample, const char *dir, const char *name)
{
  g_autofree char *from = afg_test_sample_path (sample, ".db");
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autofree char *to = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  afg_test_write_file (to, data, len);
}

/* {root}/{folder}/ASCEND_PROFILER_OUTPUT/{db_name} beside analysis.db, and
 * {root}/{folder}/profiler_info_{info_rank}.json unless info_rank < 0. */
char *
afg_test_make_job_rank (const char *root, const char *folder, const char *db_name, int info_rank,
           const char *sample)
{
  g_autofree char *pt = g_build_filename (root, folder, NULL);
  g_autofree char *out = g_build_filename (pt, "ASCEND_PROFILER_OUTPUT", NULL);

  if (sample != NULL)
    copy_sample (sample, out, db_name);
  else
    afg_test_make_file (out, db_name, "not a database\n");
  afg_test_make_file (out, "analysis.db", "");
  if (info_rank >= 0)
    {
      g_autofree char *info = g_strdup_printf ("profiler_info_%d.json", info_rank);
      afg_test_make_file (pt, info, "{}\n");
    }
  return g_build_filename (out, db_name, NULL);
}

AfgTestDb *
afg_test_db_new_npu_recursion (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);

  afg_test_db_add_with_connection (db, GTID (1, 1), 0, 1000, "f", 1);
  afg_test_db_add_with_connection (db, GTID (1, 1), 100, 500, "g", 2);
  afg_test_db_add_with_connection (db, GTID (1, 1), 200, 300, "f", 3);
  for (gint64 k = 1; k <= 3; k++)
    afg_test_db_link (db, k, 100 + k);
  afg_test_db_add_task (db, 2000, 2010, 101);
  afg_test_db_add_task (db, 2000, 2020, 102);
  afg_test_db_add_task (db, 2000, 2040, 103);
  return db;
}

char *
afg_test_read_output (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *data = NULL;

  g_file_get_contents (path, &data, NULL, &error);
  g_assert_no_error (error);
  return data;
}

void
afg_test_assert_dir_holds (const char *dir, const char *name)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;
  guint n = 0;

  g_assert_nonnull (d);
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      g_assert_cmpstr (entry, ==, name);
      n++;
    }
  g_assert_cmpuint (n, ==, name ? 1 : 0);
}

void
afg_test_assert_error_and_hint (const char *err)
{
  g_auto(GStrv) lines = g_strsplit (err, "\n", -1);

  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_true (g_str_has_prefix (lines[0], "ascend-flamegraph: error: "));
  g_assert_true (g_str_has_prefix (lines[1], "ascend-flamegraph: hint: "));
  g_assert_cmpstr (lines[2], ==, "");
}

char *
afg_test_load_json (const char *path, gboolean sqlite_only, guint *fast, guint *fallbacks)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  GString *json = g_string_new (NULL);
  guint fast0, fallbacks0;

  afg_source_set_sqlite_only (sqlite_only);
  afg_table_scan_get_counts (&fast0, &fallbacks0);
  document = afg_document_load (path, NULL, NULL, NULL, &error);
  afg_table_scan_get_counts (fast, fallbacks);
  afg_source_set_sqlite_only (FALSE);
  *fast -= fast0;
  *fallbacks -= fallbacks0;
  if (document != NULL)
    tree = afg_tree_build (document, NULL, AFG_TREE_FLAGS_NONE, NULL, &error);
  if (tree != NULL)
    afg_json_write (tree, json);
  else
    g_string_printf (json, "error: %s", error->message);
  return g_string_free (json, FALSE);
}

char *
afg_test_load_both (const char *path, guint *fast, guint *fallbacks)
{
  guint sqlite_fast, sqlite_fallbacks;
  g_autofree char *direct = afg_test_load_json (path, FALSE, fast, fallbacks);
  g_autofree char *sqlite = afg_test_load_json (path, TRUE, &sqlite_fast, &sqlite_fallbacks);

  if (strcmp (direct, sqlite) != 0)
    g_error ("%s: the direct read gives %.300s…, SQLite %.300s…", path, direct, sqlite);
  g_assert_cmpuint (sqlite_fast + sqlite_fallbacks, ==, 0);
  return g_steal_pointer (&direct);
}

int
afg_test_compare_events (gconstpointer a, gconstpointer b, gpointer unused)
{
  const AfgEvent *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end;
}
