/* SPDX-License-Identifier: MIT */
/* Input checks, in order, each a clear error naming
 * the file; the database is opened read-only and nothing is written. */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "afg-error.h"
#include "afg-loader.h"
#include "afg-test-db.h"

#define GIB (G_GINT64_CONSTANT (1024) * 1024 * 1024)
#define SQLITE_HEADER "SQLite format 3"   /* + its NUL: 16 bytes */

/* Loads @path expecting @code, a message "PATH: reason" that contains
 * @needle, and no change at all in the directory around it. */
static GError *
assert_load_fails (const char *path, int code, const char *needle)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *before = afg_test_snapshot_dir (dir);
  g_autofree char *after = NULL;
  g_autofree char *prefix = g_strconcat (path, ": ", NULL);
  g_autoptr(AfgTree) tree = NULL;
  GError *error = NULL;

  tree = afg_test_load_tree (path, NULL, NULL, NULL, &error);
  g_assert_null (tree);
  g_assert_error (error, AFG_LOAD_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_assert_cmpuint (strlen (error->message), >, strlen (prefix));
  g_assert_null (strchr (error->message, '\n'));
  if (needle != NULL)
    g_assert_nonnull (strstr (error->message, needle));
  after = afg_test_snapshot_dir (dir);
  g_assert_cmpstr (after, ==, before);
  return error;
}

static char *
file_in_tmp (char **dir, const char *name)
{
  *dir = afg_test_make_tmp_dir ();
  return g_build_filename (*dir, name, NULL);
}

static void
test_missing_path (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = file_in_tmp (&dir, "nothing.db");
  g_autoptr(GError) error = assert_load_fails (path, AFG_LOAD_ERROR_NOT_FOUND, NULL);

  afg_test_rm_rf (dir);
}

static void
test_directory (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = file_in_tmp (&dir, "profile.db");
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir (path, 0755), ==, 0);
  error = assert_load_fails (path, AFG_LOAD_ERROR_NOT_REGULAR, NULL);
  afg_test_rm_rf (dir);
}

/* Opening a FIFO for reading would block: it must be refused from stat. */
static void
test_fifo (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = file_in_tmp (&dir, "profile.db");
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (mkfifo (path, 0644), ==, 0);
  error = assert_load_fails (path, AFG_LOAD_ERROR_NOT_REGULAR, NULL);
  afg_test_rm_rf (dir);
}

static void
extend_sparse (const char *path, gint64 size)
{
  int fd = g_open (path, O_WRONLY, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, size), ==, 0);
  close (fd);
}

/* A valid database padded (sparse, no disk use) to exactly 10 GiB still
 * loads; one byte more is refused before anything is read. */
static void
test_size_limit (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GError) error = NULL;

  afg_test_db_add (db, GTID (1, 1), 0, 10, "A");
  afg_test_db_close (db);
  extend_sparse (db->path, 10 * GIB);
  tree = afg_test_load_tree (db->path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (afg_document_get_source_bytes (afg_tree_get_document (tree)), ==, 10 * GIB);
  g_assert_cmpuint (afg_tree_get_stats (tree)->used, ==, 1);

  extend_sparse (db->path, 10 * GIB + 1);
  error = assert_load_fails (db->path, AFG_LOAD_ERROR_TOO_LARGE, NULL);
  afg_test_db_free (db);
}

/* The size is checked before the header: a huge text file is too large. */
static void
test_size_before_header (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = file_in_tmp (&dir, "big.txt");
  g_autoptr(GError) error = NULL;

  afg_test_write_file (path, "not a database\n", -1);
  extend_sparse (path, 10 * GIB + 1);
  error = assert_load_fails (path, AFG_LOAD_ERROR_TOO_LARGE, NULL);
  afg_test_rm_rf (dir);
}

static void
test_not_sqlite (gconstpointer data)
{
  const char *content = data;
  g_autofree char *dir = NULL;
  g_autofree char *path = file_in_tmp (&dir, "profile.db");
  g_autoptr(GError) error = NULL;

  afg_test_write_file (path, content, -1);
  error = assert_load_fails (path, AFG_LOAD_ERROR_NOT_SQLITE, NULL);
  afg_test_rm_rf (dir);
}

/* The right 16 bytes, then garbage: refused when opened, naming the file. */
static void
test_header_then_garbage (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = file_in_tmp (&dir, "profile.db");
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *prefix = g_strconcat (path, ": ", NULL);
  g_autoptr(GError) error = NULL;
  char data[4096];

  memset (data, 0xa5, sizeof data);
  memcpy (data, SQLITE_HEADER, 16);
  afg_test_write_file (path, data, sizeof data);
  before = afg_test_snapshot_dir (dir);
  g_assert_null (afg_test_load_tree (path, NULL, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_true (error->domain == AFG_LOAD_ERROR);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  after = afg_test_snapshot_dir (dir);
  g_assert_cmpstr (after, ==, before);
  afg_test_rm_rf (dir);
}

static void
assert_profiler_hint (const GError *error)
{
  const char *hint = afg_load_error_get_hint (error);

  g_assert_nonnull (hint);
  g_assert_nonnull (strstr (hint, "torch_npu.profiler.ProfilerActivity.CPU"));
}

static void
test_missing_table (gconstpointer data)
{
  AfgTestDbFlags flags = GPOINTER_TO_INT (data);
  const char *table = (flags & AFG_TEST_DB_NO_STRING_IDS) ? "STRING_IDS" : "PYTORCH_API";
  AfgTestDb *db = afg_test_db_new (flags);
  g_autoptr(GError) error = NULL;

  afg_test_db_close (db);
  error = assert_load_fails (db->path, AFG_LOAD_ERROR_MISSING_TABLE, table);
  assert_profiler_hint (error);
  afg_test_db_free (db);
}

/* Tables are checked before columns. */
static void
test_tables_before_columns (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NO_STRING_IDS | AFG_TEST_DB_NO_PYTORCH_API);
  g_autoptr(GError) error = NULL;

  afg_test_db_exec (db, "CREATE TABLE PYTORCH_API (endNs TEXT, globalTid INTEGER, name INTEGER)");
  afg_test_db_close (db);
  error = assert_load_fails (db->path, AFG_LOAD_ERROR_MISSING_TABLE, "STRING_IDS");
  afg_test_db_free (db);
}

static void
test_missing_column (gconstpointer data)
{
  const char *missing = data;
  static const char * const columns[] = { "startNs TEXT", "endNs TEXT", "globalTid INTEGER",
                                          "name INTEGER", "type INTEGER" };
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NO_PYTORCH_API);
  g_autoptr(GString) sql = g_string_new ("CREATE TABLE PYTORCH_API (connectionId INTEGER");
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (!g_str_has_prefix (columns[i], missing))
      g_string_append_printf (sql, ", %s", columns[i]);
  g_string_append (sql, ")");
  afg_test_db_exec (db, sql->str);
  afg_test_db_close (db);
  error = assert_load_fails (db->path, AFG_LOAD_ERROR_MISSING_COLUMN, missing);
  afg_test_db_free (db);
}

/* PYTORCH_API must be a table: a view (which could compute anything) is refused. */
static void
test_view_refused (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NO_PYTORCH_API);
  g_autoptr(GError) error = NULL;

  afg_test_db_exec (db, "CREATE TABLE real_api (startNs TEXT, endNs TEXT, globalTid INTEGER,"
                        " name INTEGER, type INTEGER);"
                        "INSERT INTO real_api VALUES ('0', '10', 4294967297, 1, 50001);"
                        "INSERT INTO STRING_IDS VALUES (1, 'A');"
                        "CREATE VIEW PYTORCH_API AS SELECT * FROM real_api");
  afg_test_db_close (db);
  error = assert_load_fails (db->path, AFG_LOAD_ERROR_NOT_A_TABLE, "PYTORCH_API");
  afg_test_db_free (db);
}

static void
assert_loads_unchanged (const char *path, guint64 expected_used)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *before = afg_test_snapshot_dir (dir);
  g_autofree char *after = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GError) error = NULL;

  g_test_message ("before:\n%s", before);
  tree = afg_test_load_tree (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  afg_test_check_invariants (tree);
  g_assert_cmpuint (afg_tree_get_stats (tree)->used, ==, expected_used);
  after = afg_test_snapshot_dir (dir);
  g_assert_cmpstr (after, ==, before);
}

/* Rule 2: no journal, WAL or shm file appears, bytes and mtime unchanged. */
static void
test_readonly (gconstpointer data)
{
  AfgTestDb *db = afg_test_db_new (GPOINTER_TO_INT (data));
  g_autofree char *shm = g_strconcat (db->path, "-shm", NULL);
  g_autofree char *wal = g_strconcat (db->path, "-wal", NULL);

  afg_test_db_add (db, GTID (1, 1), 0, 10, "A");
  afg_test_db_add (db, GTID (1, 1), 2, 5, "B");
  afg_test_db_close (db);
  g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
  assert_loads_unchanged (db->path, 2);
  g_assert_false (g_file_test (shm, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (wal, G_FILE_TEST_EXISTS));
  afg_test_db_free (db);
}

/* Rule 2: a non-empty -wal left by a writer holds committed rows, which
 * must be read, without a -shm appearing beside the database. */
static void
test_live_wal (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *copy = afg_test_live_wal_copy (dir);
  g_autofree char *shm = NULL;
  g_autofree char *wal = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  static const char * const expected[] = {
    "1/1\t2\t20\t0",
    "1/1;in_db\t1\t10\t10",
    "1/1;in_wal\t1\t10\t10",
    NULL
  };
  struct stat st;

  shm = g_strconcat (copy, "-shm", NULL);
  wal = g_strconcat (copy, "-wal", NULL);

  g_assert_cmpint (g_stat (wal, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 0);
  assert_loads_unchanged (copy, 2);
  g_assert_false (g_file_test (shm, G_FILE_TEST_EXISTS));
  tree = afg_test_load_tree (copy, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  afg_test_assert_tree (tree, expected);
  afg_test_rm_rf (dir);
}

/* All of a fresh WAL database, schema included, may still be in its -wal. */
static void
test_live_wal_only (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_WAL);
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *copy = NULL;

  afg_test_db_add (db, GTID (1, 1), 0, 10, "A");
  afg_test_db_add (db, GTID (1, 1), 1, 2, "B");
  afg_test_db_add (db, GTID (1, 2), 1, 2, "C");
  copy = afg_test_db_copy_live (db, dir);
  afg_test_db_close (db);
  assert_loads_unchanged (copy, 3);
  afg_test_rm_rf (dir);
  afg_test_db_free (db);
}

/* A -wal beside a header that names rollback mode (bytes 18-19 = 1):
 * SQLite reads it all the same, and so must the load. */
static void
test_wal_beside_rollback_header (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *copy = afg_test_live_wal_copy (dir);
  g_autofree char *bytes = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (copy, &bytes, &len, NULL));
  g_assert_cmpuint (len, >=, 100);
  g_assert_cmpint (bytes[18], ==, 2);
  bytes[18] = bytes[19] = 1;
  g_assert_true (g_file_set_contents (copy, bytes, (gssize) len, NULL));
  assert_loads_unchanged (copy, 2);
  afg_test_rm_rf (dir);
}

/* Source metadata: the file's name and size. */
static void
test_source_info (void)
{
  AfgTestDb *db = afg_test_db_new (0);
  g_autoptr(AfgTree) tree = NULL;
  struct stat st;

  afg_test_db_add (db, GTID (1, 1), 0, 10, "A");
  tree = afg_test_db_load (db);
  g_assert_cmpint (g_stat (db->path, &st), ==, 0);
  g_assert_cmpuint (afg_document_get_source_bytes (afg_tree_get_document (tree)), ==, st.st_size);
  g_assert_cmpstr (afg_document_get_source_name (afg_tree_get_document (tree)), ==, "ascend_pytorch_profiler_0.db");
  g_assert_cmpstr (afg_document_get_source_path (afg_tree_get_document (tree)), ==, db->path);
  afg_test_db_free (db);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/input/missing-path", test_missing_path);
  g_test_add_func ("/input/directory", test_directory);
  g_test_add_func ("/input/fifo", test_fifo);
  g_test_add_func ("/input/size-limit", test_size_limit);
  g_test_add_func ("/input/size-before-header", test_size_before_header);
  g_test_add_data_func ("/input/not-sqlite/text", "just some text\n", test_not_sqlite);
  g_test_add_data_func ("/input/not-sqlite/empty", "", test_not_sqlite);
  g_test_add_data_func ("/input/not-sqlite/short", SQLITE_HEADER, test_not_sqlite);
  g_test_add_data_func ("/input/not-sqlite/lookalike", "SQLite format 2\nxxxxxxxxxxxxxxxx",
                        test_not_sqlite);
  g_test_add_func ("/input/header-then-garbage", test_header_then_garbage);
  g_test_add_data_func ("/input/missing-table/PYTORCH_API",
                        GINT_TO_POINTER (AFG_TEST_DB_NO_PYTORCH_API), test_missing_table);
  g_test_add_data_func ("/input/missing-table/STRING_IDS",
                        GINT_TO_POINTER (AFG_TEST_DB_NO_STRING_IDS), test_missing_table);
  g_test_add_data_func ("/input/missing-table/all", GINT_TO_POINTER (AFG_TEST_DB_EMPTY),
                        test_missing_table);
  g_test_add_func ("/input/tables-before-columns", test_tables_before_columns);
  g_test_add_data_func ("/input/missing-column/startNs", "startNs", test_missing_column);
  g_test_add_data_func ("/input/missing-column/endNs", "endNs", test_missing_column);
  g_test_add_data_func ("/input/missing-column/globalTid", "globalTid", test_missing_column);
  g_test_add_data_func ("/input/missing-column/name", "name", test_missing_column);
  g_test_add_func ("/input/view-refused", test_view_refused);
  g_test_add_func ("/input/source-info", test_source_info);
  g_test_add_data_func ("/readonly/rollback-journal", GINT_TO_POINTER (0), test_readonly);
  g_test_add_data_func ("/readonly/wal-mode", GINT_TO_POINTER (AFG_TEST_DB_WAL), test_readonly);
  g_test_add_func ("/readonly/live-wal", test_live_wal);
  g_test_add_func ("/readonly/live-wal-only", test_live_wal_only);
  g_test_add_func ("/readonly/wal-beside-rollback-header", test_wal_beside_rollback_header);
  return g_test_run ();
}
