// SPDX-License-Identifier: MIT
// The Functions panel follows the NPU weight: with #weight=npu
// its table has each name's NPU self and total and its sandwich is weighted
// by NPU time; back on host time it is the JSON's table again. Expected
// values come from the CLI's JSON tree, summed here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as h from './helpers.mjs';

const SAMPLES = ['ascend_pytorch_profiler_level0_rank0', 'ascend_pytorch_profiler_level1_rank0'];
/* The page's drawing limits of a sandwich half: boxes, narrowest box. */
const SANDWICH_BOXES = 4000;
const MIN_SHARE = 0.002;
let browser;

before(async () => {
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

/* Calls every frame of the JSON tree with its frame ancestors (outermost
 * first, no thread). */
function eachFrame(json, fn) {
  const walk = (node, above) => {
    fn(node, above);
    above.push(node);
    node.children.forEach((c) => walk(c, above));
    above.pop();
  };
  for (const t of json.threads)
    t.children.forEach((c) => walk(c, []));
}

const outermostFrame = (node, above) => !above.some((a) => a.name === node.name);

/* Per name: calls, self summed over its frames, total over its frames
 * without a same-named ancestor; in the weight whose fields are @self
 * and @total. */
function tableOf(json, self, total) {
  const rows = new Map();
  eachFrame(json, (node, above) => {
    if (!rows.has(node.name))
      rows.set(node.name, { name: node.name, calls: 0, self_ns: 0, total_ns: 0 });
    const r = rows.get(node.name);
    r.calls += node.calls;
    r.self_ns += node[self];
    if (outermostFrame(node, above))
      r.total_ns += node[total];
  });
  return rows;
}

const NPU = ['npu_self_ns', 'npu_total_ns'];
const HOST = ['self_ns', 'total_ns'];
const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const sortedRows = (rows) => [...rows].sort(byName);

/* A merged tree of paths: weight added at every name path. */
function addPath(tree, names, weight) {
  const key = names.join('\n');
  tree.set(key, (tree.get(key) || 0) + weight);
}

/* The boxes a sandwich half draws, as sorted 'depth<TAB>name<TAB>weight'
 * lines: every merged node of positive weight whose share of the root's
 * is at least MIN_SHARE, under a drawn parent (the samples' halves draw
 * fewer than SANDWICH_BOXES, so none is cut). */
function drawnBoxes(tree) {
  const keys = [...tree.keys()];
  const root = keys.find((k) => !k.includes('\n'));
  const whole = tree.get(root);
  if (!(whole > 0))
    return [];
  const lines = [];
  for (const k of keys) {
    const names = k.split('\n');
    const depth = names.length - 1;
    let drawn = true;
    for (let d = 1; d <= depth && drawn; d++) {
      const w = tree.get(names.slice(0, d + 1).join('\n'));
      drawn = w > 0 && w / whole >= MIN_SHARE;
    }
    if (drawn)
      lines.push(`${depth}\t${names[depth]}\t${tree.get(k)}`);
  }
  assert.ok(lines.length < SANDWICH_BOXES);
  return lines.sort();
}

/* The expected sandwich of @name weighted by the field @total: callers
 * (each outermost frame's ancestors, innermost first, at its weight) and
 * callees (the outermost frames' subtrees merged by path). */
function sandwichOf(json, name, total) {
  const callers = new Map(), callees = new Map();
  const subtree = (node, names) => {
    addPath(callees, names, node[total]);
    node.children.forEach((c) => subtree(c, [...names, c.name]));
  };
  eachFrame(json, (node, above) => {
    if (node.name !== name || !outermostFrame(node, above))
      return;
    addPath(callers, [name], node[total]);
    for (let d = above.length - 1; d >= 0; d--)
      addPath(callers, [name, ...above.slice(d).reverse().map((a) => a.name)], node[total]);
    subtree(node, [name]);
  });
  return { callers: drawnBoxes(callers), callees: drawnBoxes(callees) };
}

async function shownSandwich(page) {
  const half = (id) => page.$$eval(`#${id} .sw-frame`, (els) =>
    els.map((e) => `${e.dataset.depth}\t${e.dataset.name}\t${e.dataset.weight}`).sort());
  return { callers: await half('sandwich-callers'), callees: await half('sandwich-callees') };
}

const headers = (page) => page.$$eval('#functions-table th', (ths) => ths.map((th) => th.textContent));
const tableNames = (page) => page.$$eval('#functions-table tbody tr', (trs) => trs.map((tr) => tr.dataset.name));
const panelRows = (page) => page.evaluate(() => window.flamegraph.functionRows());

function pct(part, whole) {
  const p = (100 * part) / whole;
  return (p >= 10 || p === 0 ? p.toFixed(1) : p.toPrecision(2)) + '%';
}

/* Address variants apart (merge=0, against the plain JSON) and merged
 * (the page's default, against the JSON of --merge-addresses). */
const VARIANTS = [{ hash: '#weight=npu&merge=0', args: [] }, { hash: '#weight=npu&merge=1', args: ['--merge-addresses'] }];

for (const sample of SAMPLES) for (const variant of VARIANTS) {
  test(`the table of ${sample} in the NPU weight, ${variant.hash}`, async () => {
    const db = path.join(h.samplesDir(), sample + '.db');
    const json = h.exportJson(db, variant.args);
    const npu = tableOf(json, ...NPU);
    assert.ok([...npu.values()].some((r) => r.total_ns > 0 && r.total_ns !== r.self_ns));
    const { page, log } = await h.openPage(browser.context, h.exportHtml(db), variant.hash);
    await h.openFunctions(page);
    assert.deepEqual(await headers(page), ['Name', 'Category', 'Calls', 'NPU self', 'NPU total', '% NPU self']);

    const rows = await panelRows(page);
    assert.deepEqual(sortedRows(rows), sortedRows(npu.values()));
    for (let i = 1; i < rows.length; i++)
      assert.ok(rows[i - 1].self_ns >= rows[i].self_ns, 'sorted by NPU self');
    assert.deepEqual(await tableNames(page), rows.slice(0, 200).map((r) => r.name));

    /* The first row's cells: the largest NPU self, its share of all NPU time. */
    const top = [...npu.values()].reduce((a, b) => (b.self_ns > a.self_ns ? b : a));
    const whole = json.threads.reduce((n, t) => n + t.npu_total_ns, 0);
    const cells = await page.$$eval('#functions-table tbody tr:first-child td', (tds) => tds.map((td) => td.textContent));
    assert.equal(cells[0], top.name);
    assert.equal(cells[5], pct(top.self_ns, whole));

    /* Sorting by the total and the search keep to the NPU values. */
    await page.click('#functions-table th[data-key="total"]');
    const byTotal = await panelRows(page);
    for (let i = 1; i < byTotal.length; i++)
      assert.ok(byTotal[i - 1].total_ns >= byTotal[i].total_ns, 'sorted by NPU total');
    await page.fill('#search', 'hccl');
    const found = await panelRows(page);
    assert.ok(found.length > 0);
    assert.deepEqual(sortedRows(found), sortedRows([...npu.values()].filter((r) => r.name.toLowerCase().includes('hccl'))));
    assert.deepEqual(await tableNames(page), found.map((r) => r.name));

    /* functions() stays the JSON's host array (of the merged tree when merged). */
    assert.deepEqual(await page.evaluate(() => window.flamegraph.functions()), json.functions);
    assert.deepEqual(log.errors, []);
    await page.close();
  });
}

/* The function with the largest NPU total, and one whose callers include
 * frames without NPU time (they are not drawn). */
function pickFunctions(json) {
  const npu = [...tableOf(json, ...NPU).values()];
  const most = npu.reduce((a, b) => (b.total_ns > a.total_ns ? b : a));
  const host = sandwichOf(json, 'aten::copy_', 'total_ns').callers.length;
  const dev = sandwichOf(json, 'aten::copy_', 'npu_total_ns').callers.length;
  assert.ok(dev > 1 && dev < host, 'aten::copy_ has callers with and without NPU time');
  return [most.name, 'aten::copy_'];
}

test('the sandwich is weighted by NPU time, and host time again after the switch', async () => {
  const db = path.join(h.samplesDir(), SAMPLES[0] + '.db');
  const json = h.exportJson(db);
  const npu = tableOf(json, ...NPU);
  const { page, log } = await h.openPage(browser.context, h.exportHtml(db), '#weight=npu&merge=0');
  for (const name of pickFunctions(json)) {
    await page.evaluate((n) => window.flamegraph.selectFunction(n), name);
    const shown = await shownSandwich(page);
    assert.deepEqual(shown, sandwichOf(json, name, 'npu_total_ns'), name);
    assert.equal(shown.callers.find((l) => l.startsWith('0\t')), `0\t${name}\t${npu.get(name).total_ns}`);
    assert.equal(shown.callees.find((l) => l.startsWith('0\t')), `0\t${name}\t${npu.get(name).total_ns}`);
    const title = await page.getAttribute('#sandwich-callees .sw-frame[data-depth="0"]', 'title');
    assert.match(title, /NPU total: .* \(100\.0%\)/);
  }

  /* Back to host time: the JSON's table, the host sandwich, same selection. */
  const name = 'aten::copy_';
  await page.selectOption('#weight', 'host');
  assert.deepEqual(await headers(page), ['Name', 'Category', 'Calls', 'Self', 'Total', '% self']);
  const hostRows = json.functions.map(({ name: n, calls, self_ns, total_ns }) => ({ name: n, calls, self_ns, total_ns }));
  assert.deepEqual(await panelRows(page), hostRows);
  assert.deepEqual(sortedRows(hostRows), sortedRows(tableOf(json, ...HOST).values()));
  assert.equal(await page.textContent('#sandwich-title'), `Sandwich of ${name}`);
  assert.deepEqual(await shownSandwich(page), sandwichOf(json, name, 'total_ns'));

  /* And to NPU time by the hash. */
  await page.evaluate(() => { location.hash = '#weight=npu&merge=0'; });
  await page.waitForFunction(() => window.flamegraph.state().weight === 'npu');
  assert.deepEqual(sortedRows(await panelRows(page)), sortedRows(npu.values()));
  await page.fill('#search', name);
  assert.equal(await page.getAttribute('#functions-table tr.selected', 'data-name'), name);
  assert.deepEqual(await shownSandwich(page), sandwichOf(json, name, 'npu_total_ns'));

  /* A function without NPU time has no box in either half. */
  const idle = [...npu.values()].find((r) => r.total_ns === 0);
  await page.evaluate((n) => window.flamegraph.selectFunction(n), idle.name);
  assert.deepEqual(await shownSandwich(page), { callers: [], callees: [] });
  assert.equal(await page.textContent('#sandwich-callees .sw-empty'), 'none (NPU time is 0)');
  assert.deepEqual(log.errors, []);
  await page.close();
});
