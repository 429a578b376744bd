/* SPDX-License-Identifier: MIT */
/* The interactive flame graph of an exported profile. It reads the data
 * block (#afg-data, compact encoding, see afg-html-writer.c) once, lays out
 * the current view in typed arrays and draws only the frames on screen.
 *
 * Automation API, window.flamegraph:
 *   frames(name) -> [{x, y, width, height}]  the drawn rectangles (CSS px,
 *                   relative to canvas#flame) of on-screen frames whose name
 *                   is exactly `name`, in row then x order.
 *   state()      -> {thread, zoom, search, zoomName, orientation, weight}
 *                   thread: 'all' or the thread's 'pid/tid' label;
 *                   zoom: node id of the zoom root, null when not zoomed;
 *                   search: the search text; orientation: 'flame'|'icicle';
 *                   weight: 'host', 'npu', 'compute', 'comm' or 'exposed'
 *                   (what the widths show; kinds.js).
 *   dump(kind)   -> every node as 'pid/tid;frame;…<TAB>calls<TAB>total_ns<TAB>self_ns'
 *                   lines, sorted: the tree the page decoded, for checks;
 *                   dump('npu') appends <TAB>npu_total<TAB>npu_self<TAB>npu_tasks
 *                   (threads: <TAB>npu_total<TAB>0<TAB>0); dump('kinds') the
 *                   .kinds.expected lines (path, then compute total, self,
 *                   tasks, comm total, self, ops, exposed total, self) and
 *                   dump('kernels') the .kernels.expected lines.
 *   steps()      -> [{id, durationNs, inScope, slow, x, y, width, height}]
 *                   the step strip's bars (CSS px, relative to canvas#steps).
 *   functions()  -> the JSON export's "functions" array (functions.js),
 *                   host time whatever the weight.
 *   functionRows() -> [{name, calls, self_ns, total_ns}] the Functions
 *                   panel's table in the current weight (NPU self/total
 *                   with weight 'npu'), sorted and filtered as shown but
 *                   not cut at the 200 rows the page draws.
 *   selectFunction(name) -> selects it in the Functions panel: its frames
 *                   are highlighted and its sandwich drawn.
 *   firstDrawMs  -> performance.now() when the graph was first drawn.
 *   pathOf(node) -> 'pid/tid;frame;…' of a node id (as dump()'s), null for none.
 * state() also has perStep (the toggle), stepCount (what "per step"
 * divides by: the steps in the exported scope), scope ([A, B] or null),
 * merged, idle (the NPU-idle tree is shown) and hasIdle (the page has one:
 * exported with --npu-idle), match (the match F3 or Enter in the search
 * box went to last, from 1; 0 before a step and after a new search) and
 * matchNode (its node id, or null). steps()' bars also have parts: the device
 * split as drawn, [{part, ns, y, height}] bottom up, or null.
 * The view also lives in the URL hash:
 * #thread=…&zoom=…&search=…&view=icicle&weight=npu|compute|comm|exposed&perstep=1&idle=1&merge=0|1.
 */
'use strict';
(function () {
  const ROW_H = 18;
  const LABEL_MIN_PX = 22;
  /* A pixel, less what a width's division can leave it short: a frame of
   * exactly one pixel is drawn, as "narrower than a pixel" says. */
  const ONE_PX = 1 - 1e-9;
  /* A search's matches: a magenta bar along their bottom, at least
   * MATCH_BAR_MIN_PX wide, as the window draws them (afg-flame-renderer.c);
   * F3 brings a match narrower than MATCH_MIN_PX into view by zooming. */
  const MATCH_COLOUR = 'rgb(224, 0, 140)';
  const MATCH_BAR_H = 3;
  const MATCH_BAR_MIN_PX = 4;
  const MATCH_MIN_PX = 3;
  const FONT = '12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
  /* The GTK viewer's rule (afg-flame-layout.c), so both agree on every colour:
   * the category picks hue and saturation, the FNV-1a hash of the name's
   * UTF-8 bytes picks the lightness. */
  const CATEGORY_HUES = {
    python: [200, 65], python_framework: [30, 65], cann: [130, 65], unknown: [0, 0],
  };
  const $ = (id) => document.getElementById(id);

  /* ---------- data ---------- */

  /* The writer's base-64 varints: five bits a digit, lowest first, bit 5
   * set on every digit but a number's last. */
  const VARINT_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

  /* Returns the numbers as doubles, and the exact value of every number
   * of more than ten digits (above 2^50), where a double may round: those
   * are rounded once, from the exact value, as JSON.parse would. */
  function decodeVarints(text) {
    const digit = new Uint8Array(128);
    for (let i = 0; i < 64; i++)
      digit[VARINT_DIGITS.charCodeAt(i)] = i;
    const values = new Float64Array(text.length);
    const exact = new Map();
    let n = 0, v = 0, scale = 1, start = 0;
    for (let i = 0; i < text.length; i++) {
      const d = digit[text.charCodeAt(i) & 127];
      v += (d & 31) * scale;
      if (d & 32) {
        scale *= 32;
        continue;
      }
      if (i - start >= 10) {
        let big = 0n;
        for (let k = i; k >= start; k--)
          big = (big << 5n) | BigInt(digit[text.charCodeAt(k) & 127] & 31);
        exact.set(n, big);
        v = Number(big);
      }
      values[n++] = v;
      v = 0;
      scale = 1;
      start = i + 1;
    }
    return { values: values.subarray(0, n), exact };
  }

  /* Front-coded names: each shares name_prefix[i] UTF-16 units with the
   * one before it. */
  function decodeNames(raw) {
    const { values: shared } = decodeVarints(raw.name_prefix);
    const names = new Array(raw.names.length);
    let prev = '';
    for (let i = 0; i < names.length; i++)
      prev = names[i] = prev.slice(0, shared[i]) + raw.names[i];
    return names;
  }

  function loadModel() {
    const m = decodeTree(JSON.parse($('afg-data').textContent));
    m.plain = treeOf(m);
    m.trees = { whole: { plain: m.plain, merged: undefined }, idle: null };
    const idle = $('afg-idle-data');
    if (idle !== null)
      m.trees.idle = { text: idle.textContent, plain: undefined, merged: undefined };
    return m;
  }

  /* The second tree of a page exported with --npu-idle: host time only;
   * the steps and the source are the data block's. Decoded when first
   * shown. */
  function idleTree(m) {
    const main = m.trees.whole.plain.raw;
    const raw = Object.assign(JSON.parse(m.trees.idle.text), {
      source: main.source, steps: main.steps, device_timeline: main.device_timeline, npu: null,
    });
    return treeOf(decodeTree(raw));
  }

  function decodeTree(raw) {
    const { values: nodes, exact } = decodeVarints(raw.nodes);
    const T = raw.threads.length;
    const F = nodes.length / 4;
    const ALL = T + F;
    const N = ALL + 1;
    const m = {
      raw, T, F, ALL, N,
      names: decodeNames(raw),
      nameCat: Uint8Array.from(raw.name_categories, (c) => c.charCodeAt(0) - 48),
      categories: raw.categories,
      name: new Int32Array(N).fill(-1),
      calls: new Float64Array(N),
      total: new Float64Array(N),
      self: new Float64Array(N),
      nchild: new Uint32Array(N),
      first: new Uint32Array(N),
      parent: new Int32Array(N).fill(-1),
      thread: new Int32Array(N),
      depth: new Uint16Array(N),
      exactTotal: new Map(),
    };
    for (let t = 0; t < T; t++) {
      m.total[t] = raw.threads[t].total_ns;
      m.nchild[t] = raw.threads[t].children;
      m.calls[t] = raw.threads[t].calls;
      m.total[ALL] += m.total[t];
    }
    for (let k = 0, i = T; k < nodes.length; k += 4, i++) {
      m.name[i] = nodes[k];
      m.calls[i] = nodes[k + 1];
      m.total[i] = nodes[k + 2];
      m.nchild[i] = nodes[k + 3];
      if (exact.has(k + 2))
        m.exactTotal.set(i, exact.get(k + 2));
    }
    linkChildren(m);
    m.hasNpu = raw.npu != null;
    if (m.hasNpu)
      loadNpu(m);
    AFG_KINDS.load(m, decodeVarints);
    m.origin = null;
    return m;
  }

  /* The model's tree: the merge toggle swaps these fields of the model
   * between the plain tree and the merged one (merge.js). */
  const TREE_FIELDS = ['names', 'nameCat', 'name', 'calls', 'total', 'self', 'nchild', 'first', 'parent',
                       'thread', 'depth', 'exactTotal', 'F', 'ALL', 'N', 'npuTotal', 'npuSelf', 'npuTasks', 'origin', 'kinds'];

  function treeOf(m) {
    const tree = { T: m.T, raw: m.raw, hasNpu: m.hasNpu };
    for (const k of TREE_FIELDS)
      tree[k] = m[k];
    return tree;
  }

  /* Built once, from the plain tree; the plain tree itself when no name
   * has an address. */
  function mergedTree(plain) {
    const t = AFG_MERGE.build(plain);
    if (t === null)
      return plain;
    Object.assign(t, {
      raw: plain.raw, hasNpu: plain.hasNpu, self: new Float64Array(t.N), first: new Uint32Array(t.N),
      parent: new Int32Array(t.N).fill(-1), thread: new Int32Array(t.N), depth: new Uint16Array(t.N),
    });
    linkChildren(t);
    if (plain.hasNpu)
      npuSelf(t);
    AFG_KINDS.mergeFinish(t);
    return treeOf(t);
  }

  /* @base (the plain or the merged tree) reshaped by each transform of
   * @list in turn (transforms.js); the threads left out leave raw's list. */
  function transformedTree(base, list) {
    let t = base;
    for (const tr of list) {
      const out = AFG_TRANSFORMS.applyOne(t, tr);
      Object.assign(out, {
        raw: Object.assign({}, t.raw, { threads: out.threads.map((i) => t.raw.threads[i]) }), hasNpu: t.hasNpu,
        self: new Float64Array(out.N), first: new Uint32Array(out.N), parent: new Int32Array(out.N).fill(-1),
        thread: new Int32Array(out.N), depth: new Uint16Array(out.N),
      });
      linkChildren(out);
      if (out.hasNpu)
        npuSelf(out);
      AFG_KINDS.mergeFinish(out);
      t = treeOf(out);
    }
    return t;
  }

  /* Frames that launched nothing are not in npu_nodes: (gap, total,
   * tasks) triples. NPU self time is total minus the children's totals. */
  function loadNpu(m) {
    m.npuTotal = new Float64Array(m.N);
    m.npuTasks = new Float64Array(m.N);
    for (let t = 0; t < m.T; t++) {
      m.npuTotal[t] = m.raw.threads[t].npu_total_ns;
      m.npuTotal[m.ALL] += m.npuTotal[t];
    }
    const { values } = decodeVarints(m.raw.npu_nodes || '');
    for (let k = 0, i = m.T; k + 2 < values.length; k += 3, i++) {
      i += values[k];
      if (i >= m.ALL)
        throw new Error('NPU frames do not add up');
      m.npuTotal[i] = values[k + 1];
      m.npuTasks[i] = values[k + 2];
    }
    npuSelf(m);
  }

  function npuSelf(m) {
    m.npuSelf = new Float64Array(m.N);
    for (let i = m.T; i < m.ALL; i++) {
      let sum = 0;
      for (let c = m.first[i], end = c + m.nchild[i]; c < end; c++)
        sum += m.npuTotal[c];
      m.npuSelf[i] = Math.max(0, m.npuTotal[i] - sum);
    }
  }

  /* Breadth-first order: the children of node i follow those of node i-1. */
  function linkChildren(m) {
    const childSum = new Float64Array(m.N);
    for (let t = 0; t < m.T; t++) {
      m.parent[t] = m.ALL;
      m.thread[t] = t;
      m.depth[t] = 1;
    }
    let next = m.T;
    for (let i = 0; i < m.ALL; i++) {
      m.first[i] = next;
      for (let c = next, end = next + m.nchild[i]; c < end; c++) {
        m.parent[c] = i;
        m.thread[c] = m.thread[i];
        m.depth[c] = m.depth[i] + 1;
        childSum[i] += m.total[c];
      }
      next += m.nchild[i];
    }
    if (next !== m.ALL)
      throw new Error('child counts do not add up');
    m.first[m.ALL] = 0;
    m.nchild[m.ALL] = m.T;
    m.thread[m.ALL] = -1;
    for (let i = m.T; i < m.ALL; i++)
      m.self[i] = Math.max(0, m.total[i] - childSum[i]);
    exactSelf(m);
  }

  /* Totals above 2^50 (only hostile timestamps get there): self time as the
   * core computes it, in exact integers, children's sum saturating at
   * int64's maximum. Contained children never exceed their parent, so only
   * the nodes with such a total need it. */
  function exactSelf(m) {
    const MAX = (1n << 63n) - 1n;
    for (const [i, total] of m.exactTotal) {
      let sum = 0n;
      for (let c = m.first[i], end = c + m.nchild[i]; c < end; c++)
        sum += m.exactTotal.has(c) ? m.exactTotal.get(c) : BigInt(m.total[c]);
      const self = total - (sum > MAX ? MAX : sum);
      m.self[i] = self > 0n ? Number(self) : 0;
    }
  }

  /* What both views show of each frame, for the agreement test with the
   * window's core: path, colour, share of all (host time). */
  function dumpView(m, colour) {
    const paths = new Array(m.ALL);
    const lines = [];
    for (let i = 0; i < m.ALL; i++) {
      paths[i] = i < m.T ? m.raw.threads[i].label : paths[m.parent[i]] + ';' + m.names[m.name[i]];
      lines.push(`${paths[i]}\t${colour(i)}\t${fmtPct(m.total[i], m.total[m.ALL])}`);
    }
    return lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  function pathOf(m, node) {
    if (!Number.isInteger(node) || node < 0 || node >= m.ALL)
      return null;
    const names = [];
    for (let n = node; n >= m.T; n = m.parent[n])
      names.push(m.names[m.name[n]]);
    names.push(m.raw.threads[names.length > 0 ? m.thread[node] : node].label);
    return names.reverse().join(';');
  }

  function dumpModel(m, kind) {
    const npu = kind === 'npu';
    const paths = new Array(m.ALL);
    const lines = [];
    for (let i = 0; i < m.ALL; i++) {
      paths[i] = i < m.T ? m.raw.threads[i].label : paths[m.parent[i]] + ';' + m.names[m.name[i]];
      if (kind === 'kinds' || kind === 'kernels') {
        if (m.kinds && kind === 'kinds')
          lines.push(paths[i] + AFG_KINDS.kindsLine(m, i));
        else if (m.kinds)
          lines.push(...AFG_KINDS.kernelLines(m, i, paths[i]));
        continue;
      }
      let line = `${paths[i]}\t${m.calls[i]}\t${m.total[i]}\t${i < m.T ? 0 : m.self[i]}`;
      if (npu && m.hasNpu)
        line += i < m.T ? `\t${m.npuTotal[i]}\t0\t0` : `\t${m.npuTotal[i]}\t${m.npuSelf[i]}\t${m.npuTasks[i]}`;
      lines.push(line);
    }
    return lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /* ---------- formatting ---------- */

  /* format.js: the window's rules. */
  const fmtTime = AFG_FORMAT.time;
  const fmtPct = AFG_FORMAT.pct;
  const fmtInt = AFG_FORMAT.int;
  /* Calls per step need not be whole. */
  const fmtCount = AFG_FORMAT.count;

  /* ---------- the tooltip ---------- */

  function placeTooltip(ev) {
    const tip = $('tooltip');
    tip.hidden = false;
    const pad = 14;
    const w = tip.offsetWidth, h = tip.offsetHeight;
    let x = ev.clientX + pad, y = ev.clientY + pad;
    if (x + w > window.innerWidth)
      x = Math.max(0, ev.clientX - pad - w);
    if (y + h > window.innerHeight)
      y = Math.max(0, ev.clientY - pad - h);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }

  /* @rows: [[key, value]] under the text, or none. */
  function showTextTip(text, ev, rows = []) {
    const name = document.createElement('div');
    name.className = 'name';
    name.textContent = text;
    const table = document.createElement('table');
    for (const [k, val] of rows) {
      const tr = table.insertRow();
      tr.insertCell().textContent = k;
      tr.insertCell().textContent = val;
    }
    $('tooltip').replaceChildren(name, ...(rows.length ? [table] : []));
    placeTooltip(ev);
  }

  function hideTooltip() {
    $('tooltip').hidden = true;
  }

  /* ---------- colours ---------- */

  const utf8 = new TextEncoder();

  function hashString(s) {
    const bytes = utf8.encode(s);
    let h = 0x811c9dc5;
    for (let i = 0; i < bytes.length; i++)
      h = Math.imul(h ^ bytes[i], 0x01000193);
    return h >>> 0;
  }

  function makePalette(m) {
    const cache = new Array(m.names.length);
    const colour = (node) => colour.ofName(m.name[node]);
    colour.ofName = function (n) {
      if (n < 0)
        return '#b9b9b2';
      if (cache[n] === undefined) {
        const [hue, sat] = CATEGORY_HUES[m.categories[m.nameCat[n]]] || CATEGORY_HUES.unknown;
        const h = hashString(m.names[n]);
        const light = sat === 0 ? 60 + (h % 15) : 55 + (h % 20);
        cache[n] = `hsl(${hue}, ${sat}%, ${light}%)`;
      }
      return cache[n];
    };
    return colour;
  }

  /* ---------- the view ---------- */

  function FlameView(m) {
    this.m = m;
    this.colour = makePalette(m);
    this.canvas = $('flame');
    this.hover = $('flame-hover');
    this.wrap = $('flame-wrap');
    this.ctx = this.canvas.getContext('2d', { alpha: false });
    this.hctx = this.hover.getContext('2d');
    this.hoverDrawn = false;
    this.cap = m.N + AFG_KINDS.countLeaves(m) + 1024;
    this.leaves = [];  /* the laid-out kernel leaves: entry e has lnode[e] = -1 - index */
    this.lnode = new Int32Array(this.cap);
    this.lx = new Float64Array(this.cap);
    this.lw = new Float64Array(this.cap);
    this.rowStart = [0];
    this.viewRoot = m.ALL;
    this.zoom = m.ALL;
    this.icicle = false;
    this.weight = 'host';
    this.wt = m.total;  /* the weight's totals: widths, shares */
    this.match = null;
    this.matchKey = null;  /* the search and thread view matchNodes is of */
    this.matchNodes = null;  /* the matches in F3's order, made on the first step */
    this.matchPos = 0;  /* 1-based, in matchNodes; 0 before a step */
    this.selected = -1;  /* name index of the function picked in the Functions panel */
    this.hoverEntry = -1;
    this.layoutWidth = -1;
    this.nameWidth = new Float32Array(m.names.length).fill(-1);
    this.lower = null;
    this.darkQuery = matchMedia('(prefers-color-scheme: dark)');
  }

  FlameView.prototype.nodeName = function (node) {
    const m = this.m;
    if (node < 0)
      return AFG_KINDS.leafName(this.leaves[-1 - node].leaf);
    if (node === m.ALL)
      return AFG_T('allThreads');
    if (node < m.T)
      return threadTitle(m.raw.threads[node]);
    return m.names[m.name[node]];
  };

  FlameView.prototype.setWeight = function (weight) {
    const m = this.m;
    this.weight = m.hasNpu && (weight === 'npu' || AFG_KINDS.isWeight(weight)) ? weight : 'host';
    this.wt = this.weight === 'host' ? m.total : this.weight === 'npu' ? m.npuTotal : m.kinds.total[this.weight];
  };

  FlameView.prototype.inView = function (node) {
    return this.viewRoot === this.m.ALL || this.m.thread[node] === this.viewRoot;
  };

  /* Ancestors of the zoom root as full-width rows, then the zoom root's
   * subtree breadth-first, so that every row is sorted by x and contiguous.
   * Frames under a device pixel are left out with their subtrees. */
  FlameView.prototype.layout = function (cssWidth) {
    const m = this.m;
    const minFrac = ONE_PX / Math.max(1, cssWidth * (window.devicePixelRatio || 1));
    const path = [];
    for (let n = this.zoom; n !== -1; n = n === this.viewRoot ? -1 : m.parent[n])
      path.push(n);
    path.reverse();
    const { lnode, lx, lw } = this;
    const rowStart = [];
    let len = 0;
    this.leaves = [];
    for (const n of path) {
      rowStart.push(len);
      lnode[len] = n; lx[len] = 0; lw[len] = 1; len++;
    }
    for (let begin = len - 1, end = len; begin < end; begin = end, end = len) {
      for (let e = begin; e < end; e++) {
        const n = lnode[e];
        if (n < 0)
          continue;
        const wt = this.wt;
        const scale = wt[n] > 0 ? lw[e] / wt[n] : 0;
        let x = lx[e];
        for (let c = m.first[n], stop = c + m.nchild[n]; c < stop; c++) {
          const w = wt[c] * scale;
          if (w >= minFrac) {
            lnode[len] = c; lx[len] = x; lw[len] = w; len++;
          }
          x += w;
        }
        len = this.layoutLeaves(n, x, scale, minFrac, len);
      }
      if (len > end)
        rowStart.push(end);
    }
    rowStart.push(len);
    this.rowStart = rowStart;
    this.len = len;
    this.zoomRow = path.length - 1;
    this.layoutWidth = cssWidth;
  };

  /* In a device weight by kind, a frame's kernel leaves of that kind take
   * its own time, after its children. */
  FlameView.prototype.layoutLeaves = function (n, x, scale, minFrac, len) {
    const leaves = this.m.kinds && AFG_KINDS.isWeight(this.weight) ? this.m.kinds.leaves[n] : undefined;
    if (leaves === undefined || n < this.m.T || n === this.m.ALL)
      return len;
    for (const leaf of leaves) {
      const w = AFG_KINDS.leafValue(this.weight, leaf) * scale;
      if (w >= minFrac) {
        this.leaves.push({ parent: n, leaf });
        this.lnode[len] = -this.leaves.length; this.lx[len] = x; this.lw[len] = w; len++;
      }
      x += w;
    }
    return len;
  };

  /* A leaf stands for its frame where a frame is meant (zoom, search). */
  FlameView.prototype.frameOf = function (node) {
    return node < 0 ? this.leaves[-1 - node].parent : node;
  };

  Object.defineProperty(FlameView.prototype, 'nRows', {
    get() { return this.rowStart.length - 1; },
  });

  FlameView.prototype.rowY = function (row) {
    if (!this.icicle)
      return this.totalH - (row + 1) * ROW_H - this.wrap.scrollTop;
    return row * ROW_H - this.wrap.scrollTop;
  };

  FlameView.prototype.rowAt = function (y) {
    const s = y + this.wrap.scrollTop;
    const row = this.icicle ? Math.floor(s / ROW_H) : Math.floor((this.totalH - s) / ROW_H);
    return row >= 0 && row < this.nRows ? row : -1;
  };

  FlameView.prototype.resize = function () {
    const contentH = this.nRows * ROW_H;
    const viewH = Math.max(60, this.wrap.clientHeight);
    this.totalH = Math.max(contentH, viewH);
    $('flame-spacer').style.height = this.totalH + 'px';
    const cssW = Math.max(50, this.wrap.clientWidth);
    const dpr = window.devicePixelRatio || 1;
    this.cssW = cssW;
    this.viewH = viewH;
    $('flame-stage').style.height = viewH + 'px';
    for (const c of [this.canvas, this.hover]) {
      const w = Math.round(cssW * dpr), h = Math.round(viewH * dpr);
      if (c.width !== w || c.height !== h) {
        c.width = w;
        c.height = h;
      }
      c.style.width = cssW + 'px';
      c.style.height = viewH + 'px';
    }
    this.dpr = dpr;
  };

  /* Lays out again when the width changed (culling depends on it), sizes
   * the canvas, then draws. */
  FlameView.prototype.render = function (relayout) {
    if (relayout || this.layoutWidth !== this.wrap.clientWidth)
      this.layout(this.wrap.clientWidth);
    this.resize();
    if (this.layoutWidth !== this.wrap.clientWidth) {
      this.layout(this.wrap.clientWidth);
      this.resize();
    }
    this.draw();
  };

  FlameView.prototype.scrollToRoot = function () {
    this.wrap.scrollTop = this.icicle ? 0 : this.wrap.scrollHeight;
  };

  FlameView.prototype.visibleRows = function () {
    const rows = [];
    for (let r = 0; r < this.nRows; r++) {
      const y = this.rowY(r);
      if (y + ROW_H > 0 && y < this.viewH)
        rows.push(r);
    }
    return rows;
  };

  FlameView.prototype.frameRect = function (e, y) {
    const x = this.lx[e] * this.cssW;
    const w = this.lw[e] * this.cssW;
    if (w * this.dpr < ONE_PX)
      return null;
    return { x, y, width: w > 3 ? w - 1 : w, height: ROW_H - 1 };
  };

  FlameView.prototype.draw = function () {
    const { ctx, m } = this;
    const dark = this.darkQuery.matches;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = dark ? '#1e1e1c' : '#fdfdfc';
    ctx.fillRect(0, 0, this.cssW, this.viewH);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    const dim = dark ? '#3a3a36' : '#e4e4de';
    const marked = [];
    for (const row of this.visibleRows()) {
      const y = this.rowY(row);
      for (let e = this.rowStart[row], end = this.rowStart[row + 1]; e < end; e++) {
        const r = this.frameRect(e, y);
        if (r === null)
          continue;
        const node = this.lnode[e];
        const dimmed = (this.match !== null || this.selected >= 0) && !this.isMatch(this.frameOf(node));
        const leaf = node < 0 ? this.leaves[-1 - node].leaf : null;
        ctx.fillStyle = dimmed ? dim : leaf ? AFG_KINDS.leafColour(leaf, dark) : this.colour(node);
        ctx.fillRect(r.x, r.y, r.width, r.height);
        if (leaf && !dimmed) {
          ctx.fillStyle = AFG_KINDS.leafBand(leaf);
          ctx.fillRect(r.x, this.icicle ? r.y + r.height - 3 : r.y, r.width, 3);
        }
        if (r.width >= LABEL_MIN_PX)
          this.drawLabel(node, r, dimmed ? '#8a8a84' : '#111');
        if (node >= 0 && this.isSearchMatch(node))
          marked.push(e, y);
      }
    }
    this.markMatches(marked);
    this.drawHover();
  };

  FlameView.prototype.isSearchMatch = function (node) {
    const n = this.m.name[node];
    return this.match !== null && n >= 0 && this.match[n] === 1;
  };

  /* The matches' bars, drawn last, as their fill alone among dimmed
   * frames is lost on a frame a pixel or two wide; the step's match also
   * gets an outline. @marked: entry, row y pairs. */
  FlameView.prototype.markMatches = function (marked) {
    const ctx = this.ctx;
    const current = this.matchPos > 0 ? this.matchNodes[this.matchPos - 1] : -1;
    ctx.fillStyle = MATCH_COLOUR;
    for (let i = 0; i < marked.length; i += 2) {
      const e = marked[i], y = marked[i + 1];
      let x = this.lx[e] * this.cssW, w = this.lw[e] * this.cssW;
      if (w < MATCH_BAR_MIN_PX) {
        x = Math.min(Math.max(x + w / 2 - MATCH_BAR_MIN_PX / 2, 0), Math.max(this.cssW - MATCH_BAR_MIN_PX, 0));
        w = MATCH_BAR_MIN_PX;
      }
      ctx.fillRect(x, y + ROW_H - 1 - MATCH_BAR_H, w, MATCH_BAR_H);
      if (this.lnode[e] === current) {
        ctx.strokeStyle = MATCH_COLOUR;
        ctx.lineWidth = 2;
        ctx.strokeRect(x + 1, y + 1, Math.max(0, w - 2), ROW_H - 3);
      }
    }
  };

  FlameView.prototype.textWidth = function (node, text) {
    const n = node < 0 ? -1 : this.m.name[node];
    if (n < 0)
      return this.ctx.measureText(text).width;
    if (this.nameWidth[n] < 0)
      this.nameWidth[n] = this.ctx.measureText(text).width;
    return this.nameWidth[n];
  };

  FlameView.prototype.drawLabel = function (node, r, colour) {
    const room = r.width - 8;
    let text = this.nodeName(node);
    const full = this.textWidth(node, text);
    if (full > room) {
      const chars = Math.floor((text.length * room) / full) - 1;
      if (chars < 2)
        return;
      text = text.slice(0, chars) + '…';
    }
    this.ctx.fillStyle = colour;
    this.ctx.fillText(text, r.x + 4, r.y + ROW_H / 2);
  };

  /* The overlay canvas is left alone until something is hovered: its first
   * use sets up a second canvas, 40 ms of the first paint. */
  FlameView.prototype.drawHover = function () {
    const { hctx } = this;
    if (this.hoverEntry < 0 && !this.hoverDrawn)
      return;
    hctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    hctx.clearRect(0, 0, this.cssW, this.viewH);
    this.hoverDrawn = false;
    if (this.hoverEntry < 0)
      return;
    const r = this.frameRect(this.hoverEntry, this.rowY(this.hoverRow));
    if (r === null)
      return;
    hctx.lineWidth = 2;
    hctx.strokeStyle = '#1a1aff';
    hctx.strokeRect(r.x + 1, r.y + 1, Math.max(0, r.width - 2), r.height - 2);
    this.hoverDrawn = true;
  };

  FlameView.prototype.hitTest = function (x, y) {
    const row = this.rowAt(y);
    if (row < 0)
      return null;
    const f = x / this.cssW;
    let lo = this.rowStart[row], hi = this.rowStart[row + 1] - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.lx[mid] <= f) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (found < 0 || f >= this.lx[found] + this.lw[found] || this.lw[found] * this.cssW * this.dpr < ONE_PX)
      return null;
    return { entry: found, row, node: this.lnode[found] };
  };

  FlameView.prototype.isMatch = function (node) {
    const n = this.m.name[node];
    return n >= 0 && (this.match === null || this.match[n] === 1) && (this.selected < 0 || n === this.selected);
  };

  /* Matching frames in the current thread view and the share of its time
   * they cover; a match inside a match is not counted twice. */
  FlameView.prototype.setSearch = function (text) {
    const m = this.m;
    const q = text.toLowerCase();
    const key = q + '\n' + this.viewRoot;
    if (key !== this.matchKey) {
      this.matchKey = key;
      this.matchNodes = null;
      this.matchPos = 0;
    }
    if (q === '') {
      this.match = null;
      return null;
    }
    if (this.lower === null)
      this.lower = m.names.map((s) => s.toLowerCase());
    const match = new Uint8Array(m.names.length);
    for (let i = 0; i < match.length; i++)
      if (this.lower[i].includes(q))
        match[i] = 1;
    this.match = match;
    const covered = new Uint8Array(m.N);
    let count = 0, time = 0;
    for (let i = m.T; i < m.ALL; i++) {
      if (!this.inView(i))
        continue;
      const p = m.parent[i];
      const hit = match[m.name[i]] === 1;
      if (hit) {
        count++;
        if (!covered[p])
          time += this.wt[i];
      }
      covered[i] = hit || covered[p];
    }
    return { count, time };
  };

  /* The matches in the thread view depth first, children in order: the
   * window's order (afg_flame_search_list). */
  FlameView.prototype.listMatches = function () {
    const m = this.m, list = [], stack = [this.viewRoot];
    while (stack.length > 0) {
      const n = stack.pop();
      if (n < m.ALL && this.isSearchMatch(n))
        list.push(n);
      for (let c = m.first[n] + m.nchild[n] - 1; c >= m.first[n]; c--)
        stack.push(c);
    }
    return list;
  };

  /* The next (or previous) match, wrapping; -1 without any. */
  FlameView.prototype.stepMatch = function (forward) {
    if (this.match === null)
      return -1;
    if (this.matchNodes === null)
      this.matchNodes = this.listMatches();
    const n = this.matchNodes.length;
    if (n === 0)
      return -1;
    if (this.matchPos === 0)
      this.matchPos = forward ? 1 : n;
    else
      this.matchPos = forward ? (this.matchPos % n) + 1 : ((this.matchPos + n - 2) % n) + 1;
    return this.matchNodes[this.matchPos - 1];
  };

  /* The zoom that shows @node at least @minPx of @widthPx wide, zoomed
   * out as far as it can: afg_flame_search_reveal_root's rule. */
  FlameView.prototype.revealRoot = function (node, widthPx, minPx) {
    const m = this.m, value = this.wt[node];
    let best = node;
    while (best !== this.viewRoot) {
      const parent = m.parent[best];
      const under = parent >= 0 ? this.wt[parent] : 0;
      if (under <= 0 || (value * widthPx) / under < minPx)
        break;
      best = parent;
    }
    return best;
  };

  FlameView.prototype.entryOf = function (node) {
    for (let e = 0; e < this.len; e++)
      if (this.lnode[e] === node)
        return e;
    return -1;
  };

  /* Scrolls @node's row into the middle of the view unless it shows. */
  FlameView.prototype.scrollToNode = function (node) {
    const e = this.entryOf(node);
    let row = 0;
    while (row + 1 < this.rowStart.length && this.rowStart[row + 1] <= e)
      row++;
    const y = this.rowY(row);
    if (e >= 0 && (y < 0 || y + ROW_H > this.viewH))
      this.wrap.scrollTop += y - (this.viewH - ROW_H) / 2;
  };

  FlameView.prototype.frames = function (name) {
    const out = [];
    for (const row of this.visibleRows()) {
      const y = this.rowY(row);
      for (let e = this.rowStart[row], end = this.rowStart[row + 1]; e < end; e++) {
        if (this.nodeName(this.lnode[e]) !== name)
          continue;
        const r = this.frameRect(e, y);
        if (r !== null)
          out.push(r);
      }
    }
    return out;
  };

  /* ---------- the page ---------- */

  function App(m, strip) {
    this.m = m;
    this.view = new FlameView(m);
    this.strip = strip;
    this.search = '';
    this.pending = false;
    this.perStep = false;
    this.merged = false;  /* the model holds the plain tree */
    this.idle = false;  /* the model holds the whole tree, not the NPU-idle one */
    this.transforms = [];  /* {op, arg}, applied in order to the plain or merged tree */
    this.mergeDefault = AFG_MERGE.stored();
    this.functions = null;  /* AFG_FUNCTIONS.attach() */
  }

  /* "Per step" divides every value shown by the steps in scope. */
  App.prototype.divisor = function () {
    const n = this.strip.count();
    return this.perStep && n > 0 ? n : 1;
  };

  App.prototype.threadKey = function () {
    const v = this.view;
    return v.viewRoot === this.m.ALL ? 'all' : this.m.raw.threads[v.viewRoot].label;
  };

  App.prototype.state = function () {
    const v = this.view;
    return {
      thread: this.threadKey(),
      zoom: v.zoom === v.viewRoot ? null : v.zoom,
      zoomName: v.zoom === v.viewRoot ? null : v.nodeName(v.zoom),
      search: this.search,
      orientation: v.icicle ? 'icicle' : 'flame',
      weight: v.weight,
      perStep: this.perStep,
      stepCount: this.strip.count(),
      scope: this.m.raw.scope ? this.m.raw.scope.steps : null,
      merged: this.merged,
      idle: this.idle,
      hasIdle: Boolean(this.m.trees && this.m.trees.idle),
      transforms: this.transforms.map((t) => ({ op: t.op, arg: t.arg })),
      match: v.matchPos,
      matchNode: v.matchPos > 0 ? v.matchNodes[v.matchPos - 1] : null,
    };
  };

  /* F3 / Shift+F3: the next or previous match, zoomed out to as far as
   * shows it MATCH_MIN_PX wide when the zoom shows it narrower (or not at
   * all), then scrolled to. */
  App.prototype.stepMatch = function (forward) {
    const v = this.view;
    const node = v.stepMatch(forward);
    if (node < 0)
      return;
    const e = v.entryOf(node);
    if (e < 0 || v.lw[e] * v.cssW < MATCH_MIN_PX) {
      v.zoom = v.revealRoot(node, v.cssW, MATCH_MIN_PX);
      this.apply({ scroll: true });
    }
    v.scrollToNode(node);
    v.draw();
  };

  App.prototype.writeHash = function () {
    const s = this.state();
    const p = new URLSearchParams();
    p.set('thread', s.thread);
    if (s.zoom !== null)
      p.set('zoom', String(s.zoom));
    if (s.search !== '')
      p.set('search', s.search);
    if (s.orientation === 'icicle')
      p.set('view', 'icicle');
    if (s.weight !== 'host')
      p.set('weight', s.weight);
    if (s.perStep)
      p.set('perstep', '1');
    if (s.idle)
      p.set('idle', '1');
    p.set('merge', s.merged ? '1' : '0');
    let hash = '#' + p.toString();
    if (s.transforms.length > 0)
      hash += '&t=' + encodeURIComponent(JSON.stringify(s.transforms));
    /* A page opened plainly keeps its plain URL until the view changes. */
    if (location.hash === '' && hash === '#thread=all&merge=' + (this.mergeDefault ? '1' : '0'))
      return;
    if (location.hash !== hash)
      history.replaceState(null, '', hash);
  };

  App.prototype.readHash = function () {
    const p = new URLSearchParams(location.hash.slice(1));
    const m = this.m;
    const merge = p.get('merge');
    const list = p.has('t') ? AFG_TRANSFORMS.parseList(p.get('t')) : [];
    this.setTree(merge === '1' || merge === '0' ? merge === '1' : AFG_MERGE.stored(), list || [], p.get('idle') === '1');
    const t = p.get('thread');
    let root = m.ALL;
    for (let i = 0; i < m.T; i++)
      if (m.raw.threads[i].label === t)
        root = i;
    const z = Number(p.get('zoom'));
    const zoomOk = p.has('zoom') && Number.isInteger(z) && z >= 0 && z < m.ALL;
    this.view.viewRoot = root;
    this.view.zoom = zoomOk && this.view.inView(z) ? z : root;
    this.view.icicle = p.get('view') === 'icicle';
    this.setWeightControls(p.get('weight'));
    this.search = p.get('search') || '';
    this.perStep = p.get('perstep') === '1' && this.strip.count() > 0;
    this.updatePerStep();
    $('thread-select').value = this.threadKey();
    $('search').value = this.search;
    this.updateOrientationButton();
  };

  App.prototype.apply = function (opts) {
    this.hideTooltip();
    this.view.hoverEntry = -1;
    this.updateSearch();
    this.view.render(true);
    if (opts && opts.scroll)
      this.view.scrollToRoot();
    this.view.draw();
    this.writeHash();
  };

  App.prototype.updateSearch = function () {
    const v = this.view;
    const res = v.setSearch(this.search);
    const el = $('match-count');
    if (this.functions)
      this.functions.setFilter(this.search);
    if (res === null)
      el.textContent = '';
    else if (res.count === 0)
      el.textContent = AFG_T('noMatches');
    else
      el.textContent = AFG_T(res.count === 1 ? 'oneMatch' : 'matches',
                             { n: fmtInt(res.count), share: fmtPct(res.time, v.wt[v.viewRoot]) });
  };

  /* The weight switch and the thread picker, whose values follow it. */
  App.prototype.setWeightControls = function (weight) {
    this.view.setWeight(weight);
    $('weight').value = this.view.weight;
    fillThreads(this.m, this.view.wt, this.divisor());
    $('thread-select').value = this.threadKey();
    if (this.functions)
      this.functions.weightChanged();
  };

  App.prototype.setWeight = function (weight) {
    this.setWeightControls(weight);
    this.view.zoom = this.view.viewRoot;
    this.apply({ scroll: true });
  };

  App.prototype.setThread = function (key) {
    const m = this.m;
    let root = m.ALL;
    for (let i = 0; i < m.T; i++)
      if (m.raw.threads[i].label === key)
        root = i;
    this.view.viewRoot = root;
    this.view.zoom = root;
    this.apply({ scroll: true });
  };

  App.prototype.zoomTo = function (node) {
    if (node === this.view.zoom)
      return;
    this.view.zoom = node;
    this.apply({ scroll: true });
  };

  App.prototype.setSearchText = function (text) {
    this.search = text;
    if ($('search').value !== text)
      $('search').value = text;
    this.updateSearch();
    this.view.draw();
    this.writeHash();
  };

  App.prototype.updateOrientationButton = function () {
    const b = $('orientation');
    b.textContent = AFG_T(this.view.icicle ? 'flame' : 'icicle');
    b.setAttribute('aria-pressed', this.view.icicle ? 'true' : 'false');
  };

  App.prototype.updatePerStep = function () {
    const b = $('per-step');
    b.disabled = this.strip.count() === 0;
    b.setAttribute('aria-pressed', this.perStep ? 'true' : 'false');
    fillThreads(this.m, this.view.wt, this.divisor());
    $('thread-select').value = this.threadKey();
    const total = document.querySelector('#summary dd[data-stat="totalTime"]');
    if (total)
      total.textContent = fmtTime(this.m.total[this.m.ALL] / this.divisor()) + (this.perStep ? AFG_T('perStepSuffix') : '');
    if (this.functions !== null)
      this.functions.weightChanged();
  };

  App.prototype.togglePerStep = function () {
    this.perStep = !this.perStep && this.strip.count() > 0;
    this.updatePerStep();
    this.hideTooltip();
    this.writeHash();
  };

  /* Swaps the model's tree for the plain or merged one, of the whole
   * profile or of the NPU-idle instants (@idle, when the page has that
   * tree), with @list's transforms; node ids change, so the zoom goes back
   * to the thread view's root (the same thread when it is still there). A
   * list the page cannot apply (a bad regular expression) is dropped. */
  App.prototype.setTree = function (merged, list, idle = this.idle) {
    const m = this.m, old = this.view;
    idle = idle && m.trees.idle !== null;
    if (merged === this.merged && idle === this.idle && JSON.stringify(list) === JSON.stringify(this.transforms))
      return;
    const set = idle ? m.trees.idle : m.trees.whole;
    if (set.plain === undefined)
      set.plain = idleTree(m);
    if (merged && set.merged === undefined)
      set.merged = mergedTree(set.plain);
    m.plain = set.plain;
    m.merged = set.merged;
    const base = merged ? set.merged : set.plain;
    const thread = this.threadKey();
    let shown = base;
    try {
      shown = list.length > 0 ? transformedTree(base, list) : base;
    } catch (err) {
      list = [];
    }
    Object.assign(m, shown);
    showFrameCount(m);
    this.merged = merged;
    this.idle = idle;
    this.transforms = list;
    this.view = new FlameView(m);
    this.view.icicle = old.icicle;
    this.view.hoverDrawn = old.hoverDrawn;
    this.view.viewRoot = this.view.zoom = m.raw.threads.findIndex((t) => t.label === thread);
    if (this.view.viewRoot < 0)
      this.view.viewRoot = this.view.zoom = m.ALL;
    if (this.functions)
      this.functions.reset();
    fillWeight(m);
    this.setWeightControls(old.weight);
    this.updatePerStep();
    $('merge-addresses').checked = merged;
    if ($('npu-idle'))
      $('npu-idle').checked = idle;
    this.showCrumbs();
  };

  App.prototype.setMerged = function (on) {
    this.setTree(on, this.transforms);
  };

  App.prototype.setTransforms = function (list) {
    this.hideMenu();
    this.setTree(this.merged, list);
    this.apply({ scroll: true });
  };

  /* The breadcrumbs: each transform, with a × that takes it out. */
  App.prototype.showCrumbs = function () {
    const bar = $('transforms');
    const items = this.transforms.map((t, i) => {
      const crumb = document.createElement('span');
      crumb.className = 'crumb';
      crumb.dataset.op = t.op;
      const label = document.createElement('span');
      label.textContent = AFG_T('op_' + t.op) + ': ' + t.arg;
      const x = document.createElement('button');
      x.type = 'button';
      x.textContent = '×';
      x.title = AFG_T('removeTransform');
      x.addEventListener('click', () => this.setTransforms(this.transforms.filter((_, k) => k !== i)));
      crumb.append(label, x);
      return crumb;
    });
    bar.replaceChildren(...items);
    bar.hidden = items.length === 0;
  };

  /* What each menu item adds for frame @node. */
  App.prototype.transformFor = function (op, node) {
    const m = this.m;
    if (op !== 'focus-subtree')
      return { op, arg: AFG_TRANSFORMS.quoteName(m.names[m.name[node]]) };
    const names = [];
    for (let n = node; n >= m.T && n !== m.ALL; n = m.parent[n])
      names.push(m.names[m.name[n]]);
    return { op, arg: AFG_TRANSFORMS.joinPath(names.reverse()) };
  };

  App.prototype.showMenu = function (ev) {
    const hit = this.view.hitTest(ev.offsetX, ev.offsetY);
    const m = this.m, menu = $('frame-menu');
    if (!hit || hit.node < m.T || hit.node === m.ALL)
      return;
    ev.preventDefault();
    this.hideTooltip();
    menu.replaceChildren(...AFG_TRANSFORMS.OPS.map((op) => {
      const item = document.createElement('button');
      item.type = 'button';
      item.dataset.op = op;
      item.setAttribute('role', 'menuitem');
      item.textContent = AFG_T('op_' + op);
      item.addEventListener('click', () => this.setTransforms([...this.transforms, this.transformFor(op, hit.node)]));
      return item;
    }));
    menu.hidden = false;
    menu.style.left = Math.min(ev.clientX, innerWidth - menu.offsetWidth - 4) + 'px';
    menu.style.top = Math.min(ev.clientY, innerHeight - menu.offsetHeight - 4) + 'px';
    menu.firstChild.focus();
  };

  App.prototype.hideMenu = function () {
    const menu = $('frame-menu');
    if (menu && !menu.hidden)
      menu.hidden = true;
  };

  App.prototype.toggleMerged = function () {
    this.setMerged(!this.merged);
    AFG_MERGE.store(this.merged);
    this.apply({ scroll: true });
  };

  App.prototype.toggleIdle = function () {
    this.setTree(this.merged, this.transforms, !this.idle);
    this.apply({ scroll: true });
  };

  /* Esc: the search, then the zoom, then the last transform. */
  App.prototype.onEscape = function () {
    if (this.search !== '')
      this.setSearchText('');
    else if (this.view.zoom !== this.view.viewRoot || !this.transforms || this.transforms.length === 0)
      this.zoomTo(this.view.viewRoot);
    else
      this.setTransforms(this.transforms.slice(0, -1));
  };

  /* Every device weight of a frame, whatever the weight shown. */
  function kindRows(m, n, frame, div, per) {
    const k = m.kinds;
    const time = (a) => fmtTime(a[n] / div);
    const own = (a) => fmtTime(frame ? a[n] / div : 0);
    return [
      [AFG_T('computeTotal') + per, time(k.total.compute)], [AFG_T('computeSelf') + per, own(k.self.compute)],
      [AFG_T('computeTasks') + per, fmtCount(frame ? k.tasks[n] / div : 0)],
      [AFG_T('commTotal') + per, time(k.total.comm)], [AFG_T('commSelf') + per, own(k.self.comm)],
      [AFG_T('commOps') + per, fmtCount(frame ? k.ops[n] / div : 0)],
      [AFG_T('exposedTotal') + per, time(k.total.exposed)], [AFG_T('exposedSelf') + per, own(k.self.exposed)],
    ];
  }

  /* A kernel leaf: what ran under its frame by that name. */
  App.prototype.showLeafTooltip = function (hit, ev) {
    const v = this.view, { leaf } = v.leaves[-1 - hit.node];
    const div = this.divisor();
    const per = this.perStep ? AFG_T('perStepSuffix') : '';
    const rows = [[AFG_T('kernelKind'), AFG_T('kind_' + AFG_KINDS.KIND_NAMES[leaf.kind])],
                  [AFG_T('kernelCount') + per, fmtCount(leaf.count / div)],
                  [AFG_T('kernelTime') + per, fmtTime(leaf.ns / div)]];
    if (leaf.kind === 0)
      rows.push([AFG_T('exposedSelf') + per, fmtTime(leaf.exposed / div)]);
    rows.push([AFG_T('ofAll'), fmtPct(AFG_KINDS.leafValue(v.weight, leaf), v.wt[this.m.ALL])]);
    const name = document.createElement('div');
    name.className = 'name';
    name.textContent = v.nodeName(hit.node);
    const table = document.createElement('table');
    for (const [k, val] of rows) {
      const tr = table.insertRow();
      tr.insertCell().textContent = k;
      tr.insertCell().textContent = val;
    }
    $('tooltip').replaceChildren(name, table);
    placeTooltip(ev);
  };

  App.prototype.showTooltip = function (hit, ev) {
    if (hit.node < 0)
      return this.showLeafTooltip(hit, ev);
    const m = this.m, v = this.view, n = hit.node;
    const frame = n >= m.T && n !== m.ALL;
    const div = this.divisor();
    const per = this.perStep ? AFG_T('perStepSuffix') : '';
    const rows = [
      [AFG_T('category'), frame ? AFG_T('cat_' + m.categories[m.nameCat[m.name[n]]]) : '—'],
      [AFG_T('calls') + per, fmtCount(m.calls[n] / div)],
      [AFG_T('total') + per, fmtTime(m.total[n] / div)],
      [AFG_T('self') + per, fmtTime(frame ? m.self[n] / div : 0)],
    ];
    if (m.hasNpu)
      rows.push([AFG_T('npuTotal') + per, fmtTime(m.npuTotal[n] / div)],
                [AFG_T('npuSelf') + per, fmtTime(frame ? m.npuSelf[n] / div : 0)],
                [AFG_T('npuTasks') + per, fmtCount(frame ? m.npuTasks[n] / div : 0)]);
    if (m.kinds)
      rows.push(...kindRows(m, n, frame, div, per));
    rows.push([AFG_T('ofAll'), fmtPct(v.wt[n], v.wt[m.ALL])],
              [AFG_T('ofZoom'), fmtPct(v.wt[n], v.wt[v.zoom])]);
    if (this.functions)
      rows.push(...this.functions.tooltipRows(n));
    const name = document.createElement('div');
    name.className = 'name';
    name.textContent = v.nodeName(n);
    const table = document.createElement('table');
    for (const [k, val] of rows) {
      const tr = table.insertRow();
      tr.insertCell().textContent = k;
      tr.insertCell().textContent = val;
    }
    $('tooltip').replaceChildren(name, table);
    placeTooltip(ev);
  };

  App.prototype.hideTooltip = hideTooltip;

  App.prototype.onMove = function (ev) {
    const v = this.view;
    const hit = v.hitTest(ev.offsetX, ev.offsetY);
    const entry = hit ? hit.entry : -1;
    if (entry !== v.hoverEntry) {
      v.hoverEntry = entry;
      v.hoverRow = hit ? hit.row : -1;
      v.drawHover();
    }
    if (hit)
      this.showTooltip(hit, ev);
    else
      this.hideTooltip();
  };

  App.prototype.onLeave = function () {
    this.view.hoverEntry = -1;
    this.view.drawHover();
    this.hideTooltip();
  };

  App.prototype.onClick = function (ev) {
    const hit = this.view.hitTest(ev.offsetX, ev.offsetY);
    if (hit)
      this.zoomTo(this.view.frameOf(hit.node));
  };

  App.prototype.onKey = function (ev) {
    const t = ev.target;
    const typing = t instanceof HTMLInputElement || t instanceof HTMLSelectElement;
    const menu = $('frame-menu');
    if (ev.key === 'Escape' && menu && !menu.hidden) {
      ev.preventDefault();
      this.hideMenu();
    } else if (ev.key === 'Escape') {
      ev.preventDefault();
      this.onEscape();
    } else if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === 'f') {
      ev.preventDefault();
      $('search').focus();
      $('search').select();
    } else if (ev.key === 'F3' || (ev.key === 'Enter' && t === $('search'))) {
      ev.preventDefault();
      this.stepMatch(!ev.shiftKey);
    } else if (ev.key === '/' && !typing) {
      ev.preventDefault();
      $('search').focus();
    }
  };

  App.prototype.onScroll = function () {
    if (this.pending)
      return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.view.hoverEntry = -1;
      this.hideTooltip();
      this.view.draw();
    });
  };

  App.prototype.bind = function () {
    this.bindView();
    $('thread-select').addEventListener('change', (ev) => this.setThread(ev.target.value));
    $('per-step').addEventListener('click', () => this.togglePerStep());
    $('merge-addresses').addEventListener('change', () => this.toggleMerged());
    if ($('npu-idle'))
      $('npu-idle').addEventListener('change', () => this.toggleIdle());
    $('weight').addEventListener('change', (ev) => this.setWeight(ev.target.value));
    $('flame').addEventListener('contextmenu', (ev) => this.showMenu(ev));
    document.addEventListener('mousedown', (ev) => {
      if (!$('frame-menu').contains(ev.target))
        this.hideMenu();
    });
  };

  /* The graph, search, zoom, orientation and hash: the diff page's too. */
  App.prototype.bindView = function () {
    const c = $('flame');
    c.addEventListener('mousemove', (ev) => this.onMove(ev));
    c.addEventListener('mouseleave', () => this.onLeave());
    c.addEventListener('click', (ev) => this.onClick(ev));
    $('flame-wrap').addEventListener('scroll', () => this.onScroll());
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    $('search').addEventListener('input', (ev) => this.setSearchText(ev.target.value));
    $('clear-search').addEventListener('click', () => this.setSearchText(''));
    $('reset-zoom').addEventListener('click', () => this.zoomTo(this.view.viewRoot));
    $('orientation').addEventListener('click', () => {
      this.view.icicle = !this.view.icicle;
      this.updateOrientationButton();
      this.apply({ scroll: true });
    });
    window.addEventListener('hashchange', () => {
      this.readHash();
      this.apply({ scroll: true });
    });
    new ResizeObserver(() => this.view.render(false)).observe($('flame-wrap'));
  };

  /* ---------- static parts ---------- */

  function translateStatic() {
    document.documentElement.lang = AFG_LANG;
    for (const el of document.querySelectorAll('[data-i18n]'))
      el.textContent = AFG_T(el.dataset.i18n);
    for (const el of document.querySelectorAll('[data-i18n-placeholder]'))
      el.placeholder = AFG_T(el.dataset.i18nPlaceholder);
    for (const el of document.querySelectorAll('[data-i18n-title]'))
      el.title = AFG_T(el.dataset.i18nTitle);
  }

  /* The window's afg_thread_role_describe(): "main · pid/tid". */
  function threadTitle(t) {
    return t.role ? AFG_T('role_' + t.role) + ' · ' + t.label : t.label;
  }

  function fillThreads(m, wt, divisor = 1) {
    const sel = $('thread-select');
    const all = new Option(AFG_T('allThreadsOption', { time: fmtTime(wt[m.ALL] / divisor) }), 'all');
    sel.replaceChildren(all);
    m.raw.threads.forEach((t, i) => {
      const total = fmtTime(wt[i] / divisor);
      sel.add(new Option(t.role ? AFG_T('threadRoleOption', { role: AFG_T('role_' + t.role), label: t.label, total })
                                : AFG_T('threadOption', { label: t.label, total }),
                         t.label));
    });
  }

  /* Disabled, saying why, for a profile without NPU data. */
  function fillWeight(m) {
    const sel = $('weight');
    sel.replaceChildren(new Option(AFG_T('weightHost'), 'host'), new Option(AFG_T('weightCompute'), 'compute'),
                        new Option(AFG_T('weightComm'), 'comm'), new Option(AFG_T('weightExposed'), 'exposed'),
                        new Option(AFG_T('weightNpu'), 'npu'));
    sel.disabled = !m.hasNpu;
    sel.title = m.hasNpu ? '' : AFG_T(m.raw.scope && m.raw.scope.npu_idle ? 'idleHostOnly' : 'noNpu');
  }

  /* Only a page exported with --npu-idle has the idle tree to offer. */
  function addIdleToggle(m) {
    if (m.trees.idle === null)
      return;
    const label = document.createElement('label');
    label.className = 'field';
    label.title = AFG_T('whileNpuIdleTip');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = 'npu-idle';
    const text = document.createElement('span');
    text.textContent = AFG_T('whileNpuIdle');
    label.append(box, text);
    $('merge-addresses').parentElement.before(label);
  }

  function fillLegend(m) {
    const legend = $('legend');
    const palette = CATEGORY_HUES;
    for (const cat of m.categories) {
      const item = document.createElement('span');
      item.className = 'legend-item';
      item.dataset.category = cat;
      const sw = document.createElement('span');
      sw.className = 'swatch';
      const [hue, sat] = palette[cat] || palette.unknown;
      sw.style.background = `hsl(${hue}, ${sat}%, 62%)`;
      item.append(sw, document.createTextNode(AFG_T('cat_' + cat)));
      legend.append(item);
    }
  }

  /* Frames of the tree shown, merged and transformed as it is (the
   * window's status line counts the same): not the root, not threads. */
  function showFrameCount(m) {
    const dd = document.querySelector('#summary dd[data-stat="frames"]');
    if (dd !== null)
      dd.textContent = fmtInt(m.F);
  }

  function fillSummary(m, strip) {
    const s = m.raw.stats;
    const rows = [
      ['sourceFile', m.raw.source.file + ' (' + fmtInt(m.raw.source.bytes) + ' B)'],
      ['scope', strip.describeScope()],
      ['rows', fmtInt(s.rows)],
      ['used', fmtInt(s.used)],
      ['skippedType', fmtInt(s.skipped_type)],
      ['skippedNull', fmtInt(s.skipped_null)],
      ['skippedMalformed', fmtInt(s.skipped_malformed)],
      ['skippedNonpositive', fmtInt(s.skipped_nonpositive)],
      ['profilerSteps', fmtInt(s.profiler_steps)],
      ['threads', fmtInt(m.T)],
      ['frames', fmtInt(m.F)],
      ['partialOverlaps', fmtInt(s.partial_overlaps)],
      ['depthTruncated', fmtInt(s.depth_truncated)],
      ['totalTime', fmtTime(m.total[m.ALL])],
    ];
    const split = strip.describeSplit(m.raw.device_timeline);
    if (split !== '')
      rows.push(['npuTimeline', split]);
    /* Without steps the idle time is the whole profile's. */
    if (m.trees.idle !== null)
      rows.push(['npuIdle', AFG_T(strip.count() > 0 ? 'npuIdleTime' : 'npuIdleTimeProfile',
                                  { time: fmtTime(JSON.parse(m.trees.idle.text).scope.idle_ns) })]);
    const npu = m.raw.npu;
    const npuTime = (ns, n) => AFG_TN('npuTime', n, { time: fmtTime(ns), n: fmtInt(n) });
    if (npu)
      rows.push(['npuLinked', npuTime(npu.ns - npu.unlinked_ns, npu.tasks - npu.unlinked_tasks)],
                ['npuUnlinked', npuTime(npu.unlinked_ns, npu.unlinked_tasks)],
                ['npuSkipped', fmtInt(npu.skipped)]);
    const dl = $('summary');
    for (const [key, value] of rows) {
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dt.textContent = AFG_T(key);
      dd.textContent = value;
      dd.dataset.stat = key;
      const pair = document.createElement('div');
      pair.append(dt, dd);
      dl.append(pair);
    }
    if (m.T === 0 || s.depth_truncated > 0)
      $('summary-box').open = true;
  }

  function showEmpty(message, causes) {
    const box = $('empty');
    const title = document.createElement('p');
    title.textContent = message;
    box.replaceChildren(title);
    if (causes) {
      const p = document.createElement('p');
      p.textContent = AFG_T('emptyCauses');
      const ul = document.createElement('ul');
      for (const key of ['emptyCause1', 'emptyCause2', 'emptyCause3']) {
        const li = document.createElement('li');
        li.textContent = AFG_T(key);
        ul.append(li);
      }
      box.append(p, ul);
    }
    box.hidden = false;
    $('flame-wrap').hidden = true;
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
    const strip = new AfgStepStrip(m.raw, { fmtTime, fmtPct, showTip: showTextTip, hideTip: hideTooltip });
    fillThreads(m, m.total);
    fillWeight(m);
    addIdleToggle(m);
    fillLegend(m);
    fillSummary(m, strip);
    strip.show();
    const app = new App(m, strip);
    app.functions = AFG_FUNCTIONS.attach(app, m, {
      fmtTime, fmtInt, fmtPct, fmtCount, decodeVarints,
      colourOfName: (n) => app.view.colour.ofName(n),
    });
    window.flamegraph = {
      frames: (name) => app.view.frames(String(name)),
      state: () => app.state(),
      dump: (kind) => (kind === 'view' ? dumpView(m, app.view.colour) : dumpModel(m, kind)),
      steps: () => strip.bars(),
      functions: () => app.functions.functions(),
      functionRows: () => app.functions.rows(),
      selectFunction: (name) => app.functions.select(name),
      transform: (op, arg) => app.setTransforms([...app.transforms, { op, arg }]),
      pathOf: (node) => pathOf(m, node),
      firstDrawMs: null,
    };
    if (m.T === 0) {
      $('per-step').disabled = true;
      showEmpty(AFG_T('emptyTitle'), true);
      return;
    }
    app.readHash();
    app.bind();
    app.apply({ scroll: true });
    window.flamegraph.firstDrawMs = performance.now();
  }

  /* The diff page (diff.js) draws with the same view. */
  window.AFG_VIEW = {
    $, decodeVarints, decodeNames, fmtTime, fmtPct, fmtInt, fmtCount, placeTooltip, hideTooltip, FlameView, App,
    translateStatic, showEmpty,
  };
  if (!document.body.classList.contains('diff'))
    main();
})();
