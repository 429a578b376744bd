/* SPDX-License-Identifier: MIT */
/* The diff's colour rule: afg_diff_hsl() and afg_diff_norm_scales() of
 * src/core/analysis/afg-diff-color.c, operation for operation, so that the
 * page and the window give every frame the same colour
 * (tests/html/diff.test.mjs checks them on a table and on the samples).
 * No DOM: node runs it as is. */
'use strict';
const AFG_DIFF_COLOR = (function () {
  const HUES = { grew: 0, shrank: 220, onlyA: 175, onlyB: 285 };
  const GREY_LIGHTNESS = 80;
  const CHANGE_LIGHTNESS = 62;
  const MAX_SATURATION = 90;
  /* The weakest change over the floor is still told from grey. */
  const MIN_SATURATION = 15;
  const SATURATION_CAP_PERCENT = 100;
  const DEFAULT_MIN_NS = 100000;
  const DEFAULT_MIN_PERCENT = 5;

  /* The factors each side's nanoseconds are multiplied by. */
  function normScales(norm, aTotal, bTotal, aSteps, bSteps) {
    let a = 1, b = 1;
    if (norm === 'per-step') {
      a = 1 / Math.max(aSteps, 1);
      b = 1 / Math.max(bSteps, 1);
    } else if (norm === 'equal-totals' && aTotal > 0) {
      a = bTotal / aTotal;
    }
    return [a, b];
  }

  function underNoiseFloor(a, b, noise) {
    const delta = Math.abs(b - a);
    if (delta === 0 || delta < noise.minNs)
      return true;
    return a > 0 && delta * 100 < noise.minPercent * a;
  }

  /* afg_diff_compared(): the colour column's values, unless their change
   * is under the floor while the total's is not (then the totals). */
  function compared(a, b, aTotal, bTotal, noise) {
    if (underNoiseFloor(a, b, noise) && !underNoiseFloor(aTotal, bTotal, noise))
      return [aTotal, bTotal];
    return [a, b];
  }

  /* 'same', 'grew', 'shrank', 'onlyA' or 'onlyB'; the floor comes first,
   * so that a 0-vs-1-call frame does not glow. */
  function classify(a, b, inA, inB, noise) {
    if (underNoiseFloor(a, b, noise))
      return 'same';
    if (!inA)
      return 'onlyB';
    if (!inB)
      return 'onlyA';
    return b > a ? 'grew' : 'shrank';
  }

  function changeSaturation(a, b) {
    const percent = a > 0 ? Math.abs(b - a) * 100 / a : SATURATION_CAP_PERCENT;
    const share = Math.min(percent, SATURATION_CAP_PERCENT) / SATURATION_CAP_PERCENT;
    return Math.max(MIN_SATURATION, Math.trunc(MAX_SATURATION * share + 0.5));
  }

  /* The legend's key: a full change. */
  function kindHsl(kind) {
    if (kind === 'same')
      return [0, 0, GREY_LIGHTNESS];
    return [HUES[kind], MAX_SATURATION, CHANGE_LIGHTNESS];
  }

  /* [hue, saturation %, lightness %], whole numbers. */
  function hsl(a, b, inA, inB, noise) {
    const kind = classify(a, b, inA, inB, noise);
    const out = kindHsl(kind);
    if (kind === 'grew' || kind === 'shrank')
      out[1] = changeSaturation(a, b);
    return out;
  }

  const css = ([h, s, l]) => `hsl(${h}, ${s}%, ${l}%)`;

  return { DEFAULT_MIN_NS, DEFAULT_MIN_PERCENT, normScales, compared, classify, hsl, kindHsl, css };
})();
