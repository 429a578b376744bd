/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-loader.h"
#include "afg-tree.h"

G_BEGIN_DECLS

typedef struct _AfgDiffSideLoad AfgDiffSideLoad;

/* Called on each side's own thread once its tree is built (or failed),
 * with @data: what the caller does to each side, on both cores. */
typedef void (*AfgDiffSideFunc) (AfgDiffSideLoad *side,
                                 gpointer         data);

/* How each side of a diff of two DBs is built: the same for both. */
typedef struct {
  AfgTreeFlags        flags;
  gboolean            has_steps;   /* steps first_step..last_step only */
  gint64              first_step;
  gint64              last_step;
  gboolean            npu_idle;    /* the NPU-idle instants (of those steps) */
  AfgLoadProgressFunc progress;    /* or NULL: called with progress_data[side] */
  gpointer            progress_data[2];
  AfgDiffSideFunc     finish;      /* or NULL: called with finish_data */
  gpointer            finish_data;
} AfgDiffLoadOptions;

/* One side once read: @tree, or @error (and @document when the DB was
 * read but its tree could not be built). */
struct _AfgDiffSideLoad {
  AfgDocument *document;
  AfgTree     *tree;
  GError      *error;
};

/* Reads A (@paths[0]) on this thread and B (@paths[1]) on one of its own,
 * both cores at once, builds each side's tree as @options say, then runs
 * @options->finish on it there (the caller's transforms). */
void afg_diff_load            (const char * const        paths[2],
                               const AfgDiffLoadOptions *options,
                               GCancellable             *cancellable,
                               AfgDiffSideLoad           sides[2]);
void afg_diff_side_load_clear (AfgDiffSideLoad          *side);

G_END_DECLS
