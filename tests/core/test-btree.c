/* SPDX-License-Identifier: MIT */
/* The direct b-tree reader (afg-table-scan.h) against SQLite on every
 * kind of DB the suite can build: the same JSON, and the direct read
 * taken where it applies, given up where it must be. */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "afg-error.h"
#include "afg-source.h"
#include "afg-sql-value.h"
#include "afg-table-scan.h"
#include "afg-test-db.h"
#include "afg-trace-reader.h"

#define NPU_TABLES 4   /* STRING_IDS, TASK, CONNECTION_IDS, PYTORCH_API */
#define HOST_TABLES 2  /* STRING_IDS, PYTORCH_API */
#define KIND_TABLES 3  /* COMPUTE_TASK_INFO, COMMUNICATION_TASK_INFO, COMMUNICATION_OP (afg-gen-db writes them) */
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
      check (path, variants[i][1] ? HOST_TABLES : NPU_TABLES + KIND_TABLES, 0);
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

  g_assert_cmpint (afg_test_query_int (src, "SELECT count(*) FROM dbstat WHERE name = 'PYTORCH_API' AND pagetype = 'overflow'"),
                   >, 0);
  g_assert_cmpint (afg_test_query_int (src, "SELECT count(*) FROM dbstat WHERE name = 'STRING_IDS' AND pagetype = 'overflow'"),
                   >, 0);
  check (src, NPU_TABLES, 0);
  check (small, NPU_TABLES, 0);
  g_assert_cmpuint (header_byte (big, 16), ==, 0);
  g_assert_cmpuint (header_byte (big, 17), ==, 1);  /* 1 means 65536 */
  check (big, NPU_TABLES, 0);
  g_assert_cmpuint (header_byte (reserved, 20), ==, 40);
  check (reserved, NPU_TABLES, 0);
  g_assert_cmpint (afg_test_query_int (vacuum, "PRAGMA auto_vacuum"), ==, 1);
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
  g_assert_cmpint (afg_test_query_int (deep, "SELECT max(length(path) - length(replace(path, '/', ''))) - 1"
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

  g_assert_cmpint (afg_test_query_int (api, "SELECT count(*) FROM PYTORCH_API WHERE typeof(startNs) = 'real'"), >, 0);
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

      g_assert_cmpint (afg_test_query_int (db->path, sql), ==, edges[i] == 0 ? 2 : 1);
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

  g_assert_cmpint (afg_test_query_int (utf16, "SELECT count(*) FROM PYTORCH_API"), >, 0);
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
 * document or an error), whether the direct reader read each table or
 * gave it to SQLite. */
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
      /* Where the direct reader gave up SQLite judges, in both loads:
       * with cell_size_check SQLite refuses a cell past its page rather
       * than reading whatever bytes follow it, so the two agree there too. */
      if (strcmp (json, sqlite) != 0)
        g_error ("page %u (%u tables given up on): the direct read gives %.300s…, SQLite %.300s…",
                 page->pageno, fallbacks, json, sqlite);
      compared++;
      all_fast += fast;
      all_fallbacks += fallbacks;
      if (g_str_has_prefix (json, "error:"))
        errors++;
      else
        documents++;
    }
  g_test_message ("%u errors, %u documents; tables read directly %u, given up on %u; %u files compared",
                   errors, documents, all_fast, all_fallbacks, compared);
  g_assert_cmpuint (compared, ==, 240);
  g_assert_cmpuint (errors, >, 0);
  g_assert_cmpuint (all_fallbacks, >, 0);
  g_assert_cmpuint (all_fast, >, 0);
  g_assert_cmpuint (documents, >, 0);
  g_rand_free (rand);
  afg_test_db_free (db);
}

/* A 3-byte varint (values under 2^21), the width SQLite gave it. */
static void
put_varint3 (guint8 *p, guint32 v)
{
  p[0] = (guint8) (0x80 | v >> 14);
  p[1] = (guint8) (0x80 | (v >> 7 & 0x7f));
  p[2] = (guint8) (v & 0x7f);
}

static guint32
get_varint (const guint8 *p, guint *len)
{
  guint32 v = 0;

  for (*len = 0; *len < 4; (*len)++)
    {
      v = v << 7 | (p[*len] & 0x7f);
      if (p[*len] < 0x80)
        return (*len)++, v;
    }
  g_assert_not_reached ();
}

static guint32
local_size (guint32 usable, guint32 size)
{
  guint32 min_local = (usable - 12) * 32 / 255 - 23, max_local = usable - 35;
  guint32 k = min_local + (size - min_local) % (usable - 4);

  return size <= max_local ? size : k <= max_local ? k : min_local;
}

static GArray *
leaf_pages (const char *path, const char *table)
{
  GArray *pages = g_array_new (FALSE, FALSE, sizeof (guint32));
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT pageno FROM dbstat WHERE name = ?1 AND pagetype = 'leaf'",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      guint32 pgno = (guint32) sqlite3_column_int64 (stmt, 0);

      g_array_append_val (pages, pgno);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return pages;
}

/* The first overflow page of a payload of @size at @record points to itself. */
static void
self_loop (const guint8 *record, guint32 size, guint8 *file, guint32 page_size)
{
  guint32 first = afg_btree_get4 (record + local_size (page_size, size));

  put4 (file + (gsize) (first - 1) * page_size, first);
}

/* In each cell of @page: its last column (a blob of 3-byte varint size)
 * made to claim about a megabyte more, the cell's payload size to match
 * (on the page the same bytes stay local), and its first overflow page
 * made to point to itself. Returns the cells changed. */
static guint
loop_last_column (guint8 *page, guint8 *file, guint32 page_size)
{
  guint n_cells = (guint) page[3] << 8 | page[4], changed = 0;

  for (guint c = 0; c < n_cells; c++)
    {
      guint8 *cell = page + ((guint) page[8 + 2 * c] << 8 | page[9 + 2 * c]);
      guint n, m, h, w;
      guint32 size = get_varint (cell, &n), header, type = 0, k = 0;
      guint8 *record, *p;

      get_varint (cell + n, &m);
      record = cell + n + m;
      header = get_varint (record, &h);
      for (p = record + h; p < record + header; p += w)
        type = get_varint (p, &w);
      if (n != 3 || w != 3 || type < 12 || type % 2 != 0)
        continue;
      k = ((1u << 21) - 1 - type) / (2 * (page_size - 4));
      put_varint3 (p - w, type + 2 * k * (page_size - 4));
      put_varint3 (cell, size + k * (page_size - 4));
      self_loop (record, size, file, page_size);
      changed++;
    }
  return changed;
}

/* In each cell of @page that spills: its first overflow page points to
 * itself. Returns the cells changed. */
static guint
loop_overflow (guint8 *page, guint8 *file, guint32 page_size)
{
  guint n_cells = (guint) page[3] << 8 | page[4], changed = 0;

  for (guint c = 0; c < n_cells; c++)
    {
      guint8 *cell = page + ((guint) page[8 + 2 * c] << 8 | page[9 + 2 * c]);
      guint n, m;
      guint32 size = get_varint (cell, &n);

      get_varint (cell + n, &m);
      if (local_size (page_size, size) < size)
        {
          self_loop (cell + n + m, size, file, page_size);
          changed++;
        }
    }
  return changed;
}

typedef void (*LeafDamage) (guint8 *leaf, guint n_cells);

/* @db (closed here) in pages of 512 bytes, with @damage done to the one
 * leaf of @table, or the middle one of several (the loader asks SQLite for
 * the first and the last rowids, which reads the first and the last
 * leaves); returns the damaged copy's path. */
static char *
damage_small_leaf (AfgTestDb *db, const char *table, LeafDamage damage)
{
  char *path;
  g_autofree guint8 *bytes = NULL;
  g_autoptr(GArray) leaves = NULL;
  guint8 *leaf;
  gsize len;

  afg_test_db_close (db);
  path = clone_db (db->path, "small-pages.db", "PRAGMA page_size=512", 0, NULL, NULL);
  g_assert_true (g_file_get_contents (path, (char **) &bytes, &len, NULL));
  leaves = leaf_pages (path, table);
  g_assert_cmpuint (leaves->len, >=, 1);
  leaf = bytes + (gsize) (g_array_index (leaves, guint32, leaves->len / 2) - 1) * 512;
  damage (leaf, (guint) leaf[3] << 8 | leaf[4]);
  g_assert_true (g_file_set_contents (path, (const char *) bytes, (gssize) len, NULL));
  return path;
}

/* Cell 1 on the page's last byte, the others past the page. */
static void
cells_past_page (guint8 *leaf, guint n_cells)
{
  g_assert_cmpuint (n_cells, ==, 6);
  leaf[8 + 2] = 0x01, leaf[8 + 3] = 0xff;
  for (guint c = 2; c < n_cells; c++)
    leaf[8 + 2 * c] = leaf[8 + 2 * c + 1] = 0xff;
}

/* A leaf whose second cell starts on its page's last byte and whose
 * others point past the page (the offsets a fuzzer found in PYTORCH_API;
 * TASK's too): SQLite used to read the cell from whatever memory follows
 * the page, so that one load read one row, another six, and the two
 * readers parted. Damage SQLite sees is the answer of both readers,
 * every time. */
static void
test_cell_past_page (gconstpointer data)
{
  const char *table = data;
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autofree char *src = NULL;
  g_autofree char *first = NULL;

  for (guint i = 0; i < 6; i++)
    {
      afg_test_db_add_with_connection (db, 7, 1000 * i, 1000 * i + 500, "op", i);
      afg_test_db_link (db, i, 100 + i);
      afg_test_db_add_task (db, 1000 * i + 600, 1000 * i + 700, 100 + i);
    }
  src = damage_small_leaf (db, table, cells_past_page);
  for (guint i = 0; i < 10; i++)
    {
      guint fast, fallbacks;
      g_autofree char *json = afg_test_load_json (src, i % 2, &fast, &fallbacks);

      if (first == NULL)
        first = g_strdup (json);
      g_assert_cmpstr (json, ==, first);
    }
  g_test_message ("%s: %.200s", table, first);
  afg_test_db_free (db);
}

/* A DB of @n_rows rows in thread 7, "op0", "op1"…, with @damage done to
 * a leaf of @table (damage_small_leaf): both readers must give the same
 * error. Returns the direct read's fallbacks. */
static guint
assert_damage_refused_in (AfgTestDbFlags flags, const char *table, guint n_rows, LeafDamage damage)
{
  AfgTestDb *db = afg_test_db_new (flags);
  g_autofree char *src = NULL;
  g_autofree char *direct = NULL;
  g_autofree char *sqlite = NULL;
  guint fast, fallbacks, unused;

  for (guint i = 0; i < n_rows; i++)
    {
      g_autofree char *name = g_strdup_printf ("op%u", i);

      afg_test_db_add_with_connection (db, 7, 1000 * i, 1000 * i + 500, name, i);
      if (flags & AFG_TEST_DB_NPU)
        {
          afg_test_db_link (db, i, 100 + i);
          afg_test_db_add_task (db, 1000 * i + 600, 1000 * i + 700, 100 + i);
        }
    }
  src = damage_small_leaf (db, table, damage);
  direct = afg_test_load_json (src, FALSE, &fast, &fallbacks);
  sqlite = afg_test_load_json (src, TRUE, &unused, &unused);
  g_assert_cmpstr (direct, ==, sqlite);
  g_assert_true (g_str_has_prefix (direct, "error: "));
  /* The reason is the damage's, not what the connection said last. */
  g_assert_nonnull (strstr (direct, "malformed"));
  afg_test_db_free (db);
  return fallbacks;
}

static guint
assert_damage_refused (const char *table, guint n_rows, LeafDamage damage)
{
  return assert_damage_refused_in (AFG_TEST_DB_DEFAULT, table, n_rows, damage);
}

/* 85 cells, one more than a page of 512 bytes may hold, all the cell
 * nearest the page's end again: the pointer array still fits the page. */
static void
too_many_cells (guint8 *leaf, guint n_cells)
{
  guint last = 0;

  for (guint c = 0; c < n_cells; c++)
    last = MAX (last, (guint) leaf[8 + 2 * c] << 8 | leaf[8 + 2 * c + 1]);
  g_assert_cmpuint (8 + 2 * 85, <, last);
  leaf[3] = 0, leaf[4] = 85;
  for (guint c = 0; c < 85; c++)
    leaf[8 + 2 * c] = last >> 8, leaf[8 + 2 * c + 1] = last & 0xff;
}

/* A middle leaf with more cells than a page may hold: SQLite calls the
 * file malformed, and so must the direct read, which once read every
 * repeated cell as a row. */
static void
test_too_many_cells (gconstpointer data)
{
  assert_damage_refused (data, 400, too_many_cells);
}

/* The last cell's record made its header's size alone: a payload of one
 * byte, 1, and no serial type. */
static void
record_without_columns (guint8 *leaf, guint n_cells)
{
  guint8 *cell = leaf + ((guint) leaf[8 + 2 * (n_cells - 1)] << 8 | leaf[8 + 2 * (n_cells - 1) + 1]);

  g_assert_cmpuint (cell[0], <, 0x80);  /* one-byte payload size */
  g_assert_cmpuint (cell[1], <, 0x80);  /* one-byte rowid */
  cell[0] = 1;
  cell[2] = 1;
}

/* A row whose record declares no column: SQLite calls it corrupt as
 * soon as a column of it is read, so the direct reader hands such a
 * table to SQLite rather than read NULLs from it (a fuzzer's find, in
 * STRING_IDS). */
static void
test_record_without_columns (gconstpointer data)
{
  g_assert_cmpuint (assert_damage_refused (data, 6, record_without_columns), ==, 1);
}

/* The same beside NPU tables, read meanwhile on the same connection: the
 * error named SQLite's last message, "not an error". */
static void
test_damage_beside_npu (gconstpointer data)
{
  assert_damage_refused_in (AFG_TEST_DB_NPU, data, 400, too_many_cells);
}

/* PYTORCH_API rows with an extra column no reader asks for, that claims
 * a megabyte and loops on its overflow page: copying whole payloads
 * took seconds (and, with 60 MB claimed, ran past 30 s); only the
 * columns read are read now. */
static void
test_unread_column_loop (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_INTEGER_TIME);
  g_autofree char *dir = g_path_get_dirname (db->path);
  g_autofree char *src = NULL;
  g_autoptr(GArray) leaves = NULL;
  g_autofree guint8 *data = NULL;
  g_autofree char *json = NULL;
  guint changed = 0, fast, fallbacks;
  gsize len;
  gint64 t0;

  afg_test_db_begin (db);
  for (guint i = 0; i < 1000; i++)
    afg_test_db_add (db, 1 + i % 2, 100 * (gint64) i, 100 * (gint64) i + 20 + i % 70, i % 3 ? "a" : "b");
  afg_test_db_commit (db);
  afg_test_db_close (db);
  src = clone_db (db->path, "extra.db", "PRAGMA page_size=512", 0, NULL, NULL);
  modify (src, "ALTER TABLE PYTORCH_API ADD COLUMN extra BLOB; UPDATE PYTORCH_API SET extra = zeroblob(16400)");
  leaves = leaf_pages (src, "PYTORCH_API");
  g_assert_true (g_file_get_contents (src, (char **) &data, &len, NULL));
  for (guint i = 0; i < leaves->len; i++)
    changed += loop_last_column (data + (gsize) (g_array_index (leaves, guint32, i) - 1) * 512, data, 512);
  g_assert_cmpuint (changed, ==, 1000);
  g_assert_true (g_file_set_contents (src, (const char *) data, (gssize) len, NULL));
  t0 = g_get_monotonic_time ();
  json = afg_test_load_both (src, &fast, &fallbacks);
  g_test_message ("both loads: %.3f s", (g_get_monotonic_time () - t0) / 1e6);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, G_USEC_PER_SEC);
  g_assert_false (g_str_has_prefix (json, "error:"));
  g_assert_cmpuint (fast, ==, HOST_TABLES);
  g_assert_cmpuint (fallbacks, ==, 0);
  afg_test_db_free (db);
}

/* The same export but for the file's size (indexes were added). */
static gboolean
same_but_size (const char *a, const char *b)
{
  const char *a_end = strstr (a, "\"stats\":"), *b_end = strstr (b, "\"stats\":");

  g_assert_nonnull (a_end);
  g_assert_nonnull (b_end);
  return g_str_has_prefix (a, "{\"format\"") && strcmp (a_end, b_end) == 0;
}

static gboolean
uses_covering_index (const char *path, const char *query)
{
  g_autofree char *sql = g_strconcat ("EXPLAIN QUERY PLAN ", query, NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean covering = FALSE;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    covering |= strstr ((const char *) sqlite3_column_text (stmt, 3), "COVERING INDEX") != NULL;
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return covering;
}

/* A column read that loops on its overflow chain: the direct read sees
 * a page twice and leaves the table to SQLite, whatever SQLite makes of
 * it (here: a time that is no integer, the row skipped). */
static void
test_read_column_loop (void)
{
  AfgTestDb *db = make_profile (300);
  g_autofree char *src = clone_db (db->path, "looped.db", "PRAGMA page_size=1024", 0, NULL, NULL);
  g_autoptr(GArray) leaves = leaf_pages (src, "PYTORCH_API");
  g_autofree guint8 *data = NULL;
  g_autofree char *json = NULL;
  guint changed = 0, fast, fallbacks;
  gsize len;

  g_assert_true (g_file_get_contents (src, (char **) &data, &len, NULL));
  for (guint i = 0; i < leaves->len; i++)
    changed += loop_overflow (data + (gsize) (g_array_index (leaves, guint32, i) - 1) * 1024, data, 1024);
  g_assert_cmpuint (changed, ==, 60);  /* every 5th startNs is 5000 bytes long */
  g_assert_true (g_file_set_contents (src, (const char *) data, (gssize) len, NULL));
  json = afg_test_load_both (src, &fast, &fallbacks);
  g_assert_false (g_str_has_prefix (json, "error:"));
  g_assert_cmpuint (fast, ==, NPU_TABLES - 1);
  g_assert_cmpuint (fallbacks, ==, 1);
  afg_test_db_free (db);
}

/* The device tasks the trace reader reads from @path, and how many
 * tables it read directly and how many it left to SQLite. */
static AfgDeviceTasks *
read_device_tasks (const char *path, gboolean sqlite_only, guint *fast, guint *fallbacks)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  AfgDeviceTasks *tasks;
  guint fast0, fallbacks0;

  afg_source_set_sqlite_only (sqlite_only);
  document = afg_document_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  afg_table_scan_get_counts (&fast0, &fallbacks0);
  tasks = afg_trace_reader_read (document, NULL, &error);
  g_assert_no_error (error);
  afg_table_scan_get_counts (fast, fallbacks);
  afg_source_set_sqlite_only (FALSE);
  *fast -= fast0;
  *fallbacks -= fallbacks0;
  return tasks;
}

/* TASK and PYTORCH_API read directly up to a looped overflow chain in
 * their third row (a deviceId, a globalTid that is no integer), then by
 * SQLite: the tasks and launching rows the trace reader took from the
 * rows before it are dropped, not kept twice, and it gives what SQLite
 * alone gives. */
static void
test_task_loop_trace (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autofree char *long_id = g_strnfill (5000, 'd');
  g_autofree char *update = g_strdup_printf ("UPDATE TASK SET deviceId = '%s' WHERE rowid %% 5 = 3;"
                                             " UPDATE PYTORCH_API SET globalTid = '%s' WHERE rowid %% 5 = 3",
                                             long_id, long_id);
  g_autofree char *src = NULL;
  g_autofree guint8 *data = NULL;
  g_autoptr(AfgDeviceTasks) direct = NULL;
  g_autoptr(AfgDeviceTasks) sqlite = NULL;
  guint changed = 0, fast, fallbacks;
  gsize len;

  afg_test_db_begin (db);
  for (guint i = 0; i < 40; i++)
    {
      gint64 start = 1000 + 100 * (gint64) i;

      afg_test_db_add_with_connection (db, 7, start, start + 50, "op", i + 1);
      afg_test_db_link (db, i + 1, 10000 + i);
      afg_test_db_add_task_on (db, start + 5, start + 9, 10000 + i, 0, i % 3);
    }
  afg_test_db_exec (db, update);
  afg_test_db_commit (db);
  afg_test_db_close (db);
  src = clone_db (db->path, "task-loop.db", "PRAGMA page_size=1024", 0, NULL, NULL);
  g_assert_true (g_file_get_contents (src, (char **) &data, &len, NULL));
  for (guint t = 0; t < 2; t++)
    {
      g_autoptr(GArray) leaves = leaf_pages (src, t == 0 ? "TASK" : "PYTORCH_API");

      for (guint i = 0; i < leaves->len; i++)
        changed += loop_overflow (data + (gsize) (g_array_index (leaves, guint32, i) - 1) * 1024, data, 1024);
    }
  g_assert_cmpuint (changed, ==, 16);
  g_assert_true (g_file_set_contents (src, (const char *) data, (gssize) len, NULL));
  direct = read_device_tasks (src, FALSE, &fast, &fallbacks);
  g_assert_cmpuint (fallbacks, >=, 1);
  sqlite = read_device_tasks (src, TRUE, &fast, &fallbacks);
  g_assert_cmpuint (fast + fallbacks, ==, 0);
  g_assert_cmpuint (direct->tracks->len, ==, sqlite->tracks->len);
  g_assert_cmpuint (direct->launches->len, ==, sqlite->launches->len);
  g_assert_cmpuint (direct->tasks->len, ==, sqlite->tasks->len);
  g_assert_cmpuint (direct->tasks->len, >=, 32);
  g_assert_cmpmem (direct->tasks->data, direct->tasks->len * sizeof (AfgDeviceTask), sqlite->tasks->data,
                   sqlite->tasks->len * sizeof (AfgDeviceTask));
  g_assert_cmpmem (direct->tracks->data, direct->tracks->len * sizeof (AfgDeviceTrack), sqlite->tracks->data,
                   sqlite->tracks->len * sizeof (AfgDeviceTrack));
  afg_test_db_free (db);
}

/* Indexes that cover the columns read: without ORDER BY SQLite walks
 * them in index order. Rows of one thread with equal times (whose order
 * decides the nesting) and STRING_IDS with a duplicate id must come in
 * rowid order both ways: the same bytes as without the indexes. */
static void
test_covering_indexes (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *plain = NULL;
  g_autofree char *indexed = NULL;
  g_autofree char *json = NULL;
  guint fast, fallbacks, unused;

  afg_test_db_begin (db);
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *name = g_strdup_printf ("op%u", 199 - i);

      afg_test_db_add (db, 5, 1000 * (gint64) (i / 4), 1000 * (gint64) (i / 4) + 900, name);
      afg_test_db_add (db, 5 + i % 3, 1000 * (gint64) (i / 4) + 10, 1000 * (gint64) (i / 4) + 800, "inner");
    }
  afg_test_db_commit (db);
  afg_test_db_exec (db, "ALTER TABLE STRING_IDS RENAME TO OLD_IDS;"
                        "CREATE TABLE STRING_IDS (id INTEGER, value TEXT, pad BLOB);"
                        "INSERT INTO STRING_IDS SELECT id, value, zeroblob(300) FROM OLD_IDS ORDER BY id DESC;"
                        "DROP TABLE OLD_IDS;"
                        "INSERT INTO STRING_IDS SELECT id, 'zz' || value, pad FROM STRING_IDS WHERE id % 2 = 0");
  afg_test_db_close (db);
  plain = afg_test_load_both (db->path, &fast, &fallbacks);
  g_assert_cmpuint (fast, ==, HOST_TABLES);
  modify (db->path, "CREATE INDEX api_cover ON PYTORCH_API (globalTid DESC, name DESC, startNs, endNs, type);"
                    "CREATE INDEX ids_cover ON STRING_IDS (id, value DESC)");
  g_assert_true (uses_covering_index (db->path, "SELECT startNs, endNs, globalTid, name, type FROM PYTORCH_API"));
  g_assert_true (uses_covering_index (db->path, "SELECT id, value FROM STRING_IDS"));
  indexed = afg_test_load_both (db->path, &fast, &fallbacks);
  g_assert_cmpuint (fast, ==, HOST_TABLES);
  g_assert_true (same_but_size (indexed, plain));
  json = afg_test_load_json (db->path, TRUE, &unused, &unused);
  g_assert_true (same_but_size (json, plain));
  /* Columns that hide every name of the rowid: no ORDER BY can say it,
   * and SQLite must still walk the table, not the index. */
  modify (db->path, "ALTER TABLE STRING_IDS ADD COLUMN rowid INTEGER; ALTER TABLE STRING_IDS ADD COLUMN oid INTEGER;"
                    "ALTER TABLE STRING_IDS ADD COLUMN _rowid_ INTEGER");
  g_assert_true (uses_covering_index (db->path, "SELECT id, value FROM STRING_IDS"));
  g_clear_pointer (&json, g_free);
  json = afg_test_load_json (db->path, TRUE, &unused, &unused);
  g_assert_true (same_but_size (json, plain));
  g_clear_pointer (&indexed, g_free);
  indexed = afg_test_load_both (db->path, &fast, &fallbacks);
  g_assert_true (same_but_size (indexed, plain));
  afg_test_db_free (db);
}

/* PYTORCH_API's root page number, its page size in @page_size. */
static guint32
root_page (const char *path, const char *table, guint32 *page_size)
{
  g_autofree char *sql = g_strdup_printf ("SELECT rootpage FROM sqlite_schema WHERE name = '%s'", table);

  *page_size = (guint32) afg_test_query_int (path, "PRAGMA page_size");
  return (guint32) afg_test_query_int (path, sql);
}

/* A b-tree whose root has its first two children swapped: every page is
 * sound, only the keys are out of order, which SQLite reads without a
 * word. A rowid range's seek then skips rows that a walk of the whole
 * tree meets: the rows read in two ranges are checked against the
 * table's count, and read again in one walk, as the direct reader reads
 * them. */
static void
test_keys_out_of_order (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *src = g_build_filename (dir, "swapped.db", NULL);
  g_autofree guint8 *data = NULL;
  g_autofree char *json = NULL;
  sqlite3 *db = NULL;
  guint32 page_size, root, child;
  guint8 *page, *first, *second;
  guint fast, fallbacks;
  gsize len;

  /* Rowids 100 apart: a range wide enough to be read in two. */
  g_assert_cmpint (sqlite3_open (src, &db), ==, SQLITE_OK);
  exec (db, "PRAGMA page_size=512; BEGIN;"
            "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
            "INSERT INTO STRING_IDS VALUES (1, 'even'), (2, 'odd');"
            "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER,"
            " name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER,"
            " callStack INTEGER, type INTEGER);"
            "WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < 2999)"
            " INSERT INTO PYTORCH_API (rowid, startNs, endNs, globalTid, name, type)"
            " SELECT 1 + 100 * n, 1000 * n, 1000 * n + 500 + n % 300, 7, 1 + n % 2, 50001 FROM i;"
            "COMMIT");
  sqlite3_close (db);
  root = root_page (src, "PYTORCH_API", &page_size);
  g_assert_true (g_file_get_contents (src, (char **) &data, &len, NULL));
  page = data + (gsize) (root - 1) * page_size;
  g_assert_cmpint (page[0], ==, 0x05);  /* an interior table page */
  g_assert_cmpint ((page[3] << 8 | page[4]), >=, 2);
  first = page + (page[12] << 8 | page[13]);
  second = page + (page[14] << 8 | page[15]);
  child = afg_btree_get4 (first);
  put4 (first, afg_btree_get4 (second));
  put4 (second, child);
  g_assert_true (g_file_set_contents (src, (const char *) data, (gssize) len, NULL));
  g_assert_cmpint (afg_test_query_int (src, "SELECT count(*) FROM PYTORCH_API"), ==, 3000);
  g_assert_cmpint (afg_test_query_int (src, "SELECT max(rowid) - min(rowid) FROM PYTORCH_API"), >=, 100000);
  json = afg_test_load_both (src, &fast, &fallbacks);
  g_assert_nonnull (strstr (json, "\"rows\":3000"));
  afg_test_rm_rf (dir);
}

/* Page @pgno's pointer-map entry in an auto-vacuum file of 512-byte
 * pages without reserved bytes: its type, and its parent in @parent. */
static guint8
ptrmap_entry (const guint8 *data, guint32 pgno, guint32 *parent)
{
  guint32 per_map = 512 / 5 + 1;
  guint32 map = (pgno - 2) / per_map * per_map + 2;
  const guint8 *entry = data + (gsize) (map - 1) * 512 + 5 * (pgno - map - 1);

  *parent = afg_btree_get4 (entry + 1);
  return entry[0];
}

/* An auto-vacuum file's pointer map names each overflow page's parent,
 * and SQLite takes the page after one it skips from there: a chain whose
 * next pointer names another row's page (every page sound, the map
 * unchanged) reads that row's values in a walk of the pointers, the row's
 * own in SQLite. The direct reader finds the two disagree and leaves the
 * file to SQLite. */
static void
test_ptrmap_overflow (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *src = g_build_filename (dir, "ptrmap.db", NULL);
  g_autofree guint8 *data = NULL;
  g_autofree char *json = NULL;
  guint32 firsts[300], n_firsts = 0, n_pages, parent, target;
  sqlite3 *db = NULL;
  guint fast, fallbacks;
  gsize len;

  /* 2,000 bytes before startNs: each row's columns are in its chain's
   * third to fifth pages. */
  g_assert_cmpint (sqlite3_open (src, &db), ==, SQLITE_OK);
  exec (db, "PRAGMA page_size=512; PRAGMA auto_vacuum=FULL; BEGIN;"
            "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
            "INSERT INTO STRING_IDS VALUES (1, 'f');"
            "CREATE TABLE PYTORCH_API (pre TEXT, startNs TEXT, endNs TEXT, globalTid INTEGER, name INTEGER, type INTEGER);"
            "WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < 299)"
            " INSERT INTO PYTORCH_API SELECT printf('%2000s', 'p'), 1000 * n, 1000 * n + 500 + n, 7 + n % 3, 1, 50001"
            " FROM i;"
            "COMMIT");
  sqlite3_close (db);
  g_assert_true (g_file_get_contents (src, (char **) &data, &len, NULL));
  n_pages = (guint32) (len / 512);
  for (guint32 p = 3; p <= n_pages && n_firsts < G_N_ELEMENTS (firsts); p++)
    if ((p - 2) % (512 / 5 + 1) != 0 && ptrmap_entry (data, p, &parent) == 3)  /* PTRMAP_OVERFLOW1 */
      firsts[n_firsts++] = p;
  g_assert_cmpuint (n_firsts, ==, 300);
  g_assert_cmpuint (afg_btree_get4 (data + (gsize) (firsts[10] - 1) * 512), ==, firsts[10] + 1);
  target = afg_btree_get4 (data + (gsize) (firsts[200] - 1) * 512);
  g_assert_cmpint (ptrmap_entry (data, target, &parent), ==, 4);  /* PTRMAP_OVERFLOW2 */
  put4 (data + (gsize) (firsts[10] - 1) * 512, target);
  g_assert_true (g_file_set_contents (src, (const char *) data, (gssize) len, NULL));
  json = afg_test_load_both (src, &fast, &fallbacks);
  g_assert_nonnull (strstr (json, "\"rows\":300"));
  g_assert_cmpuint (fallbacks, >, 0);
  afg_test_rm_rf (dir);
}

/* A WITHOUT ROWID table has no rowid to order by: SQLite reads it (in
 * its key order) both ways, and the rest is still read directly. So does
 * a table whose columns hide every name of the rowid. */
static void
test_no_rowid_order (void)
{
  AfgTestDb *db = make_profile (300);
  g_autofree char *keyed = clone_db (db->path, "keyed.db", "", 0, "value TEXT)", "value TEXT) WITHOUT ROWID");
  g_autofree char *hidden = clone_db (db->path, "hidden.db", "", 0, NULL, NULL);
  g_autofree char *links = clone_db (db->path, "links.db", "", 0, "CONNECTION_IDS (id INTEGER, connectionId INTEGER)",
                                     "CONNECTION_IDS (id INTEGER, connectionId INTEGER, PRIMARY KEY (id, connectionId))"
                                     " WITHOUT ROWID");
  g_autofree char *json = NULL;
  guint fast, fallbacks;

  modify (hidden, "ALTER TABLE CONNECTION_IDS ADD COLUMN rowid INTEGER; ALTER TABLE CONNECTION_IDS ADD COLUMN oid INTEGER;"
                  "ALTER TABLE CONNECTION_IDS ADD COLUMN _rowid_ INTEGER");

  g_assert_cmpint (afg_test_query_int (keyed, "SELECT count(*) FROM sqlite_schema WHERE sql LIKE '%WITHOUT ROWID%'"), ==, 1);
  json = afg_test_load_both (keyed, &fast, &fallbacks);
  g_assert_false (g_str_has_prefix (json, "error:"));
  g_assert_cmpuint (fast, ==, NPU_TABLES - 1);
  g_assert_cmpuint (fallbacks, ==, 0);
  g_clear_pointer (&json, g_free);
  json = afg_test_load_both (hidden, &fast, &fallbacks);
  g_assert_false (g_str_has_prefix (json, "error:"));
  g_assert_cmpuint (fast, ==, NPU_TABLES - 1);
  /* An NPU table without a rowid keeps the device side: its size is not
   * estimated from a rowid, and its rows are read in its key order. */
  g_clear_pointer (&json, g_free);
  json = afg_test_load_both (links, &fast, &fallbacks);
  g_assert_false (g_str_has_prefix (json, "error:"));
  g_assert_null (strstr (json, "\"device_timeline\":null"));
  g_assert_nonnull (strstr (json, "\"device_timeline\":{"));
  g_assert_cmpuint (fast, ==, NPU_TABLES - 1);
  afg_test_db_free (db);
}

static gboolean
count_row (gpointer data, const AfgRow *row)
{
  (*(guint *) data)++;
  return TRUE;
}

static gboolean
count_stop (gpointer data)
{
  (*(guint *) data)++;
  return FALSE;
}

/* Rows whose columns read span many overflow pages: the scan asks
 * whether to stop by the pages it reads, not every 1,024 rows only, so
 * that cancelling waits for a few milliseconds of reading at most. */
static void
test_stop_by_work (void)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *src = NULL;
  g_autoptr(AfgTableScan) scan = NULL;
  const char *columns[] = { "id", "value" };
  int fd;
  AfgBtree *btree;
  sqlite3 *conn = NULL;
  guint rows = 0, stops = 0;

  afg_test_db_exec (db, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)"
                        " INSERT INTO STRING_IDS SELECT 1000 + i, printf('%.*c', 200000, 'x') FROM n");
  afg_test_db_close (db);
  src = clone_db (db->path, "wide.db", "PRAGMA page_size=1024", 0, NULL, NULL);
  fd = g_open (src, O_RDONLY, 0);
  btree = afg_btree_open_fd (fd);
  g_assert_nonnull (btree);
  g_assert_cmpint (sqlite3_open_v2 (src, &conn, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  scan = afg_table_scan_new (btree, conn, "STRING_IDS", columns, 2, 1, 1);
  g_assert_nonnull (scan);
  g_assert_cmpint (afg_table_scan_run (scan, 0, count_row, &rows, count_stop, &stops), ==, AFG_SCAN_DONE);
  g_assert_cmpuint (rows, ==, 100);
  /* About 197 overflow pages a row, a check once 1,024 pages and cells
   * are read: at least every 6th row (by rows alone, never here). */
  g_assert_cmpuint (stops, >=, 100 / 6);
  g_clear_pointer (&scan, afg_table_scan_free);
  sqlite3_close (conn);
  afg_btree_free (btree);
  close (fd);
  afg_test_db_free (db);
}

static char *swap_from;

static void
swap_in (const char *path)
{
  g_assert_cmpint (g_rename (swap_from, path), ==, 0);
}

/* Another file moved to the path after the schema was checked on the
 * first one: never read with the first file's root pages, but refused. */
static void
test_file_swapped (void)
{
  AfgTestDb *first = make_profile (200);
  AfgTestDb *second = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *dir = g_path_get_dirname (first->path);
  g_autofree char *copy = g_build_filename (dir, "second.db", NULL);
  g_autofree char *data = NULL;
  gsize len;

  afg_test_db_add (second, 1, 10, 20, "from the second file");
  afg_test_db_close (second);
  g_assert_true (g_file_get_contents (second->path, &data, &len, NULL));
  for (int sqlite_only = 0; sqlite_only < 2; sqlite_only++)
    {
      g_autofree char *json = NULL;
      guint fast, fallbacks;

      g_assert_true (g_file_set_contents (copy, data, (gssize) len, NULL));
      swap_from = copy;
      afg_source_test_hook = swap_in;
      json = afg_test_load_json (first->path, sqlite_only, &fast, &fallbacks);
      afg_source_test_hook = NULL;
      g_assert_true (g_str_has_prefix (json, "error: "));
      g_assert_true (g_str_has_suffix (json, "ascend_pytorch_profiler_0.db: the file was replaced or changed"
                                             " while it was being read"));
      g_assert_cmpuint (fast + fallbacks, ==, 0);
    }
  afg_test_db_free (first);
  afg_test_db_free (second);
}

/* A connection opened after the checks (a second reader, the NPU
 * thread) on a path that names another file by then is refused. */
static void
test_connection_after_swap (void)
{
  AfgTestDb *first = make_profile (50);
  AfgTestDb *second = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(GError) error = NULL;
  AfgSource source;
  sqlite3 *db = NULL, *late;

  afg_test_db_close (second);
  g_assert_true (afg_source_open (&source, first->path, NULL, &db, &error));
  late = afg_source_connect (&source, &error);
  g_assert_nonnull (late);
  sqlite3_close (late);
  g_assert_cmpint (g_rename (second->path, first->path), ==, 0);
  late = afg_source_connect (&source, &error);
  g_assert_null (late);
  g_assert_error (error, AFG_LOAD_ERROR, AFG_LOAD_ERROR_CORRUPT);
  sqlite3_close (db);
  afg_source_clear (&source);
  afg_test_db_free (first);
  afg_test_db_free (second);
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
  g_test_add_data_func ("/btree/cell-past-page/PYTORCH_API", "PYTORCH_API", test_cell_past_page);
  g_test_add_data_func ("/btree/cell-past-page/TASK", "TASK", test_cell_past_page);
  g_test_add_data_func ("/btree/too-many-cells/PYTORCH_API", "PYTORCH_API", test_too_many_cells);
  g_test_add_data_func ("/btree/too-many-cells/STRING_IDS", "STRING_IDS", test_too_many_cells);
  g_test_add_data_func ("/btree/record-without-columns/PYTORCH_API", "PYTORCH_API", test_record_without_columns);
  g_test_add_data_func ("/btree/record-without-columns/STRING_IDS", "STRING_IDS", test_record_without_columns);
  g_test_add_data_func ("/btree/damage-beside-npu/STRING_IDS", "STRING_IDS", test_damage_beside_npu);
  g_test_add_data_func ("/btree/damage-beside-npu/PYTORCH_API", "PYTORCH_API", test_damage_beside_npu);
  g_test_add_func ("/btree/parse-int64", test_parse_int64);
  g_test_add_func ("/btree/unread-column-loop", test_unread_column_loop);
  g_test_add_func ("/btree/read-column-loop", test_read_column_loop);
  g_test_add_func ("/btree/task-loop-trace", test_task_loop_trace);
  g_test_add_func ("/btree/covering-indexes", test_covering_indexes);
  g_test_add_func ("/btree/keys-out-of-order", test_keys_out_of_order);
  g_test_add_func ("/btree/ptrmap-overflow", test_ptrmap_overflow);
  g_test_add_func ("/btree/no-rowid-order", test_no_rowid_order);
  g_test_add_func ("/btree/stop-by-work", test_stop_by_work);
  g_test_add_func ("/btree/file-swapped", test_file_swapped);
  g_test_add_func ("/btree/connection-after-swap", test_connection_after_swap);
  return g_test_run ();
}
