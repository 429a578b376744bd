/* SPDX-License-Identifier: MIT */
/* The Functions panel of the page: the function table (one row per
 * distinct frame name, the core's rules: calls and self add up over its
 * frames, total over those with no same-named ancestor in their thread),
 * sortable and filtered by the search; the sandwich of the selected
 * function (its callers inverted above, its callees below); the call
 * duration percentiles for the tooltip. The table's self, total and
 * share and the sandwich's widths follow the view's weight (host or NPU
 * time); functions() is always the JSON's host array. flamegraph.js calls
 * AFG_FUNCTIONS.attach() once the model is loaded; nothing here runs
 * before the panel, the tooltip or functions() needs it.
 */
'use strict';
const AFG_FUNCTIONS = (function () {
  const MAX_ROWS = 200;
  /* A sandwich half draws its stacks whole, shallowest first, up to this
   * many boxes: a bound on the page's DOM, said in a note when reached. */
  const SANDWICH_BOXES = 4000;
  const ROW_PX = 18;
  const $ = (id) => document.getElementById(id);

  /* ---------- the table ---------- */

  function frameHasAncestorNamed(m, i, name) {
    for (let p = m.parent[i]; p >= m.T && p !== m.ALL; p = m.parent[p])
      if (m.name[p] === name)
        return true;
    return false;
  }

  function kindSums() {
    return { compute: { self: 0, total: 0 }, comm: { self: 0, total: 0 }, exposed: { self: 0, total: 0 } };
  }

  /* Rows in the JSON's order: self time descending, then name (the names
   * are in byte order already, so their index is the tie-break). NPU self
   * and total follow the host rules, over the NPU columns. */
  function buildTable(m) {
    const rows = new Map();
    for (let i = m.T; i < m.ALL; i++) {
      const n = m.name[i];
      let r = rows.get(n);
      if (r === undefined)
        rows.set(n, r = { name: n, calls: 0, self: 0, total: 0, npuSelf: 0, npuTotal: 0, frames: [],
                          kinds: m.kinds ? kindSums() : null });
      r.calls += m.calls[i];
      r.self += m.self[i];
      if (m.hasNpu)
        r.npuSelf += m.npuSelf[i];
      if (m.kinds)
        for (const w of AFG_KINDS.WEIGHTS)
          r.kinds[w].self += m.kinds.self[w][i];
      r.frames.push(i);
    }
    for (const r of rows.values()) {
      for (const i of outermost(m, r)) {
        r.total += m.total[i];
        if (m.hasNpu)
          r.npuTotal += m.npuTotal[i];
        if (m.kinds)
          for (const w of AFG_KINDS.WEIGHTS)
            r.kinds[w].total += m.kinds.total[w][i];
      }
    }
    return [...rows.values()].sort((a, b) => b.self - a.self || a.name - b.name);
  }

  /* What the table and the sandwich show of the weight: a row's self and
   * total, each frame's total (the view's widths) and the share's whole. */
  function weightOf(m, view) {
    const weight = view.weight, npu = weight === 'npu';
    const kind = AFG_KINDS.isWeight(weight) && m.kinds;
    return {
      npu, weight,
      self: kind ? (r) => r.kinds[weight].self : npu ? (r) => r.npuSelf : (r) => r.self,
      total: kind ? (r) => r.kinds[weight].total : npu ? (r) => r.npuTotal : (r) => r.total,
      wt: view.wt, whole: view.wt[m.ALL],
    };
  }

  const HEADERS = {
    host: { self: 'self', total: 'total', share: 'selfShare' },
    npu: { self: 'npuSelf', total: 'npuTotal', share: 'npuSelfShare' },
    compute: { self: 'computeSelf', total: 'computeTotal', share: 'computeSelfShare' },
    comm: { self: 'commSelf', total: 'commTotal', share: 'commSelfShare' },
    exposed: { self: 'exposedSelf', total: 'exposedTotal', share: 'exposedSelfShare' },
  };
  const WEIGHT_NAMES = { host: 'weightHost', npu: 'weightNpu', compute: 'weightCompute', comm: 'weightComm',
                         exposed: 'weightExposed' };
  const TOTAL_NAMES = { host: 'total', npu: 'npuTotal', compute: 'computeTotal', comm: 'commTotal',
                        exposed: 'exposedTotal' };

  function toJSON(m, table) {
    return table.map((r) => ({
      name: m.names[r.name], category: m.categories[m.nameCat[r.name]],
      calls: r.calls, self_ns: r.self, total_ns: r.total,
    }));
  }

  /* ---------- durations (see afg-html-writer.c) ---------- */

  const BOUNDS = [];
  for (let k = 0; k < 16; k++)
    BOUNDS.push(Math.pow(2, (k + 0.5) / 16));

  /* The writer's round(16 * log2 (v)), by the same comparisons. */
  function logStep(v) {
    if (v < 1)
      return 0;
    let e = Math.floor(Math.log2(v));
    if (Math.pow(2, e) > v)
      e--;
    else if (Math.pow(2, e + 1) <= v)
      e++;
    let q = 16 * e;
    for (let k = 0; k < 16 && v >= BOUNDS[k] * Math.pow(2, e); k++)
      q++;
    return q;
  }

  function decodeDurations(m, decodeVarints) {
    const out = { values: new Float64Array(5 * m.N), approx: new Uint8Array(m.N) };
    if (typeof m.raw.durations !== 'string')
      return null;
    const { values: v } = decodeVarints(m.raw.durations);
    let k = 0;
    for (let i = m.T; i < m.ALL; i++) {
      const c = v[k++];
      const mean = Math.floor(m.total[i] / Math.max(1, m.calls[i]));
      if (c % 2 === 1) {
        out.values.fill(mean, 5 * i, 5 * i + 5);
        continue;
      }
      let q = logStep(mean) - c / 2;
      out.approx[i] = 1;
      for (let j = 0; j < 5; j++) {
        if (j > 0)
          q += v[k++];
        /* Whole ns, to the nearest: the time format truncates, which
         * would show 2^(37/16) = 4.97 ns, the step of 5 ns, as 4 ns. */
        out.values[5 * i + j] = Math.round(Math.pow(2, q / 16));
      }
    }
    return out;
  }

  /* ---------- the sandwich ---------- */

  function newNode(name) {
    return { name, calls: 0, total: 0, kids: new Map() };
  }

  function child(node, name) {
    let c = node.kids.get(name);
    if (c === undefined)
      node.kids.set(name, c = newNode(name));
    return c;
  }

  function outermost(m, row) {
    return row.frames.filter((i) => !frameHasAncestorNamed(m, i, row.name));
  }

  /* Both halves are weighted by @wt, the frames' totals in the view's
   * weight. */
  function callees(m, row, wt) {
    const root = newNode(row.name);
    for (const f of outermost(m, row)) {
      const stack = [[f, root]];
      while (stack.length > 0) {
        const [src, dst] = stack.pop();
        dst.calls += m.calls[src];
        dst.total += wt[src];
        for (let c = m.first[src], end = c + m.nchild[src]; c < end; c++)
          stack.push([c, child(dst, m.name[c])]);
      }
    }
    return root;
  }

  function callers(m, row, wt) {
    const root = newNode(row.name);
    for (const f of outermost(m, row)) {
      root.calls += m.calls[f];
      root.total += wt[f];
      let at = root;
      for (let p = m.parent[f]; p >= m.T && p !== m.ALL; p = m.parent[p]) {
        at = child(at, m.name[p]);
        at.calls += m.calls[f];
        at.total += wt[f];
      }
    }
    return root;
  }

  /* ---------- the panel ---------- */

  function Panel(app, m, h) {
    this.app = app;
    this.m = m;
    this.h = h;
    this.table = null;
    this.durations = undefined;
    this.sortKey = 'self';
    this.descending = true;
    this.filter = '';
    this.selected = null;
  }

  Panel.prototype.rows = function () {
    if (this.table === null)
      this.table = buildTable(this.m);
    return this.table;
  };

  Panel.prototype.weight = function () {
    return weightOf(this.m, this.app.view);
  };

  Panel.prototype.sortedRows = function () {
    const m = this.m, key = this.sortKey, sign = this.descending ? -1 : 1;
    const q = this.filter.toLowerCase();
    const w = this.weight();
    const value = {
      name: (r) => r.name, category: (r) => m.nameCat[r.name],
      calls: (r) => r.calls, self: w.self, total: w.total, share: w.self,
    }[key];
    const rows = q === '' ? this.rows().slice()
      : this.rows().filter((r) => m.names[r.name].toLowerCase().includes(q));
    return rows.sort((a, b) => sign * (value(a) - value(b)) || a.name - b.name);
  };

  Panel.prototype.render = function () {
    const w = this.weight();
    const headers = HEADERS[w.weight] || HEADERS.host;
    for (const th of $('functions-table').tHead.rows[0].cells)
      if (th.dataset.key in headers)
        th.textContent = AFG_T(headers[th.dataset.key]);
    if (!$('functions-box').open)
      return;
    const m = this.m, h = this.h;
    const rows = this.sortedRows();
    const body = $('functions-table').tBodies[0];
    /* Per step divides calls and times, as the window's table does; the
     * shares stay (both sides are divided). */
    const div = this.app.divisor();
    const calls = (r) => (div > 1 ? h.fmtCount(r.calls / div) : h.fmtInt(r.calls));
    const trs = rows.slice(0, MAX_ROWS).map((r) => {
      const tr = document.createElement('tr');
      tr.dataset.name = m.names[r.name];
      if (this.selected !== null && r.name === this.selected.name)
        tr.className = 'selected';
      const cells = [m.names[r.name], AFG_T('cat_' + m.categories[m.nameCat[r.name]]), calls(r),
                     h.fmtTime(w.self(r) / div), h.fmtTime(w.total(r) / div), h.fmtPct(w.self(r), w.whole)];
      for (const text of cells)
        tr.insertCell().textContent = text;
      return tr;
    });
    body.replaceChildren(...trs);
    $('functions-count').textContent = rows.length > MAX_ROWS
      ? AFG_T('functionsShown', { n: h.fmtInt(MAX_ROWS), total: h.fmtInt(rows.length) })
      : AFG_TN('functionsCount', rows.length, { n: h.fmtInt(rows.length) });
    for (const th of $('functions-table').tHead.rows[0].cells)
      th.setAttribute('aria-sort', th.dataset.key !== this.sortKey ? 'none'
                      : this.descending ? 'descending' : 'ascending');
  };

  /* The table as sorted and filtered, uncut, in the view's weight. */
  Panel.prototype.weightedRows = function () {
    const m = this.m, w = this.weight();
    return this.sortedRows().map((r) => ({
      name: m.names[r.name], calls: r.calls, self_ns: w.self(r), total_ns: w.total(r),
    }));
  };

  Panel.prototype.select = function (nameIndex) {
    const row = this.rows().find((r) => r.name === nameIndex) || null;
    this.selected = row;
    this.app.view.selected = row === null ? -1 : row.name;
    this.app.view.draw();
    $('functions-box').open = true;
    this.render();
    this.drawSandwich();
  };

  /* The note under a half that reached SANDWICH_BOXES, or none. */
  function setCutNote(el, cut) {
    if (el.nextElementSibling?.classList.contains('sw-cut'))
      el.nextElementSibling.remove();
    if (!cut)
      return;
    const note = document.createElement('p');
    note.className = 'sw-empty sw-cut';
    note.textContent = AFG_T('sandwichCut', { n: SANDWICH_BOXES });
    el.after(note);
  }

  /* Each sandwich half as rows of boxes, as wide as their time in the
   * weight (none when it is 0), breadth first; the root (the function) is
   * the row next to the divider. */
  Panel.prototype.drawHalf = function (el, root, inverted) {
    const m = this.m, h = this.h;
    const weight = this.weight().weight;
    setCutNote(el, false);
    if (!(root.total > 0)) {
      const empty = document.createElement('p');
      empty.className = 'sw-empty';
      empty.textContent = AFG_T('sandwichNoTime', { weight: AFG_T(WEIGHT_NAMES[weight] || 'weightHost') });
      el.style.height = '';
      el.replaceChildren(empty);
      return;
    }
    const boxes = [];
    let rows = 0;
    const queue = [[root, 0, 0, 1]];
    for (let q = 0; q < queue.length; q++) {
      if (boxes.length === SANDWICH_BOXES) {
        setCutNote(el, true);
        break;
      }
      const [node, depth, x, w] = queue[q];
      rows = Math.max(rows, depth + 1);
      const box = document.createElement('div');
      box.className = 'sw-frame';
      box.style.left = (100 * x) + '%';
      box.style.width = (100 * w) + '%';
      box.dataset.depth = depth;
      box.dataset.name = m.names[node.name];
      box.dataset.weight = node.total;
      box.textContent = m.names[node.name];
      box.title = `${m.names[node.name]}\n${AFG_T('calls')}: ${h.fmtInt(node.calls)}\n` +
                  `${AFG_T(TOTAL_NAMES[weight] || 'total')}: ${h.fmtTime(node.total)} (${h.fmtPct(node.total, root.total)})`;
      box.style.background = h.colourOfName(node.name);
      box.addEventListener('click', () => this.select(node.name));
      boxes.push([box, depth]);
      let cx = x;
      const kids = [...node.kids.values()].sort((a, b) => a.name - b.name);
      for (const k of kids) {
        const kw = root.total > 0 ? w * (k.total / node.total || 0) : 0;
        if (kw >= 0.002)
          queue.push([k, depth + 1, cx, kw]);
        cx += kw;
      }
    }
    for (const [box, depth] of boxes)
      box.style.top = ((inverted ? rows - 1 - depth : depth) * ROW_PX) + 'px';
    el.style.height = (rows * ROW_PX) + 'px';
    el.replaceChildren(...boxes.map(([b]) => b));
  };

  Panel.prototype.drawSandwich = function () {
    const box = $('sandwich');
    if (this.selected === null) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    $('sandwich-title').textContent = AFG_T('sandwichOf', { name: this.m.names[this.selected.name] });
    const wt = this.weight().wt;
    this.drawHalf($('sandwich-callers'), callers(this.m, this.selected, wt), true);
    this.drawHalf($('sandwich-callees'), callees(this.m, this.selected, wt), false);
  };

  /* A frame that merges address variants, from the core's merged tree
   * (the page's merged frames in the same order): its rows, or null when
   * the page has no such data or shows another tree (NPU idle, transforms). */
  Panel.prototype.mergedDurations = function (node) {
    const m = this.m, h = this.h;
    if (typeof m.raw.merged_durations !== 'string' || this.app.transforms.length > 0 || m.raw !== m.trees.whole.plain.raw)
      return null;
    if (this.merged === undefined)
      this.merged = decodeDurations({ raw: { durations: m.raw.merged_durations }, T: m.T, ALL: m.ALL, N: m.N,
                                      total: m.total, calls: m.calls }, h.decodeVarints);
    return durationRows(this.merged, node, h);
  };

  /* "Call durations: min / p50 / p90 / p99 / max" of frame @i of @durations. */
  function durationRows(durations, i, h) {
    const d = durations.values.subarray(5 * i, 5 * i + 5);
    const approx = durations.approx[i] === 1;
    const fmt = (v) => (approx ? '≈' : '') + h.fmtTime(v);
    const rows = [[AFG_T('durations'), Array.from(d, fmt).join(' / ')]];
    if (approx)
      rows.push(['', AFG_T('durationsApprox')]);
    return rows;
  }

  Panel.prototype.tooltipRows = function (node) {
    const m = this.m, h = this.h;
    if (node < m.T || node === m.ALL)
      return [];
    if (this.durations === undefined)
      this.durations = decodeDurations(m.plain, h.decodeVarints);
    if (this.durations === null)
      return [];
    /* A frame merged from address variants, or whose calls a transform
     * merged or shortened: the page has only each exported frame's
     * percentiles, which do not combine. */
    const from = m.origin === null ? node : m.origin[node];
    const merged = from === -1 ? this.mergedDurations(node) : null;
    if (merged !== null)
      return merged;
    if (from < 0)
      return [[AFG_T('durations'), '—'], ['', AFG_T(from === -2 ? 'durationsTransformed' : 'durationsMerged')]];
    return durationRows(this.durations, from, h);
  };

  Panel.prototype.bind = function () {
    const box = $('functions-box');
    box.addEventListener('toggle', () => this.render());
    for (const th of $('functions-table').tHead.rows[0].cells) {
      th.addEventListener('click', () => {
        const key = th.dataset.key;
        this.descending = key === this.sortKey ? !this.descending : key !== 'name' && key !== 'category';
        this.sortKey = key;
        this.render();
      });
    }
    $('functions-table').tBodies[0].addEventListener('click', (ev) => {
      const tr = ev.target.closest('tr');
      if (tr !== null)
        this.select(this.m.names.indexOf(tr.dataset.name));
    });
    $('flame').addEventListener('dblclick', (ev) => {
      const hit = this.app.view.hitTest(ev.offsetX, ev.offsetY);
      if (hit !== null && hit.node >= this.m.T && hit.node !== this.m.ALL)
        this.select(this.m.name[hit.node]);
    });
  };

  function attach(app, m, helpers) {
    const panel = new Panel(app, m, helpers);
    panel.bind();
    return {
      functions: () => toJSON(m, panel.rows()),
      rows: () => panel.weightedRows(),
      weightChanged: () => {
        panel.render();
        panel.drawSandwich();
      },
      tooltipRows: (node) => panel.tooltipRows(node),
      setFilter: (text) => {
        panel.filter = text;
        panel.render();
      },
      select: (name) => panel.select(m.names.indexOf(String(name))),
      reset: () => {
        panel.table = null;
        panel.durations = undefined;  /* the plain tree may be another (the NPU-idle one) */
        panel.selected = null;
        panel.render();
        panel.drawSandwich();
      },
    };
  }

  return { attach };
})();
