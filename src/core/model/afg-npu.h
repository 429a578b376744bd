/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-vec.h"

G_BEGIN_DECLS

/* The device side of a document: the TASK rows, and how much of their
 * time reached a host frame. */
typedef struct {
  guint64 tasks;           /* used TASK rows, linked or not */
  gint64  ns;              /* their device time (saturating) */
  guint64 unlinked_tasks;  /* used rows that reach no used PYTORCH_API row */
  gint64  unlinked_ns;
  guint64 skipped;         /* TASK rows without two integer times, end >= start */
} AfgNpuStats;

/* The device time launched by one event of a thread's store. */
typedef struct {
  guint64 event;  /* index in the thread's events, as the cursor counts them */
  gint64  ns;
  guint64 tasks;
} AfgNpuEntry;

/* Per thread of the event store, entries sorted by event index, one per
 * event at most. */
typedef struct {
  AfgNpuStats  stats;
  guint        n_threads;
  AfgVec      *threads;  /* AfgNpuEntry, n_threads of them */
} AfgNpuData;

AfgNpuData *afg_npu_data_new  (guint       n_threads);
void        afg_npu_data_free (AfgNpuData *self);
/* The entry of the event (@thread, @event): each thread's events in
 * ascending order, once each. */
void        afg_npu_data_add  (AfgNpuData *self,
                               guint       thread,
                               guint64     event,
                               gint64      ns,
                               guint64     tasks);

/* Room for @n entries of @thread, before the first add to it. */
void        afg_npu_data_reserve (AfgNpuData *self,
                                  guint       thread,
                                  gsize       n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgNpuData, afg_npu_data_free)

G_END_DECLS
