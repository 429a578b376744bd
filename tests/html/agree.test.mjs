// SPDX-License-Identifier: MIT
// The window and the page must show the same colours, shares of all and
// search shares for the same profile. afg-view-dump prints what the
// window's core computes; the page's dump('view') and #match-count what
// the page shows. Both real samples, and the queries of samples.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const dir = h.samplesDir();
const samples = fs.readdirSync(dir).filter((f) => f.endsWith('.db')).sort();
const queries = ['aten', 'Module', 'py(', 'hccl'];
const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
let browser;

before(async () => {
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

function windowView(db) {
  const exe = process.env.AFG_VIEW_DUMP;
  assert.ok(exe && fs.existsSync(exe), 'AFG_VIEW_DUMP must name the built afg-view-dump');
  const lines = execFileSync(exe, [db, ...queries], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const search = new Map();
  for (const line of lines.filter((l) => l.startsWith('search\t'))) {
    const [, q, count, share] = line.split('\t');
    search.set(q, { count: Number(count), share });
  }
  return { frames: lines.filter((l) => !l.startsWith('search\t')).sort(byCodeUnit), search };
}

for (const name of samples) {
  test(`window and page agree on ${name}`, async () => {
    const db = path.join(dir, name);
    const want = windowView(db);
    assert.ok(want.frames.length > 1000);
    const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#merge=0');
    const got = await page.evaluate(() => window.flamegraph.dump('view'));
    assert.deepEqual(got.sort(byCodeUnit), want.frames);
    for (const q of queries) {
      await page.fill('#search', q);
      const text = await page.textContent('#match-count');
      const w = want.search.get(q);
      const expected = w.count === 0 ? /^No matches$/
        : new RegExp(`^${w.count.toLocaleString('en-US')} match(es)? · ${w.share.replace(/[.()]/g, '\\$&')}$`);
      assert.match(text, expected, q);
    }
    assert.deepEqual(log.errors, []);
    await page.close();
  });
}
