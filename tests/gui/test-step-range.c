/* SPDX-License-Identifier: MIT */
/* The step strip's logic without a display: the bar under the pointer,
 * the slow marks (the page's rule: 1.5x the lower median or more) and
 * the range that clicks, shift-clicks, drags and arrow keys select. */
#include "afg-step-range.h"

/* Steps of these lengths in ns, ids from 10, back to back. */
static AfgStep *
make_steps (const gint64 *lengths, guint n)
{
  AfgStep *steps = g_new (AfgStep, n);
  gint64 t = 1000;

  for (guint i = 0; i < n; i++)
    {
      steps[i] = (AfgStep) { 10 + i, t, t + lengths[i] };
      t += lengths[i];
    }
  return steps;
}

static void
test_index_at (void)
{
  g_assert_cmpint (afg_step_index_at (4, 400, 0), ==, 0);
  g_assert_cmpint (afg_step_index_at (4, 400, 99.9), ==, 0);
  g_assert_cmpint (afg_step_index_at (4, 400, 100), ==, 1);
  g_assert_cmpint (afg_step_index_at (4, 400, 399.9), ==, 3);
  g_assert_cmpint (afg_step_index_at (4, 400, 400), ==, -1);
  g_assert_cmpint (afg_step_index_at (4, 400, -0.5), ==, -1);
  g_assert_cmpint (afg_step_index_at (0, 400, 10), ==, -1);
  g_assert_cmpint (afg_step_index_at (4, 0, 0), ==, -1);
  g_assert_cmpint (afg_step_index_at (3, 100, 66.7), ==, 2);
  g_assert_cmpint (afg_step_index_at (3, 100, 66.6), ==, 1);
}

static void
test_median (void)
{
  static const gint64 even[] = { 40, 10, 30, 20 };
  static const gint64 odd[] = { 5, 100, 7 };
  g_autofree AfgStep *a = make_steps (even, G_N_ELEMENTS (even));
  g_autofree AfgStep *b = make_steps (odd, G_N_ELEMENTS (odd));

  /* The lower middle, as steps.js takes it: sorted[(n - 1) >> 1]. */
  g_assert_cmpint (afg_step_median_ns (a, 4), ==, 20);
  g_assert_cmpint (afg_step_median_ns (b, 3), ==, 7);
  g_assert_cmpint (afg_step_median_ns (NULL, 0), ==, 0);
}

static void
test_slow (void)
{
  /* Median 20: 30 is exactly 1.5x (slow), 29 is not. */
  static const gint64 lengths[] = { 20, 10, 30, 29, 20, 100 };
  g_autofree AfgStep *steps = make_steps (lengths, G_N_ELEMENTS (lengths));
  gint64 median = afg_step_median_ns (steps, 6);
  gboolean expected[] = { FALSE, FALSE, TRUE, FALSE, FALSE, TRUE };

  g_assert_cmpint (median, ==, 20);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpint (afg_step_is_slow (steps, 6, i, median), ==, expected[i]);
}

/* A hostile DB's steps may span more than G_MAXINT64 ns: their lengths
 * saturate rather than wrap to a negative median. Lengths MAX (saturated),
 * MAX and 10: the lower median is MAX, and nothing is 1.5x that. */
static void
test_extreme_lengths (void)
{
  const AfgStep steps[] = {
    { 1, G_MININT64 + 1, 1 }, { 2, 0, G_MAXINT64 }, { 3, 0, 10 },
  };
  gint64 median = afg_step_median_ns (steps, 3);

  g_assert_cmpint (afg_step_get_ns (&steps[0]), ==, G_MAXINT64);
  g_assert_cmpint (median, ==, G_MAXINT64);
  for (guint i = 0; i < 3; i++)
    g_assert_false (afg_step_is_slow (steps, 3, i, median));
}

static void
test_slow_needs_two_steps (void)
{
  static const gint64 one[] = { 50 };
  static const gint64 zero[] = { 0, 0, 0 };
  g_autofree AfgStep *a = make_steps (one, 1);
  g_autofree AfgStep *b = make_steps (zero, 3);

  g_assert_false (afg_step_is_slow (a, 1, 0, afg_step_median_ns (a, 1)));
  for (guint i = 0; i < 3; i++)
    g_assert_false (afg_step_is_slow (b, 3, i, afg_step_median_ns (b, 3)));
}

static void
assert_range (const AfgStepRange *r, int first, int last)
{
  g_assert_cmpint (r->first, ==, first);
  g_assert_cmpint (r->last, ==, last);
}

static void
test_click_and_shift_click (void)
{
  AfgStepRange r;

  afg_step_range_clear (&r);
  g_assert_true (afg_step_range_is_all (&r));
  afg_step_range_select (&r, 5);
  assert_range (&r, 5, 5);
  afg_step_range_extend (&r, 2);    /* shift-click left of the anchor */
  assert_range (&r, 2, 5);
  afg_step_range_extend (&r, 7);    /* again: still from the anchor, 5 */
  assert_range (&r, 5, 7);
  afg_step_range_select (&r, 1);
  assert_range (&r, 1, 1);
  g_assert_false (afg_step_range_is_all (&r));
}

static void
test_shift_click_from_all (void)
{
  AfgStepRange r;

  afg_step_range_clear (&r);
  afg_step_range_extend (&r, 4);
  assert_range (&r, 4, 4);
}

static void
test_drag (void)
{
  AfgStepRange r;

  /* A drag: select where it began, extend to each bar it crosses. */
  afg_step_range_clear (&r);
  afg_step_range_select (&r, 6);
  for (int i = 5; i >= 3; i--)
    afg_step_range_extend (&r, i);
  assert_range (&r, 3, 6);
  afg_step_range_extend (&r, 8);    /* back across the start */
  assert_range (&r, 6, 8);
}

static void
test_keys (void)
{
  AfgStepRange r;

  afg_step_range_clear (&r);
  afg_step_range_move (&r, 1, 5, FALSE);
  assert_range (&r, 0, 0);
  afg_step_range_move (&r, -1, 5, FALSE);
  assert_range (&r, 0, 0);
  afg_step_range_move (&r, 1, 5, TRUE);
  afg_step_range_move (&r, 1, 5, TRUE);
  assert_range (&r, 0, 2);
  afg_step_range_move (&r, -1, 5, TRUE);
  assert_range (&r, 0, 1);
  afg_step_range_move (&r, 1, 5, FALSE);
  assert_range (&r, 2, 2);
  for (int i = 0; i < 9; i++)
    afg_step_range_move (&r, 1, 5, FALSE);
  assert_range (&r, 4, 4);
  afg_step_range_clear (&r);
  afg_step_range_move (&r, -1, 5, FALSE);
  assert_range (&r, 4, 4);
  afg_step_range_clear (&r);
  afg_step_range_move (&r, 1, 0, FALSE);
  g_assert_true (afg_step_range_is_all (&r));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/step-range/index-at", test_index_at);
  g_test_add_func ("/step-range/median", test_median);
  g_test_add_func ("/step-range/slow", test_slow);
  g_test_add_func ("/step-range/extreme-lengths", test_extreme_lengths);
  g_test_add_func ("/step-range/slow-needs-two-steps", test_slow_needs_two_steps);
  g_test_add_func ("/step-range/click-and-shift-click", test_click_and_shift_click);
  g_test_add_func ("/step-range/shift-click-from-all", test_shift_click_from_all);
  g_test_add_func ("/step-range/drag", test_drag);
  g_test_add_func ("/step-range/keys", test_keys);
  return g_test_run ();
}
