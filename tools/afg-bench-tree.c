/* SPDX-License-Identifier: MIT */
/* Loads a profiler DB once, then prints the event store's size and the
 * best and median times of rebuilding trees from it (no DB access): the
 * whole profile and, when the DB has steps, its middle step and the
 * middle half of its steps. "+ layout" adds the flame layout of the new
 * tree: what the window does between a click on a step and its redraw.
 * "+ durations" builds the percentile columns too (the window's trees
 * have them); "+ durations + functions" is the Functions target: the whole
 * tree with the duration percentiles and its function table. Then the
 * Functions panel's work on the whole profile: its table, the top
 * function's sandwich and its calls' durations.
 * Usage: afg-bench-tree DB [RUNS] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "afg-call-durations.h"
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
print_times (double *ms, int runs, const char *what, guint count, const char *unit)
{
  qsort (ms, runs, sizeof *ms, compare_doubles);
  printf ("%-30s best %8.1f ms  median %8.1f ms  %u %s\n", what, ms[0], ms[runs / 2], count, unit);
}

static void
time_builds (AfgDocument *document, const AfgScope *scope, AfgTreeFlags flags, Extra extra,
             int runs, const char *what)
{
  double *ms = g_new (double, runs);
  guint nodes = 0;

  for (int i = 0; i < runs; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(AfgTree) tree = afg_tree_build (document, scope,
                                                extra == EXTRA_FUNCTIONS ? flags | AFG_TREE_DURATIONS : flags,
                                                NULL, NULL);

      if (extra == EXTRA_LAYOUT)
        afg_flame_layout_free (afg_flame_layout_new (tree, AFG_COLUMN_TOTAL_NS, AFG_TREE_ROOT, AFG_TREE_ROOT));
      else if (extra == EXTRA_FUNCTIONS)
        afg_function_table_unref (afg_function_table_new (tree));
      ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
      nodes = afg_tree_get_n_nodes (tree);
    }
  print_times (ms, runs, what, nodes, "nodes");
  g_free (ms);
}

/* The top function's frames, marked for afg_call_durations_collect(). */
static guint8 *
top_function_marks (AfgFunctionTable *table)
{
  AfgTree *tree = afg_function_table_get_tree (table);
  guint8 *marks = g_new0 (guint8, afg_tree_get_n_nodes (tree));
  guint n = 0;
  const guint32 *frames = afg_function_table_get_n_functions (table) > 0
    ? afg_function_table_get_frames (table, 0, &n) : NULL;

  for (guint i = 0; i < n; i++)
    marks[frames[i]] = 1;
  return marks;
}

static void
time_functions (AfgDocument *document, int runs)
{
  g_autoptr(AfgTree) tree = afg_tree_build (document, NULL, AFG_TREE_DURATIONS, NULL, NULL);
  double *ms[3] = { g_new (double, runs), g_new (double, runs), g_new (double, runs) };
  guint n_functions = 0, n_calls = 0;

  for (int i = 0; i < runs; i++)
    {
      gint64 t0 = g_get_monotonic_time (), t1, t2;
      g_autoptr(AfgFunctionTable) table = afg_function_table_new (tree);
      g_autofree guint8 *marks = NULL;
      g_autoptr(GArray) ns = NULL;

      t1 = g_get_monotonic_time ();
      n_functions = afg_function_table_get_n_functions (table);
      if (n_functions > 0)
        {
          afg_tree_unref (afg_function_table_callers (tree, afg_function_table_get_name (table, 0)));
          afg_tree_unref (afg_function_table_callees (tree, afg_function_table_get_name (table, 0)));
        }
      t2 = g_get_monotonic_time ();
      marks = top_function_marks (table);
      ns = afg_call_durations_collect (tree, marks, NULL);
      n_calls = ns->len;
      ms[0][i] = (t1 - t0) / 1000.0;
      ms[1][i] = (t2 - t1) / 1000.0;
      ms[2][i] = (g_get_monotonic_time () - t2) / 1000.0;
    }
  print_times (ms[0], runs, "function table", n_functions, "functions");
  print_times (ms[1], runs, "top function's sandwich", n_functions, "functions");
  print_times (ms[2], runs, "its call durations", n_calls, "calls");
  for (int k = 0; k < 3; k++)
    g_free (ms[k]);
}

static void
time_steps (AfgDocument *document, gint64 first, gint64 last, int runs)
{
  AfgScope scope;
  g_autofree char *what = g_strdup_printf ("steps %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT, first, last);
  g_autofree char *with_layout = g_strconcat (what, " + layout", NULL);
  g_autofree char *with_durations = g_strconcat (what, " + durations + layout", NULL);

  if (!afg_scope_init_steps (&scope, document, first, last, NULL))
    return;
  time_builds (document, &scope, AFG_TREE_FLAGS_NONE, EXTRA_NONE, runs, what);
  time_builds (document, &scope, AFG_TREE_FLAGS_NONE, EXTRA_LAYOUT, runs, with_layout);
  time_builds (document, &scope, AFG_TREE_DURATIONS, EXTRA_LAYOUT, runs, with_durations);
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
  time_builds (document, NULL, AFG_TREE_FLAGS_NONE, EXTRA_NONE, runs, "all");
  time_builds (document, NULL, AFG_TREE_FLAGS_NONE, EXTRA_LAYOUT, runs, "all + layout");
  time_builds (document, NULL, AFG_TREE_DURATIONS, EXTRA_NONE, runs, "all + durations");
  time_builds (document, NULL, AFG_TREE_FLAGS_NONE, EXTRA_FUNCTIONS, runs, "all + durations + functions");
  time_functions (document, runs);
  steps = afg_document_get_steps (document, &n_steps);
  if (n_steps > 0)
    {
      time_steps (document, steps[n_steps / 2].id, steps[n_steps / 2].id, runs);
      time_steps (document, steps[n_steps / 4].id, steps[n_steps * 3 / 4].id, runs);
    }
  return 0;
}
