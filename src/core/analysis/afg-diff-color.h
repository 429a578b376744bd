/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-palette.h"

G_BEGIN_DECLS

/* How the two sides are made comparable before they are subtracted. */
typedef enum {
  AFG_DIFF_NORM_RAW,           /* the nanoseconds as measured */
  AFG_DIFF_NORM_PER_STEP,      /* each side ÷ its step count (1 without steps) */
  AFG_DIFF_NORM_EQUAL_TOTALS,  /* A scaled to B's total, like difffolded -n */
} AfgDiffNorm;

typedef enum {
  AFG_DIFF_SAME,     /* a change under the noise floor (or none): grey */
  AFG_DIFF_GREW,     /* red */
  AFG_DIFF_SHRANK,   /* blue */
  AFG_DIFF_ONLY_A,   /* gone in B: its own hue */
  AFG_DIFF_ONLY_B,   /* new in B: its own hue */
} AfgDiffKind;

/* A change counts when |Δ| ≥ min_ns AND |Δ| ≥ min_percent of A (any
 * change from A = 0 passes the percent test). */
typedef struct {
  double min_ns;
  double min_percent;
} AfgDiffNoise;

#define AFG_DIFF_DEFAULT_MIN_NS      100000.0   /* 0.1 ms */
#define AFG_DIFF_DEFAULT_MIN_PERCENT 5.0
/* Saturation grows with |Δ%| up to this change, then stays. */
#define AFG_DIFF_SATURATION_CAP_PERCENT 100.0

/* The factors each side's nanoseconds are multiplied by. */
void        afg_diff_norm_scales (AfgDiffNorm         norm,
                                  gint64              a_total_ns,
                                  gint64              b_total_ns,
                                  guint               a_steps,
                                  guint               b_steps,
                                  double             *a_scale,
                                  double             *b_scale);
/* The values a frame's colour compares: @a and @b, those of the colour
 * column (normalised), unless their change is under the floor while the
 * frame's total changed past it (a frame whose total moved is never
 * grey): then the totals. */
void        afg_diff_compared    (double             *a,
                                  double             *b,
                                  double              a_total,
                                  double              b_total,
                                  const AfgDiffNoise *noise);
/* @a and @b are the (normalised) values compared; a side is present
 * when its frame exists there (it has calls). */
AfgDiffKind afg_diff_classify    (double              a,
                                  double              b,
                                  gboolean            a_present,
                                  gboolean            b_present,
                                  const AfgDiffNoise *noise);
/* The colour of a frame: the window and the page use this one rule. */
void        afg_diff_hsl         (double              a,
                                  double              b,
                                  gboolean            a_present,
                                  gboolean            b_present,
                                  const AfgDiffNoise *noise,
                                  AfgFlameHsl        *hsl);
void        afg_diff_color       (double              a,
                                  double              b,
                                  gboolean            a_present,
                                  gboolean            b_present,
                                  const AfgDiffNoise *noise,
                                  AfgFlameColor      *color);
/* The colour's key for the legend, with saturation for a full change. */
void        afg_diff_kind_hsl    (AfgDiffKind         kind,
                                  AfgFlameHsl        *hsl);

G_END_DECLS
