/* SPDX-License-Identifier: MIT */
/* afg-huge.h: huge buffers are whole 2 MB pages on a 2 MB boundary; with
 * the pool on, a freed one goes to the next request of its size (zeroed
 * when asked), never to two takers at once, and the pool holds at most
 * its cap and empties itself when a request finds nothing in it. Once the
 * heap is advised, small blocks, a thread's too, come from ranges the
 * kernel may back with huge pages. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "afg-huge.h"

#define MB (1u << 20)
#define HUGE_PAGE (2 * MB)

/* A request nothing in the pool fits empties it. */
static void
empty_pool (void)
{
  g_free (afg_huge_alloc (30 * MB));
  g_assert_cmpuint (afg_huge_pooled (), ==, 0);
}

static void
test_huge_round (void)
{
  g_assert_cmpuint (afg_huge_round (100), ==, 100);
  g_assert_cmpuint (afg_huge_round (256 * 1024 - 1), ==, 256 * 1024 - 1);
  g_assert_cmpuint (afg_huge_round (256 * 1024), ==, HUGE_PAGE);
  g_assert_cmpuint (afg_huge_round (HUGE_PAGE), ==, HUGE_PAGE);
  g_assert_cmpuint (afg_huge_round (HUGE_PAGE + 1), ==, 2 * HUGE_PAGE);
  g_assert_cmpuint (afg_huge_round (G_MAXSIZE - 5), ==, G_MAXSIZE - 5);  /* no wrap */
}

static void
test_huge_aligned (void)
{
  gsize sizes[] = { 300 * 1024, 3 * MB, 4 * MB };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      guint8 *mem = afg_huge_alloc (sizes[i]);

      g_assert_cmpuint ((guintptr) mem % HUGE_PAGE, ==, 0);
      memset (mem, 0xa5, afg_huge_round (sizes[i]));  /* all of it is ours */
      afg_huge_free (mem, sizes[i]);
    }
}

static void
test_huge_pool_reuses (void)
{
  guint8 *a, *b, *c;

  empty_pool ();
  a = afg_huge_alloc (3 * MB);
  memset (a, 0x5a, 4 * MB);
  afg_huge_free (a, 3 * MB);
  g_assert_cmpuint (afg_huge_pooled (), ==, 4 * MB);
  b = afg_huge_alloc (4 * MB);  /* the same rounded size */
  g_assert_true (b == a);
  g_assert_cmpuint (afg_huge_pooled (), ==, 0);
  afg_huge_free (b, 4 * MB);
  c = afg_huge_alloc0 (4 * MB - 7);
  g_assert_true (c == a);
  for (gsize i = 0; i < 4 * MB - 7; i++)
    if (c[i] != 0)
      g_error ("byte %" G_GSIZE_FORMAT " of a zeroed buffer from the pool is %u", i, c[i]);
  afg_huge_free (c, 4 * MB - 7);
  /* Nothing of 6 MB: the pool is emptied, not left holding 4 MB. */
  b = afg_huge_alloc (6 * MB);
  g_assert_cmpuint (afg_huge_pooled (), ==, 0);
  afg_huge_free (b, 6 * MB);
  g_assert_cmpuint (afg_huge_pooled (), ==, 6 * MB);
  g_free (afg_huge_alloc (HUGE_PAGE));  /* a miss: empties it */
  g_assert_cmpuint (afg_huge_pooled (), ==, 0);
}

/* Small buffers are plain ones; past the cap the rest is freed. */
static void
test_huge_pool_cap (void)
{
  guint8 *small = afg_huge_alloc (1000), *blocks[30];
  gsize held = 0;

  empty_pool ();
  afg_huge_free (small, 1000);
  g_assert_cmpuint (afg_huge_pooled (), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    blocks[i] = afg_huge_alloc (4 * MB);
  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    {
      afg_huge_free (blocks[i], 4 * MB);
      g_assert_cmpuint (afg_huge_pooled (), >=, held);
      held = afg_huge_pooled ();
    }
  g_assert_cmpuint (held, >, 0);
  g_assert_cmpuint (held, <=, 96 * MB);
  g_assert_cmpuint (held, <, G_N_ELEMENTS (blocks) * 4 * MB);
  g_free (afg_huge_alloc (10 * MB));  /* empties it */
  g_assert_cmpuint (afg_huge_pooled (), ==, 0);
}

typedef struct {
  guint8 id;
  gint   failures;
} Worker;

/* Each round every page of a buffer gets the worker's byte, is read back and
 * freed: a buffer handed to two workers at once shows the other's byte.
 * One byte a page, few rounds: page faults, not the check, cost the time. */
static gpointer
churn (gpointer data)
{
  Worker *w = data;

  for (guint round = 0; round < 60; round++)
    {
      gsize size = (round % 3 + 1) * HUGE_PAGE;
      guint8 *mem = afg_huge_alloc (size);

      for (gsize i = 0; i < size; i += 4096)
        mem[i] = w->id;
      g_thread_yield ();
      for (gsize i = 0; i < size; i += 4096)
        if (mem[i] != w->id)
          w->failures++;
      afg_huge_free (mem, size);
    }
  return NULL;
}

static void
test_huge_pool_threads (void)
{
  Worker workers[4];
  GThread *threads[4];

  for (guint i = 0; i < 4; i++)
    {
      workers[i] = (Worker) { (guint8) (i + 1), 0 };
      threads[i] = g_thread_new ("churn", churn, &workers[i]);
    }
  for (guint i = 0; i < 4; i++)
    {
      g_thread_join (threads[i]);
      g_assert_cmpint (workers[i].failures, ==, 0);
    }
}

/* Whether @p lies in a mapping advised for huge pages ("hg" in its
 * VmFlags in /proc/self/smaps). */
static gboolean
in_advised_range (gconstpointer p)
{
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean inside = FALSE;

  g_assert_true (g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL));
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 lo, hi;

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x ", &lo, &hi) == 2)
        inside = (guintptr) p >= lo && (guintptr) p < hi;
      else if (inside && g_str_has_prefix (lines[i], "VmFlags:"))
        return strstr (lines[i], " hg") != NULL;
    }
  return FALSE;
}

static gpointer
small_block (gpointer unused)
{
  return malloc (256 * 1024);
}

/* Of 16 small blocks (4 MB, within the 8 MB the heap grows by), those
 * past the heap's old top and its first, partial 2 MB are in the advised
 * range (a quarter at least); so is one a thread allocates (one arena for all).
 * In a process of its own: threads started before the advice keep arenas
 * of their own, as the other tests' threads would here. */
static void
test_huge_advise_heap (void)
{
  gpointer blocks[16];
  guint advised = 0;
  GThread *thread;
  gpointer from_thread;

  /* Skipped here, not in the subprocess: a skipped child counts as failed. */
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer's allocator is not glibc's heap");
  return;
#endif
  if (!g_file_test ("/proc/self/smaps", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /proc/self/smaps");
      return;
    }
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }
  afg_huge_advise_heap ();
  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    {
      blocks[i] = malloc (256 * 1024);
      advised += in_advised_range (blocks[i]);
    }
  g_assert_cmpuint (advised, >=, 4);
  thread = g_thread_new ("small", small_block, NULL);
  from_thread = g_thread_join (thread);
  g_assert_true (in_advised_range (from_thread));
  free (from_thread);
  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    free (blocks[i]);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  afg_huge_init ();
  g_test_add_func ("/huge/round", test_huge_round);
  g_test_add_func ("/huge/aligned", test_huge_aligned);
  g_test_add_func ("/huge/pool-reuses", test_huge_pool_reuses);
  g_test_add_func ("/huge/pool-cap", test_huge_pool_cap);
  g_test_add_func ("/huge/pool-threads", test_huge_pool_threads);
  g_test_add_func ("/huge/advise-heap", test_huge_advise_heap);
  return g_test_run ();
}
