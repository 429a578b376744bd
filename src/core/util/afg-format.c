/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "afg-format.h"

/* The rules below are data/html/format.js's, step for step: each value is
 * rounded as round(x) = floor(x + 0.5) on the same doubles, never by
 * printf's rounding (ties to even) or JavaScript's toFixed (ties up), so
 * that the window, the CLI and the page print the same text. */
static const double powers_of_ten[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
                                        1e13, 1e14, 1e15, 1e16, 1e17, 1e18 };

#define MINUS "\u2212"

/* @scaled / 10^@digits with @digits decimals. */
static void
append_fixed (GString *out, gint64 scaled, guint digits)
{
  gint64 unit = (gint64) powers_of_ten[digits];

  g_string_append_printf (out, "%" G_GINT64_FORMAT, scaled / unit);
  if (digits > 0)
    g_string_append_printf (out, ".%0*" G_GINT64_FORMAT, (int) digits, scaled % unit);
}

/* floor (x + 0.5) for the x >= 0 given here, as Math.round(). */
static gint64
round_half_up (double x)
{
  return (gint64) (x + 0.5);
}

char *
afg_format_duration (gint64 ns)
{
  /* The unit, the divisor that leaves tenths of it, and the decimals. */
  static const struct { const char *unit; double step; guint digits; } units[] = {
    { "µs", 1e2, 1 }, { "ms", 1e4, 2 }, { "s", 1e6, 3 },
  };
  GString *out = g_string_new (ns < 0 ? MINUS : "");
  double a = ns < 0 ? -(double) ns : (double) ns;

  if (a < 1000)
    {
      g_string_append_printf (out, "%.0f ns", a);
      return g_string_free (out, FALSE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      gint64 scaled = round_half_up (a / units[i].step);

      /* 999.96 µs is 1.00 ms, not 1000.0 µs. */
      if (scaled < 1000 * (gint64) powers_of_ten[units[i].digits] || i + 1 == G_N_ELEMENTS (units))
        {
          append_fixed (out, scaled, units[i].digits);
          g_string_append_printf (out, " %s", units[i].unit);
          break;
        }
    }
  return g_string_free (out, FALSE);
}

char *
afg_format_percent (gint64 part, gint64 whole)
{
  if (whole <= 0)
    return g_strdup ("0%");
  return afg_format_share (100.0 * (double) part / (double) whole);
}

/* One decimal from 10 % up, else two significant digits (0.68 %). */
char *
afg_format_share (double p)
{
  GString *out = g_string_new (p < 0 ? MINUS : "");
  double a = p < 0 ? -p : p;
  guint digits = 1;
  gint64 scaled;

  while (a > 0 && a * powers_of_ten[digits] < 10 && digits + 1 < G_N_ELEMENTS (powers_of_ten))
    digits++;
  scaled = round_half_up (a * powers_of_ten[digits]);
  /* 0.0999 rounds to 0.10, two digits, not 0.100. */
  if (scaled >= 100 && digits > 1 && a < 10)
    scaled = round_half_up (a * powers_of_ten[--digits]);
  append_fixed (out, scaled, digits);
  g_string_append_c (out, '%');
  return g_string_free (out, FALSE);
}

char *
afg_format_count (double n)
{
  GString *out = g_string_new (n < 0 ? MINUS : "");
  double a = n < 0 ? -n : n;
  g_autofree char *digits = NULL;
  gsize len;

  /* Calls per step need not be whole: two decimals under 100. */
  if (a < 100 && a != (double) (gint64) a)
    {
      append_fixed (out, round_half_up (a * 100), 2);
      return g_string_free (out, FALSE);
    }
  digits = g_strdup_printf ("%" G_GINT64_FORMAT, round_half_up (a));
  len = strlen (digits);
  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

char *
afg_format_scaled_duration (double ns)
{
  return afg_format_duration ((gint64) CLAMP (ns, (double) -G_MAXINT64, (double) G_MAXINT64));
}

/* U+2212, not '-': the sign lines up with '+' in a column of changes. */
char *
afg_format_signed_duration (double ns)
{
  g_autofree char *magnitude = afg_format_duration ((gint64) (ABS (ns) + 0.5));

  return g_strdup_printf ("%s%s", ns < 0 ? "−" : "+", magnitude);
}

char *
afg_format_path (const char *path)
{
  g_autofree char *display = g_filename_display_name (path);
  GString *out = g_string_sized_new (strlen (display));

  for (const char *p = display; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c))
        g_string_append_unichar (out, 0xFFFD);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  return g_string_free (out, FALSE);
}

gulong
afg_format_plural_n (guint64 n)
{
  return n > G_MAXULONG ? 2 : (gulong) n;
}
