/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "afg-huge.h"

#define HUGE_PAGE (2u << 20)
/* Below this a buffer faults in 4 kB pages: a huge page would hold
 * mostly nothing. */
#define MIN_HUGE (256u << 10)
/* What the pool may hold: most of what a 1M-row export frees and asks
 * for again, in buffers of a few sizes; in a job, most of what one rank
 * leaves for the next, so that the next rank faults in few new pages. It
 * does not raise the peak: a request it cannot serve empties it first. */
#define POOL_MAX_BYTES (96u << 20)
#define POOL_SLOTS 48
/* How far glibc's heap grows at once after afg_huge_advise_heap(): about
 * what a profile's string table and the small arrays of its first phase
 * take. More costs memory, which a start after a pause pays for (1.4-1.8
 * ms per MB): any byte touched makes its 2 MB resident, so a bigger pad
 * raises the peak and slows a cold start more than it saves. */
#define HEAP_PAD (8u << 20)
/* Synchronous collapse into a huge page (Linux 6.1); an older kernel
 * refuses it, which costs one 2 MB range its huge page. */
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

/* Freed huge buffers kept for the next request of the same rounded size:
 * their pages are already faulted in. A page that is new to the process
 * costs 1.4-1.8 ms/MB on these VMs once the host has taken it back, one
 * it reuses nothing. Off until afg_huge_init() (the window's heap reuse
 * does the same for it). */
typedef struct {
  gpointer mem;
  gsize    size;
} Pooled;

static GMutex pool_lock;
static gboolean pool_on;
static Pooled pool[POOL_SLOTS];
static guint pool_len;
static gsize pool_bytes;

/* glibc raises its mmap threshold as big blocks are freed (up to 32 MB)
 * and then carves them from its heaps and keeps them there once freed.
 * Pinned at 2 MB, every huge buffer is a mapping of its own, returned
 * when freed: an export's peak RSS then holds only live buffers, and
 * fewer pages fault. A window that rebuilds trees again and again is
 * better off reusing the heap's warm pages: a step's tree builds faster. */
void
afg_huge_init (void)
{
#ifdef M_MMAP_THRESHOLD
  mallopt (M_MMAP_THRESHOLD, HUGE_PAGE);
#endif
  /* Pinning the mmap threshold leaves the trim threshold at 128 kB: the
   * heaps would give back and fault in again the same pages, a fifth of
   * an export's faults. */
#ifdef M_TRIM_THRESHOLD
  mallopt (M_TRIM_THRESHOLD, 64 << 20);
#endif
  g_mutex_lock (&pool_lock);
  pool_on = TRUE;
  g_mutex_unlock (&pool_lock);
}

static inline guintptr
align_down (gconstpointer p)
{
  return (guintptr) p & ~(guintptr) (HUGE_PAGE - 1);
}

void
afg_huge_advise_heap (void)
{
#if defined(M_ARENA_MAX) && defined(M_TOP_PAD) && defined(MADV_HUGEPAGE)
  char *start, *end, *top;
  char * volatile grow;  /* volatile: a block freed at once is optimised out */
  guintptr first, last;

  mallopt (M_ARENA_MAX, 1);
  mallopt (M_TOP_PAD, HEAP_PAD);
  start = sbrk (0);
  if ((grow = malloc (HUGE_PAGE / 2)) == NULL)
    return;
  top = grow + HUGE_PAGE / 2;  /* the header glibc wrote past the block */
  free (grow);
  end = sbrk (0);
  first = align_down (start + HUGE_PAGE - 1);
  last = align_down (end);
  if (start == (char *) -1 || end == (char *) -1 || last <= first)
    return;
  madvise ((void *) first, last - first, MADV_HUGEPAGE);  /* hints: failures change nothing */
  if (align_down (top) >= first && align_down (top) < last)
    madvise ((void *) align_down (top), HUGE_PAGE, MADV_COLLAPSE);
#endif
}

static gsize
rounded_size (gsize size)
{
  return (size + HUGE_PAGE - 1) & ~(gsize) (HUGE_PAGE - 1);
}

gsize
afg_huge_pooled (void)
{
  gsize bytes;

  g_mutex_lock (&pool_lock);
  bytes = pool_bytes;
  g_mutex_unlock (&pool_lock);
  return bytes;
}

gsize
afg_huge_round (gsize size)
{
  gsize rounded = rounded_size (size);

  return size >= MIN_HUGE && rounded >= size ? rounded : size;
}

/* The most recently freed buffer of @size (rounded), or NULL. On a miss
 * the pool is emptied first: the buffers it holds have no taker, and
 * freed just before new pages are asked for, they are what the kernel
 * most likely hands back, still backed by the host. */
static gpointer
pool_take (gsize size)
{
  Pooled drained[POOL_SLOTS];
  guint n_drained = 0;
  gpointer mem = NULL;

  g_mutex_lock (&pool_lock);
  for (guint i = pool_len; i-- > 0;)
    if (pool[i].size == size)
      {
        mem = pool[i].mem;
        pool_bytes -= size;
        pool[i] = pool[--pool_len];
        break;
      }
  if (mem == NULL)
    {
      memcpy (drained, pool, pool_len * sizeof (Pooled));
      n_drained = pool_len;
      pool_len = 0;
      pool_bytes = 0;
    }
  g_mutex_unlock (&pool_lock);
  for (guint i = 0; i < n_drained; i++)
    g_free (drained[i].mem);
  return mem;
}

static gboolean
pool_put (gpointer mem, gsize size)
{
  gboolean kept = FALSE;

  g_mutex_lock (&pool_lock);
  if (pool_on && pool_len < POOL_SLOTS && pool_bytes + size <= POOL_MAX_BYTES)
    {
      pool[pool_len++] = (Pooled) { mem, size };
      pool_bytes += size;
      kept = TRUE;
    }
  g_mutex_unlock (&pool_lock);
  return kept;
}

/* A whole number of huge pages on a huge-page boundary, advised: every
 * page of it faults in as a huge page. NULL when it cannot be had. */
static gpointer
alloc_huge_pages (gsize size)
{
  gsize rounded = rounded_size (size);
  void *mem = NULL;

  if (size < MIN_HUGE)
    return NULL;
  if (rounded < size)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
  if ((mem = pool_take (rounded)) != NULL)
    return mem;
  /* Not g_malloc() in its stead: a huge buffer is then exactly its
   * rounded size, which afg_huge_free() relies on. */
  if (posix_memalign (&mem, HUGE_PAGE, rounded) != 0)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
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

void
afg_huge_free (gpointer mem, gsize size)
{
  if (mem != NULL && (size < MIN_HUGE || !pool_put (mem, rounded_size (size))))
    g_free (mem);
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
