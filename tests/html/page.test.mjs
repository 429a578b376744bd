// SPDX-License-Identifier: MIT
// Interaction tests of the exported page on a small known profile.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './helpers.mjs';
import * as fx from './fixtures.mjs';

let browser, file;

before(async () => {
  file = h.exportHtml(fx.knownDb());
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

async function open(hash = '') {
  const opened = await h.openPage(browser.context, file, hash);
  opened.frames = (name) => opened.page.evaluate((n) => window.flamegraph.frames(n), name);
  opened.state = () => opened.page.evaluate(() => window.flamegraph.state());
  return opened;
}

async function done({ page, log }) {
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.requests, []);
  await page.close();
}

async function clickFrame(page, name) {
  const c = await h.frameCentre(page, name);
  await page.mouse.click(c.x, c.y);
}

test('the page draws the tree and decodes it exactly', async () => {
  const p = await open();
  const canvasWidth = await p.page.evaluate(() => document.getElementById('flame').clientWidth);
  assert.equal((await p.frames('All threads'))[0].width, canvasWidth - 1);
  assert.equal((await p.frames(fx.FORWARD)).length, 1);
  assert.equal((await p.frames(fx.ADD)).length, 2);
  assert.deepEqual(await p.page.evaluate(() => window.flamegraph.dump()), [
    '100/1\t1\t1000\t0',
    `100/1;${fx.MAIN}\t1\t1000\t300`,
    `100/1;${fx.MAIN};${fx.FORWARD}\t2\t700\t350`,
    `100/1;${fx.MAIN};${fx.FORWARD};${fx.MATMUL}\t1\t300\t100`,
    `100/1;${fx.MAIN};${fx.FORWARD};${fx.MATMUL};${fx.ACLNN}\t1\t200\t200`,
    `100/1;${fx.MAIN};${fx.FORWARD};${fx.ADD}\t1\t50\t50`,
    '100/2\t1\t300\t0',
    `100/2;${fx.LOOP}\t1\t300\t200`,
    `100/2;${fx.LOOP};${fx.ADD}\t1\t100\t100`,
  ].sort());
  const ratio = await p.page.evaluate(() => {
    const c = document.getElementById('flame');
    return c.width / c.clientWidth;
  });
  assert.equal(ratio, await p.page.evaluate(() => window.devicePixelRatio));
  await done(p);
});

test('thread switching changes what is drawn', async () => {
  const p = await open();
  const labels = await p.page.$$eval('#thread-select option', (os) => os.map((o) => o.textContent));
  assert.equal(labels.length, 3);
  assert.match(labels[0], /^All threads/);
  assert.equal(labels[1], '100/1 · 1.0 µs');
  assert.equal(labels[2], '100/2 · 300 ns');
  await p.page.selectOption('#thread-select', '100/2');
  assert.equal((await p.frames(fx.MAIN)).length, 0);
  assert.equal((await p.frames(fx.LOOP)).length, 1);
  assert.equal((await p.frames('All threads')).length, 0);
  assert.equal((await p.state()).thread, '100/2');
  await p.page.selectOption('#thread-select', '100/1');
  assert.equal((await p.frames(fx.LOOP)).length, 0);
  assert.equal((await p.frames(fx.MAIN)).length, 1);
  await done(p);
});

test('search counts matches and their share without double counting', async () => {
  const p = await open();
  await p.page.fill('#search', 'ATEN');
  assert.equal(await p.page.textContent('#match-count'), '3 matches · 34.6%');
  await p.page.fill('#search', 'ma');
  // main covers matmul and aclnnMatmul: 1000 of 1300 ns.
  assert.equal(await p.page.textContent('#match-count'), '3 matches · 76.9%');
  await p.page.selectOption('#thread-select', '100/2');
  assert.equal(await p.page.textContent('#match-count'), 'no matches');
  await p.page.fill('#search', 'add');
  assert.equal(await p.page.textContent('#match-count'), '1 match · 33.3%');
  await p.page.click('#clear-search');
  assert.equal(await p.page.inputValue('#search'), '');
  assert.equal(await p.page.textContent('#match-count'), '');
  assert.equal((await p.state()).search, '');
  await done(p);
});

test('/ and Ctrl+F focus the search field', async () => {
  const p = await open();
  await p.page.locator('#flame').click({ position: { x: 2, y: 2 } });
  await p.page.keyboard.press('/');
  assert.equal(await p.page.evaluate(() => document.activeElement.id), 'search');
  assert.equal(await p.page.inputValue('#search'), '');
  await p.page.locator('#reset-zoom').focus();
  await p.page.keyboard.press('Control+f');
  assert.equal(await p.page.evaluate(() => document.activeElement.id), 'search');
  await done(p);
});

test('the tooltip describes the hovered frame', async () => {
  const p = await open();
  const c = await h.frameCentre(p.page, fx.MATMUL);
  await p.page.mouse.move(c.x, c.y);
  const tip = p.page.locator('#tooltip');
  assert.equal(await tip.isVisible(), true);
  const text = await tip.innerText();
  for (const part of [fx.MATMUL, 'Python framework', 'Calls\t1', 'Total\t300 ns', 'Self\t100 ns',
                      'Of all\t23.1%', 'Of zoom\t23.1%'])
    assert.ok(text.includes(part), `${JSON.stringify(part)} in ${JSON.stringify(text)}`);
  const box = await tip.boundingBox();
  const dx = Math.max(box.x - c.x, c.x - (box.x + box.width), 0);
  const dy = Math.max(box.y - c.y, c.y - (box.y + box.height), 0);
  assert.ok(dx < 30 && dy < 30, 'tooltip near the pointer');
  await clickFrame(p.page, fx.FORWARD);
  const c2 = await h.frameCentre(p.page, fx.MATMUL);
  await p.page.mouse.move(c2.x, c2.y);
  assert.ok((await tip.innerText()).includes('Of zoom\t42.9%'));
  await p.page.mouse.move(c2.box.x + c2.box.width - 1, c2.box.y + 1);
  await done(p);
});

test('click zooms in, ancestors stay full width, clicking them zooms out', async () => {
  const p = await open();
  const full = await p.page.evaluate(() => document.getElementById('flame').clientWidth) - 1;
  await clickFrame(p.page, fx.FORWARD);
  let s = await p.state();
  assert.equal(s.zoomName, fx.FORWARD);
  assert.equal(typeof s.zoom, 'number');
  for (const name of ['All threads', '100/1', fx.MAIN, fx.FORWARD])
    assert.equal((await p.frames(name))[0].width, full, name);
  assert.equal((await p.frames(fx.LOOP)).length, 0);
  // 300 of 700 ns.
  assert.ok(Math.abs((await p.frames(fx.MATMUL))[0].width - (full + 1) * 3 / 7) < 2);
  await clickFrame(p.page, fx.MAIN);
  assert.equal((await p.state()).zoomName, fx.MAIN);
  assert.equal((await p.frames(fx.FORWARD))[0].width < full, true);
  await clickFrame(p.page, 'All threads');
  s = await p.state();
  assert.equal(s.zoom, null);
  assert.equal((await p.frames(fx.LOOP)).length, 1);
  await done(p);
});

test('reset zoom restores the whole view', async () => {
  const p = await open();
  await clickFrame(p.page, fx.MATMUL);
  assert.equal((await p.state()).zoomName, fx.MATMUL);
  await p.page.click('#reset-zoom');
  assert.equal((await p.state()).zoom, null);
  assert.equal((await p.frames(fx.LOOP)).length, 1);
  await done(p);
});

test('Esc clears the search first, then resets the zoom', async () => {
  const p = await open();
  await clickFrame(p.page, fx.FORWARD);
  await p.page.fill('#search', 'aten');
  await p.page.keyboard.press('Escape');
  let s = await p.state();
  assert.equal(s.search, '');
  assert.equal(await p.page.inputValue('#search'), '');
  assert.equal(s.zoomName, fx.FORWARD);
  await p.page.keyboard.press('Escape');
  s = await p.state();
  assert.equal(s.zoom, null);
  await done(p);
});

test('the orientation toggle flips flame and icicle', async () => {
  const p = await open();
  const rootY = async () => (await p.frames('All threads'))[0].y;
  const mainY = async () => (await p.frames(fx.MAIN))[0].y;
  assert.ok(await rootY() > await mainY(), 'flame: root at the bottom');
  await p.page.click('#orientation');
  assert.ok(await rootY() < await mainY(), 'icicle: root on top');
  assert.equal((await p.state()).orientation, 'icicle');
  await done(p);
});

test('thread, zoom and search survive a reload through the URL hash', async () => {
  const p = await open();
  await p.page.selectOption('#thread-select', '100/1');
  await clickFrame(p.page, fx.FORWARD);
  await p.page.fill('#search', 'aten');
  const state = await p.state();
  const hash = await p.page.evaluate(() => location.hash);
  const rects = await p.frames(fx.MATMUL);
  await done(p);
  const q = await open(hash);
  assert.deepEqual(await q.state(), state);
  assert.deepEqual(await q.frames(fx.MATMUL), rects);
  assert.equal(await q.page.inputValue('#search'), 'aten');
  assert.equal(await q.page.inputValue('#thread-select'), '100/1');
  assert.equal(await q.page.textContent('#match-count'), '2 matches · 35.0%');
  await done(q);
});

test('a zoom to a thread\'s bar survives a reload', async () => {
  const p = await open();
  await clickFrame(p.page, '100/1');
  const state = await p.state();
  assert.notEqual(state.zoom, null);
  const hash = await p.page.evaluate(() => location.hash);
  assert.match(hash, /zoom=/);
  const rects = await p.frames(fx.MATMUL);
  await done(p);
  const q = await open(hash);
  assert.deepEqual(await q.state(), state);
  assert.deepEqual(await q.frames(fx.MATMUL), rects);
  assert.equal(await q.page.evaluate(() => location.hash), hash);
  await done(q);
});

test('a frame exactly a pixel wide is drawn, one under a pixel is not', async () => {
  const probe = await open();
  const width = await probe.page.evaluate(() => document.getElementById('flame').clientWidth);
  await done(probe);
  /* 1000 ns a CSS pixel: 1000 / (width * 1000) of the width falls a hair
   * short of one pixel in floating point. */
  const db = h.makeDb(['whole', 'one_px', 'under_px'], [
    [100, 1, 1, 0, width * 1000],
    [100, 1, 2, 0, 1000],
    [100, 1, 3, 2000, 2999],
  ]);
  const p = await h.openPage(browser.context, h.exportHtml(db));
  const frames = (name) => p.page.evaluate((n) => window.flamegraph.frames(n), name);
  assert.equal((await frames('one_px')).length, 1);
  assert.equal((await frames('under_px')).length, 0);
  await done(p);
});

test('summary and legend show the load statistics and categories', async () => {
  const p = await open();
  const stats = await p.page.$$eval('#summary dd', (es) => Object.fromEntries(es.map((e) => [e.dataset.stat, e.textContent])));
  assert.match(stats.sourceFile, /^ascend_pytorch_profiler_test\.db \(\d[\d,]* B\)$/);
  assert.equal(stats.rows, '8');
  assert.equal(stats.used, '8');
  assert.equal(stats.threads, '2');
  assert.equal(stats.frames, '7');
  for (const key of ['skippedType', 'skippedNull', 'skippedMalformed', 'skippedNonpositive',
                     'profilerSteps', 'partialOverlaps', 'depthTruncated'])
    assert.equal(stats[key], '0', key);
  assert.match(await p.page.textContent('#summary'), /Partial overlaps.*Calls cut below depth 1000/);
  const legend = await p.page.$$eval('#legend [data-category]', (es) => es.map((e) => e.dataset.category));
  assert.deepEqual(legend, ['python', 'python_framework', 'cann', 'unknown']);
  await done(p);
});
