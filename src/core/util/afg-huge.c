/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "afg-huge.h"

#define HUGE_PAGE (2u << 20)
#define MIN_ADVISED HUGE_PAGE
/* Below this a buffer faults in 4 kB pages: a huge page would hold
 * mostly nothing. */
#define MIN_HUGE (512u << 10)

void
afg_huge_advise (gpointer mem, gsize size)
{
#ifdef MADV_HUGEPAGE
  guintptr start = ((guintptr) mem + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1);
  guintptr end = ((guintptr) mem + size) & ~(guintptr) (HUGE_PAGE - 1);

  if (mem != NULL && size >= MIN_ADVISED && end > start)
    madvise ((void *) start, end - start, MADV_HUGEPAGE);  /* a hint: failure changes nothing */
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
