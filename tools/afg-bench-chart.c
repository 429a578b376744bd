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
#include "afg-path-mapper.h"

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

typedef struct {
  AfgDocument   *document;
  AfgPathMapper *mapper;
  GPtrArray     *names;
  const char    *target;   /* the mapped path's one name */
} Lands;

static gboolean
lands (const guint32 *names, guint n, gpointer data)
{
  Lands *l = data;

  g_ptr_array_set_size (l->names, 0);
  for (guint k = 0; k < n; k++)
    g_ptr_array_add (l->names, (gpointer) afg_document_get_string (l->document, names[k]));
  return afg_path_mapper_map (l->mapper, l->names) && l->names->len == 1
         && g_str_equal (g_ptr_array_index (l->names, 0), l->target);
}

/* The rows landing on the busiest thread's first top frame once the
 * name under it is merged away: rows of depths 0 and 1 alike. */
static void
time_mapped_rows (AfgDocument *document)
{
  AfgChartStore *store = afg_chart_store_new_kept (document);
  g_autoptr(AfgTransformList) list = afg_transform_list_new ();
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(AfgPathMapper) mapper = NULL;
  g_autoptr(GArray) found = NULL;
  guint thread = 0;
  guint64 n, most = 0, event = 0;
  const AfgChartRow *rows;
  Lands l = { document, NULL, names, NULL };
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
      afg_chart_store_free (store);
      return;
    }
  afg_chart_store_get_path (store, thread, event, TRUE, path);
  afg_transform_list_append (list, AFG_TRANSFORM_MERGE_FUNCTION,
                             afg_document_get_string (document, g_array_index (path, guint32, 1)), NULL);
  mapper = afg_path_mapper_new (list);
  l.mapper = mapper;
  l.target = afg_document_get_string (document, g_array_index (path, guint32, 0));
  t0 = g_get_monotonic_time ();
  found = afg_chart_store_find_rows_by_path (store, thread, TRUE, G_MININT64, G_MAXINT64, lands, &l);
  printf ("rows under a transform: %.1f ms, %u of %" G_GUINT64_FORMAT " rows\n",
          (g_get_monotonic_time () - t0) / 1000.0, found->len, n);
  afg_chart_store_free (store);
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
      afg_chart_store_free (store);
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
