/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-loader.h"
#include "afg-tree.h"

G_BEGIN_DECLS

/* How each side of a diff of two DBs is built: the same for both. */
typedef struct {
  AfgTreeFlags        flags;
  gboolean            has_steps;   /* steps first_step..last_step only */
  gint64              first_step;
  gint64              last_step;
  gboolean            npu_idle;    /* the NPU-idle instants (of those steps) */
  AfgLoadProgressFunc progress;    /* or NULL: called with progress_data[side] */
  gpointer            progress_data[2];
} AfgDiffLoadOptions;

/* One side once read: @tree, or @error (and @document when the DB was
 * read but its tree could not be built). */
typedef struct {
  AfgDocument *document;
  AfgTree     *tree;
  GError      *error;
} AfgDiffSideLoad;

/* Reads A (@paths[0]) on this thread and B (@paths[1]) on one of its own,
 * both cores at once, and builds each side's tree as @options say; the
 * caller applies any transforms. */
void afg_diff_load            (const char * const        paths[2],
                               const AfgDiffLoadOptions *options,
                               GCancellable             *cancellable,
                               AfgDiffSideLoad           sides[2]);
void afg_diff_side_load_clear (AfgDiffSideLoad          *side);

G_END_DECLS
