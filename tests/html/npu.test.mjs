// SPDX-License-Identifier: MIT
// The NPU weight of the page: dump('npu') against the JSON
// export and the samples' .npu.expected, #weight=npu, the switch, widths
// and the tooltip; a profile without NPU data keeps the switch disabled.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as h from './helpers.mjs';

const SAMPLE = 'ascend_pytorch_profiler_level0_rank0';
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

for (const name of [SAMPLE, 'ascend_pytorch_profiler_level1_rank0']) {
  test(`dump('npu') of ${name} is the JSON export and the expected file`, async () => {
    const db = path.join(h.samplesDir(), name + '.db');
    const expected = fs.readFileSync(path.join(h.samplesDir(), name + '.npu.expected'), 'utf8')
      .split('\n').filter((l) => l !== '').sort(byCodeUnit);
    const json = exportJson(db);
    assert.equal(json.version, 3);
    assert.deepEqual(Object.keys(json.npu), ['tasks', 'ns', 'unlinked_tasks', 'unlinked_ns', 'skipped']);
    assert.deepEqual(jsonLines(json), expected);
    const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#merge=0');
    const dump = await page.evaluate(() => window.flamegraph.dump('npu'));
    assert.deepEqual(dump.sort(byCodeUnit), expected);
    const host = await page.evaluate(() => window.flamegraph.dump());
    assert.deepEqual(host.sort(byCodeUnit), expected.map((l) => l.split('\t').slice(0, 4).join('\t')));
    assert.deepEqual(log.errors, []);
    await page.close();
  });
}

test('#weight=npu selects the NPU weight: widths, threads, tooltip, hash', async () => {
  const db = path.join(h.samplesDir(), SAMPLE + '.db');
  const expected = fs.readFileSync(path.join(h.samplesDir(), SAMPLE + '.npu.expected'), 'utf8')
    .split('\n').filter((l) => l !== '');
  const file = h.exportHtml(db);
  const { page, log } = await h.openPage(browser.context, file, '#weight=npu&merge=0');
  assert.equal((await page.evaluate(() => window.flamegraph.state())).weight, 'npu');
  assert.equal(await page.$eval('#weight', (e) => e.value), 'npu');
  assert.equal(await page.$eval('#weight', (e) => e.disabled), false);

  /* A frame without device time vanishes; one with it is drawn. */
  const top = expected.map((l) => l.split('\t')).filter((f) => f[0].split(';').length === 2);
  const idle = top.find((f) => f[4] === '0' && Number(f[2]) > 1e6);
  const busy = top.find((f) => Number(f[4]) > 0);
  assert.ok(idle && busy, 'the sample has top frames with and without NPU time');
  assert.deepEqual(await page.evaluate((n) => window.flamegraph.frames(n), idle[0].split(';')[1]), []);
  const c = await h.frameCentre(page, busy[0].split(';')[1]);
  await page.mouse.move(c.x, c.y);
  const tip = await page.textContent('#tooltip');
  assert.match(tip, /NPU total/);
  assert.match(tip, /NPU tasks/);
  assert.match(tip, /Total/);

  /* The thread picker shows each thread's NPU time, not its host time. */
  const options = await page.$$eval('#thread-select option', (os) => os.map((o) => o.textContent));
  const threads = expected.map((l) => l.split('\t')).filter((f) => !f[0].includes(';'));
  assert.equal(options.length, threads.length + 1);
  const npuShown = await page.evaluate(() => document.querySelector('#thread-select').options[1].textContent);
  await page.selectOption('#weight', 'host');
  assert.notEqual(await page.evaluate(() => document.querySelector('#thread-select').options[1].textContent), npuShown);
  await page.selectOption('#weight', 'npu');

  await page.selectOption('#weight', 'host');
  assert.equal((await page.evaluate(() => window.flamegraph.state())).weight, 'host');
  assert.ok(!(await page.evaluate(() => location.hash)).includes('weight'));
  assert.ok((await page.evaluate((n) => window.flamegraph.frames(n), idle[0].split(';')[1])).length > 0);
  await page.selectOption('#weight', 'npu');
  assert.ok((await page.evaluate(() => location.hash)).includes('weight=npu'));
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('without NPU data the switch is disabled and says why', async () => {
  const db = h.makeDb(['main', 'child'], [[1, 1, 1, 0, 100], [1, 1, 2, 10, 20]]);
  const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#weight=npu');
  assert.equal((await page.evaluate(() => window.flamegraph.state())).weight, 'host');
  assert.equal(await page.$eval('#weight', (e) => e.disabled), true);
  assert.match(await page.$eval('#weight', (e) => e.title), /no NPU data/);
  const dump = await page.evaluate(() => [window.flamegraph.dump('npu'), window.flamegraph.dump()]);
  assert.deepEqual(dump[0], dump[1]);
  assert.ok((await page.evaluate(() => window.flamegraph.frames('child'))).length > 0);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('one task is one in the summary', async () => {
  const db = path.join(h.tmpDir('afg-one-task-'), 'one.db');
  fs.copyFileSync(path.join(h.samplesDir(), SAMPLE + '.db'), db);
  execFileSync('sqlite3', [db, `DELETE FROM TASK WHERE rowid <> (SELECT min(t.rowid) FROM TASK t
    JOIN CONNECTION_IDS c ON c.connectionId = t.connectionId JOIN PYTORCH_API p ON p.connectionId = c.id
    WHERE CAST(p.endNs AS INTEGER) > CAST(p.startNs AS INTEGER))`]);
  assert.equal(exportJson(db).npu.tasks - exportJson(db).npu.unlinked_tasks, 1);
  const { page, log } = await h.openPage(browser.context, h.exportHtml(db));
  const stat = (key) => page.evaluate((k) => document.querySelector(`dd[data-stat=${k}]`).textContent, key);
  assert.match(await stat('npuLinked'), / · 1 task$/);
  assert.match(await stat('npuUnlinked'), / · 0 tasks$/);
  assert.deepEqual(log.errors, []);
  await page.close();
});
