/* SPDX-License-Identifier: MIT */
/* "Merge address variants": every " at 0x<hex digits>" of a
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
    AFG_KINDS.mergeStart(m, t);
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
    AFG_KINDS.mergeAdd(m, t, k, s);
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

  /* Breadth-first like the plain tree: each seed is merged node 0, 1, …
   * of its own; merged node k's sources are list[start[k]] …
   * list[start[k + 1] - 1], and their children, grouped by merged name
   * (key), become k's children. @m needs first, nchild and name. */
  function group(m, key, seeds, size) {
    const list = new Int32Array(size), start = new Int32Array(size + 1);
    const name = new Int32Array(size).fill(-1), nchild = new Uint32Array(size);
    seeds.forEach((s, i) => {
      list[i] = s;
      start[i + 1] = i + 1;
    });
    let len = seeds.length, end = seeds.length;
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
        name[len] = n;
        for (; j < kids.length && key(kids[j]) === n; j++)
          list[end++] = kids[j];
        start[len + 1] = end;
        nchild[k]++;
      }
    }
    return { list, start, name, nchild, len };
  }

  function build(m) {
    const nm = mergeNames(m);
    if (nm === null)
      return null;
    const t = newTree(m, nm);
    const threads = Array.from({ length: m.T }, (_, i) => i);
    const g = group(m, (c) => nm.map[m.name[c]], threads, m.ALL);
    const len = g.len;
    for (let k = 0; k < len; k++) {
      const sources = g.list.subarray(g.start[k], g.start[k + 1]);
      for (const s of sources)
        add(m, t, k, s);
      if (k < m.T)
        continue;
      t.name[k] = g.name[k];
      t.origin[k] = sources.length === 1 ? sources[0] : -1;
      if (m.exactTotal.size > 0)
        exactSum(m, t, k, sources);
    }
    t.nchild.set(g.nchild.subarray(0, len));
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

  return { build, group, mergeNames, stored, store };
})();
