/* SPDX-License-Identifier: MIT */
/* Call-tree transforms, as the core applies them (afg-tree-transform.h):
 * focus-function, focus-subtree, merge-function, drop-function,
 * collapse-recursion and collapse-indirect-recursion, one after the other
 * in the list's order, each thread alone. F is a frame's full name, or
 * /REGEX/ (an unanchored search, no flags); //NAME is the name /NAME.
 * Merging frames by path adds their calls and totals; the NPU tasks ride
 * along as their subtree's sums; flamegraph.js then recomputes self =
 * max(0, total − children's total). origin[i] is the one plain frame
 * node i's calls are all from, unchanged, else -1: only then has it call
 * durations to show.
 */
'use strict';
const AFG_TRANSFORMS = (function () {
  const OPS = ['focus-function', 'focus-subtree', 'merge-function', 'drop-function', 'collapse-recursion',
               'collapse-indirect-recursion'];
  const KEEP = 0, FOLD = 1, GONE = 2;
  const IN = 1, ON = 2;

  /* A test of name indices, cached: F as a name, //NAME or /REGEX/. */
  function matcher(names, arg) {
    let test;
    if (arg.startsWith('//'))
      test = (s) => s === arg.slice(1);
    else if (arg.startsWith('/')) {
      if (arg.length < 3 || !arg.endsWith('/'))
        throw new Error(`'${arg}': a regular expression is written /REGEX/`);
      const re = new RegExp(arg.slice(1, -1));
      test = (s) => re.test(s);
    } else
      test = (s) => s === arg;
    const cache = new Int8Array(names.length);
    return (n) => {
      if (cache[n] === 0)
        cache[n] = test(names[n]) ? 1 : -1;
      return cache[n] === 1;
    };
  }

  /* a;b;c with \; and \\ escapes. */
  function splitPath(path) {
    const out = [];
    let name = '';
    for (let i = 0; i <= path.length; i++) {
      const c = path[i];
      if (c === '\\' && (path[i + 1] === ';' || path[i + 1] === '\\'))
        name += path[++i];
      else if (c === '\\')
        throw new Error(`'${path}': only \\; and \\\\ are escapes`);
      else if (c !== undefined && c !== ';')
        name += c;
      else if (name === '')
        throw new Error(`'${path}': an empty name`);
      else {
        out.push(name);
        name = '';
      }
    }
    return out;
  }

  function joinPath(names) {
    return names.map((s) => s.replace(/[\\;]/g, (c) => '\\' + c)).join(';');
  }

  function quoteName(name) {
    return name.startsWith('/') ? '/' + name : name;
  }

  /* The list from a #t= value, or null when it is no valid list. */
  function parseList(text) {
    try {
      const list = JSON.parse(text);
      if (!Array.isArray(list) || !list.every((t) => t && OPS.includes(t.op) && typeof t.arg === 'string'))
        return null;
      return list.map((t) => ({ op: t.op, arg: t.arg }));
    } catch (e) {
      return null;
    }
  }

  /* The carried columns: calls and totals add up; a frame's own NPU
   * tasks are carried as its subtree's sums. */
  function carried(t) {
    const cols = [{ kind: 'calls', src: t.calls }, { kind: 'total', src: t.total }];
    if (t.hasNpu) {
      const below = Float64Array.from(t.npuTasks);
      for (let i = t.ALL - 1; i >= t.T; i--)
        below[t.parent[i]] += below[i];
      cols.push({ kind: 'total', src: t.npuTotal, npu: true }, { kind: 'below', src: below });
    }
    return cols;
  }

  function Apply(t, tr) {
    this.t = t;
    this.op = tr.op;
    const n = t.N;
    this.match = new Uint8Array(n);
    this.fate = new Uint8Array(n);
    this.state = new Uint8Array(n);
    this.take = new Uint8Array(n);
    this.place = new Int32Array(n).fill(-1);
    this.kidsInto = new Int32Array(n).fill(-1);
    this.anchor = new Int32Array(n).fill(-1);
    if (tr.op === 'focus-subtree')
      this.path = splitPath(tr.arg);
    else {
      const test = matcher(t.names, tr.arg);
      for (let i = t.T; i < t.ALL; i++)
        this.match[i] = test(t.name[i]) ? 1 : 0;
    }
    this.cols = carried(t);
    this.made = { name: [], parent: [], thread: [], sources: [], origin: [], values: this.cols.map(() => []) };
    this.index = new Map();
  }

  /* Frames merge by path; threads are made once each. */
  Apply.prototype.make = function (parent, name, thread) {
    const key = parent * this.t.names.length + name;
    if (parent > 0 && this.index.has(key))
      return this.index.get(key);
    const k = this.made.name.length;
    this.made.name.push(name);
    this.made.parent.push(parent);
    this.made.thread.push(thread);
    this.made.sources.push(0);
    this.made.origin.push(-1);
    for (const v of this.made.values)
      v.push(0);
    if (parent > 0)
      this.index.set(key, k);
    return k;
  };

  Apply.prototype.keep = function (s, under) {
    this.fate[s] = KEEP;
    this.place[s] = this.kidsInto[s] = this.make(under, this.t.name[s], this.t.thread[s]);
  };

  Apply.prototype.fold = function (s, into) {
    this.fate[s] = FOLD;
    this.kidsInto[s] = into;
  };

  Apply.prototype.focus = function (s, p) {
    const t = this.t;
    if (this.state[p] & IN) {
      this.state[s] = IN;
      this.keep(s, this.kidsInto[p]);
      return;
    }
    let root;
    if (this.op === 'focus-function')
      root = this.match[s] === 1;
    else {
      const d = t.depth[s] - 2;
      const on = d < this.path.length && (d === 0 || (this.state[p] & ON)) && t.names[t.name[s]] === this.path[d];
      this.state[s] = on ? ON : 0;
      root = on && d === this.path.length - 1;
    }
    if (!root) {
      this.fold(s, -1);
      return;
    }
    this.state[s] = IN;
    this.keep(s, this.place[t.thread[s]]);
  };

  Apply.prototype.indirect = function (s, p) {
    const below = (this.state[p] & IN) !== 0;
    if (this.match[s] && below) {
      this.take[s] = 1;
      this.state[s] = IN;
      this.anchor[s] = this.anchor[p];
      this.fold(s, this.anchor[p]);
      return;
    }
    this.keep(s, this.kidsInto[p]);
    this.state[s] = below || this.match[s] ? IN : 0;
    this.anchor[s] = this.match[s] && !below ? this.place[s] : this.anchor[p];
  };

  Apply.prototype.frame = function (s) {
    const t = this.t, p = t.parent[s];
    switch (this.op) {
    case 'focus-function':
    case 'focus-subtree':
      return this.focus(s, p);
    case 'merge-function':
      return this.match[s] ? this.fold(s, this.kidsInto[p]) : this.keep(s, this.kidsInto[p]);
    case 'drop-function':
      if (this.fate[p] === GONE || this.match[s]) {
        this.fate[s] = GONE;
        this.take[s] = this.fate[p] !== GONE ? 1 : 0;
        return undefined;
      }
      return this.keep(s, this.kidsInto[p]);
    case 'collapse-recursion':
      if (this.match[s] && p >= t.T && p !== t.ALL && t.name[p] === t.name[s])
        return this.fold(s, this.kidsInto[p]);
      return this.keep(s, this.kidsInto[p]);
    default:
      return this.indirect(s, p);
    }
  };

  /* Made node 0 is the root, 1 … T the threads, then the frames. */
  Apply.prototype.decide = function () {
    const t = this.t;
    this.place[t.ALL] = this.kidsInto[t.ALL] = this.make(-1, -1, -1);
    for (let i = 0; i < t.T; i++)
      this.place[i] = this.kidsInto[i] = this.make(0, -1, i);
    for (let s = t.T; s < t.ALL; s++)
      this.frame(s);
  };

  /* What each node gives back to its ancestors, up to an F frame that
   * keeps it (indirect recursion). */
  Apply.prototype.sumTaken = function () {
    const t = this.t, stops = this.op === 'collapse-indirect-recursion';
    for (const col of this.cols) {
      if (col.kind === 'calls')
        continue;
      col.taken = new Float64Array(t.N);
      for (let n = t.ALL - 1; n >= t.T; n--) {
        if (stops && this.match[n])
          col.taken[n] = 0;
        col.taken[t.parent[n]] += this.take[n] ? col.src[n] : col.taken[n];
      }
    }
  };

  Apply.prototype.adjusted = function (col, s) {
    return col.taken ? Math.max(0, col.src[s] - col.taken[s]) : col.src[s];
  };

  Apply.prototype.addFrames = function () {
    const t = this.t, made = this.made;
    for (let s = t.T; s < t.ALL; s++) {
      if (this.fate[s] !== KEEP)
        continue;
      const k = this.place[s];
      made.sources[k]++;
      made.origin[k] = made.sources[k] === 1 && !this.cols.some((c) => c.taken && c.taken[s] > 0)
        ? (t.origin === null ? s : t.origin[s]) : -1;
      this.cols.forEach((col, j) => { made.values[j][k] += this.adjusted(col, s); });
    }
  };

  Apply.prototype.children = function () {
    const kids = this.made.name.map(() => []);
    for (let k = 1; k < this.made.name.length; k++)
      kids[this.made.parent[k]].push(k);
    return kids;
  };

  /* A thread's calls (and, for a focus, totals) come from its top frames;
   * otherwise its totals less what was taken. */
  Apply.prototype.threadValues = function (k, kids) {
    const t = this.t, i = this.made.thread[k], focus = this.op.startsWith('focus');
    this.cols.forEach((col, j) => {
      const v = this.made.values[j];
      if (col.kind === 'below')
        v[k] = 0;
      else if (col.kind === 'total' && !focus)
        v[k] = this.adjusted(col, i);
      else
        v[k] = kids.reduce((sum, c) => sum + v[c], 0);
    });
    return kids.length > 0 || this.made.values[1][k] > 0;
  };

  /* The page's layout: threads, frames breadth-first with children by
   * name (names are in byte order), the root last. */
  Apply.prototype.emit = function () {
    const t = this.t, made = this.made, kids = this.children();
    const order = [];
    for (let k = 1; k <= t.T; k++)
      if (this.threadValues(k, kids[k]))
        order.push(k);
    const T = order.length;
    for (let q = 0; q < order.length; q++) {
      const list = kids[order[q]].sort((a, b) => made.name[a] - made.name[b]);
      order.push(...list);
    }
    const ALL = order.length, N = ALL + 1;
    const out = {
      T, F: ALL - T, ALL, N, names: t.names, nameCat: t.nameCat, exactTotal: new Map(),
      name: new Int32Array(N).fill(-1), calls: new Float64Array(N), total: new Float64Array(N),
      nchild: new Uint32Array(N), origin: new Int32Array(N).fill(-1),
      threads: order.slice(0, T).map((k) => made.thread[k]),
    };
    if (t.hasNpu) {
      out.npuTotal = new Float64Array(N);
      out.npuTasks = new Float64Array(N);
    }
    order.forEach((k, i) => {
      out.name[i] = i < T ? -1 : made.name[k];
      out.nchild[i] = kids[k].length;
      out.origin[i] = i < T ? -1 : made.origin[k];
      out.calls[i] = made.values[0][k];
      out.total[i] = made.values[1][k];
      if (t.hasNpu) {
        out.npuTotal[i] = made.values[2][k];
        out.npuTasks[i] = made.values[3][k];
      }
      if (i < T) {
        out.calls[ALL] += out.calls[i];
        out.total[ALL] += out.total[i];
        if (t.hasNpu)
          out.npuTotal[ALL] += out.npuTotal[i];
      }
    });
    if (t.hasNpu)
      ownTasks(out, order, kids, made.values[3]);
    return out;
  };

  /* A frame's own tasks: its subtree's less its children's. */
  function ownTasks(out, order, kids, below) {
    for (let i = out.T; i < out.ALL; i++) {
      const k = order[i];
      out.npuTasks[i] = Math.max(0, below[k] - kids[k].reduce((sum, c) => sum + below[c], 0));
    }
  }

  /* One transform of page tree @t (names, name, calls, total, nchild,
   * first, parent, thread, depth, origin, NPU columns): a new tree without
   * first, parent, thread, depth and self (flamegraph.js links them). */
  function applyOne(t, tr) {
    const a = new Apply(t, tr);
    a.decide();
    if (a.op === 'drop-function' || a.op === 'collapse-indirect-recursion')
      a.sumTaken();
    a.addFrames();
    return a.emit();
  }

  return { OPS, applyOne, parseList, splitPath, joinPath, quoteName };
})();
