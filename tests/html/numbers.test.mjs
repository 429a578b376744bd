// SPDX-License-Identifier: MIT
// The page's numbers are the window's on the real samples: the rows of
// a frame's tooltip (afg-view-dump --tooltip prints the window's, from
// the core's afg-frame-tooltip.c) read the same, the frame count is the
// shown tree's as the window's status line counts it, and one step is
// "1 step".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const dir = h.samplesDir();
const samples = fs.readdirSync(dir).filter((f) => f.endsWith('.db')).sort();
const MODULE = '<string>(1): <module>';
let browser;

before(async () => {
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

/* PATH -> Map(label -> value) of the window's tooltips, zoomed to @zoom. */
function windowTooltips(db, zoom, paths, option = '--tooltip') {
  const out = execFileSync(process.env.AFG_VIEW_DUMP, [db, option, zoom, ...paths], { encoding: 'utf8' });
  const tips = new Map(paths.map((p) => [p, new Map()]));
  for (const line of out.split('\n').filter(Boolean)) {
    const [p, label, value] = line.split('\t');
    tips.get(p).set(label, value);
  }
  return tips;
}

async function pageTooltip(page, name) {
  const c = await h.frameCentre(page, name);
  await page.mouse.move(c.x, c.y);
  assert.equal(await page.textContent('#tooltip .name'), name);
  return new Map(await page.$$eval('#tooltip tr', (trs) => trs.map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent])));
}

/* "≈1.23 ms" -> ns */
function parseTime(text) {
  const [, v, unit] = text.match(/^≈?([0-9.]+) (ns|µs|ms|s)$/);
  return Number(v) * { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 }[unit];
}

/* The widest merged frame of thread @label that merges address variants
 * (several frames of the plain tree), named once in the merged tree. */
function mergedFrame(db, label) {
  const lines = (f) => fs.readFileSync(db.replace(/\.db$/, f), 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
  const plain = new Map();
  for (const [p] of lines('.expected')) {
    const m = p.replace(/ at 0x[0-9A-Fa-f]+/g, ' at 0x…');
    plain.set(m, (plain.get(m) || 0) + 1);
  }
  const merged = lines('.merged.expected');
  const named = new Map();
  for (const [p] of merged) {
    const last = p.split(';').pop();
    named.set(last, (named.get(last) || 0) + 1);
  }
  return merged.filter(([p]) => p.startsWith(label + ';') && plain.get(p) >= 2 && named.get(p.split(';').pop()) === 1)
    .sort((a, b) => Number(b[2]) - Number(a[2]))[0][0];
}

const lineCount = (file) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length;

for (const name of samples) {
  test(`tooltips of the window and the page agree on ${name}`, async () => {
    const db = path.join(dir, name);
    const thread = h.exportJson(db).threads[0];
    const title = `${thread.role} · ${thread.label}`;
    const want = windowTooltips(db, thread.label, [thread.label, `${thread.label};${MODULE}`]);
    const p = await h.openEval(browser.context, h.exportHtml(db), '#merge=0');
    await p.page.selectOption('#thread-select', thread.label);
    for (const [frame, shown] of [[thread.label, title], [`${thread.label};${MODULE}`, MODULE]]) {
      const got = await pageTooltip(p.page, shown);
      const w = want.get(frame);
      /* Every row the window has: the page has it too, with its text. */
      for (const [label, value] of w) {
        if (label === 'Call durations')
          continue;  /* the page's own label and ≈ marks: functions.test.mjs */
        assert.equal(got.get(label), value, `${frame}: ${label}`);
      }
      assert.ok(w.size >= 9, `${frame}: ${[...w.keys()]}`);
    }
    await h.closeClean(p);
  });

  test(`the frame count is the shown tree's on ${name}`, async () => {
    const db = path.join(dir, name);
    const threads = h.exportJson(db).threads.length;
    const plain = lineCount(db.replace(/\.db$/, '.expected')) - threads;
    const merged = lineCount(db.replace(/\.db$/, '.merged.expected')) - threads;
    assert.ok(merged < plain);
    const p = await h.openEval(browser.context, h.exportHtml(db), '#merge=1');
    const frames = () => p.page.$eval('#summary dd[data-stat="frames"]', (e) => e.textContent);
    assert.equal(await frames(), merged.toLocaleString('en-US'));
    await p.page.click('#merge-addresses');
    assert.equal(await frames(), plain.toLocaleString('en-US'));
    await h.closeClean(p);
  });
}

for (const name of samples) {
  test(`a frame merging address variants has the window's call durations on the page: ${name}`, async () => {
    const db = path.join(dir, name);
    const thread = h.exportJson(db).threads[0];
    const frame = mergedFrame(db, thread.label);
    const want = windowTooltips(db, thread.label, [frame], '--tooltip-merged').get(frame).get('Call durations');
    assert.ok(want, `the window has call durations for ${frame}`);
    const p = await h.openEval(browser.context, h.exportHtml(db), '#merge=1');
    await p.page.selectOption('#thread-select', thread.label);
    const got = [...(await pageTooltip(p.page, frame.split(';').pop())).entries()]
      .find(([label]) => label.startsWith('Call durations'))[1];
    /* The page's are rounded to ±2.2 % (a sixteenth of an octave). */
    const w = want.split(' / ').map(parseTime), g = got.split(' / ').map(parseTime);
    assert.equal(g.length, 5, got);
    w.forEach((v, i) => assert.ok(Math.abs(g[i] - v) <= 0.03 * v, `${got} vs ${want}`));
    await h.closeClean(p);
  });
}

test('one step is "1 step"; durations say what they are', async () => {
  const db = path.join(dir, 'ascend_pytorch_profiler_level1_rank0.db');
  assert.equal(h.exportJson(db).steps.length, 1);
  const p = await h.openEval(browser.context, h.exportHtml(db));
  assert.equal(await p.page.$eval('#summary dd[data-stat="scope"]', (e) => e.textContent), 'whole profile (1 step)');
  /* The threads' host time added up says so (the strip's is wall time:
   * steps.test.mjs). */
  assert.equal(await p.page.textContent('#steps-info'), '1 step');
  assert.match(await p.page.$eval('#thread-select option', (o) => o.textContent), /^All threads, summed over threads · \S+ \S+$/);
  assert.equal(await p.page.$eval('#summary dd[data-stat="totalTime"]', (e) => e.previousElementSibling.textContent),
               'Host time on all threads');
  await h.closeClean(p);
});
