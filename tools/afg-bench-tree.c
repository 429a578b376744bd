/* SPDX-License-Identifier: MIT */
/* Loads a profiler DB once, then prints the event store's size and the
 * best and median times of rebuilding trees from it (no DB access): the
 * whole profile (also with durations and the function table), and the
 * middle step when the DB has steps.
 * Usage: afg-bench-tree DB [RUNS] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "afg-function-table.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* With @functions: the tree with its durations and its function table,
 * what the function panel needs from the document. */
static void
time_builds (AfgDocument *document, const AfgScope *scope, int runs, const char *what, gboolean functions)
{
  double *ms = g_new (double, runs);
  guint nodes = 0;

  for (int i = 0; i < runs; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(AfgTree) tree = afg_tree_build (document, scope, functions ? AFG_TREE_DURATIONS : 0, NULL, NULL);
      g_autoptr(AfgFunctionTable) table = functions ? afg_function_table_new (tree) : NULL;

      ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
      nodes = afg_tree_get_n_nodes (tree);
    }
  qsort (ms, runs, sizeof *ms, compare_doubles);
  printf ("%-16s best %8.1f ms  median %8.1f ms  %u nodes\n", what, ms[0], ms[runs / 2], nodes);
  g_free (ms);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  const AfgEventStore *events;
  const AfgStep *steps;
  guint n_steps;
  int runs = argc > 2 ? atoi (argv[2]) : 5;

  if (argc < 2 || runs < 1)
    {
      fprintf (stderr, "usage: %s DB [RUNS]\n", argv[0]);
      return 2;
    }
  document = afg_document_load (argv[1], NULL, NULL, NULL, &error);
  if (document == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  events = afg_document_get_events (document);
  printf ("events %" G_GUINT64_FORMAT ", store %.1f MB, %.2f bytes/event; load %.2f s\n",
          afg_event_store_get_n_events (events), afg_event_store_get_bytes (events) / 1e6,
          (double) afg_event_store_get_bytes (events) / MAX (afg_event_store_get_n_events (events), 1),
          afg_document_get_load_seconds (document));
  time_builds (document, NULL, runs, "all", FALSE);
  time_builds (document, NULL, runs, "all+functions", TRUE);
  steps = afg_document_get_steps (document, &n_steps);
  if (n_steps > 0)
    {
      AfgScope scope = { TRUE, steps[n_steps / 2].start_ns, steps[n_steps / 2].end_ns };
      g_autofree char *what = g_strdup_printf ("step %" G_GINT64_FORMAT, steps[n_steps / 2].id);

      time_builds (document, &scope, runs, what, FALSE);
    }
  return 0;
}
