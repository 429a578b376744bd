/* SPDX-License-Identifier: MIT */
/* The window stays responsive while a big DB loads: a 5 ms timer on the
 * main loop must never be late by more than 50 ms, from the start of the
 * load to the flame graph. AFG_LATENCY_ROWS sets the size of the DB the
 * test builds (default 300k); AFG_LATENCY_DB loads a given DB instead (the
 * figure in docs/benchmarks.md is for the 10M-row synthetic one). */
#include <gtk/gtk.h>

#include "afg-gui-test-tree.h"
#include "afg-window-private.h"

#define TICK_MS 5
#define MAX_GAP_MS 50
/* A load on the main thread would stall it for the whole load (~300 ms
 * here); the 50 ms target is asserted with AFG_LATENCY_STRICT=1 on an
 * idle machine, since a shared CI box cannot promise it. */
#define MAX_GAP_MS_SHARED 250

typedef struct {
  gint64   last;
  gint64   max_gap;
  gint64   max_gap_loading;  /* before the graph page is up */
  gboolean shown;
} Ticker;

static gboolean
on_tick (gpointer data)
{
  Ticker *t = data;
  gint64 now = g_get_monotonic_time ();

  t->max_gap = MAX (t->max_gap, now - t->last);
  if (!t->shown)
    t->max_gap_loading = t->max_gap;
  t->last = now;
  return G_SOURCE_CONTINUE;
}

static void
spin (guint ms)
{
  for (gint64 until = g_get_monotonic_time () + ms * 1000; g_get_monotonic_time () < until;)
    g_main_context_iteration (NULL, FALSE);
}

static AfgTestDb *
make_big_db (guint64 rows)
{
  AfgTestDb *db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  static const char *names[] = { "main.py(1): step", "aten::add", "aten::mm", "aclnnMatMul" };

  afg_test_db_begin (db);
  for (guint64 i = 0; i < rows / 2; i++)
    {
      gint64 gtid = GTID (7, 1 + i % 4);
      gint64 start = (gint64) i * 100;

      afg_test_db_add (db, gtid, start, start + 90, names[i % 2]);
      afg_test_db_add (db, gtid, start + 10, start + 50, names[2 + i % 2]);
    }
  afg_test_db_commit (db);
  afg_test_db_close (db);
  return db;
}

static void
test_latency (void)
{
  const char *env = g_getenv ("AFG_LATENCY_ROWS");
  const char *given = g_getenv ("AFG_LATENCY_DB");
  guint64 rows = env ? g_ascii_strtoull (env, NULL, 10) : 300000;
  AfgTestDb *db = given ? NULL : make_big_db (rows);
  g_autoptr(GFile) file = g_file_new_for_path (given ? given : db->path);
  AfgWindow *window = g_object_new (AFG_TYPE_WINDOW, NULL);
  Ticker ticker = { 0 };
  gint64 start;
  guint id;

  gtk_window_present (GTK_WINDOW (window));
  /* The first map of a window is not part of loading. */
  spin (200);
  afg_window_open (window, file);
  start = ticker.last = g_get_monotonic_time ();
  id = g_timeout_add (TICK_MS, on_tick, &ticker);
  while (g_strcmp0 (gtk_stack_get_visible_child_name (window->stack), "graph") != 0)
    {
      g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), !=, "error");
      g_main_context_iteration (NULL, TRUE);
    }
  ticker.shown = TRUE;
  /* Include the first frames of the loaded graph. */
  spin (200);
  g_source_remove (id);
  g_test_message ("%" G_GUINT64_FORMAT " rows loaded in %.2f s; main loop max gap %.1f ms "
                  "(%.1f ms while loading)", afg_tree_get_stats (_afg_window_get_tree (window))->rows,
                  (g_get_monotonic_time () - start) / 1e6, ticker.max_gap / 1000.0,
                  ticker.max_gap_loading / 1000.0);
  g_assert_cmpint (ticker.max_gap, <,
                   (g_getenv ("AFG_LATENCY_STRICT") ? MAX_GAP_MS : MAX_GAP_MS_SHARED) * 1000);
  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_pointer (&db, afg_test_db_free);
}

int
main (int argc, char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/window/load-latency", test_latency);
  return g_test_run ();
}
