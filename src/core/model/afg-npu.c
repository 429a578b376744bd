/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-huge.h"
#include "afg-math.h"
#include "afg-npu.h"

AfgNpuData *
afg_npu_data_new (guint n_threads)
{
  AfgNpuData *self = g_new0 (AfgNpuData, 1);

  self->n_threads = n_threads;
  self->threads = g_new (GArray *, MAX (n_threads, 1));
  for (guint i = 0; i < n_threads; i++)
    self->threads[i] = g_array_new (FALSE, FALSE, sizeof (AfgNpuEntry));
  return self;
}

void
afg_npu_data_free (AfgNpuData *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_threads; i++)
    g_array_unref (self->threads[i]);
  g_free (self->threads);
  g_free (self);
}

void
afg_npu_data_reserve (AfgNpuData *self, guint thread, gsize n)
{
  g_return_if_fail (thread < self->n_threads && self->threads[thread]->len == 0);
  g_array_unref (self->threads[thread]);
  self->threads[thread] = afg_huge_array_new (sizeof (AfgNpuEntry), n);
}

void
afg_npu_data_add (AfgNpuData *self, guint thread, guint64 event, gint64 ns, guint64 tasks)
{
  AfgNpuEntry entry = { event, ns, tasks };

  g_return_if_fail (thread < self->n_threads);
  g_array_append_val (self->threads[thread], entry);
}

static int
compare_entries (gconstpointer a, gconstpointer b)
{
  guint64 ea = ((const AfgNpuEntry *) a)->event, eb = ((const AfgNpuEntry *) b)->event;

  return ea < eb ? -1 : ea > eb;
}

static void
merge_events (GArray *entries)
{
  guint kept = 0;

  g_array_sort (entries, compare_entries);
  for (guint i = 0; i < entries->len; i++)
    {
      AfgNpuEntry *e = &g_array_index (entries, AfgNpuEntry, i);
      AfgNpuEntry *last = kept > 0 ? &g_array_index (entries, AfgNpuEntry, kept - 1) : NULL;

      if (last != NULL && last->event == e->event)
        {
          last->ns = afg_sat_add (last->ns, e->ns);
          last->tasks += e->tasks;
        }
      else
        g_array_index (entries, AfgNpuEntry, kept++) = *e;
    }
  g_array_set_size (entries, kept);
}

void
afg_npu_data_seal (AfgNpuData *self)
{
  for (guint i = 0; i < self->n_threads; i++)
    merge_events (self->threads[i]);
}
