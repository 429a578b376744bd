/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-event-sort.h"

G_BEGIN_DECLS

/* The used PYTORCH_API rows of a document, per thread, in the order the
 * tree builder walks them (start ascending, end descending, row order),
 * kept after loading so that any number of trees can be built without
 * the DB. 12 bytes a row: the start as a 32-bit delta from the previous
 * one, the duration in 32 bits, the name; a delta or a duration that
 * does not fit (over 4.29 s) is escaped to a 64-bit side list. */
typedef struct {
  guint32 start_delta;
  guint32 duration;
  guint32 name;
} AfgPackedEvent;

#define AFG_PACKED_WIDE G_MAXUINT32

typedef struct {
  gint64          global_tid;
  guint32         pid;
  guint32         tid;
  guint32         label;      /* string index of "pid/tid", set by the document */
  guint64         n_events;
  AfgPackedEvent *events;
  guint64        *wide;       /* escaped deltas and durations, in event order */
  guint64         n_wide;
} AfgEventThread;

typedef struct _AfgEventStore AfgEventStore;

AfgEventStore        *afg_event_store_new          (void);
void                  afg_event_store_free         (AfgEventStore  *self);
/* Told, for each appended event with a non-zero link, where it landed:
 * the thread's index in the store and the event's index in the thread. */
typedef void (*AfgEventLinkFunc) (guint32  link,
                                  guint    thread,
                                  guint64  event,
                                  gpointer user_data);

/* Threads are kept in ascending global tid: @n empty threads, then each
 * filled once by afg_event_store_fill(), which consumes its @chunks, each
 * sorted, freeing every chunk as soon as the merge has read it (distinct
 * indices may be filled from different threads at the same time;
 * @link_func may be NULL). */
void                  afg_event_store_reserve      (AfgEventStore  *self,
                                                    guint           n);
void                  afg_event_store_fill         (AfgEventStore  *self,
                                                    guint           index,
                                                    gint64          global_tid,
                                                    AfgChunk       *chunks,
                                                    AfgEventLinkFunc link_func,
                                                    gpointer        link_data);
/* One thread filled in two parts that may be encoded at once on two
 * cores: the events that start before a time leaving about @n_lower of
 * them in the lower part, and the rest. NULL, @chunks untouched, when no
 * start time splits them so (then fill the thread whole); otherwise it
 * consumes @chunks, and @link_func hears each thread's links in event
 * order as afg_event_store_fill() would tell them. */
typedef struct _AfgEventSplit AfgEventSplit;

AfgEventSplit        *afg_event_store_split        (AfgEventStore  *self,
                                                    guint           index,
                                                    gint64          global_tid,
                                                    AfgChunk       *chunks,
                                                    guint64         n_lower,
                                                    AfgEventLinkFunc link_func,
                                                    gpointer        link_data);
/* Encodes the lower or the upper part; the two may run at the same time. */
void                  afg_event_split_fill         (AfgEventSplit  *split,
                                                    gboolean        upper);
/* Once both parts are filled: tells the upper part's links, completes the
 * thread, frees @split. */
void                  afg_event_split_finish       (AfgEventSplit  *split);
void                  afg_event_store_set_label    (AfgEventStore  *self,
                                                    guint           index,
                                                    guint32         label);
guint                 afg_event_store_get_n_threads (const AfgEventStore *self);
const AfgEventThread *afg_event_store_get_thread   (const AfgEventStore *self,
                                                    guint           index);
guint64               afg_event_store_get_n_events (const AfgEventStore *self);
/* Bytes held for the events, escapes included (for the benchmarks). */
guint64               afg_event_store_get_bytes    (const AfgEventStore *self);

/* Decodes one thread's events in order. */
typedef struct {
  const AfgEventThread *thread;
  guint64               next;
  guint64               wide_next;
  gint64                start;
} AfgEventCursor;

static inline void
afg_event_cursor_init (AfgEventCursor *cursor, const AfgEventThread *thread)
{
  cursor->thread = thread;
  cursor->next = 0;
  cursor->wide_next = 0;
  cursor->start = 0;
}

static inline gboolean
afg_event_cursor_next (AfgEventCursor *cursor, AfgEvent *out)
{
  const AfgEventThread *t = cursor->thread;
  const AfgPackedEvent *p;
  guint64 delta, duration;

  if (cursor->next == t->n_events)
    return FALSE;
  p = &t->events[cursor->next++];
  delta = p->start_delta == AFG_PACKED_WIDE ? t->wide[cursor->wide_next++] : p->start_delta;
  duration = p->duration == AFG_PACKED_WIDE ? t->wide[cursor->wide_next++] : p->duration;
  cursor->start = (gint64) ((guint64) cursor->start + delta);
  out->start = cursor->start;
  out->end = (gint64) ((guint64) cursor->start + duration);
  out->name = p->name;
  out->link = 0;
  return TRUE;
}

G_END_DECLS
