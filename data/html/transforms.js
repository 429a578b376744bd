/* SPDX-License-Identifier: MIT */
/* Call-tree transforms, as the core applies them (afg-tree-transform.h):
 * focus-function, focus-subtree, merge-function, drop-function,
 * collapse-recursion and collapse-indirect-recursion, one after the other
 * in the list's order, each thread alone. F is a frame's full name, or
 * /REGEX/ (an unanchored search, no flags); //NAME is the name /NAME.
 * Merging frames by path adds their calls and totals; the NPU tasks ride
 * along as their subtree's sums; flamegraph.js then recomputes self =
 * max(0, total − children's total). origin[i] is the one plain frame
 * node i's calls are all from, unchanged: only then has it call durations
 * to show; -2 where a transform merged or shortened its calls (-1 stays
 * for a frame of merged address variants).
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

  /* a;b;c with \; and \\ escapes; a name may be empty, as a frame's may. */
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

  /* A frame's own counts summed over its subtree. */
  function below(t, own) {
    const sums = Float64Array.from(own);
    for (let i = t.ALL - 1; i >= t.T; i--)
      sums[t.parent[i]] += sums[i];
    return sums;
  }

  /* The carried columns, each where it lands in the new tree (@set):
   * calls and totals add up; a frame's own counts (NPU tasks, compute
   * tasks, collectives) are carried as their subtree's sums. */
  function carried(t) {
    const cols = [{ kind: 'calls', src: t.calls, set: (o, a) => { o.calls = a; } },
                  { kind: 'total', src: t.total, set: (o, a) => { o.total = a; } }];
    if (t.hasNpu)
      cols.push({ kind: 'total', src: t.npuTotal, set: (o, a) => { o.npuTotal = a; } },
                { kind: 'below', src: below(t, t.npuTasks), set: (o, a) => { o.npuTasks = a; } });
    if (t.kinds) {
      for (const w of ['compute', 'comm', 'exposed'])
        cols.push({ kind: 'total', src: t.kinds.total[w], set: (o, a) => { o.kinds.total[w] = a; } });
      for (const c of ['tasks', 'ops'])
        cols.push({ kind: 'below', src: below(t, t.kinds[c]), set: (o, a) => { o.kinds[c] = a; } });
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
    /* New nodes, made as they are first needed: never more than the
     * source's. */
    this.made = {
      n: 0, name: new Int32Array(n), parent: new Int32Array(n), thread: new Int32Array(n),
      sources: new Uint32Array(n), origin: new Int32Array(n).fill(-1),
      values: this.cols.map(() => new Float64Array(n)),
    };
    this.index = new Map();
  }

  /* Frames merge by path; threads are made once each. */
  Apply.prototype.make = function (parent, name, thread) {
    const key = parent * this.t.names.length + name;
    if (parent > 0) {
      const found = this.index.get(key);
      if (found !== undefined)
        return found;
    }
    const made = this.made, k = made.n++;
    made.name[k] = name;
    made.parent[k] = parent;
    made.thread[k] = thread;
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
    const t = this.t, made = this.made, cols = this.cols;
    for (let s = t.T; s < t.ALL; s++) {
      if (this.fate[s] !== KEEP)
        continue;
      const k = this.place[s];
      let changed = false;
      for (let j = 0; j < cols.length; j++) {
        const col = cols[j];
        if (col.taken === undefined)
          made.values[j][k] += col.src[s];
        else {
          made.values[j][k] += Math.max(0, col.src[s] - col.taken[s]);
          changed = changed || col.taken[s] > 0;
        }
      }
      made.origin[k] = ++made.sources[k] === 1 && !changed ? (t.origin === null ? s : t.origin[s]) : -2;
    }
  };

  /* Children made from one source's come in its order, by name already. */
  function inOrder(name, list, from, to) {
    for (let i = from + 1; i < to; i++)
      if (name[list[i - 1]] > name[list[i]])
        return false;
    return true;
  }

  /* The new nodes' children, grouped by parent (a counting sort), each
   * group by name: names are in byte order. */
  Apply.prototype.children = function () {
    const made = this.made, n = made.n;
    const start = new Uint32Array(n + 1), list = new Int32Array(Math.max(n - 1, 0));
    for (let k = 1; k < n; k++)
      start[made.parent[k] + 1]++;
    for (let k = 0; k < n; k++)
      start[k + 1] += start[k];
    const fill = start.slice();
    for (let k = 1; k < n; k++)
      list[fill[made.parent[k]]++] = k;
    for (let k = 0; k < n; k++)
      if (!inOrder(made.name, list, start[k], start[k + 1]))
        list.subarray(start[k], start[k + 1]).sort((a, b) => made.name[a] - made.name[b]);
    return { start, list };
  };

  /* A thread's calls (and, for a focus, totals) come from its top frames;
   * otherwise its totals less what was taken. */
  Apply.prototype.threadValues = function (k, kids) {
    const focus = this.op.startsWith('focus');
    this.cols.forEach((col, j) => {
      const v = this.made.values[j];
      v[k] = 0;
      if (col.kind === 'total' && !focus)
        v[k] = this.adjusted(col, this.made.thread[k]);
      else if (col.kind !== 'below')
        for (let c = kids.start[k]; c < kids.start[k + 1]; c++)
          v[k] += v[kids.list[c]];
    });
    /* The host total is the second column. */
    return kids.start[k + 1] > kids.start[k] || this.made.values[1][k] > 0;
  };

  /* The page's layout: threads, frames breadth-first with children by
   * name, the root last. */
  Apply.prototype.emit = function () {
    const t = this.t, made = this.made, kids = this.children();
    const order = new Int32Array(made.n);
    let len = 0;
    for (let k = 1; k <= t.T; k++)
      if (this.threadValues(k, kids))
        order[len++] = k;
    const T = len;
    for (let q = 0; q < len; q++)
      for (let c = kids.start[order[q]], end = kids.start[order[q] + 1]; c < end; c++)
        order[len++] = kids.list[c];
    const ALL = len, N = ALL + 1, cols = made.values, { start: ks, list: kl } = kids;
    /* Column by column: @src of each new node in the page's order. */
    const gather = (src) => {
      const a = new Float64Array(N);
      for (let i = 0; i < ALL; i++)
        a[i] = src[order[i]];
      return a;
    };
    const out = {
      T, F: ALL - T, ALL, N, names: t.names, nameCat: t.nameCat, exactTotal: new Map(),
      name: new Int32Array(N).fill(-1), nchild: new Uint32Array(N), origin: new Int32Array(N).fill(-1),
      threads: Array.from(order.subarray(0, T), (k) => made.thread[k]),
      kinds: t.kinds ? { total: {}, self: null, leaves: [] } : undefined,
    };
    const { name, origin, nchild } = out;
    for (let i = 0; i < ALL; i++) {
      const k = order[i];
      nchild[i] = ks[k + 1] - ks[k];
      if (i >= T) {
        name[i] = made.name[k];
        origin[i] = made.origin[k];
      }
    }
    this.cols.forEach((col, j) => {
      const a = gather(cols[j]);
      if (col.kind === 'below')
        for (let i = T; i < ALL; i++) {
          const k = order[i];
          let sum = 0;
          for (let c = ks[k]; c < ks[k + 1]; c++)
            sum += cols[j][kl[c]];
          a[i] = Math.max(0, cols[j][k] - sum);
        }
      else
        for (let i = 0; i < T; i++)
          a[ALL] += a[i];
      col.set(out, a);
    });
    if (t.kinds)
      this.moveLeaves(out, order);
    return out;
  };


  /* Kernel leaves go with a frame's own time: a kept frame's to its new
   * node, a removed one's where its children went (a frame; a thread
   * keeps none); leaves of one kind and name add up there. */
  Apply.prototype.moveLeaves = function (out, order) {
    const t = this.t, at = new Int32Array(this.made.n).fill(-1);
    for (let i = 0; i < out.ALL; i++)
      at[order[i]] = i;
    for (let s = t.T; s < t.ALL; s++) {
      const made = this.fate[s] === KEEP ? this.place[s] : this.fate[s] === FOLD ? this.kidsInto[s] : -1;
      const i = made >= 0 ? at[made] : -1;
      if (i >= out.T)
        AFG_KINDS.addLeaves(out.kinds, i, t.kinds.leaves[s]);
    }
  };

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
