/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-document.h"

G_BEGIN_DECLS

/* The step strip's logic, free of GTK so that it is tested without a
 * display: which bar is under the pointer, which steps are slow, and the
 * range that clicks, shift-clicks, drags and arrow keys select. Steps are
 * named by their index in the document's sorted steps. */

/* A step is slow when it takes this many times the median step: the
 * page's rule (data/html/steps.js, AFG_SLOW_FACTOR), kept identical. */
#define AFG_STEP_SLOW_FACTOR 1.5

/* The selection: steps first..last, or the whole profile when first < 0.
 * The anchor is the step a shift-click or a drag extends from. */
typedef struct {
  int first;
  int last;
  int anchor;
} AfgStepRange;

/* The median step's duration as the page takes it: the lower middle of
 * the sorted durations; 0 with no steps. */
gint64   afg_step_median_ns      (const AfgStep *steps,
                                  guint          n_steps);
/* Whether step @index is slow: more than one step, a positive duration,
 * and at least AFG_STEP_SLOW_FACTOR times the median. */
gboolean afg_step_is_slow        (const AfgStep *steps,
                                  guint          n_steps,
                                  guint          index,
                                  gint64         median_ns);
/* The bar under @x on a strip @width wide of @n_steps equal bars, or -1
 * outside it. */
int      afg_step_index_at       (guint          n_steps,
                                  double         width,
                                  double         x);

void     afg_step_range_clear    (AfgStepRange  *range);
gboolean afg_step_range_is_all   (const AfgStepRange *range);
/* A click: step @index alone, and the anchor for what extends it. */
void     afg_step_range_select   (AfgStepRange  *range,
                                  int            index);
/* A shift-click or a drag to @index: anchor..index in either order. */
void     afg_step_range_extend   (AfgStepRange  *range,
                                  int            index);
/* An arrow key: moves the range's moving end by @delta within
 * 0..@n_steps-1; with @extend, the range grows from the anchor, otherwise
 * one step is selected. From the whole profile, Right picks the first step
 * and Left the last. */
void     afg_step_range_move     (AfgStepRange  *range,
                                  int            delta,
                                  guint          n_steps,
                                  gboolean       extend);

G_END_DECLS
