/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <sys/mman.h>

#include "afg-huge.h"

#define HUGE_PAGE (2u << 20)
#define MIN_ADVISED HUGE_PAGE

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

gpointer
afg_huge_alloc (gsize size)
{
  gpointer mem = g_malloc (size);

  afg_huge_advise (mem, size);
  return mem;
}

gpointer
afg_huge_alloc_aligned (gsize size)
{
  void *mem = NULL;

  if (size < HUGE_PAGE || posix_memalign (&mem, HUGE_PAGE, size) != 0)
    return afg_huge_alloc (size);
  afg_huge_advise (mem, size);
  return mem;
}

gpointer
afg_huge_alloc0 (gsize size)
{
  gpointer mem = g_malloc0 (size);

  afg_huge_advise (mem, size);
  return mem;
}

GArray *
afg_huge_array_new (guint element_size, gsize reserved)
{
  GArray *array = g_array_sized_new (FALSE, FALSE, element_size, (guint) MIN (reserved, G_MAXUINT / 2 / element_size));

  afg_huge_advise (array->data, (gsize) element_size * MIN (reserved, G_MAXUINT / 2 / element_size));
  return array;
}
