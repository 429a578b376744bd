/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-bisect.h"
#include "afg-huge.h"
#include "afg-key-sort.h"
#include "afg-math.h"
#include "afg-spans.h"

struct _AfgSpans {
  gsize    n;
  AfgSpan *spans;
  gsize    spans_bytes;  /* what afg_huge_alloc() gave for spans */
  guint64 *before;       /* n + 1: the length of the spans before each, modulo
                          * 2^64 (a difference of two is exact), or NULL */
};

static void
spans_clear (gpointer data)
{
  AfgSpans *self = data;

  afg_huge_free (self->spans, self->spans_bytes);
  if (self->before != NULL)
    afg_huge_free (self->before, (self->n + 1) * sizeof (guint64));
}

void
afg_spans_unref (AfgSpans *self)
{
  g_atomic_rc_box_release_full (self, spans_clear);
}

/* Takes @vec's spans (sorted, disjoint, non-empty). With @prefix, the
 * running sums that make any range's overlap two binary searches (8
 * bytes a span); without, an overlap walks the spans it covers, which
 * suits sets asked about a few long windows that together cover each
 * span about once. */
static AfgSpans *
spans_new (AfgVec *vec, gboolean prefix)
{
  AfgSpans *self = g_atomic_rc_box_new0 (AfgSpans);
  AfgVec taken = afg_vec_steal (vec);
  AfgSpan *spans = taken.data;
  gsize n = taken.len;

  self->n = n;
  self->spans = spans;
  self->spans_bytes = taken.capacity * sizeof (AfgSpan);
  if (!prefix)
    return self;
  self->before = afg_huge_alloc ((n + 1) * sizeof (guint64));
  self->before[0] = 0;
  for (gsize i = 0; i < n; i++)
    self->before[i + 1] = self->before[i] + afg_span_ulength (spans[i].start, spans[i].end);
  return self;
}

/* @reserved: room for that many spans; a bound, not a count, since
 * only what is written faults in. */
void
afg_spans_builder_init (AfgSpansBuilder *builder, gsize reserved)
{
  afg_vec_init (&builder->spans, sizeof (AfgSpan), reserved);
}

void
afg_spans_builder_add (AfgSpansBuilder *builder, gint64 start, gint64 end)
{
  AfgVec *out = &builder->spans;
  AfgSpan *last = out->len > 0 ? &AFG_VEC_INDEX (out, AfgSpan, out->len - 1) : NULL;

  if (end <= start)
    return;
  /* Touching spans join: the set is the same, with fewer spans. */
  if (last != NULL && start <= last->end)
    last->end = MAX (last->end, end);
  else
    AFG_VEC_APPEND (out, AfgSpan, ((AfgSpan) { start, end }));
}

AfgSpans *
afg_spans_builder_end (AfgSpansBuilder *builder)
{
  return spans_new (&builder->spans, FALSE);
}

AfgSpans *
afg_spans_new_union (AfgSpan *spans, gsize n)
{
  AfgSpansBuilder builder;

  afg_key_sort (spans, n, sizeof (AfgSpan));
  afg_spans_builder_init (&builder, n);
  for (gsize i = 0; i < n; i++)
    afg_spans_builder_add (&builder, spans[i].start, spans[i].end);
  return spans_new (&builder.spans, TRUE);
}

/* The first span ending after @t: the first that can hold t or later. */
static gsize
first_ending_after (const AfgSpans *self, gint64 t)
{
  gsize lo = 0, hi = self->n;

  AFG_BISECT (gsize, lo, hi, mid, self->spans[mid].end <= t);
  return lo;
}

gsize
afg_spans_first_ending_after (const AfgSpans *self, gint64 t)
{
  g_return_val_if_fail (self != NULL, 0);
  return first_ending_after (self, t);
}

/* The first span in [@lo, @hi) starting at or after @t (starts ascend). */
static gsize
first_start_in (const AfgSpans *self, gsize lo, gsize hi, gint64 t)
{
  AFG_BISECT (gsize, lo, hi, mid, self->spans[mid].start < t);
  return lo;
}

/* The first span starting at or after @t. */
static gsize
first_starting_from (const AfgSpans *self, gint64 t)
{
  return first_start_in (self, 0, self->n, t);
}

/* The spans [@first, @last) cut to [@start, @end): all of them but the
 * parts of the first and last outside the range. In guint64, modulo
 * 2^64: the true sum, at most the range's length, is below 2^64 however
 * far apart hostile times are; saturated to G_MAXINT64 at the end. */
static gint64
sum_between (const AfgSpans *self, gsize first, gsize last, gint64 start, gint64 end)
{
  guint64 ns = 0;

  if (first >= last)
    return 0;
  if (self->before != NULL)
    ns = self->before[last] - self->before[first];
  else
    for (gsize i = first; i < last; i++)
      ns += afg_span_ulength (self->spans[i].start, self->spans[i].end);
  ns -= afg_span_ulength (self->spans[first].start, start);
  ns -= afg_span_ulength (end, self->spans[last - 1].end);
  return afg_sat_from_ulength (ns);
}

gint64
afg_spans_overlap (const AfgSpans *self, gint64 start, gint64 end)
{
  if (end <= start)
    return 0;
  /* From the first span ending after start to one past the last that
   * starts before end. */
  return sum_between (self, first_ending_after (self, start), first_starting_from (self, end), start, end);
}

/* The first span at or after @from starting at or after @t: galloping
 * from @from, since a short range ends few spans after it starts. */
static gsize
gallop_starting_from (const AfgSpans *self, gsize from, gint64 t)
{
  gsize lo = from, step = 1;

  while (lo + step < self->n && self->spans[lo + step].start < t)
    lo += step, step *= 2;
  return first_start_in (self, lo, MIN (lo + step, self->n), t);
}

gint64
afg_spans_overlap_from (const AfgSpans *self, gsize *hint, gint64 start, gint64 end)
{
  gsize first = MIN (*hint, self->n);

  /* A range that starts before the last one: found again from scratch. */
  if (first > 0 && self->spans[first - 1].end > start)
    first = first_ending_after (self, start);
  while (first < self->n && self->spans[first].end <= start)
    first++;
  *hint = first;
  if (end <= start || first >= self->n)
    return 0;
  return sum_between (self, first, gallop_starting_from (self, first, end), start, end);
}

static void
add_span (GArray *out, gint64 start, gint64 end)
{
  if (end > start)
    g_array_append_val (out, ((AfgSpan) { start, end }));
}

/* The parts of @window that @self leaves uncovered. */
static void
add_gaps (const AfgSpans *self, AfgSpan window, GArray *out)
{
  gint64 at = window.start;

  for (gsize i = first_ending_after (self, window.start);
       i < self->n && self->spans[i].start < window.end; i++)
    {
      add_span (out, at, MIN (self->spans[i].start, window.end));
      at = MAX (at, self->spans[i].end);
    }
  add_span (out, at, window.end);
}

/* Windows that overlap (steps of a hostile DB may) give their common
 * gaps once: the union is taken. */
AfgSpans *
afg_spans_new_gaps (const AfgSpans *self, const AfgSpan *windows, gsize n)
{
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (AfgSpan));

  for (gsize i = 0; i < n; i++)
    add_gaps (self, windows[i], out);
  return afg_spans_new_union ((AfgSpan *) (void *) out->data, out->len);
}

const AfgSpan *
afg_spans_get (const AfgSpans *self, gsize *n)
{
  *n = self->n;
  return self->spans;
}

gint64
afg_spans_get_length (const AfgSpans *self)
{
  return self->n > 0 ? sum_between (self, 0, self->n, self->spans[0].start, self->spans[self->n - 1].end) : 0;
}
