/* SPDX-License-Identifier: MIT */
#include "config.h"



#include "afg-diff-color.h"

#define HUE_GREW    0
#define HUE_SHRANK  220
#define HUE_ONLY_A  175
#define HUE_ONLY_B  285
#define GREY_LIGHTNESS 80
#define CHANGE_LIGHTNESS 62
#define MAX_SATURATION 90
/* The weakest change over the floor is still told from grey. */
#define MIN_SATURATION 15

void
afg_diff_norm_scales (AfgDiffNorm norm, gint64 a_total_ns, gint64 b_total_ns,
                      guint a_steps, guint b_steps, double *a_scale, double *b_scale)
{
  *a_scale = 1.0;
  *b_scale = 1.0;
  if (norm == AFG_DIFF_NORM_PER_STEP)
    {
      *a_scale = 1.0 / MAX (a_steps, 1);
      *b_scale = 1.0 / MAX (b_steps, 1);
    }
  else if (norm == AFG_DIFF_NORM_EQUAL_TOTALS && a_total_ns > 0)
    *a_scale = (double) b_total_ns / a_total_ns;
}

static gboolean
under_noise_floor (double a, double b, const AfgDiffNoise *noise)
{
  double delta = ABS (b - a);

  if (delta == 0 || delta < noise->min_ns)
    return TRUE;
  return a > 0 && delta * 100.0 < noise->min_percent * a;
}

/* Colouring by self time alone painted a step that lost three quarters
 * of its time all grey: each frame's own time moved by less than the
 * floor although the frames' totals moved by far more. */
void
afg_diff_compared (double *a, double *b, double a_total, double b_total, const AfgDiffNoise *noise)
{
  if (under_noise_floor (*a, *b, noise) && !under_noise_floor (a_total, b_total, noise))
    {
      *a = a_total;
      *b = b_total;
    }
}

/* The floor comes first: a frame of one call in B and none in A is "new",
 * but it does not glow unless it is also a change worth seeing. */
AfgDiffKind
afg_diff_classify (double a, double b, gboolean a_present, gboolean b_present,
                   const AfgDiffNoise *noise)
{
  if (under_noise_floor (a, b, noise))
    return AFG_DIFF_SAME;
  if (!a_present)
    return AFG_DIFF_ONLY_B;
  if (!b_present)
    return AFG_DIFF_ONLY_A;
  return b > a ? AFG_DIFF_GREW : AFG_DIFF_SHRANK;
}

static guint
change_saturation (double a, double b)
{
  double percent = a > 0 ? ABS (b - a) * 100.0 / a : AFG_DIFF_SATURATION_CAP_PERCENT;
  double share = MIN (percent, AFG_DIFF_SATURATION_CAP_PERCENT) / AFG_DIFF_SATURATION_CAP_PERCENT;

  return MAX (MIN_SATURATION, (guint) (MAX_SATURATION * share + 0.5));
}

void
afg_diff_kind_hsl (AfgDiffKind kind, AfgFlameHsl *hsl)
{
  static const guint hues[] = {
    [AFG_DIFF_GREW] = HUE_GREW, [AFG_DIFF_SHRANK] = HUE_SHRANK,
    [AFG_DIFF_ONLY_A] = HUE_ONLY_A, [AFG_DIFF_ONLY_B] = HUE_ONLY_B,
  };

  if (kind == AFG_DIFF_SAME)
    *hsl = (AfgFlameHsl) { 0, 0, GREY_LIGHTNESS };
  else
    *hsl = (AfgFlameHsl) { hues[kind], MAX_SATURATION, CHANGE_LIGHTNESS };
}

void
afg_diff_hsl (double a, double b, gboolean a_present, gboolean b_present,
              const AfgDiffNoise *noise, AfgFlameHsl *hsl)
{
  AfgDiffKind kind = afg_diff_classify (a, b, a_present, b_present, noise);

  afg_diff_kind_hsl (kind, hsl);
  if (kind == AFG_DIFF_GREW || kind == AFG_DIFF_SHRANK)
    hsl->saturation = change_saturation (a, b);
}

void
afg_diff_color (double a, double b, gboolean a_present, gboolean b_present,
                const AfgDiffNoise *noise, AfgFlameColor *color)
{
  AfgFlameHsl hsl;

  afg_diff_hsl (a, b, a_present, b_present, noise, &hsl);
  afg_flame_color_for_hsl (&hsl, color);
}
