// SPDX-License-Identifier: MIT
// The page's "Merge addresses" toggle: on by default, its
// merged tree is the CLI's --merge-addresses export frame by frame (and the
// samples' .merged.expected), off it is the plain export; the choice
// survives a reload; #merge= overrides it; a frame merged from several
// variants shows no call durations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const SAMPLES = ['ascend_pytorch_profiler_level0_rank0', 'ascend_pytorch_profiler_level1_rank0'];
const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
let browser;

before(async () => {
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

const exportJson = h.exportJson;
const jsonLines = h.npuJsonLines;

const hostOnly = (lines) => lines.map((l) => l.split('\t').slice(0, 4).join('\t'));

function readLines(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').sort(byCodeUnit);
}

const state = (page) => page.evaluate(() => window.flamegraph.state());
const dump = async (page, kind) => (await page.evaluate((k) => window.flamegraph.dump(k), kind)).sort(byCodeUnit);

for (const name of SAMPLES) {
  test(`${name}: merged by default as --merge-addresses, plain when toggled off`, async () => {
    const db = path.join(h.samplesDir(), name + '.db');
    const merged = jsonLines(exportJson(db, ['--merge-addresses']));
    const plain = jsonLines(exportJson(db));
    assert.notDeepEqual(merged, plain, 'the sample has address variants');
    assert.deepEqual(hostOnly(merged), readLines(path.join(h.samplesDir(), name + '.merged.expected')));

    const { page, log } = await h.openPage(browser.context, h.exportHtml(db));
    await page.evaluate(() => localStorage.removeItem('afg.mergeAddresses'));
    await page.reload();
    await page.waitForFunction(() => window.flamegraph !== undefined);
    assert.equal((await state(page)).merged, true);
    assert.equal(await page.isChecked('#merge-addresses'), true);
    assert.deepEqual(await dump(page, 'npu'), merged);
    assert.deepEqual(await dump(page), hostOnly(merged));
    assert.deepEqual(await page.evaluate(() => window.flamegraph.functions()),
                     exportJson(db, ['--merge-addresses']).functions);

    await page.click('#merge-addresses');
    assert.equal((await state(page)).merged, false);
    assert.equal(await page.isChecked('#merge-addresses'), false);
    assert.match(await page.evaluate(() => location.hash), /merge=0/);
    assert.deepEqual(await dump(page, 'npu'), plain);
    await page.click('#merge-addresses');
    assert.deepEqual(await dump(page, 'npu'), merged);
    assert.deepEqual(log.errors, []);
    await page.close();
  });
}

test('the choice is remembered across a reload; #merge= overrides it', async () => {
  const db = path.join(h.samplesDir(), SAMPLES[0] + '.db');
  const file = h.exportHtml(db);
  const { page, log } = await h.openPage(browser.context, file);
  await page.evaluate(() => localStorage.removeItem('afg.mergeAddresses'));
  await page.reload();
  await page.waitForFunction(() => window.flamegraph !== undefined);
  assert.equal((await state(page)).merged, true);
  await page.click('#merge-addresses');
  assert.equal((await state(page)).merged, false);
  await page.close();

  const again = await h.openPage(browser.context, file);
  assert.equal((await state(again.page)).merged, false, 'remembered off');
  assert.equal(await again.page.evaluate(() => location.hash), '', 'a plain open keeps its plain URL');
  await again.page.close();
  const forced = await h.openPage(browser.context, file, '#merge=1');
  assert.equal((await state(forced.page)).merged, true, '#merge=1 wins over the stored choice');
  await forced.page.click('#merge-addresses');
  await forced.page.click('#merge-addresses');
  await forced.page.close();
  const back = await h.openPage(browser.context, file, '#merge=0');
  assert.equal((await state(back.page)).merged, false);
  assert.deepEqual([...log.errors, ...again.log.errors, ...forced.log.errors, ...back.log.errors], []);
  await back.page.close();
});

/* A frame in the page whose merged name stands for several variants. */
async function mergedFrame(page, db) {
  const plain = exportJson(db).functions.map((f) => f.name);
  const variants = new Map();
  for (const n of plain) {
    const m = n.replace(/ at 0x[0-9A-Fa-f]+/g, ' at 0x…');
    variants.set(m, (variants.get(m) || 0) + 1);
  }
  const lines = await dump(page);
  for (const [n, count] of [...variants].sort((a, b) => b[1] - a[1])) {
    if (count < 2)
      break;
    const rects = await page.evaluate((x) => window.flamegraph.frames(x), n);
    if (rects.some((r) => r.width > 20))
      return n;
  }
  assert.fail(`no on-screen merged frame among ${lines.length} frames`);
}

test('a frame merged from variants shows the merged tree\'s call durations, as the window; a plain one its own', async () => {
  const db = path.join(h.samplesDir(), SAMPLES[1] + '.db');
  const file = h.exportHtml(db);
  const { page, log } = await h.openPage(browser.context, file, '#merge=1');
  const name = await mergedFrame(page, db);
  const rects = await page.evaluate((x) => window.flamegraph.frames(x), name);
  const i = rects.findIndex((r) => r.width > 20);
  const c = await h.frameCentre(page, name, i);
  await page.mouse.move(c.x, c.y);
  const tip = await page.textContent('#tooltip');
  assert.ok(tip.includes(name), tip);
  assert.match(tip, /Call durations[^]*\d (ns|µs|ms|s) \/ /, 'percentile values');
  assert.doesNotMatch(tip, /merges address variants/);

  await page.click('#merge-addresses');
  const top = (await dump(page)).map((l) => l.split('\t')[0].split(';')).find((p) => p.length === 2);
  const d = await h.frameCentre(page, top[1]);
  await page.mouse.move(d.x, d.y);
  assert.match(await page.textContent('#tooltip'), /Call durations[^]*\d (ns|µs|ms|s) \/ /);
  assert.deepEqual(log.errors, []);
  await page.close();
});

/* Variants under one parent merge, recursively, in byte order; under other
 * parents they stay apart; " at 0x" without digits is no address. */
test('a built profile: merged as --merge-addresses, children in byte order', async () => {
  const names = ['main', 'b of T at 0x1f', 'a of T at 0xAB', 'b of T at 0x2e', 'leaf', 'x at 0x', 'other',
                 'b of T at 0x3d', 'q at 0x1 z', 'q at 0x3', 'q at 0x5'];
  const db = h.makeDb(names, [
    [1, 1, 1, 0, 1000],
    [1, 1, 2, 0, 300],
    [1, 1, 5, 10, 110],
    [1, 1, 3, 300, 400],
    [1, 1, 4, 400, 700],
    [1, 1, 5, 410, 450],
    [1, 1, 6, 700, 800],
    [1, 1, 7, 800, 1000],
    [1, 1, 8, 810, 900],
    [1, 2, 9, 0, 100],
    [1, 2, 10, 100, 200],
    [1, 2, 11, 200, 300],
  ]);
  const merged = jsonLines(exportJson(db, ['--merge-addresses']));
  const plain = jsonLines(exportJson(db));
  const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#merge=1');
  assert.deepEqual(await dump(page), hostOnly(merged));
  const lines = await dump(page);
  assert.ok(lines.includes('1/1;main;b of T at 0x…\t2\t600\t460'), lines.join('\n'));
  assert.ok(lines.includes('1/1;main;other;b of T at 0x…\t1\t90\t90'));
  assert.ok(lines.some((l) => l.startsWith('1/1;main;x at 0x\t')));
  const [a] = await page.evaluate(() => window.flamegraph.frames('a of T at 0x…'));
  const [b] = await page.evaluate(() => window.flamegraph.frames('b of T at 0x…'));
  assert.ok(a.x < b.x && a.y === b.y, 'merged siblings in byte order');
  /* "q at 0x1 z" came first; merged, "q at 0x…" sorts before "q at 0x… z". */
  const [q] = await page.evaluate(() => window.flamegraph.frames('q at 0x…'));
  const [qz] = await page.evaluate(() => window.flamegraph.frames('q at 0x… z'));
  assert.ok(q.x < qz.x && q.y === qz.y, 'a merged frame moves to its byte-order place');
  await page.click('#merge-addresses');
  assert.deepEqual(await dump(page), hostOnly(plain));
  assert.deepEqual(log.errors, []);
  await page.close();
});

/* Totals above 2^53 add up exactly when variants merge, then round once,
 * as JSON.parse rounds the --merge-addresses export. */
test('merged totals above 2^53 are the JSON export\'s', async () => {
  const db = h.makeDb(['p', 'v at 0x1', 'v at 0x2'], [
    [1, 1, 1, '0', '4611686018427387907'],
    [1, 1, 2, '1', '2305843009213693955'],
    [1, 1, 3, '2305843009213693955', '4611686018427387906'],
  ]);
  const merged = hostOnly(jsonLines(exportJson(db, ['--merge-addresses'])));
  const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#merge=1');
  assert.deepEqual(await dump(page), merged);
  assert.ok(merged.some((l) => l.startsWith('1/1;p;v at 0x…\t2\t')), merged.join('\n'));
  assert.deepEqual(log.errors, []);
  await page.close();
});
