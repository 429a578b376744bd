/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What the window, the CLI and the page (data/html/format.js) print, the
 * same text for the same value; negative values take U+2212 (−). */

/* "950 ns", "12.3 µs", "193.76 ms", "7.891 s" */
char *afg_format_duration (gint64 ns);
/* A normalised (per step, scaled) time as format.js time() takes it:
 * truncated to whole ns, then afg_format_duration(). */
char *afg_format_scaled_duration (double ns);
/* "12.3%" of @part in @whole; "0%" when @whole is 0 */
char *afg_format_percent  (gint64 part,
                           gint64 whole);
/* @p percent: "12.3%", "0.68%" (two significant digits under 10 %). */
char *afg_format_share    (double p);
/* "1,234"; a fraction under 100 with two decimals ("0.50"). */
char *afg_format_count    (double n);

/* "+300 µs", "−1.20 ms": a change, its sign always written */
char *afg_format_signed_duration (double ns);
/* A file name fit for a message, a title or a JSON string: valid UTF-8
 * (undecodable bytes become U+FFFD) and no control characters, which
 * could otherwise drive the user's terminal. */
char *afg_format_path     (const char *path);
/* @n for ngettext (), which takes an unsigned long: a count past it
 * takes the plural. */
gulong afg_format_plural_n (guint64 n);

G_END_DECLS
