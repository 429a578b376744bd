// SPDX-License-Identifier: MIT
// The page's step strip, the exported scope in the summary and the
// "Per step" toggle, on the three-step profile of fixtures.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';
import * as fx from './fixtures.mjs';

let browser, db, whole, range, none;

before(async () => {
  db = fx.stepsDb();
  whole = h.exportHtml(db);
  range = h.exportHtml(db, ['--steps', '2-3']);
  none = h.exportHtml(fx.knownDb());
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

const open = (file, hash = '') => h.openEval(browser.context, file, hash);
const done = h.closeClean;

const stat = (page, key) => page.textContent(`#summary dd[data-stat="${key}"]`);

async function hoverStep(page, index) {
  const bars = await page.evaluate(() => window.flamegraph.steps());
  const box = await page.locator('#steps').boundingBox();
  const b = bars[index];
  await page.mouse.move(box.x + b.x + b.width / 2, box.y + box.height - 1);
  await page.waitForSelector('#tooltip:not([hidden])');
  return page.textContent('#tooltip');
}

test('the strip has one bar per step, height by duration, the slow one marked', async () => {
  const p = await open(whole);
  assert.equal(await p.page.isVisible('#step-strip'), true);
  const bars = await p.eval(() => window.flamegraph.steps());
  assert.deepEqual(bars.map((b) => b.id), [1, 2, 3]);
  assert.deepEqual(bars.map((b) => b.durationNs), [100, 150, 750]);
  assert.deepEqual(bars.map((b) => b.slow), [false, false, true]);
  assert.deepEqual(bars.map((b) => b.inScope), [true, true, true]);
  assert.ok(bars[0].height < bars[1].height && bars[1].height < bars[2].height);
  const canvasH = await p.eval(() => document.getElementById('steps').clientHeight);
  assert.equal(bars[2].height, canvasH - 1);
  assert.ok(Math.abs(bars[1].height / bars[2].height - 150 / 750) < 0.05);
  assert.equal(await p.page.textContent('#steps-info'), '3 steps · slowest: step 3 · 750 ns wall');
  assert.equal(await hoverStep(p.page, 1), 'step 2 · 150 ns wall');
  assert.equal(await hoverStep(p.page, 2), 'step 3 · 750 ns wall · slow');
  assert.equal(await stat(p.page, 'scope'), 'whole profile (3 steps)');
  const s = await p.eval(() => window.flamegraph.state());
  assert.equal(s.stepCount, 3);
  assert.equal(s.scope, null);
  assert.equal(s.perStep, false);
  await done(p);
});

/* Step 1 after step 2 in time: the range 1–2 is empty, 0 ns of wall
 * time, as the window says, not a negative one. */
test('a range of steps numbered against time has no negative wall time', async () => {
  const db = h.makeDb(['x', 'ProfilerStep#1', 'ProfilerStep#2', 'ProfilerStep#3'],
                     [[100, 1, 1, 0, 1000], [100, 1, 2, 500, 600], [100, 1, 3, 100, 200], [100, 1, 4, 150, 300]]);
  const p = await open(h.exportHtml(db, ['--steps', '1-2']));
  assert.equal(await stat(p.page, 'scope'), 'steps 1–2 (2 of 3 steps, 0 ns wall)');
  await done(p);
});

test('a page exported with --steps 2-3 shows its scope and its tree', async () => {
  const p = await open(range);
  assert.equal(await stat(p.page, 'scope'), 'steps 2–3 (2 of 3 steps, 900 ns wall)');
  const bars = await p.eval(() => window.flamegraph.steps());
  assert.deepEqual(bars.map((b) => b.inScope), [false, true, true]);
  assert.deepEqual(await p.eval(() => window.flamegraph.dump()), [
    '100/1\t1\t900\t0',
    `100/1;${fx.TRAIN}\t1\t900\t650`,
    `100/1;${fx.TRAIN};fwd\t1\t100\t40`,
    `100/1;${fx.TRAIN};fwd;c1\t1\t30\t30`,
    `100/1;${fx.TRAIN};fwd;c2\t1\t30\t30`,
    `100/1;${fx.TRAIN};late\t1\t100\t100`,
    `100/1;${fx.TRAIN};span\t1\t50\t50`,
  ].sort());
  const s = await p.eval(() => window.flamegraph.state());
  assert.deepEqual(s.scope, [2, 3]);
  assert.equal(s.stepCount, 2);
  await done(p);
});

test('"Per step" divides the values shown by the steps in scope', async () => {
  const p = await open(range);
  assert.equal(await stat(p.page, 'totalTime'), '900 ns');
  await p.page.click('#per-step');
  assert.equal(await p.page.getAttribute('#per-step', 'aria-pressed'), 'true');
  assert.equal((await p.eval(() => window.flamegraph.state())).perStep, true);
  assert.match(await p.eval(() => location.hash), /perstep=1/);
  assert.equal(await stat(p.page, 'totalTime'), '450 ns / step');
  assert.match(await p.page.textContent('#thread-select option[value="100/1"]'), /450 ns$/);
  const c = await h.frameCentre(p.page, 'fwd');
  await p.page.mouse.move(c.x, c.y);
  await p.page.waitForSelector('#tooltip:not([hidden])');
  const tip = await p.page.textContent('#tooltip');
  assert.match(tip, /Calls \/ step0\.50/);
  assert.match(tip, /Total \/ step50 ns/);
  assert.match(tip, /Self \/ step20 ns/);
  assert.match(tip, /Of all11\.1%/);
  // The Functions table divides as the window's does; the share stays.
  await h.openFunctions(p.page);
  const fwdRow = () => p.page.$$eval('#functions-table tbody tr[data-name="fwd"] td',
                                     (tds) => tds.slice(2).map((td) => td.textContent));
  assert.deepEqual(await fwdRow(), ['0.50', '20 ns', '50 ns', '4.4%']);
  await p.page.click('#per-step');
  assert.deepEqual(await fwdRow(), ['1', '40 ns', '100 ns', '4.4%']);
  assert.equal(await stat(p.page, 'totalTime'), '900 ns');
  assert.doesNotMatch(await p.eval(() => location.hash), /perstep/);
  await done(p);
});

test('per step is restored from the URL', async () => {
  const p = await open(whole, '#thread=all&perstep=1');
  assert.equal((await p.eval(() => window.flamegraph.state())).perStep, true);
  assert.equal(await stat(p.page, 'totalTime'), '350 ns / step');
  await done(p);
});

test('a profile without steps has no strip and no per step', async () => {
  const p = await open(none, '#perstep=1');
  assert.equal(await p.page.isVisible('#step-strip'), false);
  assert.equal(await stat(p.page, 'scope'), 'whole profile');
  assert.deepEqual(await p.eval(() => window.flamegraph.steps()), []);
  const s = await p.eval(() => window.flamegraph.state());
  assert.equal(s.perStep, false);
  assert.equal(s.stepCount, 0);
  assert.equal(await p.page.isDisabled('#per-step'), true);
  await done(p);
});

test('the sample exported with --steps 50 decodes to its .step50.expected', async () => {
  const name = 'ascend_pytorch_profiler_level1_rank0';
  const page = h.exportHtml(path.join(h.samplesDir(), name + '.db'), ['--steps', '50']);
  const expected = fs.readFileSync(path.join(h.samplesDir(), name + '.step50.expected'), 'utf8')
    .split('\n').filter((l) => l !== '');
  const p = await open(page, '#merge=0');
  assert.deepEqual(await p.eval(() => window.flamegraph.dump('npu')), expected);
  assert.match(await stat(p.page, 'scope'), /^step 50 \(/);
  assert.equal((await p.eval(() => window.flamegraph.state())).stepCount, 1);
  await done(p);
});

/* The sample's step starts and ends are epoch ns past 2^53: its length
 * as the page gives it is the DB's to the nanosecond, not a difference
 * of two doubles (110 ns off here). */
test("a step's length in the page is exact", async () => {
  const db = path.join(h.samplesDir(), 'ascend_pytorch_profiler_level1_rank0.db');
  const exact = Number(execFileSync('sqlite3', [db, `SELECT CAST(endNs AS INTEGER) - CAST(startNs AS INTEGER)
    FROM PYTORCH_API JOIN STRING_IDS ON STRING_IDS.id = PYTORCH_API.name WHERE value = 'ProfilerStep#50'`],
  { encoding: 'utf8' }).trim());
  for (const args of [[], ['--steps', '50']]) {
    const p = await open(h.exportHtml(db, args));
    const bars = await p.eval(() => window.flamegraph.steps());
    assert.deepEqual(bars.map((b) => b.durationNs), [exact]);
    await done(p);
  }
  assert.equal(exact, 151888750);
});
