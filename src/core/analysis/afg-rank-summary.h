/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-device-timeline.h"
#include "afg-tree.h"

G_BEGIN_DECLS

typedef struct _AfgJobCollectives AfgJobCollectives;

/* The frames of the index page's ranks × frames table. */
#define AFG_RANK_MAX_VARYING_FRAMES 20

typedef struct {
  gint64 id;
  gint64 host_ns;   /* the root total of the tree scoped to this step */
  gint64 npu_ns;
  AfgDeviceSplit device;  /* the device timeline's split of the step's window */
} AfgRankStep;

/* A usable COMMUNICATION_OP row with a groupName string. */
typedef struct {
  const char *group;  /* in the summary's names */
  const char *op;     /* NULL when opName has no string (a NULL id) */
  gint64      ns;
} AfgRankCollective;

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
  gboolean    has_device; /* the DB has a device timeline: device and the steps' hold */
  AfgDeviceSplit device; /* summed over steps */
  gint64      comm_ns;   /* every usable COMMUNICATION_OP row's duration, whatever the scope */
  GArray     *collectives; /* AfgRankCollective, in rowid order, whatever the scope */
  GStringChunk *names;   /* the collectives' strings */
} AfgRankSummary;

/* @file: the DB as ranks.json shows it (relative to the job, printable). */
AfgRankSummary *afg_rank_summary_new        (int               rank,
                                             const char       *file);
void            afg_rank_summary_free       (AfgRankSummary   *self);
/* The collectives and comm_ns, from every COMMUNICATION_OP row of
 * @document whatever the scope: a rank whose scope fails (no such step)
 * still takes part in the job's matching. */
void            afg_rank_summary_fill_collectives (AfgRankSummary *self,
                                             const AfgDocument *document);
/* The rest from @tree, the exported one, and its document: rows,
 * threads, host_ns and npu_ns of the tree; each step within its scope as
 * the tree scoped to that step would total it; the frames' totals with
 * addresses merged, as a tree built with AFG_TREE_MERGE_ADDRESSES has
 * them in its function table. No other tree is built. */
void            afg_rank_summary_fill       (AfgRankSummary   *self,
                                             const AfgTree    *tree);
/* Adds a collective of @group (not NULL) and @op (NULL: no string). */
void            afg_rank_summary_add_collective (AfgRankSummary *self,
                                             const char       *group,
                                             const char       *op,
                                             gint64            ns);

/* The figures a job's ranks are compared by. */
typedef struct {
  AfgJobCollectives *collectives; /* who waited for whom */
  char    **frames;           /* NULL-terminated: the names that vary most */
} AfgJobFigures;

AfgJobFigures  *afg_job_figures_new         (AfgRankSummary * const *ranks,
                                             guint                   n);
void            afg_job_figures_free        (AfgJobFigures          *self);
typedef struct {
  const char *name;
  gint64      spread;   /* max - min of its totals over the ranks read */
} AfgFrameSpread;

/* By spread, the largest first, then by name: the index's frames table. */
void            afg_frame_spreads_sort      (GArray                 *spreads);
/* A frame's total on a rank, 0 when the rank has no such frame. */
gint64          afg_rank_summary_frame_ns   (const AfgRankSummary   *self,
                                             const char             *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgRankSummary, afg_rank_summary_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgJobFigures, afg_job_figures_free)

G_END_DECLS
