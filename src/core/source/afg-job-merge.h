/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-job-folder.h"
#include "afg-tree.h"

G_BEGIN_DECLS

/* How a merge went; @read grows while it runs (atomically: a progress
 * poll on another thread reads it). */
typedef struct {
  guint read;     /* ranks done, merged or failed */
  guint merged;   /* ranks whose trees are in the result */
  guint failed;   /* ranks that could not be read in the scope asked for */
} AfgJobMergeCounts;

/* "All ranks" in a scope: every rank of @folder (found under
 * @folder_path) read again as the command line's job export reads it,
 * each in its NPU-idle instants (@npu_idle) of steps A–B (@has_steps,
 * @first, @last), their trees merged into one (afg-merged-tree.h) named
 * @folder_path. A rank that fails (no device tasks, no such steps) is
 * left out and counted. NULL with G_IO_ERROR_CANCELLED once @cancellable
 * fires, or AFG_JOB_ERROR_NO_RANK_READ (the first rank's reason) when
 * every rank failed. Blocks; reads the ranks in parallel. */
AfgTree *afg_job_merge_ranks (const char         *folder_path,
                              const AfgJobFolder *folder,
                              AfgTreeFlags        flags,
                              gboolean            has_steps,
                              gint64              first,
                              gint64              last,
                              gboolean            npu_idle,
                              AfgJobMergeCounts  *counts,
                              GCancellable       *cancellable,
                              GError            **error);

G_END_DECLS
