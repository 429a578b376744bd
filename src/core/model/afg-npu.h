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

/* The device work of the whole DB by kind (afg-task-kinds.h): the
 * summary's figures. */
typedef struct {
  gint64  compute_ns;      /* compute tasks (saturating) */
  guint64 compute_tasks;
  gint64  comm_ns;         /* collectives, each with its own duration */
  guint64 comm_ops;
  gint64  exposed_ns;      /* the part of them not hidden behind compute */
  gint64  other_ns;        /* tasks neither compute nor communication */
  guint64 other_tasks;
} AfgNpuKindStats;

/* One kernel leaf of an event: its compute tasks or collectives of one
 * name. Kind as AfgTaskKind (afg-task-kinds.h): compute or communication. */
typedef struct {
  guint32 name;        /* string index */
  guint32 kind;
  guint64 count;
  gint64  ns;
  gint64  exposed_ns;  /* 0 for compute */
} AfgNpuKernel;

/* The compute tasks and collectives launched by one event, when it
 * launched any: its leaves, whose sums are its compute time and tasks,
 * collective time and ops and exposed time (one copy of each figure: a
 * 5M-row profile has over a million such events). */
typedef struct {
  guint64 event;
  guint32 first_kernel;  /* its leaves in AfgNpuData.kernels */
  guint32 n_kernels;
} AfgNpuKindEntry;

/* Per thread of the event store, entries sorted by event index, one per
 * event at most. */
typedef struct {
  AfgNpuStats      stats;
  guint            n_threads;
  AfgVec          *threads;       /* AfgNpuEntry, n_threads of them */
  AfgNpuKindStats  kind_stats;
  AfgVec          *kind_threads;  /* AfgNpuKindEntry, n_threads of them */
  AfgVec           kernels;       /* AfgNpuKernel, by row, each row's by kind and name index */
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

/* The kinds' entry of the event (@thread, @event), as afg_npu_data_add(). */
/* Room for @n kinds' entries of @thread, before the first. */
void        afg_npu_data_reserve_kinds (AfgNpuData *self,
                                        guint       thread,
                                        gsize       n);
void        afg_npu_data_add_kinds (AfgNpuData      *self,
                                    guint            thread,
                                    const AfgNpuKindEntry *entry);

/* Room for @n entries of @thread, before the first add to it. */
void        afg_npu_data_reserve (AfgNpuData *self,
                                  guint       thread,
                                  gsize       n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgNpuData, afg_npu_data_free)

G_END_DECLS
