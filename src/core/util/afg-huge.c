/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "afg-huge.h"

#define HUGE_PAGE (2u << 20)
/* Below this a buffer faults in 4 kB pages: a huge page would hold
 * mostly nothing. */
#define MIN_HUGE (256u << 10)

/* glibc raises its mmap threshold as big blocks are freed (up to 32 MB)
 * and then carves them from its heaps and keeps them there once freed.
 * Pinned at 2 MB, every huge buffer is a mapping of its own, returned
 * when freed: for an export (5M rows: peak RSS 328 -> 250 MB, 5.7k ->
 * 3.8k faults). A window that rebuilds trees again and again is better
 * off reusing the heap's warm pages (a step's tree 14 ms instead of 24). */
void
afg_huge_init (void)
{
#ifdef M_MMAP_THRESHOLD
  mallopt (M_MMAP_THRESHOLD, HUGE_PAGE);
#endif
}

/* A whole number of huge pages on a huge-page boundary, advised: every
 * page of it faults in as a huge page. NULL when it cannot be had. */
static gpointer
alloc_huge_pages (gsize size)
{
  gsize rounded = (size + HUGE_PAGE - 1) & ~(gsize) (HUGE_PAGE - 1);
  void *mem = NULL;

  if (size < MIN_HUGE || rounded < size || posix_memalign (&mem, HUGE_PAGE, rounded) != 0)
    return NULL;
#ifdef MADV_HUGEPAGE
  madvise (mem, rounded, MADV_HUGEPAGE);  /* a hint: failure changes nothing */
#endif
  return mem;
}

gpointer
afg_huge_alloc (gsize size)
{
  gpointer mem = alloc_huge_pages (size);

  return mem != NULL ? mem : g_malloc (size);
}

gpointer
afg_huge_alloc0 (gsize size)
{
  gpointer mem = alloc_huge_pages (size);

  if (mem == NULL)
    return g_malloc0 (size);
  memset (mem, 0, size);
  return mem;
}

/* GString's fields are public: its buffer is swapped for one in huge
 * pages, which GLib then grows with g_realloc() and frees with g_free()
 * as its own. */
GString *
afg_huge_string_new (gsize reserved)
{
  GString *string = g_string_new (NULL);

  g_free (string->str);
  string->str = afg_huge_alloc (reserved + 1);
  string->str[0] = '\0';
  string->allocated_len = reserved + 1;
  return string;
}
