// SPDX-License-Identifier: MIT
// Device time by kind in the page: dump('kinds') and dump('kernels')
// against the samples' expected files, #weight=compute|comm|exposed, the
// weight menu, the tooltip and the Functions panel in those weights.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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

function expectedLines(name, suffix) {
  return fs.readFileSync(path.join(h.samplesDir(), name + suffix), 'utf8')
    .split('\n').filter((l) => l !== '').sort(byCodeUnit);
}

for (const name of SAMPLES) {
  test(`dump('kinds') and dump('kernels') of ${name} are its expected files`, async () => {
    const db = path.join(h.samplesDir(), name + '.db');
    const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#merge=0');
    const [kinds, kernels] = await page.evaluate(() => [window.flamegraph.dump('kinds'),
                                                        window.flamegraph.dump('kernels')]);
    assert.deepEqual(kinds.sort(byCodeUnit), expectedLines(name, '.kinds.expected'));
    assert.deepEqual(kernels.sort(byCodeUnit), expectedLines(name, '.kernels.expected'));
    assert.deepEqual(log.errors, []);
    await page.close();
  });
}

/* The JSON export's tree in the .kinds.expected and .kernels.expected
 * formats; @mixed counts the frames whose own tasks are not all compute
 * (the page sends their leaves whole) and @pure the others (the page
 * derives their last compute leaf from the frame's NPU self figures). */
function jsonKindLines(json) {
  const kinds = [], kernels = [], tally = { mixed: 0, pure: 0 };
  const walk = (prefix, n) => {
    const p = `${prefix};${n.name}`;
    kinds.push([p, n.npu_compute_total_ns, n.npu_compute_self_ns, n.npu_compute_tasks, n.comm_total_ns,
                n.comm_self_ns, n.comm_ops, n.comm_exposed_total_ns, n.comm_exposed_self_ns].join('\t'));
    for (const k of n.kernels)
      kernels.push(`${p};[${k.kind}] ${k.name}\t${k.count}\t${k.ns}\t${k.exposed_ns}`);
    const compute = n.kernels.filter((k) => k.kind === 'compute');
    if (compute.length > 0) {
      const pure = compute.reduce((s, k) => s + k.count, 0) === n.npu_tasks &&
                   compute.reduce((s, k) => s + k.ns, 0) === n.npu_self_ns;
      tally[pure ? 'pure' : 'mixed']++;
    }
    n.children.forEach((c) => walk(p, c));
  };
  for (const t of json.threads) {
    kinds.push(`${t.label}\t${t.npu_compute_total_ns}\t0\t0\t${t.comm_total_ns}\t0\t0\t${t.comm_exposed_total_ns}\t0`);
    t.children.forEach((c) => walk(t.label, c));
  }
  return { kinds: kinds.sort(byCodeUnit), kernels: kernels.sort(byCodeUnit), tally };
}

test('a generated DB: the page\'s kinds and leaves are the JSON export\'s, sent whole or derived', async () => {
  const bin = process.env.AFG_GEN_DB;
  assert.ok(bin && fs.existsSync(bin), 'AFG_GEN_DB must name the built afg-gen-db');
  const db = path.join(h.tmpDir('afg-gen-'), 'ascend_pytorch_profiler_0.db');
  execFileSync(bin, ['--steps', '4', '--seed', '3', db, '30000'], { stdio: 'pipe' });
  /* Ops launch kernels or copies, never both: some copies join the launch
   * of the next kernel, so that some frames launch both. */
  execFileSync('sqlite3', [db], { input: `UPDATE TASK SET connectionId = (SELECT t.connectionId FROM TASK t
      JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId WHERE t.rowid > TASK.rowid ORDER BY t.rowid
      LIMIT 1) WHERE rowid % 3 = 0 AND taskType = (SELECT id FROM STRING_IDS WHERE value = 'MEMCPY_ASYNC');` });
  const want = jsonKindLines(h.exportJson(db));
  assert.ok(want.tally.pure > 0 && want.tally.mixed > 0, JSON.stringify(want.tally));
  const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#merge=0');
  const [kinds, kernels] = await page.evaluate(() => [window.flamegraph.dump('kinds'),
                                                      window.flamegraph.dump('kernels')]);
  assert.deepEqual(kernels.sort(byCodeUnit), want.kernels);
  assert.deepEqual(kinds.sort(byCodeUnit), want.kinds);
  assert.deepEqual(log.errors, []);
  await page.close();
});

/* top launches a kernel and a collective itself, child a kernel of its
 * own: with top merged into its thread (by the command line, or by the
 * page from #t=), the thread keeps top's own device time, as the JSON's
 * thread does, though no leaf of the thread shows it. */
function topOwnDb() {
  const db = h.makeDb(['top', 'child', 'TopKernel', 'ChildKernel', 'hcom_top__1_1_1', 'KERNEL_AICORE'], [
    [100, 1, 1, 0, 100000], [100, 1, 2, 1000, 2000],
  ]);
  execFileSync('sqlite3', [db], { input: `
    CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER,
      globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER,
      taskId INTEGER, modelId INTEGER);
    CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
    CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER);
    CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER, connectionId INTEGER,
      groupName INTEGER);
    UPDATE PYTORCH_API SET connectionId = rowid;
    INSERT INTO CONNECTION_IDS VALUES (1, 1001), (1, 1501), (2, 1002);
    INSERT INTO TASK VALUES (50000, 50700, 0, 1001, 1, 0, 6, 0, 0, 1, 0), (60000, 60300, 0, 1002, 2, 0, 6, 0, 0, 2, 0);
    INSERT INTO COMPUTE_TASK_INFO VALUES (3, 1), (4, 2);
    INSERT INTO COMMUNICATION_OP VALUES (5, 70000, 70500, 1501, NULL);` });
  return db;
}

test('a top frame merged into its thread leaves the thread its device time', async () => {
  const db = topOwnDb();
  const list = [{ op: 'merge-function', arg: 'top' }];
  const want = jsonKindLines(h.exportJson(db, ['--merge-function', 'top']));
  assert.deepEqual(want.kinds, ['100/1\t1000\t0\t0\t500\t0\t0\t500\t0', '100/1;child\t300\t300\t1\t0\t0\t0\t0\t0']);
  const pages = [[h.exportHtml(db, ['--merge-function', 'top']), '#merge=0'],
                 [h.exportHtml(db), `#merge=0&t=${encodeURIComponent(JSON.stringify(list))}`]];
  for (const [file, hash] of pages) {
    const { page, log } = await h.openPage(browser.context, file, hash);
    const [kinds, kernels] = await page.evaluate(() => [window.flamegraph.dump('kinds'),
                                                        window.flamegraph.dump('kernels')]);
    assert.deepEqual(kinds.sort(byCodeUnit), want.kinds, hash);
    assert.deepEqual(kernels.sort(byCodeUnit), want.kernels, hash);
    assert.deepEqual(log.errors, []);
    await page.close();
  }
});

test('#weight=comm selects communication: menu, widths, tooltip, functions, hash', async () => {
  const name = SAMPLES[1];
  const db = path.join(h.samplesDir(), name + '.db');
  const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#weight=comm&merge=0');
  assert.equal((await page.evaluate(() => window.flamegraph.state())).weight, 'comm');
  assert.equal(await page.$eval('#weight', (e) => e.value), 'comm');
  const values = await page.$$eval('#weight option', (os) => os.map((o) => o.value));
  assert.deepEqual(values, ['host', 'compute', 'comm', 'exposed', 'npu']);

  /* Only the collectives' frames are drawn: HcclAllreduce is, a host-only frame is not. */
  assert.ok((await page.evaluate(() => window.flamegraph.frames('HcclAllreduce'))).length > 0);
  assert.deepEqual(await page.evaluate(() => window.flamegraph.frames('aten::conv2d')), []);
  const c = await h.frameCentre(page, 'HcclAllreduce');
  await page.mouse.move(c.x, c.y);
  const tip = await page.textContent('#tooltip');
  assert.match(tip, /Communication total/);
  assert.match(tip, /Exposed self/);
  assert.match(tip, /Compute tasks/);

  /* The Functions panel weighs collectives too. */
  const rows = await page.evaluate(() => window.flamegraph.functionRows());
  assert.equal(rows[0].name, 'HcclAllreduce');
  assert.equal(rows[0].self_ns, 102108100);

  await page.selectOption('#weight', 'exposed');
  assert.match(await page.evaluate(() => location.hash), /weight=exposed/);
  const exposed = await page.evaluate(() => window.flamegraph.functionRows());
  assert.equal(exposed[0].self_ns, 98053306);
  await page.selectOption('#weight', 'compute');
  assert.deepEqual(await page.evaluate(() => window.flamegraph.frames('HcclAllreduce')), []);
  await page.selectOption('#weight', 'host');
  assert.ok(!(await page.evaluate(() => location.hash)).includes('weight'));
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the merged tree keeps the device time by kind', async () => {
  const name = SAMPLES[0];
  const db = path.join(h.samplesDir(), name + '.db');
  const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#merge=1&weight=compute');
  const kinds = await page.evaluate(() => window.flamegraph.dump('kinds'));
  const threads = expectedLines(name, '.kinds.expected').filter((l) => !l.split('\t')[0].includes(';'));
  assert.deepEqual(kinds.filter((l) => !l.split('\t')[0].includes(';')).sort(byCodeUnit), threads);
  const sum = (lines, col) => lines.reduce((s, l) => s + Number(l.split('\t')[col]), 0);
  assert.equal(sum(kinds, 2), sum(expectedLines(name, '.kinds.expected'), 2));
  assert.equal(sum(await page.evaluate(() => window.flamegraph.dump('kernels')), 2),
               sum(expectedLines(name, '.kernels.expected'), 2));
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('kernel leaves are drawn under their frames in the device weights only', async () => {
  const db = path.join(h.samplesDir(), SAMPLES[1] + '.db');
  const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#weight=comm&merge=0');
  const leaf = '[communication] hcom_allReduce';
  const boxes = await page.evaluate((n) => window.flamegraph.frames(n), leaf);
  assert.equal(boxes.length, 1);
  /* It fills its frame: HcclAllreduce's own time is all collectives. */
  const parent = await page.evaluate(() => window.flamegraph.frames('HcclAllreduce'));
  const under = parent.find((p) => Math.abs(p.x - boxes[0].x) < 1);
  assert.ok(under, 'the leaf starts where its frame does');
  assert.ok(Math.abs(under.width - boxes[0].width) <= 1.5);
  const c = await h.frameCentre(page, leaf);
  await page.mouse.move(c.x, c.y);
  const tip = await page.textContent('#tooltip');
  assert.match(tip, /Collective/);
  assert.match(tip, /Exposed self/);
  await page.mouse.click(c.x, c.y);
  assert.equal((await page.evaluate(() => window.flamegraph.state())).zoomName, 'HcclAllreduce');

  await page.selectOption('#weight', 'compute');
  assert.deepEqual(await page.evaluate((n) => window.flamegraph.frames(n), leaf), []);
  assert.ok((await page.evaluate(() => window.flamegraph.frames('[compute] aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList'))).length > 0);
  await page.selectOption('#weight', 'npu');
  assert.deepEqual(await page.evaluate(() => window.flamegraph.frames('[compute] aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList')), []);
  await page.selectOption('#weight', 'host');
  assert.deepEqual(await page.evaluate((n) => window.flamegraph.frames(n), leaf), []);
  assert.deepEqual(log.errors, []);
  await page.close();
});
