/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-spans.h"

G_BEGIN_DECLS

/* What a device interval is, for the timeline: a compute-kind task, a
 * communication-kind task or collective, or any other task. */
typedef enum {
  AFG_TIMELINE_COMPUTE,
  AFG_TIMELINE_COMMUNICATION,
  AFG_TIMELINE_OTHER,
} AfgTimelineKind;

typedef struct {
  gint64          start;
  gint64          end;
  AfgTimelineKind kind;
  gboolean        bounds;  /* counts for the profile's window without steps */
} AfgTimelineSpan;

/* A window's time split by what the device did: each instant is compute
 * if a compute interval covers it, else communication if one of those
 * does, else other if any interval does, else free. The four add up to
 * the window's length. */
typedef struct {
  gint64 compute_ns;
  gint64 comm_ns;
  gint64 other_ns;
  gint64 free_ns;
} AfgDeviceSplit;

/* The device's busy instants of every device of a DB together, kept as
 * three nested sets (compute; compute or communication; busy), so that a
 * window's split is six binary searches. Immutable; any thread. */
typedef struct _AfgDeviceTimeline AfgDeviceTimeline;

/* From @n intervals in any order (sorted in place, not kept). With none,
 * every instant is free and the timeline has no bounds: a usable TASK
 * without a usable row still has a timeline. */
AfgDeviceTimeline *afg_device_timeline_new    (AfgTimelineSpan         *spans,
                                               gsize                    n);
/* The instants some compute task covers. */
const AfgSpans    *afg_device_timeline_get_compute (const AfgDeviceTimeline *self);
void               afg_device_timeline_unref  (AfgDeviceTimeline       *self);
void               afg_device_timeline_split  (const AfgDeviceTimeline *self,
                                               gint64                   start,
                                               gint64                   end,
                                               AfgDeviceSplit          *split);
/* [first start, last end) of the intervals that count for bounds; FALSE
 * when none does. */
gboolean           afg_device_timeline_bounds (const AfgDeviceTimeline *self,
                                               gint64                  *start,
                                               gint64                  *end);
/* "compute 6.4%, communication 61.9%, other 0.85%, free 30.8%" of a
 * window of @window_ns; with @times each share also as a time
 * ("compute 9.10 ms (6.4%), …"). Translated. */
char              *afg_device_split_describe  (const AfgDeviceSplit    *split,
                                               gint64                   window_ns,
                                               gboolean                 times);
/* The free instants of the @n @windows: the NPU-idle scope's set. */
AfgSpans          *afg_device_timeline_idle   (const AfgDeviceTimeline *self,
                                               const AfgSpan           *windows,
                                               gsize                    n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgDeviceTimeline, afg_device_timeline_unref)

G_END_DECLS
