/* SPDX-License-Identifier: MIT */
/* Loads a profiler DB once, then prints the event store's size and the
 * best and median times of rebuilding trees from it (no DB access): the
 * whole profile and, when the DB has steps, its middle step and the
 * middle half of its steps. "+ layout" adds the flame layout of the new
 * tree: what the window does between a click on a step and its redraw.
 * "+ durations + functions" is issue 15's figure: the whole tree with
 * the duration percentiles and its function table.
 * Usage: afg-bench-tree DB [RUNS] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "afg-flame-layout.h"
#include "afg-function-table.h"
#include "afg-loader.h"
#include "afg-tree-builder.h"

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

typedef enum {
  EXTRA_NONE,
  EXTRA_LAYOUT,
  EXTRA_FUNCTIONS,  /* durations too */
} Extra;

static void
time_builds (AfgDocument *document, const AfgScope *scope, Extra extra, int runs, const char *what)
{
  double *ms = g_new (double, runs);
  guint nodes = 0;

  for (int i = 0; i < runs; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(AfgTree) tree = afg_tree_build (document, scope,
                                                extra == EXTRA_FUNCTIONS ? AFG_TREE_DURATIONS : AFG_TREE_FLAGS_NONE,
                                                NULL, NULL);

      if (extra == EXTRA_LAYOUT)
        afg_flame_layout_free (afg_flame_layout_new (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT));
      else if (extra == EXTRA_FUNCTIONS)
        afg_function_table_unref (afg_function_table_new (tree));
      ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
      nodes = afg_tree_get_n_nodes (tree);
    }
  qsort (ms, runs, sizeof *ms, compare_doubles);
  printf ("%-26s best %8.1f ms  median %8.1f ms  %u nodes\n", what, ms[0], ms[runs / 2], nodes);
  g_free (ms);
}

static void
time_steps (AfgDocument *document, gint64 first, gint64 last, int runs)
{
  AfgScope scope;
  g_autofree char *what = g_strdup_printf ("steps %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT, first, last);
  g_autofree char *with_layout = g_strconcat (what, " + layout", NULL);

  if (!afg_scope_init_steps (&scope, document, first, last, NULL))
    return;
  time_builds (document, &scope, EXTRA_NONE, runs, what);
  time_builds (document, &scope, EXTRA_LAYOUT, runs, with_layout);
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
  time_builds (document, NULL, EXTRA_NONE, runs, "all");
  time_builds (document, NULL, EXTRA_LAYOUT, runs, "all + layout");
  time_builds (document, NULL, EXTRA_FUNCTIONS, runs, "all + durations + functions");
  steps = afg_document_get_steps (document, &n_steps);
  if (n_steps > 0)
    {
      time_steps (document, steps[n_steps / 2].id, steps[n_steps / 2].id, runs);
      time_steps (document, steps[n_steps / 4].id, steps[n_steps * 3 / 4].id, runs);
    }
  return 0;
}
