/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "950 ns", "12.3 µs", "4.56 ms", "7.89 s" */
char *afg_format_duration (gint64 ns);
/* "12.3%" of @part in @whole; "0%" when @whole is 0 */
char *afg_format_percent  (gint64 part,
                           gint64 whole);

G_END_DECLS
