// SPDX-License-Identifier: MIT
// The index page of a job folder's export (the two real samples
// as ranks 0 and 1 in torch_npu's layout, beside analysis.db, and a rank
// that is no database): the verdict in words (their collectives are of
// different groups: none matched, no straggler), each rank's device split,
// each rank's link resolving to a written page, no request beyond the
// files themselves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as h from './helpers.mjs';

let browser;

before(async () => {
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

function makeJob() {
  const job = h.tmpDir('afg-job-');
  const samples = ['ascend_pytorch_profiler_level0_rank0.db', 'ascend_pytorch_profiler_level1_rank0.db'];
  for (const rank of [0, 1, 2]) {
    const pt = path.join(job, `rank${rank}_ascend_pt`);
    const out = path.join(pt, 'ASCEND_PROFILER_OUTPUT');
    fs.mkdirSync(out, { recursive: true });
    const db = path.join(out, `ascend_pytorch_profiler_${rank}.db`);
    if (rank < 2)
      fs.copyFileSync(path.join(h.samplesDir(), samples[rank]), db);
    else
      fs.writeFileSync(db, 'not a database\n');
    fs.writeFileSync(path.join(out, 'analysis.db'), '');
    fs.writeFileSync(path.join(pt, `profiler_info_${rank}.json`), '{}\n');
  }
  return job;
}

function exportJob(job) {
  const out = h.tmpDir('afg-ranks-');
  let status = 0;
  try {
    execFileSync(h.afgBin(), ['--export', '-q', '-o', out, job], { stdio: 'pipe' });
  } catch (err) {
    status = err.status;
  }
  assert.equal(status, 1, 'a rank that is no database makes the exit code 1');
  return out;
}

test('index page: verdict in words, links to written rank pages, no network', async () => {
  const out = exportJob(makeJob());
  const index = path.join(out, 'index.html');
  const page = await browser.context.newPage();
  const requests = [];
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
  await page.goto(pathToFileURL(index).href);

  const rows = await page.$$eval('#ranks tr', (trs) => trs.slice(1).map((tr) => tr.innerText));
  assert.equal(rows.length, 3);
  // 160 ms and 194 ms a step, 9.5% from their median: no straggler for that.
  const verdict = await page.$eval('#verdict', (p) => p.innerText);
  assert.match(verdict, /No collective matched across ranks/);
  assert.equal(await page.$$eval('#ranks tr.straggler', (trs) => trs.length), 0);
  assert.equal(await page.$$eval('#ranks .device', (bars) => bars.length), 2);
  assert.equal(await page.$$eval('#collectives', (tables) => tables.length), 0);
  assert.match(rows[2], /ascend_pytorch_profiler_2\.db: not an SQLite database/);

  const hrefs = await page.$$eval('#ranks a', (as) => as.map((a) => a.getAttribute('href')));
  assert.deepEqual(hrefs, ['rank0/flamegraph.html', 'rank1/flamegraph.html']);
  for (const href of hrefs)
    assert.ok(fs.statSync(path.join(out, href)).isFile(), href);

  const frames = await page.$$eval('#frames tr', (trs) => trs.length - 1);
  assert.equal(frames, 20);

  await page.click('#ranks a >> nth=1');
  await page.waitForFunction(() => window.flamegraph !== undefined);
  assert.equal(page.url(), pathToFileURL(path.join(out, 'rank1', 'flamegraph.html')).href);
  assert.deepEqual(requests, []);
  assert.deepEqual(errors, []);
  await page.close();
  fs.rmSync(out, { recursive: true, force: true });
});
