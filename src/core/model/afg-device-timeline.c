/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-device-timeline.h"

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

AfgDeviceTimeline *
afg_device_timeline_ref (AfgDeviceTimeline *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
afg_device_timeline_unref (AfgDeviceTimeline *self)
{
  g_atomic_rc_box_release_full (self, timeline_clear);
}

/* The union of the intervals whose kind is at most @last. */
static AfgSpans *
union_up_to (const AfgTimelineSpan *spans, gsize n, AfgTimelineKind last, AfgSpan *scratch)
{
  gsize len = 0;

  for (gsize i = 0; i < n; i++)
    if (spans[i].kind <= last)
      scratch[len++] = (AfgSpan) { spans[i].start, spans[i].end };
  return afg_spans_new_union (scratch, len);
}

static void
find_bounds (AfgDeviceTimeline *self, const AfgTimelineSpan *spans, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      if (!spans[i].bounds)
        continue;
      if (!self->has_bounds)
        {
          self->bounds_start = spans[i].start;
          self->bounds_end = spans[i].end;
          self->has_bounds = TRUE;
        }
      self->bounds_start = MIN (self->bounds_start, spans[i].start);
      self->bounds_end = MAX (self->bounds_end, spans[i].end);
    }
}

AfgDeviceTimeline *
afg_device_timeline_new (AfgTimelineSpan *spans, gsize n)
{
  g_autofree AfgSpan *scratch = NULL;
  AfgDeviceTimeline *self;

  if (n == 0)
    return NULL;
  scratch = g_new (AfgSpan, n);
  self = g_atomic_rc_box_new0 (AfgDeviceTimeline);
  self->compute = union_up_to (spans, n, AFG_TIMELINE_COMPUTE, scratch);
  self->with_comm = union_up_to (spans, n, AFG_TIMELINE_COMMUNICATION, scratch);
  self->busy = union_up_to (spans, n, AFG_TIMELINE_OTHER, scratch);
  find_bounds (self, spans, n);
  return self;
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
  split->free_ns = MAX (end - start, 0) - busy;
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
