/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Transparent huge pages for the big buffers: on the shared VMs this runs
 * on, a 4 kB page fault costs about 12 us (3 ms per MB touched), a 2 MB
 * page's about 0.13 ms when the host still backs it; a 1M-row export
 * spent a quarter of its CPU time in faults. */

/* Pins glibc's mmap threshold at 2 MB and turns the pool of freed huge
 * buffers on: for the one-shot exports of the command line (a job's load
 * then tunes malloc its own way). */
void     afg_huge_init   (void);
/* For one profile's export: glibc's heap, where every block under 2 MB
 * lives (GLib's arrays, hash tables and strings), faults in 4 kB pages,
 * since the kernel gives huge pages only to advised ranges. All threads
 * then share one arena, grown now by 8 MB and advised whole, so that the
 * string table and the first phase's small arrays fault in a few huge
 * pages instead of hundreds of small ones, for about 1 MB more peak RSS.
 * Past those 8 MB the heap grows in 4 kB pages as before. Not for a job,
 * whose ranks share the heap: a pad there raises the job's peak. */
void     afg_huge_advise_heap (void);
/* g_malloc (@size), or from 256 kB whole huge pages on a 2 MB boundary,
 * all advised: each 2 MB of it one fault. Freed with g_free(). */
gpointer afg_huge_alloc  (gsize    size);
/* Frees a buffer of afg_huge_alloc (@size), or keeps it for the next
 * request of that size when the pool is on (afg_huge_init()): its pages
 * are then not faulted in again. */
void     afg_huge_free   (gpointer mem,
                          gsize    size);
/* The bytes the pool holds now. */
gsize    afg_huge_pooled (void);
/* How many bytes afg_huge_alloc (@size) gives: from 256 kB, whole huge
 * pages, which fault in whole; a buffer may as well use them. */
gsize    afg_huge_round  (gsize    size);
/* afg_huge_alloc(), zeroed. */
gpointer afg_huge_alloc0 (gsize   size);
/* An empty GString with room for @reserved bytes from afg_huge_alloc(). */
GString *afg_huge_string_new (gsize reserved);

G_END_DECLS
