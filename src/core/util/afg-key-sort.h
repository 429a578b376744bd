/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sorts @n elements of @size bytes, each starting with a gint64 key,
 * by that key, stably. A radix sort over the keys' range: a few passes
 * over the data instead of qsort's n log n compares, and its scratch
 * buffer comes from the huge-page pool rather than a fresh mapping that
 * faults in page by page. */
void afg_key_sort (gpointer base,
                   gsize    n,
                   gsize    size);

/* The same order, not stable (equal keys in any order), in place: no
 * scratch buffer, for arrays whose copy would raise the peak of memory.
 * Elements of at most 64 bytes. */
void afg_key_sort_in_place (gpointer base,
                            gsize    n,
                            gsize    size);

G_END_DECLS
