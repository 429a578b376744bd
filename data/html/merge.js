/* SPDX-License-Identifier: MIT */
/* "Merge address variants" (issue 16): every " at 0x<hex digits>" of a
 * frame name becomes " at 0x…" and the sibling frames whose names become
 * equal merge, recursively, as the core's --merge-addresses builds them:
 * calls, totals and NPU columns add up, children by name in byte order
 * (flamegraph.js then recomputes self = max(0, total − children's total)).
 * origin[i] is the one frame merged node i came from, or -1 when it merges
 * several: their call durations cannot be combined here. The choice is
 * remembered in localStorage.
 */
'use strict';
const AFG_MERGE = (function () {
  const ADDRESS = / at 0x[0-9A-Fa-f]+/g;
  const KEY = 'afg.mergeAddresses';

  /* The core's strcmp: UTF-8 byte order, i.e. code point order. UTF-16
   * units differ from it only where surrogates meet U+E000–U+FFFF. */
  function byCodePoint(a, b) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      let x = a.charCodeAt(i), y = b.charCodeAt(i);
      if (x === y)
        continue;
      if (x >= 0xd800 && y >= 0xd800) {
        x += x < 0xe000 ? 0x2000 : -0x800;
        y += y < 0xe000 ? 0x2000 : -0x800;
      }
      return x - y;
    }
    return a.length - b.length;
  }

  /* The merged names in byte order, and each old name's new index; null
   * when no name carries an address. */
  function mergeNames(m) {
    const merged = m.names.map((s) => s.replace(ADDRESS, ' at 0x…'));
    if (merged.every((s, i) => s === m.names[i]))
      return null;
    const names = [...new Set(merged)].sort(byCodePoint);
    const index = new Map(names.map((s, i) => [s, i]));
    const map = Int32Array.from(merged, (s) => index.get(s));
    const nameCat = new Uint8Array(names.length);
    for (let i = merged.length - 1; i >= 0; i--)
      nameCat[map[i]] = m.nameCat[i];
    return { names, nameCat, map };
  }

  function newTree(m, nm) {
    const t = {
      names: nm.names, nameCat: nm.nameCat,
      name: new Int32Array(m.N).fill(-1), calls: new Float64Array(m.N), total: new Float64Array(m.N),
      nchild: new Uint32Array(m.N), origin: new Int32Array(m.N).fill(-1), exactTotal: new Map(),
    };
    if (m.hasNpu) {
      t.npuTotal = new Float64Array(m.N);
      t.npuTasks = new Float64Array(m.N);
    }
    return t;
  }

  /* Adds plain node @s into merged node @k. */
  function add(m, t, k, s) {
    t.calls[k] += m.calls[s];
    t.total[k] += m.total[s];
    if (m.hasNpu) {
      t.npuTotal[k] += m.npuTotal[s];
      t.npuTasks[k] += m.npuTasks[s];
    }
  }

  function sorted(kids, key) {
    for (let j = 1; j < kids.length; j++)
      if (key(kids[j - 1]) > key(kids[j]))
        return false;
    return true;
  }

  /* Totals above 2^50 (hostile timestamps only) add up exactly. */
  function exactSum(m, t, k, sources) {
    if (!sources.some((s) => m.exactTotal.has(s)))
      return;
    let sum = 0n;
    for (const s of sources)
      sum += m.exactTotal.get(s) ?? BigInt(m.total[s]);
    t.exactTotal.set(k, sum);
    t.total[k] = Number(sum);
  }

  /* Breadth-first like the plain tree: merged node k's sources are
   * list[start[k]] … list[start[k + 1] - 1]; their children, grouped by
   * merged name, become k's children. */
  function build(m) {
    const nm = mergeNames(m);
    if (nm === null)
      return null;
    const t = newTree(m, nm);
    const list = new Int32Array(m.ALL), start = new Int32Array(m.ALL + 1);
    for (let i = 0; i < m.T; i++) {
      list[i] = i;
      start[i + 1] = i + 1;
      add(m, t, i, i);
    }
    const key = (c) => nm.map[m.name[c]];
    let len = m.T, end = m.T;
    const kids = [];
    for (let k = 0; k < len; k++) {
      kids.length = 0;
      for (let s = start[k]; s < start[k + 1]; s++)
        for (let c = m.first[list[s]], stop = c + m.nchild[list[s]]; c < stop; c++)
          kids.push(c);
      if (!sorted(kids, key))
        kids.sort((a, b) => key(a) - key(b) || a - b);
      for (let j = 0; j < kids.length; len++) {
        const n = key(kids[j]);
        t.name[len] = n;
        for (; j < kids.length && key(kids[j]) === n; j++) {
          list[end++] = kids[j];
          add(m, t, len, kids[j]);
        }
        start[len + 1] = end;
        t.nchild[k]++;
      }
    }
    for (let k = m.T; k < len; k++) {
      t.origin[k] = start[k + 1] - start[k] === 1 ? list[start[k]] : -1;
      if (m.exactTotal.size > 0)
        exactSum(m, t, k, list.subarray(start[k], start[k + 1]));
    }
    t.total[len] = m.total[m.ALL];
    if (m.hasNpu)
      t.npuTotal[len] = m.npuTotal[m.ALL];
    return Object.assign(t, { T: m.T, F: len - m.T, ALL: len, N: len + 1 });
  }

  function stored() {
    try {
      return localStorage.getItem(KEY) !== '0';
    } catch (e) {
      return true;
    }
  }

  function store(on) {
    try {
      localStorage.setItem(KEY, on ? '1' : '0');
    } catch (e) {
      /* storage refused (a private window): the hash still holds it */
    }
  }

  return { build, stored, store };
})();
