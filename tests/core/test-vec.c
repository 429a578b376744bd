/* SPDX-License-Identifier: MIT */
/* AfgVec keeps what was appended through every growth, from empty and
 * from a reservation, small and in huge pages (afg-huge.h). */
#include "config.h"

#include <glib.h>

#include "afg-vec.h"

static void
fill_and_check (AfgVec *vec, gsize n)
{
  for (gsize i = 0; i < n; i++)
    AFG_VEC_APPEND (vec, gint64, (gint64) (i * 7919));
  g_assert_cmpuint (vec->len, ==, n);
  g_assert_cmpuint (vec->capacity, >=, n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpint (AFG_VEC_INDEX (vec, gint64, i), ==, (gint64) (i * 7919));
}

static void
test_vec_grows (void)
{
  gsize reserved[] = { 0, 1, 16, 100000 };
  gsize counts[] = { 0, 1, 17, 300000 };

  for (guint r = 0; r < G_N_ELEMENTS (reserved); r++)
    for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
      {
        AfgVec vec;

        afg_vec_init (&vec, sizeof (gint64), reserved[r]);
        g_assert_cmpuint (vec.capacity, ==, reserved[r]);
        fill_and_check (&vec, counts[c]);
        afg_vec_clear (&vec);
        g_assert_null (vec.data);
        g_assert_cmpuint (vec.len, ==, 0);
        afg_vec_clear (&vec);  /* twice is harmless */
      }
}

static void
test_vec_cleared_grows_again (void)
{
  AfgVec vec;

  afg_vec_init (&vec, sizeof (gint64), 8);
  fill_and_check (&vec, 40);
  afg_vec_clear (&vec);
  fill_and_check (&vec, 40);
  afg_vec_clear (&vec);
}

/* Reserving keeps the elements; growing the length zeroes the new ones;
 * a stolen vector leaves an empty one that can grow again. */
static void
test_vec_reserve_zero_steal (void)
{
  AfgVec vec, taken;

  afg_vec_init (&vec, sizeof (gint64), 0);
  fill_and_check (&vec, 10);
  afg_vec_reserve (&vec, 100000);
  g_assert_cmpuint (vec.capacity, ==, 100000);
  afg_vec_reserve (&vec, 5);
  g_assert_cmpuint (vec.capacity, ==, 100000);
  for (gsize i = 0; i < 10; i++)
    g_assert_cmpint (AFG_VEC_INDEX (&vec, gint64, i), ==, (gint64) (i * 7919));
  AFG_VEC_INDEX (&vec, gint64, 9) = -1;
  vec.len = 5;
  afg_vec_set_len_zeroed (&vec, 300000);
  g_assert_cmpuint (vec.len, ==, 300000);
  g_assert_cmpint (AFG_VEC_INDEX (&vec, gint64, 4), ==, 4 * 7919);
  for (gsize i = 5; i < vec.len; i++)
    g_assert_cmpint (AFG_VEC_INDEX (&vec, gint64, i), ==, 0);
  afg_vec_set_len_zeroed (&vec, 3);
  g_assert_cmpuint (vec.len, ==, 3);
  taken = afg_vec_steal (&vec);
  g_assert_cmpuint (taken.len, ==, 3);
  g_assert_null (vec.data);
  g_assert_cmpuint (vec.len, ==, 0);
  fill_and_check (&vec, 20);
  afg_vec_clear (&vec);
  afg_vec_clear (&taken);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vec/grows", test_vec_grows);
  g_test_add_func ("/vec/cleared-grows-again", test_vec_cleared_grows_again);
  g_test_add_func ("/vec/reserve-zero-steal", test_vec_reserve_zero_steal);
  return g_test_run ();
}
