/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-transform-list.h"
#include "afg-writers.h"

G_BEGIN_DECLS

typedef struct {
  const char *output;     /* NULL: the current directory */
  AfgFormat   format;     /* html, json or folded */
  gboolean    merge_addresses;
  gboolean    has_steps;  /* the same steps on both sides */
  gint64      first_step;
  gint64      last_step;
  gboolean    quiet;
  AfgWeight   weight;     /* what the a/b values weigh */
  gboolean    npu_idle;   /* both sides in their NPU-idle instants */
  const AfgTransformList *transforms;  /* applied to both sides; NULL: none */
} AfgCliDiffOptions;

/* --diff A B --export: both DBs loaded in parallel (one per core), their
 * difference written to OUT/flamegraph-diff.{html,json,folded}; returns
 * the exit status. */
int afg_cli_diff_export (const char              *a,
                         const char              *b,
                         const AfgCliDiffOptions *opts);

G_END_DECLS
