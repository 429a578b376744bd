/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-device-timeline.h"
#include "afg-document.h"
#include "afg-spans.h"

G_BEGIN_DECLS

/* The document's device timeline: every usable TASK row and collective
 * of every device, by kind. NULL without usable TASK rows. */
const AfgDeviceTimeline *afg_document_get_timeline       (const AfgDocument *self);
/* The whole profile's window: [first step start, last step end), or,
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

G_END_DECLS
