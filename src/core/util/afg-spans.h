/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-vec.h"

G_BEGIN_DECLS

/* A half-open time range [start, end) in ns. */
typedef struct {
  gint64 start;
  gint64 end;
} AfgSpan;

/* A set of instants as sorted, disjoint, non-empty spans. A set made by
 * afg_spans_new_union() or _new_gaps() keeps the running sum of their
 * lengths: how much of any range it covers is two binary searches,
 * however many spans the range holds. One from a builder does not (8
 * bytes a span less): an overlap sums the spans it covers. Immutable
 * once made; any thread may read it. */
typedef struct _AfgSpans AfgSpans;

/* The union of @n spans, in any order, overlapping or not; empty ones
 * (end <= start) add nothing. Sorts @spans in place. */
AfgSpans      *afg_spans_new_union  (AfgSpan        *spans,
                                     gsize           n);
/* The union of spans handed over in ascending start, one at a time:
 * afg_spans_builder_add() merges each into the last, _end() makes the
 * set (without the running sums). For a caller that already sorted them
 * (no sort, no copy) and asks about a few long windows. */
typedef struct {
  AfgVec spans;
} AfgSpansBuilder;

/* @reserved: room for that many spans (the number added bounds it). */
void           afg_spans_builder_init (AfgSpansBuilder *builder,
                                       gsize            reserved);
void           afg_spans_builder_add  (AfgSpansBuilder *builder,
                                       gint64           start,
                                       gint64           end);
AfgSpans      *afg_spans_builder_end  (AfgSpansBuilder *builder);
/* The instants of the @n @windows (in any order) that @self does not
 * cover, as a set of their own. */
AfgSpans      *afg_spans_new_gaps   (const AfgSpans *self,
                                     const AfgSpan  *windows,
                                     gsize           n);
void           afg_spans_unref      (AfgSpans       *self);
const AfgSpan *afg_spans_get        (const AfgSpans *self,
                                     gsize          *n);
/* The index in afg_spans_get() of the first span ending after @t (the
 * number of spans when none does). */
gsize          afg_spans_first_ending_after (const AfgSpans *self,
                                             gint64          t);
/* The sum of the spans' lengths. */
gint64         afg_spans_get_length (const AfgSpans *self);
/* How many ns of [@start, @end) the set covers; 0 for an empty range. */
gint64         afg_spans_overlap    (const AfgSpans *self,
                                     gint64          start,
                                     gint64          end);
/* The same, fastest for ranges asked in ascending @start (a thread's
 * rows in order; any order is right): *@hint, 0 before the first,
 * remembers where the last one began, so that a short row costs a step
 * or two instead of two binary searches. */
gint64         afg_spans_overlap_from (const AfgSpans *self,
                                       gsize          *hint,
                                       gint64          start,
                                       gint64          end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgSpans, afg_spans_unref)

G_END_DECLS
