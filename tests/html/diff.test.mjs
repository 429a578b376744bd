// SPDX-License-Identifier: MIT
// The diff page: dump() is the diff JSON's tree, the colours
// are the window's (afg-diff-dump prints what afg_diff_hsl() gives, on a
// table of inputs and on the samples' diff), the tooltip says A → B, and
// the controls switch the shape, the colour and the normalisation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import * as h from './helpers.mjs';

const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const samples = h.samplesDir();
const A = path.join(samples, 'ascend_pytorch_profiler_level0_rank0.db');
const B = path.join(samples, 'ascend_pytorch_profiler_level1_rank0.db');
let browser;

before(async () => {
  browser = await h.launchBrowser({ width: 1400, height: 800 });
});

after(async () => {
  await browser?.close();
});

function diffDump(...args) {
  const exe = process.env.AFG_DIFF_DUMP;
  assert.ok(exe && fs.existsSync(exe), 'AFG_DIFF_DUMP must name the built afg-diff-dump');
  return execFileSync(exe, args, { encoding: 'utf8', maxBuffer: 1 << 26 }).split('\n').filter(Boolean);
}

const exportDiff = h.exportDiff;
const jsonLines = h.diffJsonLines;

test('diff-color.js is afg_diff_hsl() and afg_diff_compared() on a table of inputs', () => {
  const code = fs.readFileSync(path.join(h.repoRoot, 'data', 'html', 'diff-color.js'), 'utf8');
  const rule = vm.runInNewContext(`${code}\n;AFG_DIFF_COLOR`);
  let hsl = 0, norm = 0, compared = 0;
  for (const line of diffDump('table')) {
    const f = line.split('\t');
    if (f[0] === 'compared') {
      const [a, b, aTotal, bTotal, minNs, minPercent, ...want] = f.slice(1).map(Number);
      assert.deepEqual([...rule.compared(a, b, aTotal, bTotal, { minNs, minPercent })], want, line);
      compared++;
    } else if (f[0] === 'hsl') {
      const [a, b, inA, inB, minNs, minPercent] = f.slice(1, 7).map(Number);
      const got = [...rule.hsl(a, b, inA === 1, inB === 1, { minNs, minPercent })];
      assert.deepEqual(got, f.slice(7).map(Number), line);
      hsl++;
    } else {
      const got = [...rule.normScales(f[1], Number(f[2]), Number(f[3]), Number(f[4]), Number(f[5]))];
      assert.deepEqual(got, [Number(f[6]), Number(f[7])], line);
      norm++;
    }
  }
  assert.ok(hsl > 4000 && norm === 12 && compared === 4 * 19 * 19);
});

test('the samples: dump() is the JSON, colours are the window\'s', async () => {
  const page = exportDiff(A, B, 'html', ['--merge-addresses']);
  const want = jsonLines(exportDiff(A, B, 'json', ['--merge-addresses']));
  assert.ok(want.length > 1000);
  const expected = fs.readFileSync(path.join(samples, 'level0_rank0-vs-level1_rank0.diff.expected'), 'utf8')
    .split('\n').filter(Boolean).sort(byCodeUnit);
  assert.deepEqual(want, expected);
  for (const [hash, by, norm] of [['', 'self', 'raw'], ['#by=total&norm=per-step', 'total', 'per-step'],
                                  ['#norm=equal-totals', 'self', 'equal-totals']]) {
    const { page: p, log } = await h.openPage(browser.context, page, hash);
    const state = await p.evaluate(() => window.flamegraph.state());
    assert.equal(state.mode, 'diff');
    assert.equal(state.colourBy, by);
    assert.equal(state.normalize, norm);
    if (hash === '')
      assert.deepEqual(await p.evaluate(() => window.flamegraph.dump()), want);
    const colours = await p.evaluate(() => window.flamegraph.dump('view'));
    assert.deepEqual(colours, diffDump('view', A, B, by, norm).sort(byCodeUnit), hash);
    assert.ok(colours.some((l) => !l.endsWith('hsl(0, 0%, 80%)')));
    assert.deepEqual(log.errors, []);
    await p.close();
  }
});

const MAIN = 'train.py(1): main';
const ITEM = '<built-in method item of Tensor object at 0x';

/* A: main > add, main > gone, item at one address; B: main > add
 * (slower), main > fresh, item at another. */
function smallPair() {
  const a = h.makeDb([MAIN, 'aten::add', 'gone', `${ITEM}ffff1>`],
                     [[1, 1, 1, 0, 10e6], [1, 1, 2, 0, 2e6], [1, 1, 3, 3e6, 5e6], [1, 1, 4, 6e6, 7e6]]);
  const b = h.makeDb([MAIN, 'aten::add', 'fresh', `${ITEM}eeee2>`],
                     [[2, 2, 1, 0, 10e6], [2, 2, 2, 0, 4e6], [2, 2, 3, 5e6, 8e6], [2, 2, 4, 8e6, 9e6]]);
  return { a, b };
}

test('frames only in A or B, address variants, the tooltip and the controls', async () => {
  const { a, b } = smallPair();
  const { page, log } = await h.openPage(browser.context, exportDiff(a, b, 'html', ['--merge-addresses']));
  assert.deepEqual(await page.evaluate(() => window.flamegraph.dump()), [
    MAIN + '\t1\t10000000\t5000000\t1\t10000000\t2000000',
    `${MAIN};${ITEM}…>\t1\t1000000\t1000000\t1\t1000000\t1000000`,
    `${MAIN};aten::add\t1\t2000000\t2000000\t1\t4000000\t4000000`,
    `${MAIN};fresh\t0\t0\t0\t1\t3000000\t3000000`,
    `${MAIN};gone\t1\t2000000\t2000000\t0\t0\t0`,
  ]);
  const view = new Map((await page.evaluate(() => window.flamegraph.dump('view'))).map((l) => l.split('\t')));
  assert.equal(view.get(`${MAIN};aten::add`), 'hsl(0, 90%, 62%)');
  assert.equal(view.get(`${MAIN};gone`), 'hsl(175, 90%, 62%)');
  assert.equal(view.get(`${MAIN};fresh`), 'hsl(285, 90%, 62%)');
  assert.equal(view.get(`${MAIN};${ITEM}…>`), 'hsl(0, 0%, 80%)');
  assert.equal(view.get(MAIN), 'hsl(220, 54%, 62%)');

  const c = await h.frameCentre(page, 'aten::add');
  await page.mouse.move(c.x, c.y);
  const tip = await page.textContent('#tooltip');
  assert.match(tip, /2\.00 ms → 4\.00 ms \(\+2\.00 ms, \+100(\.0)?%\)/);

  /* B's shape hides what is gone; A's shows it. */
  assert.equal((await page.evaluate(() => window.flamegraph.frames('gone'))).length, 0);
  await page.selectOption('#shape', 'a');
  assert.equal((await page.evaluate(() => window.flamegraph.state())).shape, 'a');
  assert.equal((await page.evaluate(() => window.flamegraph.frames('gone'))).length, 1);
  assert.equal((await page.evaluate(() => window.flamegraph.frames('fresh'))).length, 0);

  /* Equal totals: both sides 10 ms, so nothing changes but the children. */
  await page.selectOption('#normalize', 'equal-totals');
  await page.selectOption('#colour-by', 'total');
  const totals = new Map((await page.evaluate(() => window.flamegraph.dump('view'))).map((l) => l.split('\t')));
  assert.equal(totals.get(MAIN), 'hsl(0, 0%, 80%)');
  assert.match(page.url(), /shape=a/);

  /* The noise floor: 3 ms hides the +2 ms of add. */
  await page.fill('#floor-us', '3000');
  await page.dispatchEvent('#floor-us', 'change');
  const floored = new Map((await page.evaluate(() => window.flamegraph.dump('view'))).map((l) => l.split('\t')));
  assert.equal(floored.get(`${MAIN};aten::add`), 'hsl(0, 0%, 80%)');
  assert.equal(floored.get(`${MAIN};fresh`), 'hsl(285, 90%, 62%)');

  await page.fill('#search', 'add');
  assert.match(await page.textContent('#match-count'), /^1 match/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a DB against itself is all grey; an empty side is all zeros', async () => {
  const { a, b } = smallPair();
  const self = await h.openPage(browser.context, exportDiff(b, b, 'html'));
  const colours = await self.page.evaluate(() => window.flamegraph.dump('view'));
  assert.equal(colours.length, 4);
  assert.ok(colours.every((l) => l.endsWith('\thsl(0, 0%, 80%)')), colours.join('\n'));
  await self.page.close();

  const empty = h.makeDb(['ProfilerStep#1'], [[1, 1, 1, 0, 100]]);
  const one = await h.openPage(browser.context, exportDiff(empty, a, 'html'));
  const lines = await one.page.evaluate(() => window.flamegraph.dump());
  assert.equal(lines.length, 4);
  assert.ok(lines.every((l) => /\t0\t0\t0\t1\t\d+\t\d+$/.test(l)), lines.join('\n'));
  assert.deepEqual(one.log.errors, []);
  await one.page.close();
});

test('a top frame a transform took out leaves its time in the root, as in the JSON', async () => {
  const { a, b } = smallPair();
  const args = ['--merge-function', MAIN];
  const json = JSON.parse(fs.readFileSync(exportDiff(a, b, 'json', args), 'utf8'));
  assert.equal(json.a.root.total_ns, 10e6);
  assert.equal(json.b.root.total_ns, 10e6);
  const file = exportDiff(a, b, 'html', args);
  for (const hash of ['#merge=0', '#merge=1']) {
    const { page, log } = await h.openPage(browser.context, file, hash);
    const { totals } = await page.evaluate(() => window.flamegraph.state());
    assert.deepEqual(totals, { a: json.a.root.total_ns, b: json.b.root.total_ns }, hash);
    assert.deepEqual(log.errors, []);
    await page.close();
  }
});

test('the sides say what their totals are; one step is one', async () => {
  const a = h.makeDb(['ProfilerStep#1', 'f'], [[1, 1, 1, 0, 100], [1, 1, 2, 10, 20]]);
  const b = h.makeDb(['ProfilerStep#1', 'ProfilerStep#2', 'f'],
                     [[1, 1, 1, 0, 100], [1, 1, 2, 100, 200], [1, 1, 3, 10, 20]]);
  const { page, log } = await h.openPage(browser.context, exportDiff(a, b, 'html'));
  const text = (id) => page.evaluate((i) => document.getElementById(i).textContent, id);
  assert.match(await text('side-a'), /^A: .* · whole profile \(1 step\) · 10 ns host time on all threads$/);
  assert.match(await text('side-b'), /^B: .* · whole profile \(2 steps\) · 10 ns host time on all threads$/);
  assert.equal(await text('diff-note'), 'A has 1 step, B has 2: Per step compares one step with one step.');
  assert.deepEqual(log.errors, []);
  await page.close();
});
