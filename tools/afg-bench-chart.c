/* SPDX-License-Identifier: MIT */
/* Loads a profiler DB once with its tasks kept, as the window does, then
 * prints the best and median times of building the stack chart's store
 * from it (no DB access), with the page faults each build takes: what
 * opening the chart waits for before its first frame; then the time to
 * find a node's rows under a transform (what selecting a frame costs
 * with transforms on): every row of the busiest thread, its path mapped
 * through merge-function of the most common name at depth 1.
 * Usage: afg-bench-chart DB [RUNS] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "afg-chart-store.h"
#include "afg-document-timeline.h"
#include "afg-loader.h"
#include "afg-chart-outline.h"

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static long
minor_faults (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/* The rows landing on the busiest thread's first top frame once the
 * name under it is merged away (rows of depths 0 and 1 alike), found as
 * the window's worker finds them. */
static void
time_mapped_rows (AfgDocument *document)
{
  AfgChartStore *store = afg_chart_store_new_kept (document);
  g_autoptr(AfgTransformList) list = afg_transform_list_new ();
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(AfgChartOutline) outline = NULL;
  g_autoptr(GArray) found = NULL;
  guint thread = 0;
  guint64 n, most = 0, event = 0;
  const AfgChartRow *rows;
  const char *target[1];
  gint64 t0;

  for (guint t = 0; t < afg_chart_store_get_n_threads (store); t++)
    {
      afg_chart_store_get_rows (store, t, &n);
      if (n > most)
        most = n, thread = t;
    }
  rows = afg_chart_store_get_rows (store, thread, &n);
  while (event < n && rows[event].depth != 1)
    event++;
  if (event == n)
    {
      afg_chart_store_unref (store);
      return;
    }
  afg_chart_store_get_path (store, thread, event, TRUE, path);
  afg_transform_list_append (list, AFG_TRANSFORM_MERGE_FUNCTION,
                             afg_document_get_string (document, g_array_index (path, guint32, 1)), NULL);
  target[0] = afg_document_get_string (document, g_array_index (path, guint32, 0));
  outline = afg_chart_outline_new (store, thread, TRUE, G_MININT64, G_MAXINT64, list, target, 1);
  t0 = g_get_monotonic_time ();
  found = afg_chart_outline_run (outline, NULL);
  printf ("rows under a transform: %.1f ms, %u of %" G_GUINT64_FORMAT " rows\n",
          (g_get_monotonic_time () - t0) / 1000.0, found->len, n);
  afg_chart_store_unref (store);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDocument) document = NULL;
  int runs = argc > 2 ? atoi (argv[2]) : 5;
  g_autofree double *ms = NULL;
  long faults = 0, first_faults = 0;
  double first = 0;
  guint64 row_bytes = 0;

  if (argc < 2 || runs < 1)
    {
      fprintf (stderr, "usage: %s DB [RUNS]\n", argv[0]);
      return 2;
    }
  document = afg_document_load_with_flags (argv[1], AFG_LOAD_KEEP_TASKS, NULL, NULL, NULL, &error);
  if (document == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  {
    gint64 t0 = g_get_monotonic_time ();
    const AfgSpans *idle = afg_document_get_free_spans (document);
    gsize n = 0;

    if (idle != NULL)
      afg_spans_get (idle, &n);
    printf ("free spans of the whole profile: %.1f ms, %" G_GSIZE_FORMAT " spans\n",
            (g_get_monotonic_time () - t0) / 1000.0, n);
  }
  ms = g_new (double, runs);
  for (int i = 0; i < runs; i++)
    {
      long f0 = minor_faults ();
      gint64 t0 = g_get_monotonic_time ();
      AfgChartStore *store = afg_chart_store_new_kept (document);

      ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
      faults += minor_faults () - f0;
      if (i == 0)
        first = ms[0], first_faults = faults;
      row_bytes = afg_chart_store_get_row_bytes (store);
      afg_chart_store_unref (store);
    }
  qsort (ms, runs, sizeof *ms, compare_doubles);
  /* The first build is the chart's opening: its memory is new to the
   * process (the next ones may reuse what the one before freed). */
  printf ("chart store, first: %.1f ms, %ld page faults\n", first, first_faults);
  printf ("chart store: best %.1f ms, median %.1f ms, %ld page faults a build, rows in %" G_GUINT64_FORMAT " B\n",
          ms[0], ms[runs / 2], faults / runs, row_bytes);
  time_mapped_rows (document);
  return 0;
}
