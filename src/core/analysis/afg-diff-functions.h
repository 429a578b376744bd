/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-diff-shape.h"

G_BEGIN_DECLS

/* One distinct frame name of a diff, each side's sums as the function
 * table sums a profile's (afg-function-table.h): calls and self time
 * over its frames, total time over its outermost frames (recursion
 * counted once), indexed by AfgDiffSide. */
typedef struct {
  guint32     name;   /* string index in the diff's document */
  AfgCategory category;
  gint64      calls[2];
  gint64      self_ns[2];
  gint64      total_ns[2];
} AfgDiffFunction;

/* The functions of a diff, immutable, ordered by |Δ self| descending
 * (B − A), then by name in byte order. */
typedef struct _AfgDiffFunctions AfgDiffFunctions;

AfgDiffFunctions      *afg_diff_functions_new      (AfgDiffShape           *shape);
void                   afg_diff_functions_unref    (AfgDiffFunctions       *self);
guint                  afg_diff_functions_get_n    (const AfgDiffFunctions *self);
const AfgDiffFunction *afg_diff_functions_get      (const AfgDiffFunctions *self,
                                                    guint                   index);
const char            *afg_diff_functions_get_name (const AfgDiffFunctions *self,
                                                    guint                   index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgDiffFunctions, afg_diff_functions_unref)

G_END_DECLS
