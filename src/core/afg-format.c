/* SPDX-License-Identifier: MIT */
#include "config.h"

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
  if (whole <= 0)
    return g_strdup ("0%");
  return g_strdup_printf ("%.1f%%", 100.0 * (double) part / (double) whole);
}
