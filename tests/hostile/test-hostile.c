/* SPDX-License-Identifier: MIT */
/* Hostile and broken profiler DBs through the CLI. Every case
 * checks the exit code, the one-line message, that nothing is left in the
 * output directory on error and that the input's directory is unchanged.
 * The basic input checks (missing file, directory, FIFO, 10 GiB + 1,
 * text, empty, missing tables and columns, a plain view, unreadable,
 * output directory not writable) are in tests/core. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "afg-hostile.h"

#define LEVEL0 "ascend_pytorch_profiler_level0_rank0.db"
#define LEVEL1 "ascend_pytorch_profiler_level1_rank0.db"
#define ENDLESS_CTE "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
/* No hostile input may take longer than this to be refused or loaded. */
#define MAX_SECONDS 10.0

enum { EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE, EXIT_WRITE_FAILED };

static void
assert_refused (const char *db, const char *reason)
{
  g_autofree char *out = afg_test_make_tmp_dir ();
  AfgHostileRun run;

  g_assert_cmpint (afg_hostile_export (db, out, &run), ==, EXIT_BAD_INPUT);
  afg_hostile_assert_error (&run, db, reason);
  g_assert_cmpfloat (run.seconds, <, MAX_SECONDS);
  afg_hostile_assert_empty_dir (out);
  afg_hostile_run_clear (&run);
  afg_test_rm_rf (out);
}

static void
assert_db_refused (AfgTestDb *t, const char *reason)
{
  afg_test_db_close (t);
  assert_refused (t->path, reason);
  afg_test_db_free (t);
}

static JsonNode *
export_db (AfgTestDb *t)
{
  afg_test_db_close (t);
  return afg_hostile_export_json (t->path);
}

static void
remove_copy (char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  afg_test_rm_rf (dir);
  g_free (path);
}

/* ---- truncated and damaged files ---- */

static void
test_truncated (gconstpointer data)
{
  gssize length = GPOINTER_TO_SIZE (data);
  char *db;

  if (length == 0)
    {
      struct stat st;
      g_assert_cmpint (g_stat (afg_hostile_sample (LEVEL0), &st), ==, 0);
      length = st.st_size / 2;
    }
  db = afg_hostile_sample_copy (LEVEL0, length);
  assert_refused (db, "database disk image is malformed");
  remove_copy (db);
}

/* Random bytes over a stretch in the middle of a real DB: either a clean
 * error or a correct load, never a crash or a hang. */
static void
test_random_middle (void)
{
  g_autofree char *data = NULL;
  gsize len;
  guint refused = 0;

  g_assert_true (g_file_get_contents (afg_hostile_sample (LEVEL0), &data, &len, NULL));
  for (guint seed = 1; seed <= 24; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_autofree char *dir = afg_test_make_tmp_dir ();
      g_autofree char *out = afg_test_make_tmp_dir ();
      g_autofree char *db = g_build_filename (dir, "ascend_pytorch_profiler_0.db", NULL);
      g_autofree char *copy = g_memdup2 (data, len);
      gsize offset = len / 4 + g_rand_int_range (rand, 0, len / 2);
      gsize n = MIN ((gsize) (16 << g_rand_int_range (rand, 0, 9)), len - offset);
      AfgHostileRun run;
      int code;

      for (gsize i = 0; i < n; i++)
        copy[offset + i] = g_rand_int_range (rand, 0, 256);
      afg_test_write_file (db, copy, len);
      code = afg_hostile_export (db, out, &run);
      g_test_message ("seed %u: %zu bytes at %zu: exit %d", seed, n, offset, code);
      g_assert_cmpfloat (run.seconds, <, MAX_SECONDS);
      if (code == EXIT_BAD_INPUT)
        {
          afg_hostile_assert_error (&run, db, "");
          afg_hostile_assert_empty_dir (out);
          refused++;
        }
      else
        g_assert_cmpint (code, ==, EXIT_OK);
      afg_hostile_run_clear (&run);
      afg_test_rm_rf (out);
      afg_test_rm_rf (dir);
    }
  g_test_message ("%u of 24 refused", refused);
}

/* ---- WAL ---- */

/* level1 is in WAL mode (header bytes 18-19 = 2); alone, its -wal gone,
 * it holds everything that was checkpointed. */
static void
test_wal_missing_sample (void)
{
  char *db = afg_hostile_sample_copy (LEVEL1, -1);
  g_autoptr(JsonNode) root = afg_hostile_export_json (db);

  g_assert_cmpint (afg_hostile_stat (root, "rows"), ==, 2460);
  g_assert_cmpint (afg_hostile_stat (root, "used"), ==, 2458);
  remove_copy (db);
}

/* The rows were committed to a -wal that did not travel with the file. */
static void
test_wal_missing_rows (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_WAL);
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *db = g_build_filename (dir, "ascend_pytorch_profiler_0.db", NULL);
  g_autofree char *data = NULL;
  g_autoptr(JsonNode) root = NULL;
  AfgHostileRun run;
  gsize len;

  afg_test_db_exec (t, "PRAGMA wal_checkpoint(TRUNCATE)");
  afg_test_db_add (t, GTID (1, 1), 100, 200, "aten::mm");
  g_assert_true (g_file_get_contents (t->path, &data, &len, NULL));
  afg_test_write_file (db, data, len);
  g_assert_cmpint (afg_hostile_export (db, out, &run), ==, EXIT_OK);
  g_assert_nonnull (strstr (run.err, "no usable rows"));
  afg_hostile_run_clear (&run);
  root = afg_hostile_export_json (db);
  g_assert_cmpint (afg_hostile_stat (root, "rows"), ==, 0);
  afg_test_rm_rf (out);
  afg_test_rm_rf (dir);
  afg_test_db_free (t);
}

static gboolean
mount_small_tmpfs (const char *dir, const char *size)
{
  g_autofree char *options = g_strconcat ("size=", size, NULL);

  if (mount ("afg-hostile", dir, "tmpfs", MS_NOSUID | MS_NODEV, options) == 0)
    return TRUE;
  g_test_skip_printf ("cannot mount a small tmpfs: %s", g_strerror (errno));
  return FALSE;
}

/* A -wal beside a WAL-mode DB is copied with it to a private directory:
 * the 10 GiB limit must hold for it too, before any copying. The CLI's
 * TMPDIR is a 16 MiB tmpfs, so that the bug costs no real disk. */
static void
test_wal_too_large (void)
{
  char *db = afg_hostile_sample_copy (LEVEL1, -1);
  g_autofree char *wal = g_strconcat (db, "-wal", NULL);
  g_autofree char *tmp = afg_test_make_tmp_dir ();
  g_autofree char *old_tmp = g_strdup (g_getenv ("TMPDIR"));

  afg_hostile_make_sparse (wal, (G_GINT64_CONSTANT (10) << 30) + 1);
  if (mount_small_tmpfs (tmp, "16m"))
    {
      g_setenv ("TMPDIR", tmp, TRUE);
      assert_refused (db, "10 GiB");
      afg_hostile_assert_empty_dir (tmp);
      g_assert_cmpint (umount (tmp), ==, 0);
    }
  if (old_tmp != NULL)
    g_setenv ("TMPDIR", old_tmp, TRUE);
  else
    g_unsetenv ("TMPDIR");
  afg_test_rm_rf (tmp);
  remove_copy (db);
}

static void
copy_file (const char *from, const char *to)
{
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  afg_test_write_file (to, data, len);
}

/* The job died inside a transaction: the DB file holds pages of the
 * uncommitted transaction and a hot -journal holds the originals. The
 * loader must show the committed state (roll back a private copy) or
 * refuse; never the half-written data. */
static void
test_hot_journal (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *db = g_build_filename (dir, "ascend_pytorch_profiler_0.db", NULL);
  g_autofree char *journal = g_strconcat (db, "-journal", NULL);
  g_autofree char *t_journal = g_strconcat (t->path, "-journal", NULL);
  g_autofree char *out = afg_test_make_tmp_dir ();
  gint64 id = afg_test_db_name (t, "committed");
  g_autofree char *insert = g_strdup_printf (
      "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) "
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000)"
      " SELECT n * 10, n * 10 + 5, 1, %" G_GINT64_FORMAT ", 50001 FROM r", id);
  AfgHostileRun run;
  int code;

  afg_test_db_exec (t, insert);
  afg_test_db_exec (t, "PRAGMA cache_size=5; BEGIN;"
                       "UPDATE STRING_IDS SET value = 'UNCOMMITTED' WHERE value = 'committed';"
                       "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) "
                       "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r"
                       " WHERE n < 200000) SELECT n * 10, n * 10 + 5, 2, 1, 50001 FROM r");
  g_assert_true (g_file_test (t_journal, G_FILE_TEST_EXISTS));
  copy_file (t->path, db);
  copy_file (t_journal, journal);
  afg_test_db_exec (t, "ROLLBACK");

  code = afg_hostile_export (db, out, &run);
  if (code == EXIT_BAD_INPUT)
    afg_hostile_assert_error (&run, db, "");
  else
    {
      g_autoptr(JsonNode) root = afg_hostile_export_json (db);
      g_autofree char *json = json_to_string (root, FALSE);

      g_assert_cmpint (code, ==, EXIT_OK);
      g_assert_cmpint (afg_hostile_stat (root, "rows"), ==, 1000);
      g_assert_null (strstr (json, "UNCOMMITTED"));
    }
  afg_hostile_run_clear (&run);
  afg_test_rm_rf (out);
  afg_test_rm_rf (dir);
  afg_test_db_free (t);
}

/* ---- schema objects ---- */

static void
test_view_endless (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_NO_PYTORCH_API);

  afg_test_db_exec (t, "CREATE VIEW PYTORCH_API AS " ENDLESS_CTE
                       "SELECT n AS startNs, n + 1 AS endNs, 1 AS globalTid, 1 AS name,"
                       " 50001 AS type FROM r");
  assert_db_refused (t, "PYTORCH_API is a view or has triggers");
}

static void
test_trigger (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_DEFAULT);

  afg_test_db_add (t, GTID (1, 1), 100, 200, "aten::mm");
  afg_test_db_exec (t, "CREATE TABLE log (n);"
                       "CREATE TRIGGER boom AFTER UPDATE ON PYTORCH_API BEGIN"
                       " INSERT INTO log " ENDLESS_CTE "SELECT n FROM r; END");
  assert_db_refused (t, "PYTORCH_API is a view or has triggers");
}

static void
test_string_ids_view (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_NO_STRING_IDS);

  afg_test_db_exec (t, "CREATE VIEW STRING_IDS AS " ENDLESS_CTE "SELECT n AS id, 'x' AS value FROM r");
  assert_db_refused (t, "STRING_IDS is a view or has triggers");
}

/* Endless recursive CTEs in objects the loader never reads: no effect. */
static void
test_unrelated_endless_objects (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(JsonNode) root = NULL;

  afg_test_db_add (t, GTID (1, 1), 100, 200, "aten::mm");
  afg_test_db_exec (t, "CREATE VIEW boom AS " ENDLESS_CTE "SELECT n FROM r;"
                       "CREATE TABLE other (n);"
                       "CREATE TRIGGER boom2 AFTER INSERT ON other BEGIN"
                       " INSERT INTO other " ENDLESS_CTE "SELECT n FROM r; END");
  root = export_db (t);
  g_assert_cmpint (afg_hostile_stat (root, "used"), ==, 1);
  afg_test_db_free (t);
}

/* A virtual table is not a plain table: its module (FTS, R*Tree) parses
 * shadow tables that the attacker wrote. */
static void
test_virtual_table (gconstpointer data)
{
  const char *module = data;
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_NO_PYTORCH_API);
  g_autofree char *sql = g_strdup_printf ("CREATE VIRTUAL TABLE PYTORCH_API USING %s;"
                                          "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name)"
                                          " VALUES (100, 200, 1, 1)", module);

  afg_test_db_exec (t, sql);
  assert_db_refused (t, "PYTORCH_API");
}

static void
test_virtual_string_ids (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_NO_STRING_IDS);

  afg_test_db_exec (t, "CREATE VIRTUAL TABLE STRING_IDS USING fts5(id, value);"
                       "INSERT INTO STRING_IDS VALUES (1, 'aten::mm')");
  afg_test_db_add (t, GTID (1, 1), 100, 200, "aten::mm");
  assert_db_refused (t, "STRING_IDS");
}

/* ENUM_API_TYPE is optional: when it is not a plain table (here an FTS5
 * table whose shadow tables were tampered with) it must not be read, and
 * the default types apply. */
static void
test_virtual_enum (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_NO_ENUM);
  g_autoptr(JsonNode) root = NULL;

  afg_test_db_add (t, GTID (1, 1), 100, 200, "aten::mm");
  afg_test_db_exec (t, "CREATE VIRTUAL TABLE ENUM_API_TYPE USING fts5(id, name);"
                       "INSERT INTO ENUM_API_TYPE VALUES (50001, 'op');"
                       "UPDATE ENUM_API_TYPE_config SET v = 99 WHERE k = 'version'");
  root = export_db (t);
  g_assert_cmpint (afg_hostile_stat (root, "used"), ==, 1);
  afg_test_db_free (t);
}

/* Generated columns are computed on every read: a heavy one would be a
 * hang. They are not real columns (pragma table_info hides them). */
static void
test_generated_column (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_NO_PYTORCH_API);

  afg_test_db_exec (t, "CREATE TABLE PYTORCH_API (s INTEGER, startNs AS"
                       " (length(printf('%.*c', 30000000, 'x')) + s), endNs INTEGER,"
                       " globalTid INTEGER, name INTEGER, type INTEGER);"
                       "INSERT INTO PYTORCH_API (s, endNs, globalTid, name, type) "
                       "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 2000)"
                       " SELECT n, 1000000000, 1, 1, 50001 FROM r");
  assert_db_refused (t, "startNs");
}

static AfgTestDb *
big_table_db (const char *create, const char *key)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_NO_PYTORCH_API);
  g_autofree char *insert = g_strdup_printf (
      "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type%s) "
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 120000)"
      " SELECT n * 10, n * 10 + 5, 1, %" G_GINT64_FORMAT ", 50001%s FROM r",
      key ? ", k" : "", afg_test_db_name (t, "aten::mm"), key ? ", n" : "");

  afg_test_db_exec (t, create);
  afg_test_db_exec (t, insert);
  return t;
}

/* A user column named rowid hides the real rowid, which the loader uses
 * to split big tables between its two readers: every row must still be
 * read exactly once. */
static void
test_rowid_shadowed (void)
{
  AfgTestDb *t = big_table_db ("CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER,"
                               " name INTEGER, type INTEGER, rowid INTEGER)", NULL);
  g_autoptr(JsonNode) root = NULL;

  afg_test_db_exec (t, "UPDATE PYTORCH_API SET rowid = CASE startNs WHEN '10' THEN 0"
                       " WHEN '20' THEN 200000 END");
  root = export_db (t);
  g_assert_cmpint (afg_hostile_stat (root, "rows"), ==, 120000);
  g_assert_cmpint (afg_hostile_stat (root, "used"), ==, 120000);
  afg_test_db_free (t);
}

static void
test_without_rowid (void)
{
  AfgTestDb *t = big_table_db ("CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER,"
                               " name INTEGER, type INTEGER, k INTEGER PRIMARY KEY) WITHOUT ROWID",
                               "k");
  g_autoptr(JsonNode) root = export_db (t);

  g_assert_cmpint (afg_hostile_stat (root, "rows"), ==, 120000);
  g_assert_cmpint (afg_hostile_stat (root, "used"), ==, 120000);
  afg_test_db_free (t);
}

/* ---- values ---- */

static void
test_garbage_everywhere (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  gint64 id = afg_test_db_name (t, "aten::mm");
  g_autofree char *sql = g_strdup_printf (
      "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
      /* used: good, name NULL, name TEXT garbage, unknown name id */
      " ('100', '200', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('100', '200', 1, NULL, 50001),"
      " ('100', '200', 1, 'aten::mm', 50001),"
      " ('100', '200', 1, 987654321, 50001),"
      /* other type: NULL, TEXT, REAL, BLOB */
      " ('100', '200', 1, %1$" G_GINT64_FORMAT ", NULL),"
      " ('100', '200', 1, %1$" G_GINT64_FORMAT ", 'op'),"
      " ('100', '200', 1, %1$" G_GINT64_FORMAT ", 50001.5),"
      " ('100', '200', 1, %1$" G_GINT64_FORMAT ", x'c351'),"
      /* NULL */
      " (NULL, '200', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('100', NULL, 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('100', '200', NULL, %1$" G_GINT64_FORMAT ", 50001),"
      /* malformed */
      " ('abc', '200', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('100', '2OO', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('100', '200', 'tid', %1$" G_GINT64_FORMAT ", 50001),"
      " ('', '200', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " (' 100', '200', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('100\n', '200', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " (x'00ff', '200', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " (100.5, '200', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('100', '200', 1.5, %1$" G_GINT64_FORMAT ", 50001),"
      " ('+', '200', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('1e3', '2000', 1, %1$" G_GINT64_FORMAT ", 50001)", id);
  g_autoptr(JsonNode) root = NULL;

  afg_test_db_exec (t, sql);
  root = export_db (t);
  g_assert_cmpint (afg_hostile_stat (root, "rows"), ==, 22);
  g_assert_cmpint (afg_hostile_stat (root, "used"), ==, 4);
  g_assert_cmpint (afg_hostile_stat (root, "skipped_type"), ==, 4);
  g_assert_cmpint (afg_hostile_stat (root, "skipped_null"), ==, 3);
  g_assert_cmpint (afg_hostile_stat (root, "skipped_malformed"), ==, 11);
  afg_test_db_free (t);
}

static void
test_start_above_2_63 (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  gint64 id = afg_test_db_name (t, "aten::mm");
  g_autofree char *sql = g_strdup_printf (
      "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES"
      " ('100', '200', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('9223372036854775808', '9223372036854775809', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('18446744073709551616', '18446744073709551617', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('99999999999999999999999999', '1', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " (1e19, 2e19, 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('-9223372036854775809', '0', 1, %1$" G_GINT64_FORMAT ", 50001),"
      " ('100', '200', 18446744073709551616, %1$" G_GINT64_FORMAT ", 50001)", id);
  g_autoptr(JsonNode) root = NULL;

  afg_test_db_exec (t, sql);
  root = export_db (t);
  g_assert_cmpint (afg_hostile_stat (root, "rows"), ==, 7);
  g_assert_cmpint (afg_hostile_stat (root, "used"), ==, 1);
  g_assert_cmpint (afg_hostile_stat (root, "skipped_malformed"), ==, 6);
  afg_test_db_free (t);
}

static JsonArray *
json_threads (JsonNode *root)
{
  return json_object_get_array_member (json_node_get_object (root), "threads");
}

static JsonObject *
first_frame (JsonObject *node)
{
  JsonArray *children = json_object_get_array_member (node, "children");

  if (json_array_get_length (children) == 0)
    return NULL;
  return json_array_get_object_element (children, 0);
}

static void
test_name_1mib (void)
{
  static const char piece[] = "</script><!--\"'\\\t\x01\x7f\xe2\x80\xae\xd7\xa9<>&{}";
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  GString *name = g_string_sized_new (1 << 20);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *frame;

  while (name->len + sizeof piece - 1 <= (1 << 20))
    g_string_append (name, piece);
  while (name->len < (1 << 20))
    g_string_append_c (name, 'x');
  afg_test_db_add (t, GTID (1, 1), 100, 200, name->str);
  afg_test_db_add (t, GTID (1, 1), 120, 150, "aten::mm");
  root = export_db (t);
  g_assert_cmpuint (json_array_get_length (json_threads (root)), ==, 1);
  if (json_array_get_length (json_threads (root)) != 1)
    goto out;
  frame = first_frame (json_array_get_object_element (json_threads (root), 0));
  g_assert_cmpuint (strlen (json_object_get_string_member (frame, "name")), ==, 1 << 20);
  g_assert_cmpstr (json_object_get_string_member (frame, "name"), ==, name->str);
  g_assert_cmpstr (json_object_get_string_member (first_frame (frame), "name"), ==, "aten::mm");
out:
  g_string_free (name, TRUE);
  afg_test_db_free (t);
}

/* Over SQLite's per-value limit that the loader sets (64 MiB): a clean
 * refusal, not an allocation of whatever size the file claims. */
static void
test_name_over_64mib (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_DEFAULT);

  afg_test_db_exec (t, "INSERT INTO STRING_IDS VALUES (999, printf('%.*c', 67108865, 'x'))");
  afg_test_db_exec (t, "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type)"
                       " VALUES ('100', '200', 1, 999, 50001)");
  assert_db_refused (t, "string or blob too big");
}

static void
test_100k_threads (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *sql = g_strdup_printf (
      "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) "
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100000)"
      " SELECT '100', '200', (n << 32) | (n + 7), %" G_GINT64_FORMAT ", 50001 FROM r",
      afg_test_db_name (t, "aten::mm"));
  g_autoptr(JsonNode) root = NULL;
  JsonArray *threads;

  afg_test_db_exec (t, sql);
  root = export_db (t);
  threads = json_threads (root);
  g_assert_cmpuint (json_array_get_length (threads), ==, 100000);
  g_assert_cmpint (afg_hostile_stat (root, "used"), ==, 100000);
  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *thread = json_array_get_object_element (threads, i);
      g_assert_cmpint (json_object_get_int_member (thread, "pid"), ==, i + 1);
      g_assert_cmpint (json_object_get_int_member (thread, "tid"), ==, i + 8);
    }
  afg_test_db_free (t);
}

static void
test_depth_5000 (void)
{
  AfgTestDb *t = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *sql = g_strdup_printf (
      "INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) "
      "WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < 4999)"
      " SELECT n, 100000 - n, 1, %" G_GINT64_FORMAT ", 50001 FROM r",
      afg_test_db_name (t, "aten::mm"));
  g_autoptr(JsonNode) root = NULL;
  JsonObject *node;
  guint depth = 0;

  afg_test_db_exec (t, sql);
  root = export_db (t);
  g_assert_cmpint (afg_hostile_stat (root, "depth_truncated"), ==, 4000);
  g_assert_cmpuint (json_array_get_length (json_threads (root)), ==, 1);
  node = json_array_get_length (json_threads (root)) ? json_array_get_object_element (json_threads (root), 0) : NULL;
  while (node != NULL && (node = first_frame (node)) != NULL)
    depth++;
  g_assert_cmpuint (depth, ==, AFG_MAX_DEPTH);
  afg_test_db_free (t);
}

/* The DB's file name lands in the exports (source.file, the page title):
 * a name that is not UTF-8 must not make them invalid UTF-8, which
 * strict JSON readers refuse. */
static void
test_file_name_not_utf8 (void)
{
  char *db = afg_hostile_sample_copy (LEVEL0, -1);
  g_autofree char *dir = g_path_get_dirname (db);
  g_autofree char *named = g_build_filename (dir, "a\xff\xc3<img src=x onerror=alert(1)>&amp;\"'.db", NULL);
  g_autofree char *out = afg_test_make_tmp_dir ();
  const char *formats[] = { "json", "html", "folded" };

  g_assert_cmpint (g_rename (db, named), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      const char *args[] = { "--export", "-q", "-f", formats[i], "-o", out, named, NULL };
      g_autofree char *file = g_strconcat (out, "/flamegraph.", formats[i], NULL);
      g_autofree char *data = NULL;
      AfgHostileRun run;

      afg_hostile_spawn (args, NULL, &run);
      g_assert_true (WIFEXITED (run.status) && WEXITSTATUS (run.status) == 0);
      afg_hostile_run_clear (&run);
      g_assert_true (g_file_get_contents (file, &data, NULL, NULL));
      if (!g_utf8_validate (data, -1, NULL))
        g_test_fail_printf ("flamegraph.%s is not valid UTF-8", formats[i]);
    }
  afg_test_rm_rf (out);
  afg_test_rm_rf (dir);
  g_free (db);
}

/* The loader opens a file: URI; a path that looks like URI parameters
 * must not switch off immutable=1 (a WAL-mode DB would get a -shm). */
static void
test_uri_characters (void)
{
  char *db = afg_hostile_sample_copy (LEVEL1, -1);
  g_autofree char *dir = g_path_get_dirname (db);
  g_autofree char *named = g_build_filename (dir, "x?mode=rw&immutable=0&vfs=unix-none#%41.db", NULL);
  g_autoptr(JsonNode) root = NULL;

  g_assert_cmpint (g_rename (db, named), ==, 0);
  root = afg_hostile_export_json (named);
  g_assert_cmpint (afg_hostile_stat (root, "rows"), ==, 2460);
  afg_test_rm_rf (dir);
  g_free (db);
}

/* A file name can carry terminal escapes: the one-line error must not
 * pass them to the user's terminal. */
static void
test_path_control_chars (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *db = g_build_filename (dir, "x\033]0;pwned\007\033[2J\r.db", NULL);
  const char *args[] = { "--export", "-o", dir, db, NULL };
  AfgHostileRun run;

  afg_test_write_file (db, "not a database", -1);
  afg_hostile_spawn (args, NULL, &run);
  g_assert_true (WIFEXITED (run.status));
  g_assert_cmpint (WEXITSTATUS (run.status), ==, EXIT_BAD_INPUT);
  for (const char *p = run.err; *p; p++)
    if ((guchar) *p < 0x20 && *p != '\n')
      {
        g_test_fail_printf ("control character 0x%02x in: %s", (guchar) *p, run.err);
        break;
      }
  afg_hostile_run_clear (&run);
  afg_test_rm_rf (dir);
}

/* ---- inputs that are not files ---- */

static void
test_symlink_to_device (gconstpointer data)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *db = g_build_filename (dir, "ascend_pytorch_profiler_0.db", NULL);

  g_assert_cmpint (symlink (data, db), ==, 0);
  assert_refused (db, "is not a regular file");
  afg_test_rm_rf (dir);
}

/* ---- output failures ---- */

static void
assert_write_failed (const AfgHostileRun *run, const char *out_dir, const char *reason)
{
  g_autofree char *json = g_build_filename (out_dir, "flamegraph.json", NULL);
  g_autofree char *with_dir = g_strconcat ("ascend-flamegraph: error: ", out_dir, ": ", NULL);
  g_autofree char *with_file = g_strconcat ("ascend-flamegraph: error: ", json, ": ", NULL);
  g_auto(GStrv) lines = g_strsplit (run->err, "\n", -1);

  if (!WIFEXITED (run->status))
    {
      g_test_fail_printf ("the CLI was killed by signal %d", WTERMSIG (run->status));
      return;
    }
  g_assert_cmpint (WEXITSTATUS (run->status), ==, EXIT_WRITE_FAILED);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_true (g_str_has_prefix (lines[1], "ascend-flamegraph: hint: "));
  if (!g_str_has_prefix (lines[0], with_dir) && !g_str_has_prefix (lines[0], with_file))
    g_test_fail_printf ("expected '%s<reason>' or '%s<reason>', got: %s", with_dir, with_file, lines[0]);
  g_assert_nonnull (strstr (lines[0], reason));
}

static void
test_output_is_file (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *file = g_build_filename (dir, "not-a-dir", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  const char *args[] = { "--export", "-f", "json", "-o", file, afg_hostile_sample (LEVEL0), NULL };
  AfgHostileRun run;

  afg_test_write_file (file, "keep me\n", -1);
  before = afg_test_snapshot_dir (dir);
  afg_hostile_spawn (args, NULL, &run);
  assert_write_failed (&run, file, "");
  after = afg_test_snapshot_dir (dir);
  g_assert_cmpstr (after, ==, before);
  afg_hostile_run_clear (&run);
  afg_test_rm_rf (dir);
}

/* A DB that happens to be named like the output, exported into its own
 * directory: the export must not replace the input. */
static void
test_output_is_input (void)
{
  char *db = afg_hostile_sample_copy (LEVEL0, -1);
  g_autofree char *dir = g_path_get_dirname (db);
  g_autofree char *named = g_build_filename (dir, "flamegraph.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  const char *args[] = { "--export", "-f", "json", "-o", dir, named, NULL };
  AfgHostileRun run;

  g_assert_cmpint (g_rename (db, named), ==, 0);
  before = afg_test_snapshot_dir (dir);
  afg_hostile_spawn (args, NULL, &run);
  after = afg_test_snapshot_dir (dir);
  g_assert_cmpstr (after, ==, before);
  g_assert_true (WIFEXITED (run.status));
  g_assert_cmpint (WEXITSTATUS (run.status), !=, EXIT_OK);
  afg_hostile_run_clear (&run);
  afg_test_rm_rf (dir);
  g_free (db);
}

/* The output directory holds an old export; a failed write keeps it. */
static void
assert_full_keeps_old (const char *out_dir, AfgHostileChildSetup setup, const char *reason)
{
  g_autofree char *json = g_build_filename (out_dir, "flamegraph.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  const char *args[] = { "--export", "-f", "json", "-o", out_dir, afg_hostile_sample (LEVEL0), NULL };
  AfgHostileRun run;

  afg_test_write_file (json, "{\"old\":true}\n", -1);
  before = afg_test_snapshot_dir (out_dir);
  afg_hostile_spawn (args, setup, &run);
  after = afg_test_snapshot_dir (out_dir);
  g_assert_cmpstr (after, ==, before);
  assert_write_failed (&run, out_dir, reason);
  afg_hostile_run_clear (&run);
}

static void
test_disk_full (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();

  if (mount_small_tmpfs (dir, "128k"))
    {
      assert_full_keeps_old (dir, NULL, "No space left on device");
      g_assert_cmpint (umount (dir), ==, 0);
    }
  afg_test_rm_rf (dir);
}

static void
limit_file_size (gpointer data)
{
  struct rlimit limit = { 64 * 1024, 64 * 1024 };

  setrlimit (RLIMIT_FSIZE, &limit);
}

/* ulimit -f: SIGXFSZ must not kill the export half-way. */
static void
test_file_size_limit (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();

  assert_full_keeps_old (dir, limit_file_size, "File too large");
  afg_test_rm_rf (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* One core bug must not hide the results of the cases after it. */
  g_test_set_nonfatal_assertions ();
  g_test_add_data_func ("/hostile/truncated/header-only", GSIZE_TO_POINTER (100), test_truncated);
  g_test_add_data_func ("/hostile/truncated/first-page", GSIZE_TO_POINTER (4096), test_truncated);
  g_test_add_data_func ("/hostile/truncated/half", GSIZE_TO_POINTER (0), test_truncated);
  g_test_add_func ("/hostile/corrupt/random-middle", test_random_middle);
  g_test_add_func ("/hostile/wal/missing-wal-sample", test_wal_missing_sample);
  g_test_add_func ("/hostile/wal/missing-wal-rows", test_wal_missing_rows);
  g_test_add_func ("/hostile/wal/wal-over-10GiB", test_wal_too_large);
  g_test_add_func ("/hostile/journal/hot-journal", test_hot_journal);
  g_test_add_func ("/hostile/schema/view-endless-cte", test_view_endless);
  g_test_add_func ("/hostile/schema/trigger", test_trigger);
  g_test_add_func ("/hostile/schema/string-ids-view", test_string_ids_view);
  g_test_add_func ("/hostile/schema/unrelated-endless-objects", test_unrelated_endless_objects);
  g_test_add_data_func ("/hostile/schema/virtual-table/fts5",
                        "fts5(startNs, endNs, globalTid, name, type)", test_virtual_table);
  g_test_add_data_func ("/hostile/schema/virtual-table/rtree",
                        "rtree(id, startNs, endNs, +globalTid, +name, +type)", test_virtual_table);
  g_test_add_func ("/hostile/schema/virtual-table/STRING_IDS", test_virtual_string_ids);
  g_test_add_func ("/hostile/schema/virtual-table/ENUM_API_TYPE", test_virtual_enum);
  g_test_add_func ("/hostile/schema/generated-column", test_generated_column);
  g_test_add_func ("/hostile/schema/rowid-shadowed", test_rowid_shadowed);
  g_test_add_func ("/hostile/schema/without-rowid", test_without_rowid);
  g_test_add_func ("/hostile/values/garbage-everywhere", test_garbage_everywhere);
  g_test_add_func ("/hostile/values/start-above-2^63", test_start_above_2_63);
  g_test_add_func ("/hostile/values/name-1MiB", test_name_1mib);
  g_test_add_func ("/hostile/values/name-over-64MiB", test_name_over_64mib);
  g_test_add_func ("/hostile/scale/100k-threads", test_100k_threads);
  g_test_add_func ("/hostile/scale/depth-5000", test_depth_5000);
  g_test_add_func ("/hostile/input/file-name-not-utf8", test_file_name_not_utf8);
  g_test_add_func ("/hostile/input/control-chars-in-path", test_path_control_chars);
  g_test_add_func ("/hostile/input/uri-characters-in-path", test_uri_characters);
  g_test_add_data_func ("/hostile/input/symlink-to-dev-zero", "/dev/zero", test_symlink_to_device);
  g_test_add_data_func ("/hostile/input/symlink-to-dev-urandom", "/dev/urandom", test_symlink_to_device);
  g_test_add_func ("/hostile/output/path-is-a-file", test_output_is_file);
  g_test_add_func ("/hostile/output/would-overwrite-input", test_output_is_input);
  g_test_add_func ("/hostile/output/disk-full", test_disk_full);
  g_test_add_func ("/hostile/output/file-size-limit", test_file_size_limit);
  return g_test_run ();
}
