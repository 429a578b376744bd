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

static inline gint64
afg_sat_sub (gint64 a, gint64 b)
{
  gint64 r;

  if (__builtin_sub_overflow (a, b, &r))
    return b < 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

/* The length of [@start, @end), 0 when it is empty: exact in guint64 for
 * any two gint64 times, where end - start may overflow. */
static inline guint64
afg_span_ulength (gint64 start, gint64 end)
{
  return end > start ? (guint64) end - (guint64) start : 0;
}

/* A length in guint64 as nanoseconds, G_MAXINT64 when larger. */
static inline gint64
afg_sat_from_ulength (guint64 length)
{
  return length > (guint64) G_MAXINT64 ? G_MAXINT64 : (gint64) length;
}

/* The length of [@start, @end) in nanoseconds: 0 when empty, saturated. */
static inline gint64
afg_span_length (gint64 start, gint64 end)
{
  return afg_sat_from_ulength (afg_span_ulength (start, end));
}
