/* SPDX-License-Identifier: MIT */
/* The step strip of the exported page: one bar per training step of the
 * profile (the data block's "steps"), its height the step's duration, the
 * steps of the exported scope in colour, slow steps marked. The tree is
 * the exported scope's: the strip shows where that scope lies and which
 * step was slow; it does not re-scope (data/html/README.md says why).
 * With the device timeline (steps[].device) each bar is stacked by what
 * the NPU did in the step, compute at the bottom, then communication,
 * other, and the free time on top in the bar's own colour, faint: the
 * window's strip (src/ui/afg-step-strip.c) draws the same. */
'use strict';

/* A step is marked slow when it takes this many times the lower median step. */
const AFG_SLOW_FACTOR = 1.5;

/* The parts of a step's device time, bottom up; free has no colour of
 * its own. */
const AFG_STEP_PARTS = [
  { part: 'compute', key: 'compute_ns', colour: '#33d17a' },
  { part: 'communication', key: 'comm_ns', colour: '#9141ac' },
  { part: 'other', key: 'other_ns', colour: '#9a9996' },
  { part: 'free', key: 'free_ns', colour: null },
];
const AFG_FREE_ALPHA = 0.35;

function AfgStepStrip(raw, hooks) {
  this.steps = Array.isArray(raw.steps) ? raw.steps : [];
  this.scope = raw.scope || null;
  this.timeline = raw.device_timeline || null;
  this.hooks = hooks;
  this.canvas = document.getElementById('steps');
  /* The lengths exact from the export (step_ns, scope_ns) where it gives
   * them: its times as doubles lose up to a few hundred ns apart. */
  const exact = Array.isArray(raw.step_ns) && raw.step_ns.length === this.steps.length;
  this.dur = this.steps.map((s, i) => Math.max(0, exact ? raw.step_ns[i] : s.end_ns - s.start_ns));
  /* A range whose first step starts after its last ends is empty: 0 ns,
   * as the window says, not a negative wall time. */
  const scopeNs = raw.scope_ns ?? (this.scope && this.scope.end_ns - this.scope.start_ns);
  this.scopeNs = scopeNs === null ? null : Math.max(0, scopeNs);
  this.inScope = this.steps.map((s) => this.scope === null || this.scope.steps === null
    || (s.id >= this.scope.steps[0] && s.id <= this.scope.steps[1]));
  const sorted = this.dur.slice().sort((a, b) => a - b);
  this.median = sorted.length ? sorted[(sorted.length - 1) >> 1] : 0;
  this.max = sorted.length ? sorted[sorted.length - 1] : 0;
  this.slow = this.dur.map((d) => this.steps.length > 1 && d > 0 && d >= AFG_SLOW_FACTOR * this.median);
  this.slowest = this.dur.indexOf(this.max);
  this.hoverIndex = -1;
}

/* What "per step" divides by: the steps in scope. */
AfgStepStrip.prototype.count = function () {
  return this.inScope.reduce((n, inside) => n + (inside ? 1 : 0), 0);
};

AfgStepStrip.prototype.barWidth = function () {
  return this.canvas.clientWidth / Math.max(1, this.steps.length);
};

/* CSS px relative to canvas#steps. */
AfgStepStrip.prototype.rect = function (i) {
  const h = this.canvas.clientHeight;
  const w = this.barWidth();
  const bar = this.max > 0 ? Math.max(2, Math.round((h - 1) * this.dur[i] / this.max)) : 2;
  return { x: i * w, y: h - bar, width: w > 3 ? w - 1 : w, height: bar };
};

/* The step's parts as drawn: ns, and the y and height in CSS px within
 * rect(i) (cumulative rounding, so they fill the bar exactly); null
 * without the device timeline. */
AfgStepStrip.prototype.parts = function (i) {
  const device = this.steps[i].device;
  if (!device)
    return null;
  const r = this.rect(i);
  const whole = AFG_STEP_PARTS.reduce((sum, p) => sum + device[p.key], 0);
  const out = [];
  let below = 0, top = r.y + r.height;
  for (const p of AFG_STEP_PARTS) {
    below += device[p.key];
    const y = r.y + r.height - (whole > 0 ? Math.round(r.height * below / whole) : 0);
    out.push({ part: p.part, ns: device[p.key], y, height: top - y });
    top = y;
  }
  return out;
};

AfgStepStrip.prototype.drawBar = function (ctx, i) {
  const r = this.rect(i);
  const parts = this.parts(i);
  ctx.fillStyle = this.colour(i);
  if (parts === null) {
    ctx.fillRect(r.x, r.y, r.width, r.height);
    return;
  }
  parts.forEach((p, k) => {
    ctx.globalAlpha = AFG_STEP_PARTS[k].colour ? 1 : AFG_FREE_ALPHA;
    ctx.fillStyle = AFG_STEP_PARTS[k].colour || this.colour(i);
    ctx.fillRect(r.x, p.y, r.width, p.height);
  });
  ctx.globalAlpha = 1;
};

AfgStepStrip.prototype.colour = function (i) {
  if (this.slow[i])
    return this.inScope[i] ? '#d9480f' : '#eba487';
  return this.inScope[i] ? '#3b7dd8' : '#b9b9b2';
};

AfgStepStrip.prototype.draw = function () {
  const c = this.canvas;
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(c.clientWidth * dpr), h = Math.round(c.clientHeight * dpr);
  if (c.width !== w || c.height !== h) {
    c.width = w;
    c.height = h;
  }
  const ctx = c.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, c.clientWidth, c.clientHeight);
  for (let i = 0; i < this.steps.length; i++) {
    const r = this.rect(i);
    this.drawBar(ctx, i);
    if (i === this.hoverIndex) {
      ctx.strokeStyle = '#1a1aff';
      ctx.lineWidth = 1.5;
      ctx.strokeRect(r.x + 0.75, 0.75, Math.max(0, r.width - 1.5), c.clientHeight - 1.5);
    }
  }
};

AfgStepStrip.prototype.indexAt = function (x) {
  const i = Math.floor(x / this.barWidth());
  return i >= 0 && i < this.steps.length ? i : -1;
};

AfgStepStrip.prototype.label = function (i) {
  const args = { id: this.steps[i].id, time: this.hooks.fmtTime(this.dur[i]) };
  return AFG_T(this.slow[i] ? 'stepTipSlow' : 'stepTip', args);
};

/* [[part, "9.10 ms (6.4%)"]] of a split, or [] without one. */
AfgStepStrip.prototype.splitRows = function (device) {
  if (!device)
    return [];
  const whole = AFG_STEP_PARTS.reduce((sum, p) => sum + device[p.key], 0);
  return AFG_STEP_PARTS.map((p) => [AFG_T('part_' + p.part), AFG_T('partValue', {
    time: this.hooks.fmtTime(device[p.key]), share: this.hooks.fmtPct(device[p.key], whole) })]);
};

/* "compute 5.9%, communication 64.6%, other 0.66%, free 28.9%", as the
 * command line's summary; '' without the timeline. */
AfgStepStrip.prototype.describeSplit = function (device) {
  if (!device)
    return '';
  const whole = AFG_STEP_PARTS.reduce((sum, p) => sum + device[p.key], 0);
  return AFG_STEP_PARTS.map((p) => AFG_T('part_' + p.part) + ' ' + this.hooks.fmtPct(device[p.key], whole)).join(', ');
};

AfgStepStrip.prototype.onMove = function (ev) {
  const i = this.indexAt(ev.offsetX);
  if (i !== this.hoverIndex) {
    this.hoverIndex = i;
    this.draw();
  }
  if (i < 0)
    this.hooks.hideTip();
  else
    this.hooks.showTip(this.label(i), ev, this.splitRows(this.steps[i].device));
};

AfgStepStrip.prototype.onLeave = function () {
  this.hoverIndex = -1;
  this.draw();
  this.hooks.hideTip();
};

/* The line beside the strip: how many steps, which one was slowest. */
AfgStepStrip.prototype.summary = function () {
  const n = this.steps.length;
  const text = AFG_T(n === 1 ? 'oneStep' : 'nSteps', { n });
  if (n < 2)
    return text;
  return text + ' · ' + AFG_T('slowest', { id: this.steps[this.slowest].id, time: this.hooks.fmtTime(this.max) });
};

/* The exported scope in words, for the summary. */
AfgStepStrip.prototype.describeScope = function () {
  const s = this.scope;
  const fmt = this.hooks.fmtTime;
  if (s === null)
    return this.steps.length ? AFG_TN('scopeAll', this.steps.length, { n: this.steps.length }) : AFG_T('scopeAllNoSteps');
  if (s.steps === null)
    return AFG_T('scopeRange', { time: fmt(this.scopeNs) });
  const args = { first: s.steps[0], last: s.steps[1], n: this.count(), total: this.steps.length,
                 time: fmt(this.scopeNs) };
  return AFG_T(s.steps[0] === s.steps[1] ? 'scopeOneStep' : 'scopeSteps', args);
};

AfgStepStrip.prototype.bars = function () {
  return this.steps.map((s, i) => Object.assign({
    id: s.id, durationNs: this.dur[i], inScope: this.inScope[i], slow: this.slow[i], parts: this.parts(i),
  }, this.rect(i)));
};

/* The parts' colours, each with the whole profile's share. */
AfgStepStrip.prototype.fillLegend = function (timeline) {
  if (!this.steps.some((s) => s.device))
    return;
  const legend = document.createElement('span');
  legend.id = 'steps-legend';
  const whole = timeline ? AFG_STEP_PARTS.reduce((sum, p) => sum + timeline[p.key], 0) : 0;
  for (const p of AFG_STEP_PARTS) {
    const item = document.createElement('span');
    item.className = 'legend-item';
    item.dataset.part = p.part;
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = p.colour || '#3b7dd8';  /* an ordinary step's */
    if (!p.colour)
      sw.style.opacity = String(AFG_FREE_ALPHA);
    const share = timeline ? ' ' + this.hooks.fmtPct(timeline[p.key], whole) : '';
    item.append(sw, document.createTextNode(AFG_T('part_' + p.part) + share));
    legend.append(item);
  }
  document.getElementById('steps-info').after(legend);
};

AfgStepStrip.prototype.show = function () {
  if (this.steps.length === 0)
    return;
  document.getElementById('step-strip').hidden = false;
  document.getElementById('steps-info').textContent = this.summary();
  this.fillLegend(this.timeline);
  this.canvas.addEventListener('mousemove', (ev) => this.onMove(ev));
  this.canvas.addEventListener('mouseleave', () => this.onLeave());
  new ResizeObserver(() => this.draw()).observe(this.canvas);
  this.draw();
};
