/* SPDX-License-Identifier: MIT */
/* The step strip of the exported page: one bar per training step of the
 * profile (the data block's "steps"), its height the step's duration, the
 * steps of the exported scope in colour, slow steps marked. The tree is
 * the exported scope's: the strip shows where that scope lies and which
 * step was slow; it does not re-scope (data/html/README.md says why). */
'use strict';

/* A step is marked slow when it takes this many times the median step. */
const AFG_SLOW_FACTOR = 1.5;

function AfgStepStrip(raw, hooks) {
  this.steps = Array.isArray(raw.steps) ? raw.steps : [];
  this.scope = raw.scope || null;
  this.hooks = hooks;
  this.canvas = document.getElementById('steps');
  this.dur = this.steps.map((s) => Math.max(0, s.end_ns - s.start_ns));
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
    ctx.fillStyle = this.colour(i);
    ctx.fillRect(r.x, r.y, r.width, r.height);
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

AfgStepStrip.prototype.onMove = function (ev) {
  const i = this.indexAt(ev.offsetX);
  if (i !== this.hoverIndex) {
    this.hoverIndex = i;
    this.draw();
  }
  if (i < 0)
    this.hooks.hideTip();
  else
    this.hooks.showTip(this.label(i), ev);
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
    return this.steps.length ? AFG_T('scopeAll', { n: this.steps.length }) : AFG_T('scopeAllNoSteps');
  if (s.steps === null)
    return AFG_T('scopeRange', { time: fmt(s.end_ns - s.start_ns) });
  const args = { first: s.steps[0], last: s.steps[1], n: this.count(), total: this.steps.length,
                 time: fmt(s.end_ns - s.start_ns) };
  return AFG_T(s.steps[0] === s.steps[1] ? 'scopeOneStep' : 'scopeSteps', args);
};

AfgStepStrip.prototype.bars = function () {
  return this.steps.map((s, i) => Object.assign({
    id: s.id, durationNs: this.dur[i], inScope: this.inScope[i], slow: this.slow[i],
  }, this.rect(i)));
};

AfgStepStrip.prototype.show = function () {
  if (this.steps.length === 0)
    return;
  document.getElementById('step-strip').hidden = false;
  document.getElementById('steps-info').textContent = this.summary();
  this.canvas.addEventListener('mousemove', (ev) => this.onMove(ev));
  this.canvas.addEventListener('mouseleave', () => this.onLeave());
  new ResizeObserver(() => this.draw()).observe(this.canvas);
  this.draw();
};
