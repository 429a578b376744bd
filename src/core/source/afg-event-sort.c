/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-bisect.h"
#include "afg-event-sort.h"
#include "afg-huge.h"

static inline gboolean
event_less (const AfgEvent *a, const AfgEvent *b)
{
  if (a->start != b->start)
    return a->start < b->start;
  return a->end > b->end;
}

/* A chunk in huge pages fills them: they fault in whole anyway. */
AfgChunk *
afg_chunk_new (guint32 capacity)
{
  gsize bytes = afg_huge_round (sizeof (AfgChunk) + sizeof (AfgEvent) * (gsize) capacity);
  AfgChunk *chunk;

  capacity = (guint32) MIN ((bytes - sizeof (AfgChunk)) / sizeof (AfgEvent), G_MAXUINT32);
  chunk = afg_huge_alloc (sizeof (AfgChunk) + sizeof (AfgEvent) * (gsize) capacity);

  chunk->next = NULL;
  chunk->len = 0;
  chunk->capacity = capacity;
  return chunk;
}

void
afg_chunk_list_free (AfgChunk *head)
{
  while (head != NULL)
    {
      AfgChunk *next = head->next;
      afg_huge_free (head, sizeof (AfgChunk) + sizeof (AfgEvent) * head->capacity);
      head = next;
    }
}

/* The end of the non-descending run that starts at @lo. */
static guint32
run_end (const AfgEvent *ev, guint32 lo, guint32 n)
{
  guint32 i = lo + 1;

  while (i < n && !event_less (&ev[i], &ev[i - 1]))
    i++;
  return MIN (i, n);
}

static guint32
count_runs (const AfgEvent *ev, guint32 n)
{
  guint32 runs = n > 0;

  for (guint32 i = 1; i < n; i++)
    runs += event_less (&ev[i], &ev[i - 1]);
  return runs;
}

static void
merge_runs (const AfgEvent *src, AfgEvent *dst, guint32 lo, guint32 mid, guint32 hi)
{
  guint32 i = lo, j = mid, k = lo;

  while (i < mid && j < hi)
    dst[k++] = event_less (&src[j], &src[i]) ? src[j++] : src[i++];
  memcpy (dst + k, src + i, (mid - i) * sizeof (AfgEvent));
  k += mid - i;
  memcpy (dst + k, src + j, (hi - j) * sizeof (AfgEvent));
}

static void
insertion_sort (AfgEvent *ev, guint32 n)
{
  for (guint32 i = 1; i < n; i++)
    {
      AfgEvent x = ev[i];
      guint32 j = i;

      while (j > 0 && event_less (&x, &ev[j - 1]))
        {
          ev[j] = ev[j - 1];
          j--;
        }
      ev[j] = x;
    }
}

gboolean
afg_chunk_is_sorted (const AfgChunk *chunk)
{
  return count_runs (chunk->events, chunk->len) <= 1;
}

/* Merges neighbouring runs as they are found until one is left: rows
 * come nearly in order (a few runs a chunk), so a few passes do. */
static AfgEvent *
natural_merge (AfgEvent *src, AfgEvent *dst, guint32 n)
{
  for (;;)
    {
      guint32 lo = 0, merged = 0;

      while (lo < n)
        {
          guint32 mid = run_end (src, lo, n), hi = mid < n ? run_end (src, mid, n) : n;

          merge_runs (src, dst, lo, mid, hi);
          merged++;
          lo = hi;
        }
      AfgEvent *tmp = src; src = dst; dst = tmp;
      if (merged == 1)
        return src;
    }
}

/* Bottom-up merge sort from runs of 16: for rows far from order. */
static AfgEvent *
block_merge (AfgEvent *src, AfgEvent *dst, guint32 n)
{
  enum { RUN = 16 };

  for (guint32 lo = 0; lo < n; lo += RUN)
    insertion_sort (src + lo, MIN (RUN, n - lo));
  for (guint32 width = RUN; width < n; width *= 2)
    {
      for (guint32 lo = 0; lo < n; lo += 2 * width)
        merge_runs (src, dst, lo, MIN (lo + width, n), MIN (lo + 2 * width, n));
      AfgEvent *tmp = src; src = dst; dst = tmp;
    }
  return src;
}

/* Rows come nearly in order, a few out of place by a few rows: each of
 * those is moved back to its place, after its equals. FALSE, with the
 * events sorted up to some point only, once more than @budget events
 * would have moved. */
static gboolean
insert_stragglers (AfgEvent *ev, guint32 n, guint64 budget)
{
  for (guint32 i = 1; i < n; i++)
    {
      AfgEvent x = ev[i];
      guint32 lo = 0, hi = i - 1;

      if (!event_less (&x, &ev[i - 1]))
        continue;
      /* The first of ev[0, i - 1] that x precedes (ev[i - 1] is one). */
      AFG_BISECT (guint32, lo, hi, mid, !event_less (&x, &ev[mid]));
      if (i - lo > budget)
        return FALSE;
      budget -= i - lo;
      memmove (ev + lo + 1, ev + lo, (i - lo) * sizeof (AfgEvent));
      ev[lo] = x;
    }
  return TRUE;
}

/* Stable, and O(n log n) whatever a hostile file holds: stragglers moved
 * while they are few and near, else natural runs while there are few,
 * else blocks of 16. */
void
afg_chunk_sort (AfgChunk *chunk, AfgEvent *scratch)
{
  guint32 n = chunk->len, runs;
  AfgEvent *sorted;

  if (insert_stragglers (chunk->events, n, n))
    return;
  runs = count_runs (chunk->events, n);
  if (runs <= n / 16)
    sorted = natural_merge (chunk->events, scratch, n);
  else
    sorted = block_merge (chunk->events, scratch, n);
  if (sorted != chunk->events)
    memcpy (chunk->events, sorted, n * sizeof (AfgEvent));
}

static inline gboolean
cursor_less (const AfgMergeCursor *a, const AfgMergeCursor *b)
{
  if (a->pos->start != b->pos->start)
    return a->pos->start < b->pos->start;
  if (a->pos->end != b->pos->end)
    return a->pos->end > b->pos->end;
  return a->order < b->order;
}

static void
sift_down (AfgEventMerge *merge, guint i)
{
  AfgMergeCursor *h = merge->heap;

  for (;;)
    {
      guint l = 2 * i + 1, best = i;

      if (l < merge->n && cursor_less (&h[l], &h[best]))
        best = l;
      if (l + 1 < merge->n && cursor_less (&h[l + 1], &h[best]))
        best = l + 1;
      if (best == i)
        return;
      AfgMergeCursor tmp = h[i]; h[i] = h[best]; h[best] = tmp;
      i = best;
    }
}

static void
merge_begin (AfgEventMerge *merge, guint n_chunks, gboolean owns)
{
  merge->heap = g_new (AfgMergeCursor, MAX (n_chunks, 1));
  merge->n = 0;
  merge->owns = owns;
  merge->retired = NULL;
}

static void
merge_heapify (AfgEventMerge *merge)
{
  for (guint i = merge->n / 2; i-- > 0;)
    sift_down (merge, i);
}

void
afg_event_merge_init (AfgEventMerge *merge, AfgChunk *head, gboolean owns)
{
  guint n = 0;
  AfgChunk *next;

  for (AfgChunk *c = head; c != NULL; c = c->next)
    n++;
  merge_begin (merge, n, owns);
  n = 0;
  for (AfgChunk *c = head; c != NULL; c = next, n++)
    {
      next = c->next;
      if (c->len > 0)
        merge->heap[merge->n++] = (AfgMergeCursor) { c->events, c->events + c->len, n, c };
      else if (owns)
        g_free (c);
    }
  merge_heapify (merge);
}

void
afg_event_merge_init_slices (AfgEventMerge *merge, AfgChunk * const *chunks, guint n_chunks, const guint32 *from,
                             const guint32 *to, gboolean owns)
{
  merge_begin (merge, n_chunks, owns);
  for (guint k = 0; k < n_chunks; k++)
    if (from[k] < to[k])
      {
        gboolean whole = from[k] == 0 && to[k] == chunks[k]->len;

        /* A cursor without its chunk never frees it. */
        merge->heap[merge->n++] = (AfgMergeCursor) { chunks[k]->events + from[k], chunks[k]->events + to[k], k,
                                                     whole && owns ? chunks[k] : NULL };
      }
  merge_heapify (merge);
}

guint32
afg_chunk_lower_bound (const AfgChunk *chunk, gint64 start)
{
  guint32 lo = 0, hi = chunk->len;

  AFG_BISECT (guint32, lo, hi, mid, chunk->events[mid].start < start);
  return lo;
}

/* Does the last event of @c come before the head of @other? */
static inline gboolean
tail_before (const AfgMergeCursor *c, const AfgMergeCursor *other)
{
  AfgMergeCursor last = *c;

  last.pos = c->end - 1;
  return cursor_less (&last, other);
}

const AfgEvent *
afg_event_merge_next_run (AfgEventMerge *merge, gsize *n_events)
{
  AfgMergeCursor *top = &merge->heap[0];
  const AfgMergeCursor *next;
  const AfgEvent *run;

  if (merge->n == 0)
    return NULL;
  run = top->pos;
  next = merge->n > 2 && cursor_less (&merge->heap[2], &merge->heap[1]) ? &merge->heap[2] : &merge->heap[1];
  /* Chunks read in time order do not overlap: a whole chunk is one run. */
  if (merge->n == 1 || tail_before (top, next))
    top->pos = top->end;
  else
    do
      top->pos++;
    while (cursor_less (top, next));  /* @top cannot run out: its tail is after @next */
  *n_events = (gsize) (top->pos - run);
  if (top->pos == top->end)
    {
      /* The run is read by the caller before the next call, so an owned
       * chunk can go once the one after it has been taken. */
      if (merge->owns)
        g_free (merge->retired);
      merge->retired = top->chunk;
      merge->heap[0] = merge->heap[--merge->n];
    }
  sift_down (merge, 0);
  return run;
}

void
afg_event_merge_clear (AfgEventMerge *merge)
{
  if (merge->owns)
    {
      g_clear_pointer (&merge->retired, g_free);
      for (guint i = 0; i < merge->n; i++)
        g_free (merge->heap[i].chunk);
    }
  merge->retired = NULL;
  g_clear_pointer (&merge->heap, g_free);
  merge->n = 0;
}
