/* SPDX-License-Identifier: MIT */
/* afg-event-store.h: a thread filled in two parts (afg_event_store_split)
 * is the thread filled whole, byte for byte, escapes and links included,
 * wherever the parts are cut and whether they run one after the other or
 * at once; a split no start time allows is refused and leaves the chunks
 * to the caller; a merge of chunk slices is the whole merge's events in
 * those slices. */
#include "config.h"

#include <string.h>

#include <glib.h>

#include "afg-event-sort.h"
#include "afg-test-db.h"
#include "afg-event-store.h"

#define TID ((gint64) 7 << 32 | 9)

typedef struct {
  guint32 link;
  guint   thread;
  guint64 event;
} Told;

static void
tell (guint32 link, guint thread, guint64 event, gpointer data)
{
  Told told = { link, thread, event };

  g_array_append_val ((GArray *) data, told);
}

/* @n_chunks sorted chunks of @per events, laid out as a reader leaves
 * them: mostly later chunk by chunk, overlapping their neighbours, with
 * equal starts within and across chunks, durations and gaps past 32 bits
 * (escaped), and every third event linked. */
static AfgChunk *
make_chunks (GRand *rand, guint n_chunks, guint32 per)
{
  AfgChunk *head = NULL, **tail = &head;
  guint32 link = 1;

  for (guint c = 0; c < n_chunks; c++)
    {
      AfgChunk *chunk = afg_chunk_new (per);
      gint64 t = 1000000 + (gint64) c * 40000;

      for (guint32 i = 0; i < per; i++)
        {
          AfgEvent *ev = &chunk->events[i];

          t += g_rand_int_range (rand, 0, 100);
          if (g_rand_int_range (rand, 0, 500) == 0)
            t += G_GINT64_CONSTANT (5000000000);
          ev->start = g_rand_int_range (rand, 0, 4) == 0 ? t - g_rand_int_range (rand, 0, 30000) : t;
          ev->end = ev->start + (g_rand_int_range (rand, 0, 300) == 0 ? G_GINT64_CONSTANT (6000000000)
                                                                       : g_rand_int_range (rand, 0, 5000));
          ev->name = (guint32) g_rand_int_range (rand, 0, 50);
          ev->link = i % 3 == 0 ? link++ : 0;
        }
      chunk->len = per;
      g_qsort_with_data (chunk->events, (gint) per, sizeof (AfgEvent), afg_test_compare_events, NULL);
      *tail = chunk;
      tail = &chunk->next;
    }
  return head;
}

static AfgChunk *
copy_chunks (const AfgChunk *head)
{
  AfgChunk *copy = NULL, **tail = &copy;

  for (const AfgChunk *c = head; c != NULL; c = c->next)
    {
      AfgChunk *chunk = afg_chunk_new (MAX (c->len, 1));

      memcpy (chunk->events, c->events, c->len * sizeof (AfgEvent));
      chunk->len = c->len;
      *tail = chunk;
      tail = &chunk->next;
    }
  return copy;
}

static void
assert_same_thread (const AfgEventStore *a, const AfgEventStore *b)
{
  const AfgEventThread *x = afg_event_store_get_thread (a, 0), *y = afg_event_store_get_thread (b, 0);

  g_assert_cmpint (x->global_tid, ==, y->global_tid);
  g_assert_cmpuint (x->pid, ==, y->pid);
  g_assert_cmpuint (x->tid, ==, y->tid);
  g_assert_cmpuint (x->n_events, ==, y->n_events);
  g_assert_cmpmem (x->events, x->n_events * sizeof (AfgPackedEvent), y->events, y->n_events * sizeof (AfgPackedEvent));
  g_assert_cmpuint (x->n_wide, ==, y->n_wide);
  g_assert_cmpmem (x->wide, x->n_wide * sizeof (guint64), y->wide, y->n_wide * sizeof (guint64));
}

static void
assert_same_links (GArray *a, GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const Told *x = &g_array_index (a, Told, i), *y = &g_array_index (b, Told, i);

      g_assert_cmpuint (x->link, ==, y->link);
      g_assert_cmpuint (x->thread, ==, y->thread);
      g_assert_cmpuint (x->event, ==, y->event);
    }
}

typedef struct {
  AfgEventSplit *split;
  gboolean       upper;
} FillJob;

static gpointer
fill_part (gpointer data)
{
  FillJob *job = data;

  afg_event_split_fill (job->split, job->upper);
  return NULL;
}

/* The thread of @chunks filled whole and filled in two parts with
 * @n_lower asked for, compared. */
static void
check_split (const AfgChunk *chunks, guint64 n_lower, gboolean at_once)
{
  AfgEventStore *whole = afg_event_store_new (), *parts = afg_event_store_new ();
  g_autoptr(GArray) whole_links = g_array_new (FALSE, FALSE, sizeof (Told));
  g_autoptr(GArray) part_links = g_array_new (FALSE, FALSE, sizeof (Told));
  AfgEventSplit *split;

  afg_event_store_reserve (whole, 1);
  afg_event_store_fill (whole, 0, TID, copy_chunks (chunks), tell, whole_links);
  afg_event_store_reserve (parts, 1);
  split = afg_event_store_split (parts, 0, TID, copy_chunks (chunks), n_lower, tell, part_links);
  g_assert_nonnull (split);
  if (at_once)
    {
      FillJob upper = { split, TRUE }, lower = { split, FALSE };
      GThread *thread = g_thread_new ("upper", fill_part, &upper);

      fill_part (&lower);
      g_thread_join (thread);
    }
  else
    {
      afg_event_split_fill (split, TRUE);  /* the upper part first: its links still come last */
      afg_event_split_fill (split, FALSE);
    }
  afg_event_split_finish (split);
  assert_same_thread (whole, parts);
  assert_same_links (whole_links, part_links);
  afg_event_store_free (whole);
  afg_event_store_free (parts);
}

static void
test_split_matches_whole (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (13);
  AfgChunk *chunks = make_chunks (rand, 6, 5000);
  guint64 n = 6 * 5000;
  const guint64 wants[] = { 1, 2, n / 7, n / 3, n / 2, n - n / 4, n - 2, n - 1 };

  for (guint i = 0; i < G_N_ELEMENTS (wants); i++)
    {
      check_split (chunks, wants[i], FALSE);
      check_split (chunks, wants[i], TRUE);
    }
  afg_chunk_list_free (chunks);
}

/* One chunk, and chunks all at the same times: both cut inside chunks. */
static void
test_split_inside_chunks (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (29);
  AfgChunk *one = make_chunks (rand, 1, 20000);
  AfgChunk *same = make_chunks (rand, 4, 3000);

  for (AfgChunk *c = same->next; c != NULL; c = c->next)
    memcpy (c->events, same->events, c->len * sizeof (AfgEvent));
  check_split (one, 10000, TRUE);
  check_split (same, 6000, TRUE);
  check_split (same, 11999, FALSE);
  afg_chunk_list_free (one);
  afg_chunk_list_free (same);
}

/* No cut when every event starts at one time, or nothing is asked of a
 * part: NULL, and the chunks are still whole for the caller's fill. */
static void
test_split_refused (void)
{
  AfgEventStore *store = afg_event_store_new ();
  AfgChunk *chunks = afg_chunk_new (100);
  g_autoptr(GArray) links = g_array_new (FALSE, FALSE, sizeof (Told));

  for (guint32 i = 0; i < 100; i++)
    chunks->events[i] = (AfgEvent) { 500, 900 - i, i, 0 };
  chunks->len = 100;
  afg_event_store_reserve (store, 1);
  g_assert_null (afg_event_store_split (store, 0, TID, chunks, 50, tell, links));
  chunks->events[99].start = 501;
  g_assert_null (afg_event_store_split (store, 0, TID, chunks, 0, tell, links));
  g_assert_null (afg_event_store_split (store, 0, TID, chunks, 100, tell, links));
  afg_event_store_fill (store, 0, TID, chunks, tell, links);
  g_assert_cmpuint (afg_event_store_get_thread (store, 0)->n_events, ==, 100);
  afg_event_store_free (store);
}

/* A load cancelled between the parts finishes the split with one part
 * left out: the chunks are all freed (the sanitised run checks). */
static void
test_split_part_left_out (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (31);

  for (guint upper = 0; upper < 2; upper++)
    {
      AfgEventStore *store = afg_event_store_new ();
      AfgEventSplit *split;

      afg_event_store_reserve (store, 1);
      split = afg_event_store_split (store, 0, TID, make_chunks (rand, 5, 2000), 5000, NULL, NULL);
      g_assert_nonnull (split);
      afg_event_split_fill (split, upper);
      afg_event_split_finish (split);
      afg_event_store_free (store);
    }
}

/* Each chunk's slice [from, to) merged: the whole merge's events that lie
 * in the slices, in the same order. */
static void
test_merge_slices (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (37);
  AfgChunk *chunks = make_chunks (rand, 5, 3000);
  guint32 from[5], to[5];
  AfgChunk *list[5];
  guint k = 0;
  AfgEventMerge all, some;
  const AfgEvent *run;
  gsize n_run;
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (AfgEvent));
  g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (AfgEvent));

  for (AfgChunk *c = chunks; c != NULL; c = c->next, k++)
    {
      list[k] = c;
      from[k] = k == 2 ? 0 : (guint32) g_rand_int_range (rand, 0, 1500);
      to[k] = k == 2 ? c->len : (guint32) g_rand_int_range (rand, 1500, 3001);
      /* Tagged by place, to find which slice an event of the whole merge is in. */
      for (guint32 i = 0; i < c->len; i++)
        c->events[i].link = k << 16 | i;
    }
  afg_event_merge_init (&all, chunks, FALSE);
  while ((run = afg_event_merge_next_run (&all, &n_run)) != NULL)
    for (gsize i = 0; i < n_run; i++)
      {
        guint32 c = run[i].link >> 16, at = run[i].link & 0xffff;

        if (at >= from[c] && at < to[c])
          g_array_append_val (expected, run[i]);
      }
  afg_event_merge_clear (&all);
  afg_event_merge_init_slices (&some, list, 5, from, to, FALSE);
  while ((run = afg_event_merge_next_run (&some, &n_run)) != NULL)
    g_array_append_vals (got, run, n_run);
  afg_event_merge_clear (&some);
  g_assert_cmpmem (got->data, got->len * sizeof (AfgEvent), expected->data, expected->len * sizeof (AfgEvent));
  k = 0;
  for (AfgChunk *c = chunks; c != NULL; c = c->next, k++)
    {
      gint64 t = c->events[c->len / 2].start;
      guint32 at = afg_chunk_lower_bound (c, t);

      g_assert_true (at == 0 || c->events[at - 1].start < t);
      g_assert_true (at < c->len && c->events[at].start == t);
    }
  afg_chunk_list_free (chunks);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/event-store/split-matches-whole", test_split_matches_whole);
  g_test_add_func ("/event-store/split-inside-chunks", test_split_inside_chunks);
  g_test_add_func ("/event-store/split-refused", test_split_refused);
  g_test_add_func ("/event-store/split-part-left-out", test_split_part_left_out);
  g_test_add_func ("/event-store/merge-slices", test_merge_slices);
  return g_test_run ();
}
