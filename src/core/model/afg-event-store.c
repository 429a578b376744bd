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

static void
encode (AfgEventThread *out, guint index, gint64 global_tid, AfgChunk *chunks,
        AfgEventLinkFunc link_func, gpointer link_data)
{
  AfgEventThread t = { global_tid, (guint32) ((guint64) global_tid >> 32), (guint32) global_tid, 0, 0, NULL, NULL, 0 };
  g_autoptr(GArray) wide = g_array_new (FALSE, FALSE, sizeof (guint64));
  AfgEventMerge merge;
  const AfgEvent *run;
  gsize n_run;
  guint64 i = 0;
  gint64 prev = 0;

  for (AfgChunk *c = chunks; c != NULL; c = c->next)
    t.n_events += c->len;
  t.events = afg_huge_alloc (sizeof (AfgPackedEvent) * MAX (t.n_events, 1));
  afg_event_merge_init (&merge, chunks, TRUE);
  while ((run = afg_event_merge_next_run (&merge, &n_run)) != NULL)
    for (const AfgEvent *ev = run; ev < run + n_run; ev++, i++)
      {
        t.events[i].start_delta = pack ((guint64) ev->start - (guint64) prev, wide);
        t.events[i].duration = pack ((guint64) ev->end - (guint64) ev->start, wide);
        t.events[i].name = ev->name;
        prev = ev->start;
        if (ev->link != 0 && link_func != NULL)
          link_func (ev->link, index, i, link_data);
      }
  afg_event_merge_clear (&merge);
  t.n_wide = wide->len;
  if (t.n_wide > 0)
    t.wide = (guint64 *) g_array_free (g_steal_pointer (&wide), FALSE);
  *out = t;
}

void
afg_event_store_append (AfgEventStore *self, gint64 global_tid, AfgChunk *chunks,
                        AfgEventLinkFunc link_func, gpointer link_data)
{
  AfgEventThread t;

  encode (&t, self->threads->len, global_tid, chunks, link_func, link_data);
  g_array_append_val (self->threads, t);
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
