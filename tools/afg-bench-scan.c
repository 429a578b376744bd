/* SPDX-License-Identifier: MIT */
/* The cost of reading rows: PYTORCH_API's six columns the loader reads,
 * through SQLite (a prepared SELECT, sqlite3_column_value per value) and
 * through the direct b-tree reader (afg-table-scan.h), on one thread,
 * each row's values only fetched. Prints CPU seconds, best of RUNS.
 * Usage: afg-bench-scan DB [RUNS] */
#include "config.h"

#include <stdlib.h>
#include <time.h>

#include "afg-source.h"
#include "afg-sql-value.h"
#include "afg-table-scan.h"

static const char * const columns[] = { "startNs", "endNs", "globalTid", "name", "type", "connectionId" };

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static gboolean
count_row (gpointer data, const AfgRow *row)
{
  gint64 value;

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    *(guint64 *) data += afg_value_int64 (&row->values[i], &value) == AFG_VALUE_OK;
  return TRUE;
}

static double
scan_sqlite (sqlite3 *db, guint64 *ok)
{
  sqlite3_stmt *stmt = NULL;
  double t0 = cpu_seconds ();
  AfgRow row;

  sqlite3_prepare_v2 (db, "SELECT startNs, endNs, globalTid, name, type, connectionId FROM PYTORCH_API", -1, &stmt,
                      NULL);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      afg_row_from_stmt (stmt, G_N_ELEMENTS (columns), &row);
      count_row (ok, &row);
    }
  sqlite3_finalize (stmt);
  return cpu_seconds () - t0;
}

static double
scan_direct (const AfgSource *source, sqlite3 *db, guint64 *ok)
{
  double t0 = cpu_seconds ();
  g_autoptr(AfgTableScan) scan = afg_table_scan_new (source->btree, db, "PYTORCH_API", columns,
                                                     G_N_ELEMENTS (columns), 1, 1);

  if (scan == NULL || afg_table_scan_run (scan, 0, count_row, ok, NULL, NULL) != AFG_SCAN_DONE)
    g_error ("the direct reader cannot read this DB");
  return cpu_seconds () - t0;
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  AfgSource source;
  sqlite3 *db = NULL;
  int runs = argc > 2 ? atoi (argv[2]) : 3;
  double best_sqlite = G_MAXDOUBLE, best_direct = G_MAXDOUBLE;
  guint64 ok_sqlite = 0, ok_direct = 0;

  if (argc < 2)
    g_error ("usage: afg-bench-scan DB [RUNS]");
  if (!afg_source_open (&source, argv[1], NULL, &db, &error))
    g_error ("%s", error->message);
  for (int i = 0; i < runs; i++)
    {
      double sqlite_s, direct_s;

      ok_sqlite = ok_direct = 0;
      sqlite_s = scan_sqlite (db, &ok_sqlite);
      direct_s = scan_direct (&source, db, &ok_direct);
      best_sqlite = MIN (best_sqlite, sqlite_s);
      best_direct = MIN (best_direct, direct_s);
    }
  if (ok_sqlite != ok_direct)
    g_error ("the two reads differ: %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT " whole values",
             ok_sqlite, ok_direct);
  g_print ("sqlite_cpu_s %.3f direct_cpu_s %.3f ratio %.2f\n", best_sqlite, best_direct, best_sqlite / best_direct);
  sqlite3_close (db);
  afg_source_clear (&source);
  return 0;
}
