/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-huge.h"
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
