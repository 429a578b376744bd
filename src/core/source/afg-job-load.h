/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-job-folder.h"
#include "afg-rank-summary.h"
#include "afg-tree.h"

G_BEGIN_DECLS

typedef enum {
  AFG_RANK_STATE_WAITING,
  AFG_RANK_STATE_READING,    /* the document is being read */
  AFG_RANK_STATE_SUMMING,    /* its trees are being built */
  AFG_RANK_STATE_DONE,
  AFG_RANK_STATE_FAILED,     /* the summary's error says why */
  AFG_RANK_STATE_CANCELLED,
} AfgRankState;

/* Called in a worker thread with each rank's tree, the one its totals are
 * taken from, before the tree is dropped; FALSE with @error fails the rank. */
typedef gboolean (*AfgJobTreeFunc) (const AfgJobRank *rank,
                                    guint             index,
                                    AfgTree          *tree,
                                    gpointer          data,
                                    GError          **error);

/* Called in a worker thread once a rank is DONE or FAILED: its summary
 * is complete and the worker no longer touches it. */
typedef void (*AfgJobSummaryFunc) (guint           index,
                                   AfgRankSummary *summary,
                                   gpointer        data);

typedef struct {
  AfgTreeFlags   tree_flags;
  gboolean       has_steps;    /* scope every rank to first_step..last_step */
  gint64         first_step;
  gint64         last_step;
  AfgJobTreeFunc use_tree;     /* or NULL */
  gpointer       use_tree_data;
  /* For a process that reads the job and exits (the CLI): the memory a
   * rank frees is kept for the next one's instead of going back to the
   * kernel, which saves the next rank's page faults (a third of the
   * job's CPU time) for a peak of about two ranks' memory. Sets malloc's
   * thresholds for the whole process. */
  gboolean       reuse_memory;
  gboolean       npu_idle;     /* every rank in its NPU-idle instants */
  AfgJobSummaryFunc summed_up; /* or NULL */
  gpointer       summed_up_data;
} AfgJobLoadOptions;

/* A job's ranks read in parallel, one document per core alive at a time;
 * of each rank only its AfgRankSummary is kept. */
typedef struct _AfgJobLoad AfgJobLoad;

/* Takes @folder, found under @folder_path. */
AfgJobLoad           *afg_job_load_new            (const char              *folder_path,
                                                   AfgJobFolder            *folder,
                                                   const AfgJobLoadOptions *options);
AfgJobLoad           *afg_job_load_ref            (AfgJobLoad              *self);
void                  afg_job_load_unref          (AfgJobLoad              *self);
const AfgJobFolder   *afg_job_load_get_folder     (AfgJobLoad              *self);
guint                 afg_job_load_get_n_ranks    (AfgJobLoad              *self);
/* Complete once the rank's state is DONE or FAILED. */
AfgRankSummary * const *afg_job_load_get_summaries (AfgJobLoad             *self);
/* Any thread; @rows and @total (an estimate, 0 when unknown) while READING. */
AfgRankState          afg_job_load_get_state      (AfgJobLoad              *self,
                                                   guint                    index,
                                                   guint64                 *rows,
                                                   guint64                 *total);
/* Reads every rank, blocking; ranks not started when @cancellable fires
 * are CANCELLED. Run it once. */
void                  afg_job_load_run            (AfgJobLoad              *self,
                                                   GCancellable            *cancellable);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgJobLoad, afg_job_load_unref)

G_END_DECLS
