/* SPDX-License-Identifier: MIT */
/* The direct b-tree reader (afg-table-scan.h) against SQLite on every
 * kind of DB the suite can build: the same JSON, and the direct read
 * taken where it applies, given up where it must be. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "afg-source.h"
#include "afg-sql-value.h"
#include "afg-test-db.h"

#define NPU_TABLES 4   /* STRING_IDS, TASK, CONNECTION_IDS, PYTORCH_API */
#define HOST_TABLES 2  /* STRING_IDS, PYTORCH_API */
/* The samples' NPU tables and the three of the task kinds. */
#define SAMPLE_TABLES (NPU_TABLES + 3)

static void
check (const char *path, guint want_fast, guint want_fallbacks)
{
  guint fast, fallbacks;
  g_autofree char *json = afg_test_load_both (path, &fast, &fallbacks);

  g_assert_false (g_str_has_prefix (json, "error:"));
  g_assert_cmpuint (fast, ==, want_fast);
  g_assert_cmpuint (fallbacks, ==, want_fallbacks);
}

static void
exec (sqlite3 *db, const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static gint64
query_int (const char *path, const char *sql)
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

/* A profile with NPU tasks, every 7th name long enough to spill to
 * overflow pages, every 5th startNs a long text of leading zeros. */
static AfgTestDb *
make_profile (guint rows)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autofree char *long_name = g_strnfill (9000, 'n');
  g_autofree char *zeros = g_strnfill (5000, '0');

  afg_test_db_begin (db);
  for (guint i = 0; i < rows; i++)
    {
      g_autofree char *name = i % 7 == 3 ? g_strdup_printf ("%s%u", long_name, i % 3) : g_strdup_printf ("op%u", i % 50);
      gint64 start = 1000 + 100 * (gint64) i, end = start + 50 + i % 30;

      if (i % 5 == 1)
        {
          g_autofree char *sql = g_strdup_printf ("INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type)"
                                                  " VALUES ('%s%" G_GINT64_FORMAT "', '%" G_GINT64_FORMAT "', %d,"
                                                  " %" G_GINT64_FORMAT ", 50001)",
                                                  zeros, start, end, 7 + (int) (i % 3), afg_test_db_name (db, name));
          afg_test_db_exec (db, sql);
        }
      else if (i % 4 == 0)
        {
          afg_test_db_add_with_connection (db, 7 + (i % 3), start, end, name, i);
          afg_test_db_link (db, i, 10000 + i);
          afg_test_db_add_task (db, start + 5, start + 9, 10000 + i);
        }
      else
        afg_test_db_add (db, 7 + (i % 3), start, end, name);
    }
  afg_test_db_add (db, 7, 0, 10 * (gint64) rows * 100, "ProfilerStep#1");
  afg_test_db_add_task (db, 1, 2, AFG_TEST_NO_LINK);
  afg_test_db_commit (db);
  afg_test_db_close (db);
  return db;
}

/* @src's tables in a new DB made with @pragmas (and @reserve bytes at the
 * end of each page), each CREATE with @from replaced by @to. */
static char *
clone_db (const char *src, const char *name, const char *pragmas, int reserve, const char *from, const char *to)
{
  g_autofree char *dir = g_path_get_dirname (src);
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *attach = g_strdup_printf ("ATTACH '%s' AS s", src);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (reserve > 0)
    g_assert_cmpint (sqlite3_file_control (db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve), ==, SQLITE_OK);
  exec (db, pragmas);
  exec (db, attach);
  exec (db, "BEGIN");
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT name, sql, type FROM s.sqlite_schema WHERE sql NOT NULL"
                                           " ORDER BY type = 'table' DESC, rowid", -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *table = (const char *) sqlite3_column_text (stmt, 0);
      g_auto(GStrv) parts = g_strsplit ((const char *) sqlite3_column_text (stmt, 1), from ? from : "\x01", -1);
      g_autofree char *create = g_strjoinv (to ? to : "\x01", parts);

      exec (db, create);
      if (g_strcmp0 ((const char *) sqlite3_column_text (stmt, 2), "table") == 0)
        {
          g_autofree char *copy = g_strdup_printf ("INSERT INTO main.\"%s\" SELECT * FROM s.\"%s\"", table, table);
          exec (db, copy);
        }
    }
  sqlite3_finalize (stmt);
  exec (db, "COMMIT");
  exec (db, "DETACH s");
  sqlite3_close (db);
  return path;
}

static void
copy_rows (sqlite3 *from, sqlite3 *to, const char *table)
{
  g_autofree char *select = g_strdup_printf ("SELECT * FROM \"%s\"", table);
  sqlite3_stmt *read = NULL, *write = NULL;
  GString *insert = g_string_new (NULL);

  g_assert_cmpint (sqlite3_prepare_v2 (from, select, -1, &read, NULL), ==, SQLITE_OK);
  g_string_printf (insert, "INSERT INTO \"%s\" VALUES (?", table);
  for (int i = 1; i < sqlite3_column_count (read); i++)
    g_string_append (insert, ", ?");
  g_string_append (insert, ")");
  g_assert_cmpint (sqlite3_prepare_v2 (to, insert->str, -1, &write, NULL), ==, SQLITE_OK);
  while (sqlite3_step (read) == SQLITE_ROW)
    {
      for (int i = 0; i < sqlite3_column_count (read); i++)
        sqlite3_bind_value (write, i + 1, sqlite3_column_value (read, i));
      g_assert_cmpint (sqlite3_step (write), ==, SQLITE_DONE);
      sqlite3_reset (write);
    }
  sqlite3_finalize (read);
  sqlite3_finalize (write);
  g_string_free (insert, TRUE);
}

/* @src as a UTF-16 DB (ATTACH needs one encoding on both sides). */
static char *
clone_utf16 (const char *src, const char *name)
{
  g_autofree char *dir = g_path_get_dirname (src);
  char *path = g_build_filename (dir, name, NULL);
  sqlite3 *from = NULL, *to = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open (src, &from), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_open (path, &to), ==, SQLITE_OK);
  exec (to, "PRAGMA encoding = 'UTF-16le'; BEGIN");
  g_assert_cmpint (sqlite3_prepare_v2 (from, "SELECT name, sql, type FROM sqlite_schema WHERE sql NOT NULL"
                                             " ORDER BY type = 'table' DESC, rowid", -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      exec (to, (const char *) sqlite3_column_text (stmt, 1));
      if (g_strcmp0 ((const char *) sqlite3_column_text (stmt, 2), "table") == 0)
        copy_rows (from, to, (const char *) sqlite3_column_text (stmt, 0));
    }
  sqlite3_finalize (stmt);
  exec (to, "COMMIT");
  sqlite3_close (from);
  sqlite3_close (to);
  return path;
}

static void
modify (const char *path, const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  exec (db, sql);
  sqlite3_close (db);
}

static guint8
header_byte (const char *path, guint offset)
{
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >, offset);
  return (guint8) data[offset];
}

static void
test_samples (void)
{
  const char *samples[] = { "ascend_pytorch_profiler_level0_rank0", "ascend_pytorch_profiler_level1_rank0" };

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = afg_test_sample_path (samples[i], ".db");
      check (path, SAMPLE_TABLES, 0);
    }
}

static void
test_generated (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  const char *variants[][2] = { { "npu.db", NULL }, { "host.db", "--no-npu" } };

  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      g_autofree char *path = g_build_filename (dir, variants[i][0], NULL);
      const char *argv[] = { g_getenv ("AFG_GEN_DB"), path, "30000", variants[i][1], NULL };
      int status;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                                   &status, NULL));
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      check (path, variants[i][1] ? HOST_TABLES : NPU_TABLES, 0);
    }
  afg_test_rm_rf (dir);
}

static void
test_overflow_and_layouts (void)
{
  AfgTestDb *db = make_profile (3000);
  g_autofree char *src = g_strdup (db->path);
  g_autofree char *small = clone_db (src, "small.db", "PRAGMA page_size=512", 0, NULL, NULL);
  g_autofree char *big = clone_db (src, "big.db", "PRAGMA page_size=65536", 0, NULL, NULL);
  g_autofree char *reserved = clone_db (src, "reserved.db", "PRAGMA page_size=1024", 40, NULL, NULL);
  g_autofree char *vacuum = clone_db (src, "vacuum.db", "PRAGMA page_size=1024; PRAGMA auto_vacuum=FULL", 0,
                                      NULL, NULL);

  g_assert_cmpint (query_int (src, "SELECT count(*) FROM dbstat WHERE name = 'PYTORCH_API' AND pagetype = 'overflow'"),
                   >, 0);
  g_assert_cmpint (query_int (src, "SELECT count(*) FROM dbstat WHERE name = 'STRING_IDS' AND pagetype = 'overflow'"),
                   >, 0);
  check (src, NPU_TABLES, 0);
  check (small, NPU_TABLES, 0);
  g_assert_cmpuint (header_byte (big, 16), ==, 0);
  g_assert_cmpuint (header_byte (big, 17), ==, 1);  /* 1 means 65536 */
  check (big, NPU_TABLES, 0);
  g_assert_cmpuint (header_byte (reserved, 20), ==, 40);
  check (reserved, NPU_TABLES, 0);
  g_assert_cmpint (query_int (vacuum, "PRAGMA auto_vacuum"), ==, 1);
  check (vacuum, NPU_TABLES, 0);
  afg_test_db_free (db);
}

/* Small pages and many rows: interior pages on three levels and more. */
static void
test_deep_tree (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *deep = NULL;

  afg_test_db_begin (db);
  for (guint i = 0; i < 60000; i++)
    afg_test_db_add (db, 1 + i % 4, 100 * (gint64) i, 100 * (gint64) i + 20 + i % 50, i % 2 ? "a" : "b");
  afg_test_db_commit (db);
  afg_test_db_close (db);
  deep = clone_db (db->path, "deep.db", "PRAGMA page_size=512", 0, NULL, NULL);
  g_assert_cmpint (query_int (deep, "SELECT max(length(path) - length(replace(path, '/', ''))) - 1"
                                    " FROM dbstat WHERE name = 'PYTORCH_API'"), >=, 3);
  check (deep, HOST_TABLES, 0);
  /* Freeblocks, emptier pages, gaps in the rowids. */
  modify (deep, "DELETE FROM PYTORCH_API WHERE rowid % 3 = 0 OR rowid BETWEEN 20000 AND 30000");
  check (deep, HOST_TABLES, 0);
  afg_test_db_free (db);
}

/* Rows written before ALTER TABLE ADD COLUMN lack the column: NULL, or
 * its default, which only SQLite gives. */
static void
add_typed_rows (AfgTestDb *db, const char *alter)
{
  afg_test_db_begin (db);
  for (guint i = 0; i < 500; i++)
    afg_test_db_add (db, 1, 100 * (gint64) i, 100 * (gint64) i + 50, i % 2 ? "early" : "ProfilerStep#3");
  afg_test_db_commit (db);
  afg_test_db_exec (db, alter);
  afg_test_db_begin (db);
  for (guint i = 500; i < 1000; i++)
    {
      g_autofree char *sql = g_strdup_printf ("INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type)"
                                              " VALUES (%u, %u, 2, %" G_GINT64_FORMAT ", 50001)",
                                              100 * i, 100 * i + 70, afg_test_db_name (db, "late"));
      afg_test_db_exec (db, sql);
    }
  afg_test_db_commit (db);
  afg_test_db_close (db);
}

static void
test_alter_table (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NO_TYPE);
  AfgTestDb *with_default = afg_test_db_new (AFG_TEST_DB_NO_TYPE);

  add_typed_rows (db, "ALTER TABLE PYTORCH_API ADD COLUMN type INTEGER");
  check (db->path, HOST_TABLES, 0);
  add_typed_rows (with_default, "ALTER TABLE PYTORCH_API ADD COLUMN type INTEGER DEFAULT 50001");
  check (with_default->path, 1, 1);
  afg_test_db_free (db);
  afg_test_db_free (with_default);
}

/* REAL affinity turns stored integers into floats: not whole numbers. */
static void
test_real_columns (void)
{
  AfgTestDb *db = make_profile (400);
  g_autofree char *api = clone_db (db->path, "api.db", "", 0, "startNs TEXT", "startNs REAL");
  g_autofree char *task = clone_db (db->path, "task.db", "", 0, "endNs INTEGER, deviceId", "endNs DOUBLE, deviceId");

  g_assert_cmpint (query_int (api, "SELECT count(*) FROM PYTORCH_API WHERE typeof(startNs) = 'real'"), >, 0);
  check (api, NPU_TABLES, 0);
  check (task, NPU_TABLES, 0);
  afg_test_db_free (db);
}

/* Integers of every width a record stores them in (1, 2, 3, 4, 6 and 8
 * bytes), both signs, at each width's edges: times, thread ids and
 * connection ids read directly as SQLite reads them. */
static void
test_integer_widths (void)
{
  static const gint64 edges[] = { 0, 1, 127, 128, 32767, 32768, 8388607, 8388608, G_GINT64_CONSTANT (2147483647),
                                  G_GINT64_CONSTANT (2147483648), G_GINT64_CONSTANT (140737488355327),
                                  G_GINT64_CONSTANT (140737488355328), G_GINT64_CONSTANT (4611686018427387904) };
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_INTEGER_TIME | AFG_TEST_DB_NPU);
  guint n = 0;

  afg_test_db_begin (db);
  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    for (int sign = -1; sign <= 1; sign += 2)
      {
        gint64 at = sign * edges[i], tid = sign * edges[(i + 3) % G_N_ELEMENTS (edges)];
        gint64 row = afg_test_db_add_with_connection (db, tid, at - 3, at + 4, "edge", 1000 + n);

        afg_test_db_add (db, tid, at - edges[i % 4], at, "before");
        afg_test_db_add (db, tid, at, at + edges[(i + 1) % 5] + 1, "after");
        afg_test_db_add_task (db, at, at + edges[i % 6], sign * edges[(i + 5) % G_N_ELEMENTS (edges)]);
        afg_test_db_link (db, 1000 + n, sign * edges[(i + 5) % G_N_ELEMENTS (edges)]);
        g_assert_cmpint (row, >, 0);
        n++;
      }
  afg_test_db_commit (db);
  afg_test_db_close (db);
  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    {
      g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM PYTORCH_API WHERE startNs + 3 = %" G_GINT64_FORMAT,
                                              -edges[i]);

      g_assert_cmpint (query_int (db->path, sql), ==, edges[i] == 0 ? 2 : 1);
    }
  check (db->path, NPU_TABLES, 0);
  afg_test_db_free (db);
}

/* Where only SQLite reads the file: UTF-16 text, a -wal to replay. */
static void
test_sqlite_only_files (void)
{
  AfgTestDb *db = make_profile (300);
  AfgTestDb *wal = afg_test_db_new (AFG_TEST_DB_WAL);
  g_autofree char *utf16 = clone_utf16 (db->path, "utf16.db");
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *live = NULL;

  g_assert_cmpint (query_int (utf16, "SELECT count(*) FROM PYTORCH_API"), >, 0);
  g_assert_cmpuint (header_byte (utf16, 59), ==, 2);  /* UTF-16le */
  check (utf16, 0, 0);
  afg_test_db_add (wal, 1, 10, 20, "in the wal");
  live = afg_test_db_copy_live (wal, dir);
  check (live, 0, 0);
  afg_source_set_sqlite_only (TRUE);
  g_assert_true (afg_source_get_sqlite_only ());
  afg_source_set_sqlite_only (FALSE);
  afg_test_db_free (db);
  afg_test_db_free (wal);
  afg_test_rm_rf (dir);
}

typedef struct {
  guint32 pageno;
  char    type[12];  /* dbstat's pagetype: internal, leaf, overflow */
} Page;

static GArray *
list_pages (const char *path)
{
  GArray *pages = g_array_new (FALSE, FALSE, sizeof (Page));
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT pageno, pagetype FROM dbstat WHERE name IN"
                                           " ('PYTORCH_API', 'STRING_IDS', 'TASK', 'CONNECTION_IDS')"
                                           " ORDER BY pageno", -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      Page page = { (guint32) sqlite3_column_int64 (stmt, 0), "" };

      g_strlcpy (page.type, (const char *) sqlite3_column_text (stmt, 1), sizeof page.type);
      g_array_append_val (pages, page);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return pages;
}

static const Page *
pick_page (GArray *pages, GRand *rand, const char *type)
{
  for (guint tries = 0; tries < 10000; tries++)
    {
      const Page *page = &g_array_index (pages, Page, g_rand_int_range (rand, 0, (gint32) pages->len));

      if (strcmp (page->type, type) == 0)
        return page;
    }
  g_assert_not_reached ();
}

static void
put4 (guint8 *p, guint32 v)
{
  p[0] = (guint8) (v >> 24);
  p[1] = (guint8) (v >> 16);
  p[2] = (guint8) (v >> 8);
  p[3] = (guint8) v;
}

/* Damage that the direct reader must notice: pointers to page 0, past
 * the end, back to the page itself; a huge cell count, a cell pointer
 * past the page, a wrong page type. */
static void
damage (guint8 *page, const char *type, guint32 pageno, guint32 n_pages, guint kind)
{
  guint32 value = kind % 3 == 0 ? 0 : kind % 3 == 1 ? n_pages + 7 : pageno;

  if (strcmp (type, "overflow") == 0)
    put4 (page, value);
  else if (strcmp (type, "internal") == 0 && kind < 3)
    put4 (page + 8, value);
  else if (kind == 3)
    page[3] = page[4] = 0xff;
  else if (kind == 4)
    page[8 + (type[0] == 'i' ? 4 : 0)] = page[9 + (type[0] == 'i' ? 4 : 0)] = 0xff;
  else
    page[0] = page[0] == 0x0d ? 0x05 : 0x0d;
}

/* Bytes flipped at random, and targeted damage, in interior, leaf and
 * overflow pages: no crash, no hang, and what SQLite alone gives (a
 * document or an error). */
static void
test_corrupt (void)
{
  static const char * const types[] = { "internal", "leaf", "overflow" };
  AfgTestDb *db = make_profile (1500);
  g_autofree char *src = clone_db (db->path, "clean.db", "PRAGMA page_size=1024", 0, NULL, NULL);
  g_autofree char *dir = g_path_get_dirname (src);
  g_autofree char *bad = g_build_filename (dir, "bad.db", NULL);
  g_autoptr(GArray) pages = list_pages (src);
  g_autofree guint8 *clean = NULL;
  GRand *rand = g_rand_new_with_seed (20261204);
  guint errors = 0, documents = 0, all_fast = 0, all_fallbacks = 0, compared = 0;
  gsize len;

  g_assert_true (g_file_get_contents (src, (char **) &clean, &len, NULL));
  for (guint i = 0; i < 240; i++)
    {
      g_autofree guint8 *data = g_memdup2 (clean, len);
      const char *type = types[i % G_N_ELEMENTS (types)];
      const Page *page = pick_page (pages, rand, type);
      guint8 *at = data + (gsize) (page->pageno - 1) * 1024;
      guint fast, fallbacks, unused;
      g_autofree char *json = NULL;
      g_autofree char *sqlite = NULL;

      if (i < 60)
        damage (at, type, page->pageno, (guint32) (len / 1024), i / 3 % 6);
      else
        for (guint n = g_rand_int_range (rand, 1, 5); n > 0; n--)
          at[g_rand_int_range (rand, 0, 1024)] ^= (guint8) g_rand_int_range (rand, 1, 256);
      g_assert_true (g_file_set_contents (bad, (const char *) data, (gssize) len, NULL));
      json = afg_test_load_json (bad, FALSE, &fast, &fallbacks);
      sqlite = afg_test_load_json (bad, TRUE, &unused, &unused);
      /* Where the direct reader gave up SQLite judges, and on a damaged
       * page SQLite may read bytes past it that vary from run to run
       * (addresses): then only no crash is asked. */
      if (fallbacks == 0)
        {
          if (strcmp (json, sqlite) != 0)
            g_error ("page %u: the direct read gives %.300s…, SQLite %.300s…", page->pageno, json, sqlite);
          compared++;
        }
      all_fast += fast;
      all_fallbacks += fallbacks;
      if (g_str_has_prefix (json, "error:"))
        errors++;
      else
        documents++;
    }
  g_test_message ("%u errors, %u documents; tables read directly %u, given up on %u; %u files compared",
                   errors, documents, all_fast, all_fallbacks, compared);
  g_assert_cmpuint (compared, >, 100);
  g_assert_cmpuint (errors, >, 0);
  g_assert_cmpuint (all_fallbacks, >, 0);
  g_assert_cmpuint (all_fast, >, 0);
  g_assert_cmpuint (documents, >, 0);
  g_rand_free (rand);
  afg_test_db_free (db);
}

/* GLib's rule is the same: a sign, decimal digits, in range. */
static void
check_parse (const char *text, int len)
{
  g_autofree char *copy = g_strndup (text, len);
  gint64 got = 0, want = 0;
  gboolean ok = afg_parse_int64 ((const unsigned char *) text, len, &got);

  g_assert_cmpint (ok, ==, g_ascii_string_to_signed (copy, 10, G_MININT64, G_MAXINT64, &want, NULL));
  if (ok)
    g_assert_cmpint (got, ==, want);
}

static void
test_parse_int64 (void)
{
  static const char * const fixed[] = { "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                                        "18446744073709551615", "99999999999999999999", "0000000000000000000001",
                                        "+12345678", "1234567/", "12345678:", "1700000000123456789", "-0", "" };
  static const char alphabet[] = "0123456789999000+-/:a ";
  GRand *rand = g_rand_new_with_seed (42);
  char text[32];

  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    check_parse (fixed[i], (int) strlen (fixed[i]));
  for (guint i = 0; i < 200000; i++)
    {
      int len = g_rand_int_range (rand, 0, 26);
      gboolean digits_only = i % 2 == 0;

      for (int k = 0; k < len; k++)
        text[k] = digits_only ? (char) ('0' + g_rand_int_range (rand, 0, 10))
                              : alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];
      if (digits_only && len > 0 && i % 4 == 0)
        text[0] = '-';
      check_parse (text, len);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/btree/samples", test_samples);
  g_test_add_func ("/btree/generated", test_generated);
  g_test_add_func ("/btree/overflow-and-layouts", test_overflow_and_layouts);
  g_test_add_func ("/btree/deep-tree", test_deep_tree);
  g_test_add_func ("/btree/alter-table", test_alter_table);
  g_test_add_func ("/btree/real-columns", test_real_columns);
  g_test_add_func ("/btree/integer-widths", test_integer_widths);
  g_test_add_func ("/btree/sqlite-only-files", test_sqlite_only_files);
  g_test_add_func ("/btree/corrupt", test_corrupt);
  g_test_add_func ("/btree/parse-int64", test_parse_int64);
  return g_test_run ();
}
