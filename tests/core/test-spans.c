/* SPDX-License-Identifier: MIT */
/* Span sets and the device timeline against a brute force: every
 * nanosecond of a small range marked one by one. */
#include "config.h"

#include <string.h>

#include <glib.h>

#include "afg-device-timeline.h"
#include "afg-spans.h"

#define RANGE 200

/* covered[t] for t in [0, RANGE): which kinds cover instant t. */
typedef struct {
  gboolean kind[3][RANGE];
} Marks;

static void
random_spans (GRand *rand, AfgTimelineSpan *spans, gsize n, Marks *marks)
{
  memset (marks, 0, sizeof *marks);
  for (gsize i = 0; i < n; i++)
    {
      gint64 start = g_rand_int_range (rand, 0, RANGE);
      gint64 end = start + g_rand_int_range (rand, -3, 30);  /* some empty or reversed */

      end = MIN (end, RANGE);
      spans[i] = (AfgTimelineSpan) { start, end, g_rand_int_range (rand, 0, 3), g_rand_boolean (rand) };
      for (gint64 t = start; t < end; t++)
        marks->kind[spans[i].kind][t] = TRUE;
    }
}

static gint64
count (const Marks *marks, gint64 start, gint64 end, int kind, gboolean want_covered_by_lower_kinds)
{
  gint64 ns = 0;

  for (gint64 t = MAX (start, 0); t < MIN (end, RANGE); t++)
    {
      gboolean lower = FALSE;

      for (int k = 0; k < kind; k++)
        lower |= marks->kind[k][t];
      if (want_covered_by_lower_kinds == lower && (kind == 3 ? TRUE : marks->kind[kind][t]))
        ns++;
    }
  return ns;
}

static void
test_union_overlap (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (int round = 0; round < 300; round++)
    {
      AfgTimelineSpan tspans[40];
      AfgSpan spans[40];
      Marks marks;
      gsize n = g_rand_int_range (rand, 0, 40), len;
      g_autoptr(AfgSpans) set = NULL;
      const AfgSpan *out;
      gsize first;

      random_spans (rand, tspans, n, &marks);
      memset (&marks.kind[1], 0, sizeof marks.kind[1]);
      memset (&marks.kind[2], 0, sizeof marks.kind[2]);
      for (gsize i = 0; i < n; i++)
        {
          spans[i] = (AfgSpan) { tspans[i].start, tspans[i].end };
          for (gint64 t = spans[i].start; t < spans[i].end; t++)
            marks.kind[0][t] = TRUE;
        }
      set = afg_spans_new_union (spans, n);
      out = afg_spans_get (set, &len);
      for (gsize i = 0; i < len; i++)
        {
          g_assert_cmpint (out[i].start, <, out[i].end);
          if (i > 0)
            g_assert_cmpint (out[i - 1].end, <, out[i].start);  /* touching spans are joined */
        }
      g_assert_cmpint (afg_spans_get_length (set), ==, count (&marks, 0, RANGE, 0, FALSE));
      for (int q = 0; q < 50; q++)
        {
          gint64 a = g_rand_int_range (rand, -10, RANGE + 10);
          gint64 b = g_rand_int_range (rand, -10, RANGE + 10);
          gsize hint = g_rand_int_range (rand, 0, 40);  /* any hint, any order */

          g_assert_cmpint (afg_spans_overlap (set, a, b), ==, a < b ? count (&marks, a, b, 0, FALSE) : 0);
          g_assert_cmpint (afg_spans_overlap_from (set, &hint, a, b), ==, a < b ? count (&marks, a, b, 0, FALSE) : 0);
          first = afg_spans_first_ending_after (set, a);
          g_assert_cmpuint (first, <=, len);
          g_assert_true (first == len || out[first].end > a);
          g_assert_true (first == 0 || out[first - 1].end <= a);
        }
      /* The same set from a builder (without the running sums; spans
       * sorted in place by the union) answers alike. */
      {
        AfgSpansBuilder builder;
        g_autoptr(AfgSpans) plain = NULL;

        afg_spans_builder_init (&builder, 0);
        for (gsize i = 0; i < n; i++)
          afg_spans_builder_add (&builder, spans[i].start, spans[i].end);
        plain = afg_spans_builder_end (&builder);
        g_assert_cmpint (afg_spans_get_length (plain), ==, afg_spans_get_length (set));
        for (int q = 0; q < 50; q++)
          {
            gint64 a = g_rand_int_range (rand, -10, RANGE + 10);
            gint64 b = g_rand_int_range (rand, -10, RANGE + 10);
            gsize hint = 0;

            g_assert_cmpint (afg_spans_overlap (plain, a, b), ==, a < b ? count (&marks, a, b, 0, FALSE) : 0);
            g_assert_cmpint (afg_spans_overlap_from (plain, &hint, a, b), ==,
                             a < b ? count (&marks, a, b, 0, FALSE) : 0);
          }
      }
      /* Ranges in ascending start, as a thread's rows come. */
      {
        gsize hint = 0;

        for (gint64 a = -5; a < RANGE + 5; a += g_rand_int_range (rand, 0, 3))
          {
            gint64 b = a + g_rand_int_range (rand, -2, 60);

            g_assert_cmpint (afg_spans_overlap_from (set, &hint, a, b), ==, a < b ? count (&marks, a, b, 0, FALSE) : 0);
          }
      }
    }
}

/* The split by precedence and the idle set, window by window. */
static void
test_timeline (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);

  for (int round = 0; round < 300; round++)
    {
      AfgTimelineSpan spans[30];
      Marks marks;
      gsize n = g_rand_int_range (rand, 1, 30);
      g_autoptr(AfgDeviceTimeline) timeline = NULL;
      AfgSpan windows[3];
      g_autoptr(AfgSpans) idle = NULL;
      gint64 idle_ns = 0;

      random_spans (rand, spans, n, &marks);
      timeline = afg_device_timeline_new (spans, n);
      for (int w = 0; w < 3; w++)
        {
          gint64 a = g_rand_int_range (rand, 0, RANGE), b = g_rand_int_range (rand, a, RANGE + 1);
          AfgDeviceSplit split;

          windows[w] = (AfgSpan) { a, b };
          afg_device_timeline_split (timeline, a, b, &split);
          g_assert_cmpint (split.compute_ns, ==, count (&marks, a, b, 0, FALSE));
          g_assert_cmpint (split.comm_ns, ==, count (&marks, a, b, 1, FALSE));
          g_assert_cmpint (split.other_ns, ==, count (&marks, a, b, 2, FALSE));
          g_assert_cmpint (split.free_ns, ==, count (&marks, a, b, 3, FALSE));
          g_assert_cmpint (split.compute_ns + split.comm_ns + split.other_ns + split.free_ns, ==, b - a);
        }
      /* The idle set: the free instants of the windows, each counted once. */
      idle = afg_device_timeline_idle (timeline, windows, 3);
      for (gint64 t = 0; t < RANGE; t++)
        {
          gboolean in_window = FALSE;

          for (int w = 0; w < 3; w++)
            in_window |= t >= windows[w].start && t < windows[w].end;
          idle_ns += in_window && !marks.kind[0][t] && !marks.kind[1][t] && !marks.kind[2][t];
          g_assert_cmpint (afg_spans_overlap (idle, t, t + 1), ==,
                           in_window && !marks.kind[0][t] && !marks.kind[1][t] && !marks.kind[2][t]);
        }
      g_assert_cmpint (afg_spans_get_length (idle), ==, idle_ns);
    }
}

static void
test_bounds (void)
{
  AfgTimelineSpan spans[] = {
    { 50, 60, AFG_TIMELINE_OTHER, FALSE },  /* a PROFILING_* task: not in the bounds */
    { 10, 20, AFG_TIMELINE_COMPUTE, TRUE },
    { 30, 45, AFG_TIMELINE_COMMUNICATION, TRUE },
  };
  g_autoptr(AfgDeviceTimeline) timeline = afg_device_timeline_new (spans, G_N_ELEMENTS (spans));
  gint64 start, end;

  g_assert_true (afg_device_timeline_bounds (timeline, &start, &end));
  g_assert_cmpint (start, ==, 10);
  g_assert_cmpint (end, ==, 45);
}

/* No task: every instant is free, and no bounds. */
static void
test_timeline_empty (void)
{
  g_autoptr(AfgDeviceTimeline) timeline = afg_device_timeline_new (NULL, 0);
  AfgDeviceSplit split;
  gint64 start, end;

  g_assert_nonnull (timeline);
  g_assert_false (afg_device_timeline_bounds (timeline, &start, &end));
  afg_device_timeline_split (timeline, 100, 350, &split);
  g_assert_cmpint (split.compute_ns + split.comm_ns + split.other_ns, ==, 0);
  g_assert_cmpint (split.free_ns, ==, 250);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spans/union-overlap", test_union_overlap);
  g_test_add_func ("/spans/timeline", test_timeline);
  g_test_add_func ("/spans/bounds", test_bounds);
  g_test_add_func ("/spans/timeline-empty", test_timeline_empty);
  return g_test_run ();
}
