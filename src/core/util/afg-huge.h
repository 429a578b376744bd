/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Asks the kernel for transparent huge pages under a big buffer that is
 * about to be filled once: on the shared VMs this runs on a page fault
 * costs several microseconds, and a 2 MB page takes one fault instead of
 * 512 (a quarter of the CPU time of a 1M-row export went to faults).
 * Only the 2 MB-aligned inside of @mem is advised; small buffers and
 * systems without THP are left alone. */
void    afg_huge_advise (gpointer mem,
                         gsize    size);
/* g_malloc (@size), or from 512 kB whole huge pages on a 2 MB boundary,
 * all advised: each 2 MB of it one fault. Freed with g_free(). */
gpointer afg_huge_alloc  (gsize    size);
/* afg_huge_alloc(), zeroed. */
gpointer afg_huge_alloc0 (gsize   size);

G_END_DECLS
