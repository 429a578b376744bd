/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-npu.h"

AfgNpuData *
afg_npu_data_new (guint n_threads)
{
  AfgNpuData *self = g_new0 (AfgNpuData, 1);

  self->n_threads = n_threads;
  self->threads = g_new0 (AfgVec, MAX (n_threads, 1));
  self->kind_threads = g_new0 (AfgVec, MAX (n_threads, 1));
  for (guint i = 0; i < n_threads; i++)
    {
      afg_vec_init (&self->threads[i], sizeof (AfgNpuEntry), 0);
      afg_vec_init (&self->kind_threads[i], sizeof (AfgNpuKindEntry), 0);
    }
  afg_vec_init (&self->kernels, sizeof (AfgNpuKernel), 0);
  return self;
}

void
afg_npu_data_free (AfgNpuData *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_threads; i++)
    {
      afg_vec_clear (&self->threads[i]);
      afg_vec_clear (&self->kind_threads[i]);
    }
  g_free (self->threads);
  g_free (self->kind_threads);
  afg_vec_clear (&self->kernels);
  g_free (self);
}

void
afg_npu_data_reserve (AfgNpuData *self, guint thread, gsize n)
{
  g_return_if_fail (thread < self->n_threads && self->threads[thread].len == 0);
  afg_vec_clear (&self->threads[thread]);
  afg_vec_init (&self->threads[thread], sizeof (AfgNpuEntry), n);
}

void
afg_npu_data_add (AfgNpuData *self, guint thread, guint64 event, gint64 ns, guint64 tasks)
{
  AfgNpuEntry entry = { event, ns, tasks };

  g_return_if_fail (thread < self->n_threads);
  AFG_VEC_APPEND (&self->threads[thread], AfgNpuEntry, entry);
}

void
afg_npu_data_reserve_kinds (AfgNpuData *self, guint thread, gsize n)
{
  g_return_if_fail (thread < self->n_threads && self->kind_threads[thread].len == 0);
  afg_vec_clear (&self->kind_threads[thread]);
  afg_vec_init (&self->kind_threads[thread], sizeof (AfgNpuKindEntry), n);
}

void
afg_npu_data_add_kinds (AfgNpuData *self, guint thread, const AfgNpuKindEntry *entry)
{
  g_return_if_fail (thread < self->n_threads);
  AFG_VEC_APPEND (&self->kind_threads[thread], AfgNpuKindEntry, *entry);
}
