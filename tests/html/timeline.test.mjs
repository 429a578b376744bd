// SPDX-License-Identifier: MIT
// The device timeline on the page: the step strip stacked by what the NPU
// did (compute, communication, other, free), its legend, tooltip and the
// summary's split; a page exported with --npu-idle carries the idle tree
// too, behind the "While NPU idle" toggle and #idle=1. On a generated DB
// and the real samples, against the JSON export and the CLI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const PARTS = [['compute', 'compute_ns'], ['communication', 'comm_ns'], ['other', 'other_ns'], ['free', 'free_ns']];
const SAMPLES = ['ascend_pytorch_profiler_level0_rank0', 'ascend_pytorch_profiler_level1_rank0'];

let browser, gen;

before(async () => {
  const bin = process.env.AFG_GEN_DB;
  assert.ok(bin && fs.existsSync(bin), 'AFG_GEN_DB must name the built afg-gen-db');
  gen = path.join(h.tmpDir('afg-gen-'), 'ascend_pytorch_profiler_0.db');
  execFileSync(bin, ['--steps', '8', '--seed', '1', gen, '5000'], { stdio: 'pipe' });
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

const open = (file, hash = '') => h.openEval(browser.context, file, hash);
const done = h.closeClean;

/* The JSON tree as dump()'s lines: path, calls, total, self; sorted. */
function jsonLines(json) {
  const lines = [];
  const walk = (prefix, node) => {
    const p = `${prefix};${node.name}`;
    lines.push(`${p}\t${node.calls}\t${node.total_ns}\t${node.self_ns}`);
    node.children.forEach((c) => walk(p, c));
  };
  for (const t of json.threads) {
    lines.push(`${t.label}\t${t.children.reduce((n, c) => n + c.calls, 0)}\t${t.total_ns}\t0`);
    t.children.forEach((c) => walk(t.label, c));
  }
  return lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const rootTotal = (json) => json.threads.reduce((n, t) => n + t.total_ns, 0);

/* Each bar's parts are its step's steps[].device, bottom up, and fill the
 * bar: each part's height is its share of the bar's, to a pixel. */
function checkBars(bars, json) {
  assert.equal(bars.length, json.steps.length);
  bars.forEach((bar, i) => {
    const device = json.steps[i].device;
    assert.ok(device, `step ${bar.id} has a device split`);
    assert.deepEqual(bar.parts.map((p) => [p.part, p.ns]), PARTS.map(([part, key]) => [part, device[key]]));
    assert.equal(bar.parts.reduce((n, p) => n + p.height, 0), bar.height);
    assert.equal(bar.parts[0].y + bar.parts[0].height, bar.y + bar.height);
    for (let k = 1; k < 4; k++)
      assert.equal(bar.parts[k].y + bar.parts[k].height, bar.parts[k - 1].y);
    for (const p of bar.parts)
      assert.ok(Math.abs(p.height - bar.height * p.ns / bar.durationNs) <= 1, `${bar.id} ${p.part}`);
  });
}

/* The CLI's summary line, "NPU timeline: compute 5.9%, …". */
function cliSplit(db) {
  const dir = h.tmpDir('afg-cli-');
  const run = spawnSync(h.afgBin(), ['--export', '-f', 'json', '-o', dir, db], { encoding: 'utf8' });
  const line = run.stderr.split('\n').find((l) => l.includes('NPU timeline: '));
  assert.ok(line, run.stderr);
  return line.slice(line.indexOf('NPU timeline: ') + 'NPU timeline: '.length);
}

test('generated DB: each bar stacks its step\'s device split; legend, tooltip and summary', async () => {
  const json = h.exportJson(gen);
  const p = await open(h.exportHtml(gen));
  const bars = await p.eval(() => window.flamegraph.steps());
  assert.equal(bars.length, 8);
  checkBars(bars, json);
  assert.ok(bars.some((b) => b.parts.every((part) => part.ns > 0)), 'some step has all four parts');
  const legend = await p.page.$$eval('#steps-legend .legend-item', (els) => els.map((e) => [e.dataset.part, e.textContent]));
  const split = cliSplit(gen);
  assert.deepEqual(legend.map(([part]) => part), PARTS.map(([part]) => part));
  assert.equal(legend.map(([, text]) => text).join(', '), split);
  assert.equal(await p.page.textContent('#summary dd[data-stat="npuTimeline"]'), split);
  const box = await p.page.locator('#steps').boundingBox();
  const b = bars[3];
  await p.page.mouse.move(box.x + b.x + b.width / 2, box.y + box.height - 1);
  await p.page.waitForSelector('#tooltip:not([hidden])');
  const rows = await p.page.$$eval('#tooltip tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map(([k]) => k), PARTS.map(([part]) => part));
  for (const [k, v] of rows)
    assert.match(v, /^[\d.]+ (ns|µs|ms|s) \([\d.]+%\)$/, k);
  const device = json.steps[3].device;
  const whole = PARTS.reduce((n, [, key]) => n + device[key], 0);
  const want = await p.eval(([d, w, keys]) => keys.map((k) => `${window.AFG_VIEW.fmtTime(d[k])} (${window.AFG_VIEW.fmtPct(d[k], w)})`),
                            [device, whole, PARTS.map(([, key]) => key)]);
  assert.deepEqual(rows.map(([, v]) => v), want);
  assert.equal(await p.eval(() => document.getElementById('npu-idle')), null);
  await done(p);
});

for (const name of SAMPLES) {
  test(`${name}: the bars are the JSON's steps[].device`, async () => {
    const db = path.join(h.samplesDir(), `${name}.db`);
    const p = await open(h.exportHtml(db));
    checkBars(await p.eval(() => window.flamegraph.steps()), h.exportJson(db));
    assert.equal(await p.page.textContent('#summary dd[data-stat="npuTimeline"]'), cliSplit(db));
    await done(p);
  });
}

test('a page without --npu-idle has no idle tree and no toggle; #idle=1 changes nothing', async () => {
  const file = h.exportHtml(gen);
  assert.equal(fs.readFileSync(file, 'utf8').includes('id="afg-idle-data"'), false);
  const p = await open(file, '#idle=1&merge=0');
  const s = await p.eval(() => window.flamegraph.state());
  assert.equal(s.idle, false);
  assert.equal(s.hasIdle, false);
  assert.equal(await p.eval(() => document.getElementById('npu-idle')), null);
  assert.deepEqual(await p.eval(() => window.flamegraph.dump()), jsonLines(h.exportJson(gen)));
  await done(p);
});

test('--npu-idle: the page opens on the whole tree; #idle=1 and the toggle show the idle tree', async () => {
  const file = h.exportHtml(gen, ['--npu-idle']);
  const whole = h.exportJson(gen);
  const idle = h.exportJson(gen, ['--npu-idle']);
  assert.equal(idle.scope.npu_idle, true);
  const p = await open(file, '#merge=0');
  let s = await p.eval(() => window.flamegraph.state());
  assert.equal(s.hasIdle, true);
  assert.equal(s.idle, false);
  assert.deepEqual(await p.eval(() => window.flamegraph.dump()), jsonLines(whole));
  assert.equal(await p.page.isChecked('#npu-idle'), false);
  assert.equal(await p.page.isDisabled('#weight'), false);
  assert.equal(await p.page.textContent('#summary dd[data-stat="npuIdle"]'),
               await p.eval((ns) => window.AFG_VIEW.fmtTime(ns) + ' in the exported steps', idle.scope.idle_ns));
  await p.page.click('#npu-idle');
  s = await p.eval(() => window.flamegraph.state());
  assert.equal(s.idle, true);
  assert.match(await p.eval(() => location.hash), /[#&]idle=1(&|$)/);
  const idleLines = await p.eval(() => window.flamegraph.dump());
  assert.deepEqual(idleLines, jsonLines(idle));
  assert.notDeepEqual(idleLines, jsonLines(whole));
  assert.equal(await p.page.isDisabled('#weight'), true);
  assert.equal(await p.page.textContent('#summary dd[data-stat="totalTime"]'),
               await p.eval((ns) => window.AFG_VIEW.fmtTime(ns), rootTotal(idle)));
  await p.page.click('#npu-idle');
  s = await p.eval(() => window.flamegraph.state());
  assert.equal(s.idle, false);
  assert.doesNotMatch(await p.eval(() => location.hash), /idle=/);
  assert.deepEqual(await p.eval(() => window.flamegraph.dump()), jsonLines(whole));
  await done(p);
});

test('--npu-idle without steps: the summary gives the whole profile\'s idle time', async () => {
  const stepless = path.join(h.tmpDir('afg-stepless-'), 'ascend_pytorch_profiler_0.db');
  fs.copyFileSync(gen, stepless);
  execFileSync('sqlite3', [stepless, "DELETE FROM PYTORCH_API WHERE name IN "
                           + "(SELECT id FROM STRING_IDS WHERE value LIKE 'ProfilerStep#%'); DROP TABLE STEP_TIME"]);
  const idle = h.exportJson(stepless, ['--npu-idle']);
  assert.deepEqual(idle.steps, []);
  const p = await open(h.exportHtml(stepless, ['--npu-idle']));
  assert.equal(await p.page.textContent('#summary dd[data-stat="npuIdle"]'),
               await p.eval((ns) => window.AFG_VIEW.fmtTime(ns) + ' in the whole profile', idle.scope.idle_ns));
  await done(p);
});

test('--npu-idle: #idle=1 opens on the idle tree, merged or not; the strip stays the whole profile\'s', async () => {
  const file = h.exportHtml(gen, ['--npu-idle']);
  const idle = h.exportJson(gen, ['--npu-idle']);
  for (const merge of ['0', '1']) {
    const p = await open(file, `#idle=1&merge=${merge}`);
    const s = await p.eval(() => window.flamegraph.state());
    assert.equal(s.idle, true);
    assert.equal(s.merged, merge === '1');
    assert.equal(await p.page.isChecked('#npu-idle'), true);
    const lines = await p.eval(() => window.flamegraph.dump());
    const threads = lines.filter((l) => !l.split('\t')[0].includes(';'));
    assert.equal(threads.reduce((n, l) => n + Number(l.split('\t')[2]), 0), rootTotal(idle));
    if (merge === '0')
      assert.deepEqual(lines, jsonLines(idle));
    checkBars(await p.eval(() => window.flamegraph.steps()), idle);
    await done(p);
  }
});

test('--npu-idle --steps: the page\'s whole tree is that of the steps, the idle tree theirs', async () => {
  const file = h.exportHtml(gen, ['--npu-idle', '--steps', '3-4']);
  const p = await open(file, '#merge=0');
  assert.deepEqual(await p.eval(() => window.flamegraph.dump()), jsonLines(h.exportJson(gen, ['--steps', '3-4'])));
  assert.deepEqual(await p.eval(() => window.flamegraph.state().scope), [3, 4]);
  await p.page.click('#npu-idle');
  assert.deepEqual(await p.eval(() => window.flamegraph.dump()),
                   jsonLines(h.exportJson(gen, ['--npu-idle', '--steps', '3-4'])));
  await done(p);
});

for (const name of SAMPLES) {
  test(`${name}: #idle=1 is the .idle.expected tree`, async () => {
    const db = path.join(h.samplesDir(), `${name}.db`);
    const expected = fs.readFileSync(path.join(h.samplesDir(), `${name}.idle.expected`), 'utf8').split('\n').filter((l) => l);
    const p = await open(h.exportHtml(db, ['--npu-idle']), '#idle=1&merge=0');
    assert.deepEqual(await p.eval(() => window.flamegraph.dump()), expected);
    await done(p);
  });
}

test('--npu-idle: transforms apply to the idle tree as the CLI applies them, and stay across the toggle', async () => {
  const whole = h.exportJson(gen);
  const drop = whole.threads[0].children[0].name;
  const list = [{ op: 'drop-function', arg: drop }];
  const p = await open(h.exportHtml(gen, ['--npu-idle']), `#idle=1&merge=0&t=${encodeURIComponent(JSON.stringify(list))}`);
  assert.deepEqual(await p.eval(() => window.flamegraph.dump()),
                   jsonLines(h.exportJson(gen, ['--npu-idle', '--drop-function', drop])));
  await p.page.click('#npu-idle');
  assert.deepEqual((await p.eval(() => window.flamegraph.state())).transforms, list);
  assert.deepEqual(await p.eval(() => window.flamegraph.dump()), jsonLines(h.exportJson(gen, ['--drop-function', drop])));
  await done(p);
});
