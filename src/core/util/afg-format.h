/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "950 ns", "12.3 µs", "4.56 ms", "7.89 s" */
char *afg_format_duration (gint64 ns);
/* "12.3%" of @part in @whole; "0%" when @whole is 0 */
char *afg_format_percent  (gint64 part,
                           gint64 whole);

/* "+300 µs", "−1.20 ms": a change, its sign always written */
char *afg_format_signed_duration (double ns);
/* A file name fit for a message, a title or a JSON string: valid UTF-8
 * (undecodable bytes become U+FFFD) and no control characters, which
 * could otherwise drive the user's terminal. */
char *afg_format_path     (const char *path);

G_END_DECLS
