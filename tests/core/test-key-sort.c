/* SPDX-License-Identifier: MIT */
/* afg_key_sort orders elements by their leading gint64 exactly as a
 * stable comparison sort does, whatever the keys' range and sign and the
 * element size, in place. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "afg-key-sort.h"

typedef struct {
  gint64  key;
  guint64 order;   /* the position before sorting: checks stability */
  guint64 pad[2];  /* makes elements of 32 bytes when used */
} Element;

static int
compare_stable (const void *a, const void *b)
{
  const Element *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

/* Keys of @n elements of @size bytes (16 or 32) drawn from [lo, lo + range). */
static void
check_sort (gsize n, gsize size, gint64 lo, guint64 range, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint8 *data = g_malloc0 (MAX (n, 1) * size);
  Element *expected = g_new0 (Element, MAX (n, 1));

  for (gsize i = 0; i < n; i++)
    {
      guint64 r = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand));
      Element e = { (gint64) ((guint64) lo + (range != 0 ? r % range : r)), i, { i * 3, i * 5 } };

      memcpy (data + i * size, &e, size);
      expected[i] = e;
    }
  qsort (expected, n, sizeof (Element), compare_stable);
  afg_key_sort (data, n, size);
  for (gsize i = 0; i < n; i++)
    {
      Element got = { 0 };

      memcpy (&got, data + i * size, size);
      g_assert_cmpint (got.key, ==, expected[i].key);
      g_assert_cmpuint (got.order, ==, expected[i].order);
      if (size == sizeof (Element))
        g_assert_cmpuint (got.pad[1], ==, expected[i].order * 5);
    }
  g_free (expected);
  g_free (data);
  g_rand_free (rand);
}

static void
test_key_sort_ranges (void)
{
  gsize sizes[] = { 16, sizeof (Element) };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      check_sort (0, sizes[s], 0, 10, 1);
      check_sort (1, sizes[s], 0, 10, 2);
      check_sort (1000, sizes[s], 5, 1, 3);                       /* one key */
      check_sort (1000, sizes[s], 0, 7, 4);                       /* many equal keys */
      check_sort (20000, sizes[s], 1700000000000000000, 1000000000000, 5); /* ns since the epoch */
      check_sort (20000, sizes[s], -500, 1000, 6);                /* negative and positive */
      check_sort (20000, sizes[s], G_MININT64, 0, 7);             /* the whole gint64 range */
    }
}

/* In place: keys in order, and the same elements (by their order
 * field) as a stable sort gives, each element whole. */
static void
check_in_place (gsize n, gsize size, gint64 lo, guint64 range, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint8 *data = g_malloc0 (MAX (n, 1) * size);
  Element *expected = g_new0 (Element, MAX (n, 1));
  Element *got = g_new0 (Element, MAX (n, 1));

  for (gsize i = 0; i < n; i++)
    {
      guint64 r = ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand));
      Element e = { (gint64) ((guint64) lo + (range != 0 ? r % range : r)), i, { i * 3, i * 5 } };

      memcpy (data + i * size, &e, size);
      expected[i] = e;
    }
  qsort (expected, n, sizeof (Element), compare_stable);
  afg_key_sort_in_place (data, n, size);
  for (gsize i = 0; i < n; i++)
    {
      memcpy (&got[i], data + i * size, size);
      if (i > 0)
        g_assert_cmpint (got[i - 1].key, <=, got[i].key);
      if (size == sizeof (Element))
        g_assert_cmpuint (got[i].pad[1], ==, got[i].order * 5);
    }
  qsort (got, n, sizeof (Element), compare_stable);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpint (got[i].key, ==, expected[i].key);
      g_assert_cmpuint (got[i].order, ==, expected[i].order);
    }
  g_free (got);
  g_free (expected);
  g_free (data);
  g_rand_free (rand);
}

static void
test_key_sort_in_place (void)
{
  gsize sizes[] = { 16, 24, sizeof (Element) };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      check_in_place (0, sizes[s], 0, 10, 11);
      check_in_place (1, sizes[s], 0, 10, 12);
      check_in_place (31, sizes[s], 0, 1000, 13);                   /* below the bucket pass */
      check_in_place (1000, sizes[s], 5, 1, 14);                    /* one key */
      check_in_place (5000, sizes[s], 0, 7, 15);                    /* many equal keys */
      check_in_place (20000, sizes[s], 1700000000000000000, 1000000000000, 16);
      check_in_place (20000, sizes[s], -500, 1000, 17);
      check_in_place (20000, sizes[s], G_MININT64, 0, 18);          /* the whole gint64 range */
      check_in_place (20000, sizes[s], 0, (guint64) 1 << 40, 19);   /* row << 32 | key, as the items' */
    }
}

/* The extremes themselves, next to each other. */
static void
test_key_sort_extremes (void)
{
  Element e[] = { { G_MAXINT64, 0 }, { G_MININT64, 1 }, { 0, 2 }, { -1, 3 }, { G_MININT64, 4 }, { G_MAXINT64, 5 } };
  gint64 keys[] = { G_MININT64, G_MININT64, -1, 0, G_MAXINT64, G_MAXINT64 };
  guint64 orders[] = { 1, 4, 3, 2, 0, 5 };

  afg_key_sort (e, G_N_ELEMENTS (e), sizeof (Element));
  for (guint i = 0; i < G_N_ELEMENTS (e); i++)
    {
      g_assert_cmpint (e[i].key, ==, keys[i]);
      g_assert_cmpuint (e[i].order, ==, orders[i]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/key-sort/ranges", test_key_sort_ranges);
  g_test_add_func ("/key-sort/extremes", test_key_sort_extremes);
  g_test_add_func ("/key-sort/in-place", test_key_sort_in_place);
  return g_test_run ();
}
