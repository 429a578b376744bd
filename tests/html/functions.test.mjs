// SPDX-License-Identifier: MIT
// The Functions panel of the page: the table is the JSON export's, sorts
// and follows the search; selecting a function highlights its frames and
// draws its sandwich; the tooltip has the call duration percentiles.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';
import * as fx from './fixtures.mjs';

let browser, db, file;

before(async () => {
  db = fx.knownDb();
  file = h.exportHtml(db);
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

function exportedFunctions(dbPath) {
  const dir = h.tmpDir('afg-json-');
  execFileSync(h.afgBin(), ['--export', '-q', '-f', 'json', '-o', dir, dbPath], { stdio: 'pipe' });
  return JSON.parse(fs.readFileSync(path.join(dir, 'flamegraph.json'), 'utf8')).functions;
}

async function done({ page, log }) {
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.requests, []);
  await page.close();
}

const tableNames = (page) => page.$$eval('#functions-table tbody tr', (trs) => trs.map((tr) => tr.dataset.name));

/* The canvas pixel at the centre of the first frame named @name. */
async function pixelOf(page, name) {
  const r = (await page.evaluate((n) => window.flamegraph.frames(n), name))[0];
  return page.evaluate(({ x, y }) => {
    const c = document.getElementById('flame');
    const dpr = c.width / c.clientWidth;
    return Array.from(c.getContext('2d').getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data.slice(0, 3));
  }, { x: r.x + r.width / 2, y: r.y + r.height / 2 });
}

test('functions() is the JSON export\'s array', async () => {
  const p = await h.openPage(browser.context, file);
  const fns = await p.page.evaluate(() => window.flamegraph.functions());
  assert.deepEqual(fns, exportedFunctions(db));
  assert.deepEqual(fns.find((f) => f.name === fx.ADD),
                   { name: fx.ADD, category: 'python_framework', calls: 2, self_ns: 150, total_ns: 150 });
  await done(p);
});

for (const name of ['ascend_pytorch_profiler_level0_rank0', 'ascend_pytorch_profiler_level1_rank0']) {
  test(`functions() of sample ${name}`, async () => {
    const sample = path.join(h.samplesDir(), name + '.db');
    const p = await h.openPage(browser.context, h.exportHtml(sample), '#merge=0');
    assert.deepEqual(await p.page.evaluate(() => window.flamegraph.functions()), exportedFunctions(sample));
    await done(p);
  });
}

test('the table sorts by a column and follows the search', async () => {
  const p = await h.openPage(browser.context, file);
  await h.openFunctions(p.page);
  assert.deepEqual(await tableNames(p.page), [fx.FORWARD, fx.MAIN, fx.ACLNN, fx.LOOP, fx.ADD, fx.MATMUL]);
  await p.page.click('#functions-table th[data-key="total"]');
  assert.deepEqual((await tableNames(p.page)).slice(0, 2), [fx.MAIN, fx.FORWARD]);
  await p.page.click('#functions-table th[data-key="total"]');
  assert.equal((await tableNames(p.page))[0], fx.ADD);
  await p.page.click('#functions-table th[data-key="name"]');
  assert.deepEqual(await tableNames(p.page), [fx.ACLNN, fx.ADD, fx.MATMUL, fx.MAIN, fx.FORWARD, fx.LOOP]);
  await p.page.fill('#search', 'ATEN');
  assert.deepEqual(await tableNames(p.page), [fx.ADD, fx.MATMUL]);
  assert.equal(await p.page.textContent('#functions-count'), '2 functions');
  await done(p);
});

test('selecting a function highlights its frames and draws its sandwich', async () => {
  const p = await h.openPage(browser.context, file);
  const before = await pixelOf(p.page, fx.MAIN);
  await h.openFunctions(p.page);
  await p.page.click(`#functions-table tr[data-name="${fx.ADD}"]`);
  assert.equal(await p.page.getAttribute('#functions-table tr.selected', 'data-name'), fx.ADD);
  const dim = await pixelOf(p.page, fx.MAIN);
  assert.notDeepEqual(dim, before);
  assert.deepEqual(dim, [228, 228, 222]);
  assert.notDeepEqual(await pixelOf(p.page, fx.ADD), dim);
  assert.equal((await p.page.evaluate((n) => window.flamegraph.frames(n), fx.ADD)).length, 2);
  const frames = (id) => p.page.$$eval(`#${id} .sw-frame`, (els) => els.map((e) => `${e.dataset.depth} ${e.dataset.name}`).sort());
  assert.deepEqual(await frames('sandwich-callers'),
                   [`0 ${fx.ADD}`, `1 ${fx.FORWARD}`, `1 ${fx.LOOP}`, `2 ${fx.MAIN}`]);
  assert.deepEqual(await frames('sandwich-callees'), [`0 ${fx.ADD}`]);
  const title = await p.page.getAttribute(`#sandwich-callers .sw-frame[data-name="${fx.LOOP}"]`, 'title');
  assert.ok(title.includes('Total: 100 ns (66.7%)'), title);
  // A caller box selects that function in turn.
  await p.page.click(`#sandwich-callers .sw-frame[data-name="${fx.FORWARD}"]`);
  assert.deepEqual(await frames('sandwich-callees'),
                   [`0 ${fx.FORWARD}`, `1 ${fx.ADD}`, `1 ${fx.MATMUL}`, `2 ${fx.ACLNN}`]);
  // Double-click on a frame of the flame graph selects its function.
  const c = await h.frameCentre(p.page, fx.LOOP);
  await p.page.mouse.dblclick(c.x, c.y);
  assert.equal(await p.page.getAttribute('#functions-table tr.selected', 'data-name'), fx.LOOP);
  await done(p);
});

test('the tooltip shows the call duration percentiles', async () => {
  const p = await h.openPage(browser.context, file);
  const tip = p.page.locator('#tooltip');
  let c = await h.frameCentre(p.page, fx.MATMUL);
  await p.page.mouse.move(c.x, c.y);
  let text = await tip.innerText();
  assert.ok(text.includes('p99 / max)\t300 ns / 300 ns / 300 ns / 300 ns / 300 ns'), text);
  assert.ok(!text.includes('≈'), text);
  // forward: 500 ns and 200 ns, to the nearest sixteenth of an octave.
  c = await h.frameCentre(p.page, fx.FORWARD);
  await p.page.mouse.move(c.x, c.y);
  text = await tip.innerText();
  assert.ok(text.includes('≈197 ns / ≈197 ns / ≈490 ns / ≈490 ns / ≈490 ns'), text);
  assert.ok(text.includes('exact in the JSON export'), text);
  await done(p);
});

/* A few ns: the page's steps of a sixteenth of an octave are shown to the
 * nearest ns (2^(37/16) = 4.97 ns is 5 ns, not 4). */
test('short call durations are shown to the nearest ns', async () => {
  const db = h.makeDb(['a', 'S'], [[1, 1, 1, 0, 100], [1, 1, 2, 0, 5], [1, 1, 2, 10, 15], [1, 1, 2, 20, 26]]);
  const p = await h.openPage(browser.context, h.exportHtml(db));
  const c = await h.frameCentre(p.page, 'S');
  await p.page.mouse.move(c.x, c.y);
  const text = await p.page.locator('#tooltip').innerText();
  assert.ok(text.includes('≈5 ns / ≈5 ns / ≈6 ns / ≈6 ns / ≈6 ns'), text);
  await done(p);
});

/* A function's stacks are drawn whole: 30 callers above it and 30 callees
 * below it; a half past the page's bound on boxes (4,000) says so. */
test('the sandwich draws deep stacks whole, and says when it stops', async () => {
  const names = ['T'], events = [];
  for (let i = 0; i < 30; i++) {
    names.push(`c${i}`, `d${i}`);
    events.push([1, 1, 2 + 2 * i, i, 1000 - i], [1, 1, 3 + 2 * i, 31 + i, 969 - i]);
  }
  events.push([1, 1, 1, 30, 970]);
  const deep = await h.openPage(browser.context, h.exportHtml(h.makeDb(names, events)));
  await h.openFunctions(deep.page);
  await deep.page.click('#functions-table tr[data-name="T"]');
  const depths = (id) => deep.page.$$eval(`#${id} .sw-frame`, (els) => els.map((e) => Number(e.dataset.depth)));
  assert.deepEqual((await depths('sandwich-callers')).sort((a, b) => a - b), [...Array(31).keys()]);
  assert.deepEqual((await depths('sandwich-callees')).sort((a, b) => a - b), [...Array(31).keys()]);
  assert.equal(await deep.page.$('.sw-cut'), null);
  await done(deep);

  /* 400 children of T, each with a chain of ten: 4,401 boxes below T,
   * each at least 0.2 % of it; T has the most self time (in the table). */
  const wide = ['T'], rows = [[1, 1, 1, 0, 40100]];
  for (let i = 0; i < 400; i++) {
    wide.push(`k${i}`);
    rows.push([1, 1, wide.length, i * 100, i * 100 + 100]);
    for (let j = 0; j < 10; j++) {
      wide.push(`k${i}_${j}`);
      rows.push([1, 1, wide.length, i * 100 + j + 1, i * 100 + 100]);
    }
  }
  const cut = await h.openPage(browser.context, h.exportHtml(h.makeDb(wide, rows)));
  await h.openFunctions(cut.page);
  await cut.page.click('#functions-table tr[data-name="T"]');
  assert.equal(await cut.page.$$eval('#sandwich-callees .sw-frame', (els) => els.length), 4000);
  assert.match(await cut.page.textContent('#sandwich-callees + .sw-cut'), /first 4000 boxes/);
  await done(cut);
});
