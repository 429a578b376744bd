/* SPDX-License-Identifier: MIT */
/* The chunk sort against GLib's stable sort, on every shape it takes a
 * different path for: in order, a few rows out of place by a little
 * (moved one by one) or by a lot (more than the budget: merged runs), a
 * few long runs, rows far from any order (blocks of 16), ties. */
#include "config.h"

#include <string.h>

#include <glib.h>

#include "afg-event-sort.h"
#include "afg-test-db.h"

typedef enum {
  SHAPE_SORTED,
  SHAPE_NEAR_STRAGGLERS,
  SHAPE_FAR_STRAGGLERS,
  SHAPE_TWO_RUNS,
  SHAPE_FEW_RUNS,
  SHAPE_RANDOM,
  SHAPE_REVERSED,
  SHAPE_TIES,
} Shape;

static void
fill_sorted (AfgEvent *ev, guint32 n, GRand *rand)
{
  gint64 t = 1000;

  for (guint32 i = 0; i < n; i++)
    {
      t += g_rand_int_range (rand, 0, 3);  /* equal starts too */
      ev[i].start = t;
      ev[i].end = t + g_rand_int_range (rand, 1, 50);
    }
  g_qsort_with_data (ev, n, sizeof (AfgEvent), afg_test_compare_events, NULL);
}

/* @k rows taken from where they belong and put @distance rows later. */
static void
displace (AfgEvent *ev, guint32 n, guint k, guint32 distance, GRand *rand)
{
  for (guint i = 0; i < k; i++)
    {
      guint32 from = g_rand_int_range (rand, 0, (gint32) (n - distance));
      AfgEvent x = ev[from];

      memmove (ev + from, ev + from + 1, distance * sizeof (AfgEvent));
      ev[from + distance] = x;
    }
}

/* The chunk cut in @k runs laid out in reverse: each in order, none after
 * the one before it. */
static void
reverse_runs (AfgEvent *ev, guint32 n, guint k)
{
  g_autofree AfgEvent *copy = g_memdup2 (ev, n * sizeof (AfgEvent));
  guint32 at = 0;

  for (guint r = k; r-- > 0;)
    {
      guint32 lo = (guint32) ((guint64) n * r / k), hi = (guint32) ((guint64) n * (r + 1) / k);

      memcpy (ev + at, copy + lo, (hi - lo) * sizeof (AfgEvent));
      at += hi - lo;
    }
}

static void
make_shape (AfgEvent *ev, guint32 n, Shape shape, GRand *rand)
{
  fill_sorted (ev, n, rand);
  switch (shape)
    {
    case SHAPE_SORTED:
      break;
    case SHAPE_NEAR_STRAGGLERS:
      displace (ev, n, 5, 20, rand);
      break;
    case SHAPE_FAR_STRAGGLERS:
      displace (ev, n, 12, n / 3, rand);
      break;
    case SHAPE_TWO_RUNS:
      reverse_runs (ev, n, 2);
      break;
    case SHAPE_FEW_RUNS:
      reverse_runs (ev, n, 7);
      break;
    case SHAPE_RANDOM:
      for (guint32 i = n; i > 1; i--)
        {
          guint32 j = g_rand_int_range (rand, 0, (gint32) i);
          AfgEvent x = ev[i - 1];

          ev[i - 1] = ev[j];
          ev[j] = x;
        }
      break;
    case SHAPE_REVERSED:
      reverse_runs (ev, n, n);
      break;
    case SHAPE_TIES:
      for (guint32 i = 0; i < n; i++)
        {
          ev[i].start = g_rand_int_range (rand, 0, 4);
          ev[i].end = ev[i].start + g_rand_int_range (rand, 1, 3);
        }
      break;
    }
  for (guint32 i = 0; i < n; i++)
    {
      ev[i].name = 0;
      ev[i].link = i;  /* the row order, which ties keep */
    }
}

static void
test_sort_shape (gconstpointer data)
{
  Shape shape = GPOINTER_TO_UINT (data);
  guint32 sizes[] = { 1, 2, 17, 1000, 70000 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (11 + shape);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      guint32 n = sizes[s];
      AfgChunk *chunk = afg_chunk_new (n);
      g_autofree AfgEvent *scratch = g_new (AfgEvent, n);
      g_autofree AfgEvent *expected = NULL;

      if (n < 40 && (shape == SHAPE_NEAR_STRAGGLERS || shape == SHAPE_FAR_STRAGGLERS))
        {
          afg_chunk_list_free (chunk);
          continue;  /* no room to move rows */
        }
      make_shape (chunk->events, n, shape, rand);
      chunk->len = n;
      expected = g_memdup2 (chunk->events, n * sizeof (AfgEvent));
      g_qsort_with_data (expected, n, sizeof (AfgEvent), afg_test_compare_events, NULL);
      g_assert_cmpint (afg_chunk_is_sorted (chunk), ==, memcmp (chunk->events, expected, n * sizeof (AfgEvent)) == 0);
      if (shape == SHAPE_SORTED)
        g_assert_true (afg_chunk_is_sorted (chunk));
      afg_chunk_sort (chunk, scratch);
      g_assert_cmpmem (chunk->events, n * sizeof (AfgEvent), expected, n * sizeof (AfgEvent));
      g_assert_true (afg_chunk_is_sorted (chunk));
      afg_chunk_list_free (chunk);
    }
}

/* A chunk big enough for huge pages gets all the events they hold (they
 * fault in whole); a small one gets what was asked; the largest is
 * exactly 4 MB. */
static void
test_chunk_fills_huge_pages (void)
{
  struct { guint32 asked, expected; } cases[] = {
    { 8, 8 },
    { 4096, 4096 },
    { 32768, (guint32) (((2u << 20) - sizeof (AfgChunk)) / sizeof (AfgEvent)) },
    { AFG_CHUNK_MAX_EVENTS, AFG_CHUNK_MAX_EVENTS },
  };

  g_assert_cmpuint (sizeof (AfgChunk) + sizeof (AfgEvent) * AFG_CHUNK_MAX_EVENTS, <=, 4u << 20);
  g_assert_cmpuint (sizeof (AfgChunk) + sizeof (AfgEvent) * (AFG_CHUNK_MAX_EVENTS + 1), >, 4u << 20);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      AfgChunk *chunk = afg_chunk_new (cases[i].asked);

      g_assert_cmpuint (chunk->capacity, ==, cases[i].expected);
      /* Every event of it can be written. */
      memset (chunk->events, 0x3c, sizeof (AfgEvent) * chunk->capacity);
      afg_chunk_list_free (chunk);
    }
}

int
main (int argc, char **argv)
{
  static const char * const names[] = {
    "sorted", "near-stragglers", "far-stragglers", "two-runs", "few-runs", "random", "reversed", "ties",
  };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_strdup_printf ("/event-sort/%s", names[i]);

      g_test_add_data_func (path, GUINT_TO_POINTER (i), test_sort_shape);
    }
  g_test_add_func ("/event-sort/chunk-fills-huge-pages", test_chunk_fills_huge_pages);
  return g_test_run ();
}
