/* SPDX-License-Identifier: MIT */
/* Device time by kind (the data block's kernels and kernel_names,
 * afg-html-kinds.c): the compute, comm and exposed weights
 * of every frame and its kernel leaves, for the plain tree and the one
 * with merged addresses. */
'use strict';
const AFG_KINDS = (function () {
  /* The device weights by kind, and the columns each weighs. */
  const WEIGHTS = ['compute', 'comm', 'exposed'];
  /* AfgTaskKind: the leaves' kinds. */
  const KIND_NAMES = ['communication', 'compute'];
  const KIND_OF_WEIGHT = { compute: 1, comm: 0, exposed: 0 };

  function isWeight(weight) {
    return WEIGHTS.includes(weight);
  }

  function newKinds(n) {
    return {
      total: { compute: new Float64Array(n), comm: new Float64Array(n), exposed: new Float64Array(n) },
      self: null,
      tasks: new Float64Array(n),  /* compute tasks */
      ops: new Float64Array(n),    /* collectives */
      leaves: [],                  /* by node: [{name, kind, count, ns, exposed}] or undefined */
    };
  }

  /* Self values as NPU self: total minus the children's totals. */
  function deriveSelf(m) {
    const k = m.kinds;
    k.self = {};
    for (const w of WEIGHTS) {
      const total = k.total[w], self = new Float64Array(m.N);
      for (let i = m.T; i < m.ALL; i++) {
        let sum = 0;
        for (let c = m.first[i], end = c + m.nchild[i]; c < end; c++)
          sum += total[c];
        self[i] = Math.max(0, total[i] - sum);
      }
      k.self[w] = self;
    }
  }

  /* Each frame's own values are its leaves' sums; totals add up the tree
   * (children come after their parent: one backward pass). */
  function sumLeaves(m, k) {
    for (let i = m.T; i < m.ALL; i++) {
      for (const l of k.leaves[i] || []) {
        if (l.kind === 1) {
          k.total.compute[i] += l.ns;
          k.tasks[i] += l.count;
        } else {
          k.total.comm[i] += l.ns;
          k.ops[i] += l.count;
          k.total.exposed[i] += l.exposed;
        }
      }
    }
    sumTotals(m, k);
  }

  function sumTotals(m, k) {
    for (const w of WEIGHTS) {
      const total = k.total[w];
      total[m.ALL] = 0;
      for (let i = m.ALL - 1; i >= 0; i--)
        total[m.parent[i]] += total[i];
    }
  }

  /* The leaves as afg-html-kinds.c writes them: per frame sent, frames
   * skipped and n << 1 | derived (n its number of leaves); per leaf
   * (d << 3 | c) << 1 | comm, the count when c is 0, ns, and a
   * collective's exposed ns — but with derived set the last (a compute
   * leaf) has only the first: its count and ns are what the frame's NPU
   * self tasks and time leave after its other compute leaves. */
  const COUNT_BITS = 3;

  function loadLeaves(m, k, decodeVarints) {
    const names = m.raw.kernel_names || [];
    const { values } = decodeVarints(m.raw.kernels || '');
    const next = () => {
      if (j >= values.length)
        throw new Error('kernel leaves do not add up');
      return values[j++];
    };
    let j = 0;
    for (let i = m.T; j + 1 < values.length; i++) {
      i += next();
      const header = next();
      const n = Math.floor(header / 2), derived = header % 2 === 1;
      if (i >= m.ALL)
        throw new Error('kernel leaves do not add up');
      const leaves = [];
      let prevComm = -1, rank = 0, tasks = m.npuTasks[i], self = m.npuSelf[i];
      for (let e = 0; e < n; e++) {
        const v = next();
        const comm = v % 2, code = Math.floor(v / 2);
        const c = code % (1 << COUNT_BITS);
        rank = (comm === prevComm ? rank : 0) + Math.floor(code / (1 << COUNT_BITS));
        prevComm = comm;
        const leftOut = derived && e === n - 1;
        const count = leftOut ? tasks : c !== 0 ? c : next();
        const ns = leftOut ? self : next();
        const exposed = comm ? next() : 0;
        if (!comm) {
          tasks -= count;
          self -= ns;
        }
        leaves.push({ name: names[rank], kind: comm ? 0 : 1, count, ns, exposed });
      }
      k.leaves[i] = leaves;
    }
  }

  /* A thread's own device time, which a top frame merged into it left
   * (afg-html-kinds.c): per such thread its index, then its own compute,
   * collective and exposed ns. */
  function loadThreadKinds(m, k) {
    const own = m.raw.thread_kinds || [];
    for (let j = 0; j + 3 < own.length; j += 4) {
      const i = own[j];
      if (i >= m.T)
        throw new Error('thread kinds name no thread');
      k.total.compute[i] += own[j + 1];
      k.total.comm[i] += own[j + 2];
      k.total.exposed[i] += own[j + 3];
    }
  }

  /* After the model's tree is linked; nothing without NPU data. */
  function load(m, decodeVarints) {
    if (!m.hasNpu)
      return;
    m.kinds = newKinds(m.N);
    loadLeaves(m, m.kinds, decodeVarints);
    loadThreadKinds(m, m.kinds);
    sumLeaves(m, m.kinds);
    deriveSelf(m);
  }

  /* Merging addresses (merge.js): merged node @k takes plain node @s. */
  function mergeStart(m, t) {
    if (m.kinds)
      t.kinds = newKinds(m.N);
  }

  function mergeAdd(m, t, k, s) {
    if (!m.kinds)
      return;
    for (const w of WEIGHTS)
      t.kinds.total[w][k] += m.kinds.total[w][s];
    t.kinds.tasks[k] += m.kinds.tasks[s];
    t.kinds.ops[k] += m.kinds.ops[s];
    addLeaves(t.kinds, k, m.kinds.leaves[s]);
  }

  /* Leaves @from (may be undefined) added to node @k's: those of one kind
   * and name add up (merge.js, transforms.js). */
  function addLeaves(kinds, k, from) {
    if (from === undefined)
      return;
    const into = kinds.leaves[k] || (kinds.leaves[k] = []);
    for (const leaf of from) {
      const same = into.find((l) => l.kind === leaf.kind && l.name === leaf.name);
      if (same) {
        same.count += leaf.count;
        same.ns += leaf.ns;
        same.exposed += leaf.exposed;
      } else {
        into.push({ ...leaf });
      }
    }
  }

  /* Once the merged tree is linked. */
  function mergeFinish(t) {
    if (!t.kinds)
      return;
    for (const leaves of t.kinds.leaves)
      if (leaves)
        leaves.sort((a, b) => a.kind - b.kind || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const w of WEIGHTS) {
      const total = t.kinds.total[w];
      total[t.ALL] = 0;
      for (let i = 0; i < t.T; i++)
        total[t.ALL] += total[i];
    }
    deriveSelf(t);
  }

  /* A leaf's value in @weight: 0 for a leaf of another kind. */
  function leafValue(weight, leaf) {
    if (!isWeight(weight) || leaf.kind !== KIND_OF_WEIGHT[weight])
      return 0;
    return weight === 'exposed' ? leaf.exposed : leaf.ns;
  }

  /* dump('kinds'): the .kinds.expected lines of node i (threads: the three
   * totals and zeros); dump('kernels'): its leaves' .kernels.expected lines. */
  function kindsLine(m, i) {
    const k = m.kinds;
    if (i < m.T)
      return `\t${k.total.compute[i]}\t0\t0\t${k.total.comm[i]}\t0\t0\t${k.total.exposed[i]}\t0`;
    return `\t${k.total.compute[i]}\t${k.self.compute[i]}\t${k.tasks[i]}` +
           `\t${k.total.comm[i]}\t${k.self.comm[i]}\t${k.ops[i]}` +
           `\t${k.total.exposed[i]}\t${k.self.exposed[i]}`;
  }

  function kernelLines(m, i, path) {
    return (m.kinds.leaves[i] || []).map((l) => `${path};[${KIND_NAMES[l.kind]}] ${l.name}\t${l.count}\t${l.ns}\t${l.exposed}`);
  }

  function countLeaves(m) {
    let n = 0;
    if (m.kinds)
      for (const leaves of m.kinds.leaves)
        n += leaves ? leaves.length : 0;
    return n;
  }

  function leafName(leaf) {
    return `[${KIND_NAMES[leaf.kind]}] ${leaf.name}`;
  }

  /* Device work is drawn apart from the host's category hues: yellow for
   * compute, violet for communication, each with a darker band on top
   * (leafBand) that no host frame has. */
  function leafColour(leaf, dark) {
    if (leaf.kind === 1)
      return dark ? 'hsl(54, 70%, 42%)' : 'hsl(54, 95%, 62%)';
    return dark ? 'hsl(275, 35%, 50%)' : 'hsl(275, 55%, 72%)';
  }

  function leafBand(leaf) {
    return leaf.kind === 1 ? 'hsl(54, 90%, 30%)' : 'hsl(275, 45%, 35%)';
  }

  return {
    WEIGHTS, KIND_NAMES, isWeight, countLeaves, leafName, leafColour, leafBand, load, mergeStart, mergeAdd, addLeaves, mergeFinish, leafValue, kindsLine, kernelLines,
  };
})();
