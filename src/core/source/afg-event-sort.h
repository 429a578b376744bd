/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One PYTORCH_API row that passed the filters: 24 bytes, packed, so that
 * 10M rows fit in 240 MB. Ties keep row order: the chunk sort is stable
 * and the merge breaks ties by chunk order. @link names the row for the
 * NPU linking (the loader's numbering; 0 for none) and is not kept in
 * the store. */
typedef struct __attribute__ ((packed)) {
  gint64  start;
  gint64  end;
  guint32 name;
  guint32 link;
} AfgEvent;

/* A thread's events, read in row order, in chunks that grow up to
 * AFG_CHUNK_MAX_EVENTS: no per-row allocation, slack only in address space. */
typedef struct _AfgChunk AfgChunk;
struct _AfgChunk {
  AfgChunk *next;
  guint32   len;
  guint32   capacity;
  AfgEvent  events[];
};

/* The largest chunk, header included, fills 4 MB: two whole huge pages
 * (afg-huge.h). One byte short and only the first would be advised, the
 * second faulted in 4 kB pages, each fault costly in a VM. */
#define AFG_CHUNK_MAX_EVENTS ((guint32) (((4u << 20) - sizeof (AfgChunk)) / sizeof (AfgEvent)))

AfgChunk *afg_chunk_new        (guint32         capacity);
void      afg_chunk_list_free  (AfgChunk       *head);
/* Whether the chunk is in the order afg_chunk_sort() gives. */
gboolean  afg_chunk_is_sorted  (const AfgChunk *chunk);
/* Stable sort by start ascending, end descending.
 * @scratch holds at least chunk->len events. */
void      afg_chunk_sort       (AfgChunk       *chunk,
                                AfgEvent       *scratch);

/* Streams the events of a list of sorted chunks in global order. */
typedef struct {
  const AfgEvent *pos;
  const AfgEvent *end;
  guint           order;
  AfgChunk       *chunk;
} AfgMergeCursor;

typedef struct {
  AfgMergeCursor *heap;
  guint           n;
  gboolean        owns;
  AfgChunk       *retired;  /* read to its end; freed on the next step */
} AfgEventMerge;

/* With @owns, the merge takes the list and frees each chunk once read,
 * so that the events are never held twice while they are re-encoded. */
void            afg_event_merge_init  (AfgEventMerge *merge,
                                       AfgChunk      *head,
                                       gboolean       owns);
/* The merge of a slice of each chunk: events [@from[k], @to[k]) of
 * @chunks[k], in the list's order. With @owns it frees the chunks it
 * reads whole (a slice from 0 to the chunk's length), and only those: two
 * merges of disjoint slices may then run at once (their chunks are given
 * as an array: the list's links may be freed memory by then). */
void            afg_event_merge_init_slices (AfgEventMerge *merge,
                                             AfgChunk * const *chunks,
                                             guint          n_chunks,
                                             const guint32 *from,
                                             const guint32 *to,
                                             gboolean       owns);
/* The first event of the sorted @chunk that starts at or after @start. */
guint32         afg_chunk_lower_bound (const AfgChunk *chunk,
                                       gint64          start);
/* The next events in global order: a run of *@n_events from one chunk
 * (NULL at the end), valid until the next call. */
const AfgEvent *afg_event_merge_next_run (AfgEventMerge *merge,
                                          gsize         *n_events);
void            afg_event_merge_clear (AfgEventMerge *merge);

G_END_DECLS
