/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "afg-format.h"

char *
afg_format_duration (gint64 ns)
{
  double v = (double) ns;

  if (ns < 1000 && ns > -1000)
    return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
  if (ns < 1000000 && ns > -1000000)
    return g_strdup_printf ("%.1f µs", v / 1e3);
  if (ns < 1000000000 && ns > -1000000000)
    return g_strdup_printf ("%.2f ms", v / 1e6);
  return g_strdup_printf ("%.3f s", v / 1e9);
}

char *
afg_format_percent (gint64 part, gint64 whole)
{
  double p;
  int digits;

  if (whole <= 0)
    return g_strdup ("0%");
  p = 100.0 * (double) part / (double) whole;
  /* The page's rule (JavaScript's toFixed (1) from 10 % up, else two
   * significant digits), so that both views print the same share. */
  if (p >= 10 || p == 0)
    return g_strdup_printf ("%.1f%%", p);
  if (p < 1e-6)
    return g_strdup_printf ("%.1e%%", p);
  {
    /* The exponent after rounding to two digits: 0.0999 is "0.10". */
    g_autofree char *sci = g_strdup_printf ("%.1e", p);
    digits = 1 - atoi (strchr (sci, 'e') + 1);
  }
  return g_strdup_printf ("%.*f%%", digits, p);
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
