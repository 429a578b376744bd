/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n.h>

#include "afg-device-timeline.h"
#include "afg-format.h"
#include "afg-key-sort.h"
#include "afg-math.h"

struct _AfgDeviceTimeline {
  AfgSpans *compute;    /* covered by compute */
  AfgSpans *with_comm;  /* by compute or communication */
  AfgSpans *busy;       /* by anything */
  gboolean  has_bounds;
  gint64    bounds_start;
  gint64    bounds_end;
};

static void
timeline_clear (gpointer data)
{
  AfgDeviceTimeline *self = data;

  g_clear_pointer (&self->compute, afg_spans_unref);
  g_clear_pointer (&self->with_comm, afg_spans_unref);
  g_clear_pointer (&self->busy, afg_spans_unref);
}

void
afg_device_timeline_unref (AfgDeviceTimeline *self)
{
  g_atomic_rc_box_release_full (self, timeline_clear);
}

static void
find_bounds (AfgDeviceTimeline *self, const AfgTimelineSpan *span)
{
  if (!span->bounds)
    return;
  if (!self->has_bounds)
    {
      self->bounds_start = span->start;
      self->bounds_end = span->end;
      self->has_bounds = TRUE;
    }
  self->bounds_start = MIN (self->bounds_start, span->start);
  self->bounds_end = MAX (self->bounds_end, span->end);
}

/* One sort by start, then one pass that feeds each span to the sets of
 * its kind and the kinds after it (compute is also "compute or
 * communication", and every kind is "busy"). */
AfgDeviceTimeline *
afg_device_timeline_new (AfgTimelineSpan *spans, gsize n)
{
  AfgSpansBuilder sets[3];
  AfgDeviceTimeline *self;

  /* In place: it may run while the host rows are read, the load's
   * fullest time, and a copy of every task would add to it. A union
   * does not depend on the order of equal starts. */
  afg_key_sort_in_place (spans, n, sizeof (AfgTimelineSpan));
  self = g_atomic_rc_box_new0 (AfgDeviceTimeline);
  for (guint k = 0; k < 3; k++)
    afg_spans_builder_init (&sets[k], n);
  for (gsize i = 0; i < n; i++)
    {
      for (guint k = spans[i].kind; k < 3; k++)
        afg_spans_builder_add (&sets[k], spans[i].start, spans[i].end);
      find_bounds (self, &spans[i]);
    }
  self->compute = afg_spans_builder_end (&sets[AFG_TIMELINE_COMPUTE]);
  self->with_comm = afg_spans_builder_end (&sets[AFG_TIMELINE_COMMUNICATION]);
  self->busy = afg_spans_builder_end (&sets[AFG_TIMELINE_OTHER]);
  return self;
}

const AfgSpans *
afg_device_timeline_get_compute (const AfgDeviceTimeline *self)
{
  return self->compute;
}

void
afg_device_timeline_split (const AfgDeviceTimeline *self, gint64 start, gint64 end, AfgDeviceSplit *split)
{
  gint64 compute = afg_spans_overlap (self->compute, start, end);
  gint64 with_comm = afg_spans_overlap (self->with_comm, start, end);
  gint64 busy = afg_spans_overlap (self->busy, start, end);

  split->compute_ns = compute;
  split->comm_ns = with_comm - compute;
  split->other_ns = busy - with_comm;
  /* In guint64: a hostile window may be longer than G_MAXINT64. */
  split->free_ns = afg_sat_from_ulength (afg_span_ulength (start, end) - (guint64) busy);
}

gboolean
afg_device_timeline_bounds (const AfgDeviceTimeline *self, gint64 *start, gint64 *end)
{
  *start = self->bounds_start;
  *end = self->bounds_end;
  return self->has_bounds;
}

AfgSpans *
afg_device_timeline_idle (const AfgDeviceTimeline *self, const AfgSpan *windows, gsize n)
{
  return afg_spans_new_gaps (self->busy, windows, n);
}

static char *
describe_part (gint64 ns, gint64 window_ns, gboolean times)
{
  g_autofree char *percent = afg_format_percent (ns, window_ns);
  g_autofree char *time = NULL;

  if (!times)
    return g_steal_pointer (&percent);
  time = afg_format_duration (ns);
  return g_strdup_printf ("%s (%s)", time, percent);
}

char *
afg_device_split_describe (const AfgDeviceSplit *split, gint64 window_ns, gboolean times)
{
  g_autofree char *compute = describe_part (split->compute_ns, window_ns, times);
  g_autofree char *comm = describe_part (split->comm_ns, window_ns, times);
  g_autofree char *other = describe_part (split->other_ns, window_ns, times);
  g_autofree char *free_ = describe_part (split->free_ns, window_ns, times);

  /* TRANSLATORS: what the NPU did in a window of time */
  return g_strdup_printf (_("compute %s, communication %s, other %s, free %s"), compute, comm, other, free_);
}
