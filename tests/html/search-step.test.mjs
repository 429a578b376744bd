// SPDX-License-Identifier: MIT
// The page's search steps through its matches as the window does: F3 and
// Shift+F3 (Enter and Shift+Enter in the search box) go depth first,
// wrapping, in the order of the window's core (afg-view-dump's `order`
// lines: afg_flame_search_list), zooming out to the frame
// afg_flame_search_reveal_root names when the match would be under 3 px
// wide; and every match gets a magenta bar at least 4 px wide.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const db = path.join(h.samplesDir(), 'ascend_pytorch_profiler_level1_rank0.db');
const MAGENTA = [224, 0, 140];
let browser;

before(async () => {
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

/* The window's matches of @query in F3's order: [{path, reveal}]. */
function windowOrder(query, width) {
  const exe = process.env.AFG_VIEW_DUMP;
  assert.ok(exe && fs.existsSync(exe), 'AFG_VIEW_DUMP must name the built afg-view-dump');
  return execFileSync(exe, [`--width=${width}`, db, query], { encoding: 'utf8', maxBuffer: 1 << 26 })
    .split('\n').filter((l) => l.startsWith('order\t'))
    .map((l) => { const [, , p, reveal] = l.split('\t'); return { path: p, reveal }; });
}

/* The step's match and the zoom, as paths ('' for no zoom). */
async function stepped(page) {
  return page.evaluate(() => {
    const s = window.flamegraph.state();
    return { match: s.match, path: window.flamegraph.pathOf(s.matchNode),
             zoom: s.zoom === null ? '' : window.flamegraph.pathOf(s.zoom) };
  });
}

async function searchFor(page, query) {
  await page.fill('#search', query);
  await page.waitForFunction(() => document.querySelector('#match-count').textContent !== '');
}

test('F3 steps through the matches in the window\'s order, zooming as the window does', async () => {
  const p = await h.openPage(browser.context, h.exportHtml(db), '#merge=0');
  const { page } = p;
  const width = await page.evaluate(() => document.querySelector('#flame').getBoundingClientRect().width);
  const want = windowOrder('Conv', width);
  assert.ok(want.length > 10, `${want.length} matches`);
  assert.ok(want.some((w) => w.reveal !== ''), 'no match needs a zoom: the test proves nothing');
  await searchFor(page, 'Conv');
  let zoom = '';
  let zoomed = 0;
  for (let k = 0; k < want.length; k++) {
    await page.keyboard.press('F3');
    const got = await stepped(page);
    assert.equal(got.match, k + 1);
    assert.equal(got.path, want[k].path, `match ${k + 1}`);
    if (got.zoom !== zoom || k === 0) {
      // A new zoom is the window's; the first step starts unzoomed, where
      // the window zooms exactly when the match is under 3 px.
      assert.equal(got.zoom, want[k].reveal, `zoom at match ${k + 1}`);
      zoomed += got.zoom !== zoom;
    } else {
      assert.ok(zoom === '' || got.path === zoom || got.path.startsWith(zoom + ';'),
                `match ${k + 1} kept zoom ${zoom} without being under it`);
    }
    zoom = got.zoom;
  }
  assert.ok(zoomed > 0);
  // Wrapping both ways, and Shift+F3 goes back.
  await page.keyboard.press('F3');
  assert.equal((await stepped(page)).path, want[0].path);
  await page.keyboard.press('Shift+F3');
  assert.equal((await stepped(page)).path, want[want.length - 1].path);
  await page.keyboard.press('Shift+F3');
  assert.equal((await stepped(page)).path, want[want.length - 2].path);
  await h.closeClean(p);
});

test('Enter in the search box steps; a new search starts over', async () => {
  const p = await h.openPage(browser.context, h.exportHtml(db), '#merge=0');
  const { page } = p;
  const width = await page.evaluate(() => document.querySelector('#flame').getBoundingClientRect().width);
  const want = windowOrder('hccl', width);
  await searchFor(page, 'hccl');
  await page.focus('#search');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  const second = await stepped(page);
  assert.equal(second.match, 2);
  assert.equal(second.path, want[1].path);
  await page.keyboard.press('Shift+Enter');
  assert.equal((await stepped(page)).path, want[0].path);
  await page.keyboard.press('Shift+Enter');
  assert.equal((await stepped(page)).path, want[want.length - 1].path);
  await page.fill('#search', 'Conv');
  assert.equal((await stepped(page)).match, 0);
  await h.closeClean(p);
});

test('every match has a magenta bar along its bottom, at least 4 px wide', async () => {
  const p = await h.openPage(browser.context, h.exportHtml(db), '#merge=0');
  const { page } = p;
  await searchFor(page, 'aten');
  const bars = await page.evaluate(() => {
    const c = document.querySelector('#flame');
    const ctx = c.getContext('2d');
    const dpr = window.devicePixelRatio || 1;
    const names = [...new Set(window.flamegraph.dump('view').map((l) => l.split('\t')[0].split(';').pop()))]
      .filter((n) => n.toLowerCase().includes('aten'));
    const out = [];
    for (const name of names)
      for (const r of window.flamegraph.frames(name).filter((f) => f.y >= 0 && (f.y + 18) * dpr <= c.height
                                                               && f.x >= 3 && (f.x + f.width + 3) * dpr <= c.width)) {
        const y = Math.floor((r.y + 18 - 2.5) * dpr);
        const mid = Math.floor((r.x + r.width / 2) * dpr);
        const px = (x) => [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)];
        const around = [];
        for (let x = mid - Math.ceil(3 * dpr); x <= mid + Math.ceil(3 * dpr); x++)
          around.push(px(x));
        out.push({ width: r.width, mid: px(mid), around, dpr });
      }
    return out;
  });
  assert.ok(bars.length > 0);
  const close = (a) => a.every((v, i) => Math.abs(v - MAGENTA[i]) <= 8);
  for (const b of bars)
    assert.ok(close(b.mid), `a match ${b.width} px wide has no bar: ${b.mid}`);
  const narrow = bars.filter((b) => b.width < 3);
  assert.ok(narrow.length > 0, 'no narrow match on screen');
  // Edges are anti-aliased: a pixel mostly magenta counts.
  const mostly = (a) => a.every((v, i) => Math.abs(v - MAGENTA[i]) <= 60);
  for (const b of narrow)
    assert.ok(b.around.filter(mostly).length >= Math.floor(3.5 * b.dpr),
              `a match ${b.width} px wide has a bar under 4 px: ${b.around.join(' ')}`);
  await h.closeClean(p);
});
