/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* A rank whose mean step time is more than this far from the median's. */
#define AFG_RANK_STRAGGLER_FRACTION 0.05
/* The frames of the index page's ranks × frames table. */
#define AFG_RANK_MAX_VARYING_FRAMES 20

typedef struct {
  gint64 id;
  gint64 host_ns;   /* the root total of the tree scoped to this step */
  gint64 npu_ns;
} AfgRankStep;

/* What is kept of a rank once its document is dropped. */
typedef struct {
  int         rank;
  char       *file;      /* relative to the job folder, printable */
  guint64     rows;      /* PYTORCH_API rows read */
  guint       threads;
  gint64      host_ns;   /* the root total of the exported tree */
  gint64      npu_ns;
  GArray     *steps;     /* AfgRankStep, within --steps */
  GHashTable *frames;    /* address-merged name -> gint64 * total_ns (recursion once) */
  char       *error;     /* NULL, or why the rank could not be read */
} AfgRankSummary;

/* @file: the DB as ranks.json shows it (relative to the job, printable). */
AfgRankSummary *afg_rank_summary_new        (int               rank,
                                             const char       *file);
void            afg_rank_summary_free       (AfgRankSummary   *self);
/* Everything from @tree, the exported one, and its document: rows,
 * threads, host_ns and npu_ns of the tree; each step within its scope as
 * the tree scoped to that step would total it; the frames' totals with
 * addresses merged, as a tree built with AFG_TREE_MERGE_ADDRESSES has
 * them in its function table. No other tree is built. */
void            afg_rank_summary_fill       (AfgRankSummary   *self,
                                             const AfgTree    *tree);
/* The mean of the steps' host_ns; FALSE when the rank has no step or failed. */
gboolean        afg_rank_summary_mean_step  (const AfgRankSummary *self,
                                             double               *mean);

/* The figures a job's ranks are compared by. */
typedef struct {
  gboolean  has_median;
  double    median_step_ns;   /* median of the ranks' mean step times */
  gboolean *judged;           /* per rank: read, with steps */
  double   *deviation;        /* per rank: (mean - median) / median when judged */
  gboolean *straggler;        /* per rank: |deviation| > AFG_RANK_STRAGGLER_FRACTION */
  char    **frames;           /* NULL-terminated: the names that vary most */
} AfgJobFigures;

AfgJobFigures  *afg_job_figures_new         (AfgRankSummary * const *ranks,
                                             guint                   n);
void            afg_job_figures_free        (AfgJobFigures          *self);
/* A frame's total on a rank, 0 when the rank has no such frame. */
gint64          afg_rank_summary_frame_ns   (const AfgRankSummary   *self,
                                             const char             *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgRankSummary, afg_rank_summary_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgJobFigures, afg_job_figures_free)

G_END_DECLS
