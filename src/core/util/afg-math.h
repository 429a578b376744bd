/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

/* Nanosecond sums saturate instead of wrapping on hostile timestamps. */
static inline gint64
afg_sat_add (gint64 a, gint64 b)
{
  gint64 r;

  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}
