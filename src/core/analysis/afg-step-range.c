/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>

#include "afg-step-range.h"

static int
compare_ns (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

gint64
afg_step_median_ns (const AfgStep *steps, guint n_steps)
{
  g_autofree gint64 *durations = NULL;

  if (n_steps == 0)
    return 0;
  durations = g_new (gint64, n_steps);
  for (guint i = 0; i < n_steps; i++)
    durations[i] = afg_step_get_ns (&steps[i]);
  qsort (durations, n_steps, sizeof *durations, compare_ns);
  return durations[(n_steps - 1) / 2];
}

gboolean
afg_step_is_slow (const AfgStep *steps, guint n_steps, guint index, gint64 median_ns)
{
  gint64 duration;

  g_return_val_if_fail (index < n_steps, FALSE);

  duration = afg_step_get_ns (&steps[index]);
  return n_steps > 1 && duration > 0 && (double) duration >= AFG_STEP_SLOW_FACTOR * (double) median_ns;
}

int
afg_step_index_at (guint n_steps, double width, double x)
{
  if (n_steps == 0 || width <= 0 || !(x >= 0) || x >= width)
    return -1;
  return MIN ((int) (x * n_steps / width), (int) n_steps - 1);
}

void
afg_step_range_clear (AfgStepRange *range)
{
  *range = (AfgStepRange) { -1, -1, -1 };
}

gboolean
afg_step_range_is_all (const AfgStepRange *range)
{
  return range->first < 0;
}

void
afg_step_range_select (AfgStepRange *range, int index)
{
  *range = (AfgStepRange) { index, index, index };
}

void
afg_step_range_extend (AfgStepRange *range, int index)
{
  if (range->anchor < 0)
    {
      afg_step_range_select (range, index);
      return;
    }
  range->first = MIN (range->anchor, index);
  range->last = MAX (range->anchor, index);
}

/* The end of the range away from the anchor: where arrow keys act. */
static int
moving_end (const AfgStepRange *range)
{
  return range->first == range->anchor ? range->last : range->first;
}

void
afg_step_range_move (AfgStepRange *range, int delta, guint n_steps, gboolean extend)
{
  int target;

  if (n_steps == 0)
    return;
  if (afg_step_range_is_all (range))
    target = delta > 0 ? 0 : (int) n_steps - 1;
  else
    target = CLAMP (moving_end (range) + delta, 0, (int) n_steps - 1);
  if (extend && !afg_step_range_is_all (range))
    afg_step_range_extend (range, target);
  else
    afg_step_range_select (range, target);
}
