/* SPDX-License-Identifier: MIT */
/* The diff page: the union of two profiles' thread-free trees (data block
 * "ascend-flamegraph-diff", afg-diff-page.c), drawn by the flame view of
 * flamegraph.js with B's or A's totals as widths and coloured by the
 * change (diff-color.js, the window's rule).
 *
 * Automation API, window.flamegraph:
 *   state()      -> {mode: 'diff', shape: 'a'|'b', colourBy: 'self'|'total',
 *                   normalize: 'raw'|'per-step'|'equal-totals', floorNs,
 *                   floorPercent, zoom, zoomName, search, orientation, merged}
 *                   (the defaults are the window's: B, self, raw, 0.1 ms, 5 %;
 *                   merged: "Merge addresses", on unless the browser keeps
 *                   it off, as on the single page)
 *   dump()       -> 'path\ta_calls\ta_total\ta_self\tb_calls\tb_total\tb_self'
 *                   per frame of the tree shown (merged or not), sorted, the
 *                   path without a thread part: the format of
 *                   level0_rank0-vs-level1_rank0.diff.expected.
 *   dump('view') -> 'path\thsl(h, s%, l%)' per frame, as coloured now.
 *   frames(name) -> [{x, y, width, height}] of the drawn frames so named.
 *   firstDrawMs  -> performance.now() when the graph was first drawn.
 * The view lives in the URL hash:
 * #shape=a&by=total&norm=per-step&floor=NS&floorpct=P&zoom=N&search=TEXT&view=icicle&merge=0|1.
 */
'use strict';
(function () {
  const {
    $, decodeVarints, decodeNames, fmtTime, fmtPct, fmtInt, fmtCount, placeTooltip, FlameView, translateStatic,
    showEmpty,
  } = AFG_VIEW;
  const RULE = AFG_DIFF_COLOR;
  /* Per frame: name, children, then calls, total and self of A and of B. */
  const FIELDS = 8;
  const SIDE_KEYS = ['calls', 'total', 'self'];
  const STRUCTURE_GREY = '#b9b9b2';
  const byCodeUnit = (x, y) => (x < y ? -1 : x > y ? 1 : 0);

  /* ---------- data ---------- */

  function sideArrays(n) {
    return { calls: new Float64Array(n), total: new Float64Array(n), self: new Float64Array(n) };
  }

  function newModel(raw, F, names, nameCat, exact) {
    const N = F + 1;
    return {
      raw, T: 0, F, ALL: F, N, names, nameCat,
      categories: raw.categories,
      name: new Int32Array(N).fill(-1),
      nchild: new Uint32Array(N),
      first: new Uint32Array(N),
      parent: new Int32Array(N).fill(-1),
      thread: new Int32Array(N).fill(-1),
      depth: new Uint16Array(N),
      a: sideArrays(N),
      b: sideArrays(N),
      exact,
    };
  }

  function loadModel() {
    const raw = JSON.parse($('afg-data').textContent);
    const { values, exact } = decodeVarints(raw.nodes);
    const F = values.length / FIELDS;
    if (!Number.isInteger(F))
      throw new Error('frames do not add up');
    const nameCat = Uint8Array.from(raw.name_categories, (c) => c.charCodeAt(0) - 48);
    const m = newModel(raw, F, decodeNames(raw), nameCat, exact);
    for (let i = 0, k = 0; i < F; i++, k += FIELDS) {
      m.name[i] = values[k];
      m.nchild[i] = values[k + 1];
      SIDE_KEYS.forEach((key, f) => {
        m.a[key][i] = values[k + 2 + f];
        m.b[key][i] = values[k + 5 + f];
      });
    }
    linkChildren(m, raw.root_children);
    return m;
  }

  /* Breadth-first, the root last: its children are frames 0.., and the
   * children of frame i follow those of frame i-1. */
  function linkChildren(m, rootChildren) {
    m.first[m.ALL] = 0;
    m.nchild[m.ALL] = rootChildren;
    let next = rootChildren;
    for (let c = 0; c < rootChildren; c++) {
      m.parent[c] = m.ALL;
      m.depth[c] = 1;
    }
    for (let i = 0; i < m.F; i++) {
      m.first[i] = next;
      for (let c = next, end = next + m.nchild[i]; c < end; c++) {
        m.parent[c] = i;
        m.depth[c] = m.depth[i] + 1;
      }
      next += m.nchild[i];
    }
    if (next !== m.F)
      throw new Error('child counts do not add up');
    /* The threads' own time (top frames a transform took out). */
    const own = m.raw.root_self ?? [0, 0];
    [m.a, m.b].forEach((side, s) => {
      for (let c = 0; c < rootChildren; c++) {
        side.calls[m.ALL] += side.calls[c];
        side.total[m.ALL] += side.total[c];
      }
      side.total[m.ALL] += own[s];
      side.self[m.ALL] = own[s];
    });
  }

  function paths(m) {
    const out = new Array(m.F);
    for (let i = 0; i < m.F; i++)
      out[i] = m.parent[i] === m.ALL ? m.names[m.name[i]] : out[m.parent[i]] + ';' + m.names[m.name[i]];
    return out;
  }

  /* ---------- address variants merged (merge.js's rule) ---------- */

  const INT64_MAX = (1n << 63n) - 1n;

  /* Value field f of the sources list[from] … list[to - 1] added up as
   * the core adds (saturating at 2^63 − 1), exactly where it leaves 2^53
   * (hostile input only). */
  function sumField(m, t, k, f, list, from, to) {
    const values = (f < 5 ? m.a : m.b)[SIDE_KEYS[(f - 2) % 3]];
    let sum = 0, exact = false;
    for (let j = from; j < to; j++) {
      sum += values[list[j]];
      exact ||= m.exact.size > 0 && m.exact.has(list[j] * FIELDS + f);
    }
    if (sum <= Number.MAX_SAFE_INTEGER && !exact)
      return sum;
    let big = 0n;
    for (const s of list.subarray(from, to))
      big += m.exact.get(s * FIELDS + f) ?? BigInt(values[s]);
    big = big > INT64_MAX ? INT64_MAX : big;
    t.exact.set(k * FIELDS + f, big);
    return Number(big);
  }

  /* Self = max(0, total − children's total), per side, as the core's
   * afg_path_tree_sum_children() gives it after merging. */
  function sumChildren(t) {
    for (const [side, f] of [[t.a, 4], [t.b, 7]]) {
      const children = new Float64Array(t.N);
      for (let i = 0; i < t.F; i++)
        children[t.parent[i]] += side.total[i];
      for (let i = 0; i < t.F; i++)
        side.self[i] = Math.max(0, side.total[i] - children[i]);
      if (t.exact.size > 0 || children.some((v) => v > Number.MAX_SAFE_INTEGER))
        exactSelf(t, side, f);
    }
  }

  function exactSelf(t, side, f) {
    const total = (i) => t.exact.get(i * FIELDS + f - 1) ?? BigInt(side.total[i]);
    const children = new Array(t.N).fill(0n);
    for (let i = 0; i < t.F; i++)
      children[t.parent[i]] += total(i);
    for (let i = 0; i < t.F; i++) {
      const child = children[i] > INT64_MAX ? INT64_MAX : children[i];
      const self = total(i) > child ? total(i) - child : 0n;
      side.self[i] = Number(self);
      if (self > Number.MAX_SAFE_INTEGER)
        t.exact.set(i * FIELDS + f, self);
    }
  }

  /* The diff of the two sides with their names' addresses merged: merging
   * each side and then taking the union is merging the union, since both
   * group by path. The model itself when no name has an address. */
  function mergedModel(m) {
    const nm = AFG_MERGE.mergeNames(m);
    if (nm === null)
      return m;
    const g = AFG_MERGE.group(m, (c) => nm.map[m.name[c]], [m.ALL], m.N);
    const F = g.len - 1;
    const t = newModel(m.raw, F, nm.names, nm.nameCat, new Map());
    t.name.set(g.name.subarray(1, g.len));
    t.nchild.set(g.nchild.subarray(1, g.len));
    for (let i = 0; i < F; i++) {
      const from = g.start[i + 1], to = g.start[i + 2];
      t.a.calls[i] = sumField(m, t, i, 2, g.list, from, to);
      t.a.total[i] = sumField(m, t, i, 3, g.list, from, to);
      t.b.calls[i] = sumField(m, t, i, 5, g.list, from, to);
      t.b.total[i] = sumField(m, t, i, 6, g.list, from, to);  /* self follows from the totals */
    }
    linkChildren(t, g.nchild[0]);
    sumChildren(t);
    return t;
  }

  /* Exact integers, also past 2^53 (decodeVarints keeps those apart). */
  function dumpModel(m) {
    const p = paths(m);
    const lines = [];
    for (let i = 0; i < m.F; i++) {
      const cells = [p[i]];
      for (let f = 2; f < FIELDS; f++) {
        const k = i * FIELDS + f;
        const side = f < 5 ? m.a : m.b;
        cells.push(m.exact.has(k) ? String(m.exact.get(k)) : String(side[SIDE_KEYS[(f - 2) % 3]][i]));
      }
      lines.push(cells.join('\t'));
    }
    return lines.sort(byCodeUnit);
  }

  /* ---------- the page ---------- */

  function App(m) {
    this.m = this.plain = m;
    /* An export merged by --merge-addresses cannot be taken apart again. */
    this.premerged = m.raw.options.merge_addresses === true;
    this.merged = this.premerged;
    this.mergeDefault = this.premerged || AFG_MERGE.stored();
    this.settings = {
      shape: 'b', colourBy: 'self', normalize: 'raw',
      floorNs: RULE.DEFAULT_MIN_NS, floorPercent: RULE.DEFAULT_MIN_PERCENT,
    };
    this.newView(null);
    this.search = '';
    this.pending = false;
    this.prepare();
  }

  App.prototype.newView = function (old) {
    this.colours = new Array(this.m.N);
    this.view = new FlameView(this.m);
    this.view.colour = (node) => this.colourOf(node);
    if (old !== null) {
      this.view.icicle = old.icicle;
      this.view.hoverDrawn = old.hoverDrawn;
    }
  };

  /* Swaps the model; node ids change, so the zoom goes back to the root. */
  App.prototype.setMerged = function (on) {
    on = on || this.premerged;
    if (on !== this.merged) {
      if (on && this.mergedModel === undefined)
        this.mergedModel = mergedModel(this.plain);
      this.m = on ? this.mergedModel : this.plain;
      this.merged = on;
      this.newView(this.view);
      this.prepare();
    }
    $('merge-addresses').checked = on;
  };

  App.prototype.toggleMerged = function () {
    this.setMerged(!this.merged);
    AFG_MERGE.store(this.merged);
    this.apply({ scroll: true });
  };

  /* After any setting: the scales, the widths, and colours anew. */
  App.prototype.prepare = function () {
    const s = this.settings, m = this.m;
    const [aScale, bScale] = RULE.normScales(s.normalize, m.a.total[m.ALL], m.b.total[m.ALL],
                                             m.raw.a.step_count, m.raw.b.step_count);
    this.norm = { aScale, bScale };
    this.noise = { minNs: s.floorNs, minPercent: s.floorPercent };
    this.view.wt = s.shape === 'a' ? m.a.total : m.b.total;
    this.colours.fill(undefined);
  };

  /* The compared values of a frame, normalised (RULE.compared: its totals
   * when they moved past the floor and the colour column did not). */
  App.prototype.compared = function (node) {
    const key = this.settings.colourBy === 'total' ? 'total' : 'self';
    const { aScale, bScale } = this.norm, m = this.m;
    return RULE.compared(m.a[key][node] * aScale, m.b[key][node] * bScale,
                         m.a.total[node] * aScale, m.b.total[node] * bScale, this.noise);
  };

  App.prototype.change = function (node) {
    const [a, b] = this.compared(node);
    return RULE.classify(a, b, this.m.a.calls[node] > 0, this.m.b.calls[node] > 0, this.noise);
  };

  App.prototype.colourOf = function (node) {
    if (node === this.m.ALL)
      return STRUCTURE_GREY;
    if (this.colours[node] === undefined) {
      const [a, b] = this.compared(node);
      this.colours[node] = RULE.css(RULE.hsl(a, b, this.m.a.calls[node] > 0, this.m.b.calls[node] > 0, this.noise));
    }
    return this.colours[node];
  };

  App.prototype.dumpView = function () {
    const p = paths(this.m);
    return p.map((path, i) => `${path}\t${this.colourOf(i)}`).sort(byCodeUnit);
  };

  App.prototype.state = function () {
    const v = this.view, s = this.settings;
    return {
      mode: 'diff',
      shape: s.shape,
      colourBy: s.colourBy,
      normalize: s.normalize,
      floorNs: s.floorNs,
      floorPercent: s.floorPercent,
      zoom: v.zoom === v.viewRoot ? null : v.zoom,
      zoomName: v.zoom === v.viewRoot ? null : v.nodeName(v.zoom),
      search: this.search,
      orientation: v.icicle ? 'icicle' : 'flame',
      merged: this.merged,
      totals: { a: this.m.a.total[this.m.ALL], b: this.m.b.total[this.m.ALL] },
    };
  };

  App.prototype.writeHash = function () {
    const s = this.state();
    const p = new URLSearchParams();
    if (s.shape === 'a')
      p.set('shape', 'a');
    if (s.colourBy === 'total')
      p.set('by', 'total');
    if (s.normalize !== 'raw')
      p.set('norm', s.normalize);
    if (s.floorNs !== RULE.DEFAULT_MIN_NS)
      p.set('floor', String(s.floorNs));
    if (s.floorPercent !== RULE.DEFAULT_MIN_PERCENT)
      p.set('floorpct', String(s.floorPercent));
    if (s.zoom !== null)
      p.set('zoom', String(s.zoom));
    if (s.search !== '')
      p.set('search', s.search);
    if (s.orientation === 'icicle')
      p.set('view', 'icicle');
    p.set('merge', s.merged ? '1' : '0');
    const hash = '#' + p.toString();
    /* A page opened plainly keeps its plain URL until the view changes. */
    if (location.hash === '' && hash === '#merge=' + (this.mergeDefault ? '1' : '0'))
      return;
    if (location.hash !== hash)
      history.replaceState(null, '', hash);
  };

  const nonNegative = (text, fallback) => {
    const v = Number(text);
    return text !== null && text !== '' && Number.isFinite(v) && v >= 0 ? v : fallback;
  };

  App.prototype.readHash = function () {
    const p = new URLSearchParams(location.hash.slice(1));
    const s = this.settings;
    const merge = p.get('merge');
    this.setMerged(merge === '1' || merge === '0' ? merge === '1' : AFG_MERGE.stored());
    const m = this.m;
    s.shape = p.get('shape') === 'a' ? 'a' : 'b';
    s.colourBy = p.get('by') === 'total' ? 'total' : 'self';
    s.normalize = ['per-step', 'equal-totals'].includes(p.get('norm')) ? p.get('norm') : 'raw';
    s.floorNs = nonNegative(p.get('floor'), RULE.DEFAULT_MIN_NS);
    s.floorPercent = nonNegative(p.get('floorpct'), RULE.DEFAULT_MIN_PERCENT);
    this.prepare();
    const z = Number(p.get('zoom'));
    this.view.zoom = p.has('zoom') && Number.isInteger(z) && z >= 0 && z < m.F ? z : m.ALL;
    this.view.icicle = p.get('view') === 'icicle';
    this.search = p.get('search') || '';
    this.syncControls();
  };

  App.prototype.syncControls = function () {
    const s = this.settings;
    $('shape').value = s.shape;
    $('colour-by').value = s.colourBy;
    $('normalize').value = s.normalize;
    $('floor-us').value = String(s.floorNs / 1000);
    $('floor-percent').value = String(s.floorPercent);
    $('search').value = this.search;
    this.updateOrientationButton();
  };

  /* A new setting keeps the zoom unless its frame has no width now. */
  App.prototype.set = function (key, value) {
    this.settings[key] = value;
    this.prepare();
    if (this.view.zoom !== this.m.ALL && !(this.view.wt[this.view.zoom] > 0))
      this.view.zoom = this.m.ALL;
    this.syncControls();
    this.apply({ scroll: key === 'shape' });
  };

  /* "A → B (Δ, Δ%)", Δ% of A; "new" when A has none. */
  function changeText(a, b, fmt) {
    const d = b - a;
    const sign = d > 0 ? '+' : d < 0 ? '−' : '';
    const percent = a > 0 ? sign + fmtPct(Math.abs(d), a) : b > 0 ? AFG_T('changeNew') : '0%';
    return AFG_T('change', { a: fmt(a), b: fmt(b), delta: sign + fmt(Math.abs(d)), percent });
  }

  /* What the colours alone do not say: a side lacks the frame, or its
   * change is under the noise floor. */
  App.prototype.notesOf = function (node) {
    const [a, b] = this.compared(node);
    const notes = [];
    if (!(this.m.b.calls[node] > 0))
      notes.push(AFG_T('onlyInA'));
    else if (!(this.m.a.calls[node] > 0))
      notes.push(AFG_T('onlyInB'));
    if (this.change(node) === 'same' && a !== b)
      notes.push(AFG_T('underFloor'));
    return notes;
  };

  App.prototype.tooltipRows = function (n) {
    const m = this.m, v = this.view, s = this.settings, { aScale, bScale } = this.norm;
    const perStep = s.normalize === 'per-step';
    const per = perStep ? AFG_T('perStepSuffix') : '';
    const rows = [];
    if (n !== m.ALL)
      rows.push([AFG_T('category'), AFG_T('cat_' + m.categories[m.nameCat[m.name[n]]])]);
    rows.push([AFG_T('self') + per, changeText(m.a.self[n] * aScale, m.b.self[n] * bScale, fmtTime)],
              [AFG_T('total') + per, changeText(m.a.total[n] * aScale, m.b.total[n] * bScale, fmtTime)],
              [AFG_T('calls') + per, changeText(m.a.calls[n] * (perStep ? aScale : 1),
                                                m.b.calls[n] * (perStep ? bScale : 1), fmtCount)],
              [AFG_T('ofShape', { side: s.shape.toUpperCase() }), fmtPct(v.wt[n], v.wt[m.ALL])]);
    if (s.normalize === 'equal-totals')
      rows.push(['', AFG_T('scaledA', { factor: aScale.toFixed(3) })]);
    return rows;
  };

  App.prototype.showTooltip = function (hit, ev) {
    const name = document.createElement('div');
    name.className = 'name';
    name.textContent = this.view.nodeName(hit.node);
    const table = document.createElement('table');
    for (const [k, val] of this.tooltipRows(hit.node)) {
      const tr = table.insertRow();
      tr.insertCell().textContent = k;
      tr.insertCell().textContent = val;
    }
    const parts = [name, table];
    for (const note of hit.node === this.m.ALL ? [] : this.notesOf(hit.node)) {
      const p = document.createElement('div');
      p.className = 'note';
      p.textContent = note;
      parts.push(p);
    }
    $('tooltip').replaceChildren(...parts);
    placeTooltip(ev);
  };

  App.prototype.bind = function () {
    this.bindView();
    $('shape').addEventListener('change', (ev) => this.set('shape', ev.target.value));
    $('colour-by').addEventListener('change', (ev) => this.set('colourBy', ev.target.value));
    $('normalize').addEventListener('change', (ev) => this.set('normalize', ev.target.value));
    $('floor-us').addEventListener('change', (ev) =>
      this.set('floorNs', nonNegative(ev.target.value, 0) * 1000));
    $('floor-percent').addEventListener('change', (ev) =>
      this.set('floorPercent', nonNegative(ev.target.value, 0)));
    $('merge-addresses').addEventListener('change', () => this.toggleMerged());
  };

  /* The single page's handlers of the graph, search, zoom and keys: they
   * only need view, search, showTooltip, readHash and writeHash. */
  for (const name of ['apply', 'updateSearch', 'zoomTo', 'setSearchText', 'updateOrientationButton', 'onEscape',
                      'hideTooltip', 'onMove', 'onLeave', 'onClick', 'onKey', 'onScroll', 'bindView'])
    App.prototype[name] = AFG_VIEW.App.prototype[name];

  /* ---------- static parts ---------- */

  function fillSelect(id, options) {
    $(id).replaceChildren(...options.map(([value, key]) => new Option(AFG_T(key), value)));
  }

  function describeScope(side) {
    const scope = side.scope;
    if (scope === null)
      return side.step_count > 1 ? AFG_T('scopeWholeSteps', { n: fmtInt(side.step_count) })
        : AFG_T(side.step_count === 1 ? 'scopeWholeOneStep' : 'scopeWhole');
    if (scope.steps === null)
      return AFG_T('scopeRangeDiff');
    const [first, last] = scope.steps;
    return AFG_T(first === last ? 'scopeOneStepDiff' : 'scopeStepsDiff', { first, last });
  }

  function fillSides(m) {
    for (const key of ['a', 'b']) {
      const side = m.raw[key];
      $('side-' + key).textContent = AFG_T('side', {
        side: key.toUpperCase(), file: side.source.file, scope: describeScope(side), total: fmtTime(m[key].total[m.ALL]),
      });
    }
    const notes = [];
    const sa = m.raw.a.step_count, sb = m.raw.b.step_count;
    if (sa > 0 && sb > 0 && sa !== sb)
      notes.push(AFG_TN('stepsDiffer', sa, { a: fmtInt(sa), b: fmtInt(sb) }));
    if (m.raw.options.merge_addresses)
      notes.push(AFG_T('mergedAddresses'));
    $('diff-note').textContent = notes.join(' · ');
  }

  function fillLegend() {
    const legend = $('legend');
    for (const [change, key] of [['grew', 'legendGrew'], ['shrank', 'legendShrank'], ['onlyA', 'legendOnlyA'],
                                 ['onlyB', 'legendOnlyB'], ['same', 'legendSame']]) {
      const item = document.createElement('span');
      item.className = 'legend-item';
      item.dataset.change = change;
      const sw = document.createElement('span');
      sw.className = 'swatch';
      sw.style.background = RULE.css(RULE.kindHsl(change));
      item.append(sw, document.createTextNode(AFG_T(key)));
      legend.append(item);
    }
    const scale = document.createElement('span');
    scale.className = 'legend-scale';
    scale.textContent = AFG_T('legendScale');
    legend.append(scale);
  }

  function main() {
    translateStatic();
    let m;
    try {
      m = loadModel();
    } catch (err) {
      showEmpty(AFG_T('badData', { error: err.message }), false);
      return;
    }
    fillSelect('shape', [['b', 'shapeB'], ['a', 'shapeA']]);
    fillSelect('colour-by', [['self', 'bySelf'], ['total', 'byTotal']]);
    fillSelect('normalize', [['raw', 'normRaw'], ['per-step', 'normPerStep'], ['equal-totals', 'normEqualTotals']]);
    fillSides(m);
    fillLegend();
    const app = new App(m);
    if (app.premerged) {
      $('merge-addresses').disabled = true;
      $('merge-field').title = $('merge-addresses').title = AFG_T('mergedByExport');
    }
    window.flamegraph = {
      state: () => app.state(),
      dump: (kind) => (kind === 'view' ? app.dumpView() : dumpModel(app.m)),
      frames: (name) => app.view.frames(String(name)),
      firstDrawMs: null,
    };
    app.readHash();
    if (app.m.F === 0) {
      showEmpty(AFG_T('emptyBoth'), false);
      return;
    }
    app.bind();
    app.apply({ scroll: true });
    window.flamegraph.firstDrawMs = performance.now();
  }

  main();
})();
