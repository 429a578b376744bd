/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-device-timeline.h"
#include "afg-document.h"
#include "afg-spans.h"

G_BEGIN_DECLS

/* No string: a groupName or opName that is NULL or not in STRING_IDS. */
#define AFG_COLLECTIVE_NO_STRING G_MAXUINT32

/* A usable COMMUNICATION_OP row, as matched across the ranks of a job:
 * its groupName and opName as the document's strings. */
typedef struct {
  guint32 group;  /* afg_document_get_string() index, or AFG_COLLECTIVE_NO_STRING */
  guint32 op;
  gint64  ns;
} AfgDocCollective;

/* The document's device timeline: every usable TASK row and collective
 * of every device, by kind. NULL without usable TASK rows. */
const AfgDeviceTimeline *afg_document_get_timeline       (const AfgDocument *self);
/* The whole profile's window: [first step start, last step end) in time
 * (the earliest start, the latest end, whatever the steps' ids), or,
 * without steps, the hull of the intervals that count for bounds
 * (afg_device_timeline_bounds). FALSE when there is none. */
gboolean                 afg_document_get_profile_window (const AfgDocument *self,
                                                          gint64            *start,
                                                          gint64            *end);
/* The device's free instants in the windows of the steps with indices
 * @first..@last (afg_document_get_steps(), each step in its own window,
 * the gaps between steps left out), or in the profile's window when the
 * DB has no steps. Made once per range and kept with the document; NULL
 * without a timeline or a window. */
const AfgSpans          *afg_document_get_idle_spans     (const AfgDocument *self,
                                                          guint              first,
                                                          guint              last);
/* The device's free instants in the whole profile's window, the gaps
 * between steps included: the timeline's free time, as the stack chart
 * shades it. Kept as the idle spans are; NULL as they are. */
const AfgSpans          *afg_document_get_free_spans     (const AfgDocument *self);

/* Every usable COMMUNICATION_OP row of every device, in rowid order. */
const AfgDocCollective  *afg_document_get_collectives    (const AfgDocument *self,
                                                          gsize             *n);

G_END_DECLS
