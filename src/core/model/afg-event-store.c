/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-event-store.h"
#include "afg-huge.h"

struct _AfgEventStore {
  GArray *threads;  /* AfgEventThread */
};

static void
thread_clear (gpointer data)
{
  AfgEventThread *t = data;

  g_free (t->events);
  g_free (t->wide);
}

AfgEventStore *
afg_event_store_new (void)
{
  AfgEventStore *self = g_new0 (AfgEventStore, 1);

  self->threads = g_array_new (FALSE, FALSE, sizeof (AfgEventThread));
  g_array_set_clear_func (self->threads, thread_clear);
  return self;
}

void
afg_event_store_free (AfgEventStore *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->threads);
  g_free (self);
}

static guint32
pack (guint64 value, GArray *wide)
{
  if (value < AFG_PACKED_WIDE)
    return (guint32) value;
  g_array_append_val (wide, value);
  return AFG_PACKED_WIDE;
}

/* Packs the merge's events from @out on; @prev is the start of the event
 * before them (0 for none), @first the index of the first in its thread. */
static void
pack_merge (AfgEventMerge *merge, AfgPackedEvent *out, guint64 first, gint64 prev, GArray *wide, guint index,
            AfgEventLinkFunc link_func, gpointer link_data)
{
  const AfgEvent *run;
  gsize n_run;
  guint64 i = first;

  while ((run = afg_event_merge_next_run (merge, &n_run)) != NULL)
    for (const AfgEvent *ev = run; ev < run + n_run; ev++, i++, out++)
      {
        out->start_delta = pack ((guint64) ev->start - (guint64) prev, wide);
        out->duration = pack ((guint64) ev->end - (guint64) ev->start, wide);
        out->name = ev->name;
        prev = ev->start;
        if (ev->link != 0 && link_func != NULL)
          link_func (ev->link, index, i, link_data);
      }
}

static AfgEventThread
thread_new (gint64 global_tid, guint64 n_events)
{
  AfgEventThread t = { global_tid, (guint32) ((guint64) global_tid >> 32), (guint32) global_tid, 0, n_events,
                       NULL, NULL, 0 };

  t.events = afg_huge_alloc (sizeof (AfgPackedEvent) * MAX (n_events, 1));
  return t;
}

static void
set_wide (AfgEventThread *t, GArray *wide)
{
  t->n_wide = wide->len;
  if (t->n_wide > 0)
    t->wide = (guint64 *) g_array_free (wide, FALSE);
  else
    g_array_unref (wide);
}

static void
encode (AfgEventThread *out, guint index, gint64 global_tid, AfgChunk *chunks,
        AfgEventLinkFunc link_func, gpointer link_data)
{
  guint64 n_events = 0;
  AfgEventThread t;
  GArray *wide = g_array_new (FALSE, FALSE, sizeof (guint64));
  AfgEventMerge merge;

  for (AfgChunk *c = chunks; c != NULL; c = c->next)
    n_events += c->len;
  t = thread_new (global_tid, n_events);
  afg_event_merge_init (&merge, chunks, TRUE);
  pack_merge (&merge, t.events, 0, 0, wide, index, link_func, link_data);
  afg_event_merge_clear (&merge);
  set_wide (&t, wide);
  *out = t;
}

void
afg_event_store_reserve (AfgEventStore *self, guint n)
{
  g_return_if_fail (self->threads->len == 0);
  g_array_set_size (self->threads, n);
  if (n > 0)  /* an empty GArray's data is NULL, which memset must not get */
    memset (self->threads->data, 0, n * sizeof (AfgEventThread));
}

void
afg_event_store_fill (AfgEventStore *self, guint index, gint64 global_tid, AfgChunk *chunks,
                      AfgEventLinkFunc link_func, gpointer link_data)
{
  g_return_if_fail (index < self->threads->len);
  encode (&g_array_index (self->threads, AfgEventThread, index), index, global_tid, chunks, link_func, link_data);
}

/* Two parts of one thread's events: those that start before the least
 * start time with @n_lower of them before it (find_split()), and those
 * that start at or after it. Each part merges its slice of every chunk into its own place
 * in the thread's array; the upper part's links are told at the end, so
 * that each thread's links still come in event order. */
struct _AfgEventSplit {
  AfgEventStore    *store;
  guint             index;
  AfgEventThread    thread;
  AfgChunk        **list;       /* the chunks by position (they are freed as read) */
  guint             n_chunks;
  guint32          *zeros;      /* 0 for every chunk */
  guint32          *cut;        /* per chunk: its first event of the upper part */
  guint32          *lens;       /* per chunk: its length */
  guint64           n_lower;
  gint64            prev_upper; /* the start of the lower part's last event */
  GArray           *wide[2];
  gboolean          filled[2];  /* a cancelled load may leave a part out */
  GArray           *upper_links; /* SplitLink */
  AfgEventLinkFunc  link_func;
  gpointer          link_data;
};

typedef struct {
  guint32 link;
  guint64 event;
} SplitLink;

/* Events that start before @t, with each chunk's count in @cut. */
static guint64
count_before (AfgEventSplit *split, gint64 t)
{
  guint64 n = 0;

  for (guint k = 0; k < split->n_chunks; k++)
    n += split->cut[k] = afg_chunk_lower_bound (split->list[k], t);
  return n;
}

/* The least start time with at least @want events before it (the chunks
 * are sorted by start); FALSE when all events start at one time. */
static gboolean
find_split (AfgEventSplit *split, guint64 want)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  for (guint k = 0; k < split->n_chunks; k++)
    if (split->lens[k] > 0)
      {
        lo = MIN (lo, split->list[k]->events[0].start);
        hi = MAX (hi, split->list[k]->events[split->lens[k] - 1].start);
      }
  if (lo >= hi)
    return FALSE;
  /* Between lo + 1 (the events at lo before it) and hi (those at hi not). */
  lo++;
  while (lo < hi)
    {
      gint64 mid = (gint64) ((guint64) lo + ((guint64) hi - (guint64) lo) / 2);

      if (count_before (split, mid) >= want)
        hi = mid;
      else
        lo = mid + 1;
    }
  split->n_lower = count_before (split, lo);
  return TRUE;
}

static void
split_free (AfgEventSplit *split)
{
  g_free (split->list);
  g_free (split->zeros);
  g_free (split->cut);
  g_free (split->lens);
  g_free (split);
}

AfgEventSplit *
afg_event_store_split (AfgEventStore *self, guint index, gint64 global_tid, AfgChunk *chunks, guint64 n_lower,
                       AfgEventLinkFunc link_func, gpointer link_data)
{
  AfgEventSplit *split;
  guint64 n_events = 0;
  guint k = 0;

  g_return_val_if_fail (index < self->threads->len, NULL);

  split = g_new0 (AfgEventSplit, 1);
  for (AfgChunk *c = chunks; c != NULL; c = c->next)
    split->n_chunks++;
  split->list = g_new (AfgChunk *, MAX (split->n_chunks, 1));
  split->zeros = g_new0 (guint32, MAX (split->n_chunks, 1));
  split->cut = g_new (guint32, MAX (split->n_chunks, 1));
  split->lens = g_new (guint32, MAX (split->n_chunks, 1));
  for (AfgChunk *c = chunks; c != NULL; c = c->next, k++)
    {
      split->list[k] = c;
      split->lens[k] = c->len;
      n_events += c->len;
    }
  if (n_lower == 0 || n_lower >= n_events || !find_split (split, n_lower) || split->n_lower == n_events)
    {
      split_free (split);
      return NULL;
    }
  split->store = self;
  split->index = index;
  split->thread = thread_new (global_tid, n_events);
  split->prev_upper = G_MININT64;
  for (k = 0; k < split->n_chunks; k++)
    if (split->cut[k] > 0)
      split->prev_upper = MAX (split->prev_upper, split->list[k]->events[split->cut[k] - 1].start);
  split->wide[0] = g_array_new (FALSE, FALSE, sizeof (guint64));
  split->wide[1] = g_array_new (FALSE, FALSE, sizeof (guint64));
  split->upper_links = g_array_new (FALSE, FALSE, sizeof (SplitLink));
  split->link_func = link_func;
  split->link_data = link_data;
  return split;
}

static void
keep_link (guint32 link, guint thread, guint64 event, gpointer data)
{
  SplitLink kept = { link, event };

  g_array_append_val ((GArray *) data, kept);
}

void
afg_event_split_fill (AfgEventSplit *split, gboolean upper)
{
  AfgEventMerge merge;

  if (!upper)
    {
      afg_event_merge_init_slices (&merge, split->list, split->n_chunks, split->zeros, split->cut, TRUE);
      pack_merge (&merge, split->thread.events, 0, 0, split->wide[0], split->index, split->link_func,
                  split->link_data);
    }
  else
    {
      afg_event_merge_init_slices (&merge, split->list, split->n_chunks, split->cut, split->lens, TRUE);
      pack_merge (&merge, split->thread.events + split->n_lower, split->n_lower, split->prev_upper, split->wide[1],
                  split->index, split->link_func != NULL ? keep_link : NULL, split->upper_links);
    }
  afg_event_merge_clear (&merge);
  split->filled[upper] = TRUE;
}

/* Whether no part freed chunk @k: both read some of it, or the one that
 * reads it whole was left out. */
static gboolean
chunk_left (const AfgEventSplit *split, guint k)
{
  guint32 cut = split->cut[k], len = split->lens[k];

  if (len == 0 || (cut > 0 && cut < len))
    return TRUE;
  return !split->filled[cut == 0];
}

void
afg_event_split_finish (AfgEventSplit *split)
{
  for (guint i = 0; i < split->upper_links->len; i++)
    {
      const SplitLink *kept = &g_array_index (split->upper_links, SplitLink, i);

      split->link_func (kept->link, split->index, kept->event, split->link_data);
    }
  for (guint k = 0; k < split->n_chunks; k++)
    if (chunk_left (split, k))
      g_free (split->list[k]);
  g_array_append_vals (split->wide[0], split->wide[1]->data, split->wide[1]->len);
  g_array_unref (split->wide[1]);
  set_wide (&split->thread, split->wide[0]);
  g_array_index (split->store->threads, AfgEventThread, split->index) = split->thread;
  g_array_unref (split->upper_links);
  split_free (split);
}

void
afg_event_store_set_label (AfgEventStore *self, guint index, guint32 label)
{
  g_array_index (self->threads, AfgEventThread, index).label = label;
}

guint
afg_event_store_get_n_threads (const AfgEventStore *self)
{
  return self->threads->len;
}

const AfgEventThread *
afg_event_store_get_thread (const AfgEventStore *self, guint index)
{
  g_return_val_if_fail (index < self->threads->len, NULL);
  return &g_array_index (self->threads, AfgEventThread, index);
}

guint64
afg_event_store_get_n_events (const AfgEventStore *self)
{
  guint64 n = 0;

  for (guint i = 0; i < self->threads->len; i++)
    n += g_array_index (self->threads, AfgEventThread, i).n_events;
  return n;
}

guint64
afg_event_store_get_bytes (const AfgEventStore *self)
{
  guint64 bytes = 0;

  for (guint i = 0; i < self->threads->len; i++)
    {
      const AfgEventThread *t = &g_array_index (self->threads, AfgEventThread, i);
      bytes += t->n_events * sizeof (AfgPackedEvent) + t->n_wide * sizeof (guint64);
    }
  return bytes;
}
