/* SPDX-License-Identifier: MIT */
/* How the page prints numbers: the rules of the window and the CLI
 * (src/core/util/afg-format.c), step for step, so that both print the
 * same text for the same value. Rounding is Math.round() on the same
 * doubles, never toFixed() (ties up) or printf (ties to even); negative
 * values take U+2212 (−). */
'use strict';
const AFG_FORMAT = (() => {
  const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
    1e13, 1e14, 1e15, 1e16, 1e17, 1e18];
  const MINUS = '\u2212';
  const UNITS = [['µs', 1e2, 1], ['ms', 1e4, 2], ['s', 1e6, 3]];

  /* @scaled / 10^@digits with @digits decimals. */
  function fixed(scaled, digits) {
    const whole = String(Math.floor(scaled / POW10[digits]));
    if (digits === 0)
      return whole;
    return whole + '.' + String(scaled % POW10[digits]).padStart(digits, '0');
  }

  const roundHalfUp = (x) => Math.floor(x + 0.5);

  /* Whole nanoseconds as the window divides them (toward zero). */
  function time(ns) {
    const n = Math.trunc(ns);
    const sign = n < 0 ? MINUS : '';
    const a = Math.abs(n);
    if (a < 1000)
      return sign + a + ' ns';
    for (let i = 0; i < UNITS.length; i++) {
      const [unit, step, digits] = UNITS[i];
      const scaled = roundHalfUp(a / step);
      if (scaled < 1000 * POW10[digits] || i + 1 === UNITS.length)
        return sign + fixed(scaled, digits) + ' ' + unit;
    }
    return '';
  }

  /* @p percent: one decimal from 10 % up, else two significant digits. */
  function share(p) {
    const sign = p < 0 ? MINUS : '';
    const a = Math.abs(p);
    let digits = 1;
    while (a > 0 && a * POW10[digits] < 10 && digits + 1 < POW10.length)
      digits++;
    let scaled = roundHalfUp(a * POW10[digits]);
    if (scaled >= 100 && digits > 1 && a < 10)
      scaled = roundHalfUp(a * POW10[--digits]);
    return sign + fixed(scaled, digits) + '%';
  }

  function pct(part, whole) {
    return whole > 0 ? share((100 * part) / whole) : '0%';
  }

  /* "1,234"; a fraction under 100 with two decimals (calls per step). */
  function count(n) {
    const sign = n < 0 ? MINUS : '';
    const a = Math.abs(n);
    if (a < 100 && !Number.isInteger(a))
      return sign + fixed(roundHalfUp(a * 100), 2);
    return sign + String(roundHalfUp(a)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }

  /* English and Chinese plurals: "one" for exactly 1, else "other". */
  const plural = (n) => (n === 1 ? 'one' : 'other');

  return { time, share, pct, count, int: count, plural };
})();
