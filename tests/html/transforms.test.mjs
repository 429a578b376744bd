// SPDX-License-Identifier: MIT
// The page's call-tree transforms: for the same list, the page's tree
// (from #t= in the URL) is the CLI's, frame by frame, NPU columns and the
// function table included, with addresses merged or not; the frame menu
// adds a transform, the breadcrumbs show it with a × that takes it out,
// the URL hash keeps the list, and Esc clears the search, then the zoom,
// then the last transform.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
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

const state = (page) => page.evaluate(() => window.flamegraph.state());
const dump = async (page, kind) => (await page.evaluate((k) => window.flamegraph.dump(k), kind)).sort(byCodeUnit);
const hashOf = (list, merge) => `#merge=${merge ? 1 : 0}&t=${encodeURIComponent(JSON.stringify(list))}`;
const cliArgs = (list) => list.flatMap((t) => [`--${t.op}`, t.arg]);

/* The JSON tree in dump('kinds') and dump('kernels') line formats. */
function kindLines(json) {
  const kinds = [], kernels = [];
  const walk = (prefix, n) => {
    const p = `${prefix};${n.name}`;
    kinds.push([p, n.npu_compute_total_ns, n.npu_compute_self_ns, n.npu_compute_tasks, n.comm_total_ns,
                n.comm_self_ns, n.comm_ops, n.comm_exposed_total_ns, n.comm_exposed_self_ns].join('\t'));
    for (const k of n.kernels)
      kernels.push(`${p};[${k.kind}] ${k.name}\t${k.count}\t${k.ns}\t${k.exposed_ns}`);
    n.children.forEach((c) => walk(p, c));
  };
  for (const t of json.threads) {
    kinds.push([t.label, t.npu_compute_total_ns, 0, 0, t.comm_total_ns, 0, 0, t.comm_exposed_total_ns, 0].join('\t'));
    t.children.forEach((c) => walk(t.label, c));
  }
  return [kinds.sort(byCodeUnit), kernels.sort(byCodeUnit)];
}

/* A path two frames deep from the first thread's top. */
function somePath(json) {
  for (const t of json.threads)
    for (const top of t.children)
      if (top.children.length > 0)
        return [top.name, top.children[0].name].map((s) => s.replace(/[\\;]/g, (c) => '\\' + c)).join(';');
  throw new Error('no frame two deep');
}

/* Lists in both orders of composition, over names the sample has. */
function listsFor(json) {
  const f = json.functions.map((x) => x.name.startsWith('/') ? '/' + x.name : x.name);
  return [
    [{ op: 'merge-function', arg: f[0] }, { op: 'drop-function', arg: '/^aten::(add|mul)/' }],
    [{ op: 'drop-function', arg: '/^aten::(add|mul)/' }, { op: 'merge-function', arg: f[0] }],
    [{ op: 'collapse-recursion', arg: f[1] }, { op: 'collapse-indirect-recursion', arg: '/^aten::/' }],
    [{ op: 'focus-function', arg: '/^aten::/' }, { op: 'merge-function', arg: '/\\.py\\(/' }],
    [{ op: 'focus-subtree', arg: somePath(json) }],
  ];
}

for (const name of SAMPLES) {
  test(`${name}: the page's transformed tree is the CLI's`, async () => {
    const db = path.join(h.samplesDir(), name + '.db');
    const file = h.exportHtml(db);
    for (const merge of [false, true]) {
      const base = merge ? ['--merge-addresses'] : [];
      const untouched = h.exportJson(db, base);
      for (const list of listsFor(untouched)) {
        const json = h.exportJson(db, [...base, ...cliArgs(list)]);
        assert.deepEqual(json.transforms, list);
        assert.notDeepEqual(h.npuJsonLines(json), h.npuJsonLines(untouched), JSON.stringify(list));
        const { page, log } = await h.openPage(browser.context, file, hashOf(list, merge));
        assert.deepEqual((await state(page)).transforms, list, JSON.stringify(list));
        assert.deepEqual(await dump(page, 'npu'), h.npuJsonLines(json), JSON.stringify(list));
        const [kinds, kernels] = kindLines(json);
        assert.deepEqual(await dump(page, 'kinds'), kinds, JSON.stringify(list));
        assert.deepEqual(await dump(page, 'kernels'), kernels, JSON.stringify(list));
        assert.deepEqual(await page.evaluate(() => window.flamegraph.functions()), json.functions);
        assert.deepEqual(log.errors, []);
        await page.close();
      }
    }
  });
}

/* main { a { F { c } }, F { F } }, b on another thread. */
function smallDb() {
  return h.makeDb(['main', 'a', 'F', 'c', 'b'], [
    [1, 1, 1, 0, 1000], [1, 1, 2, 0, 400], [1, 1, 3, 10, 210], [1, 1, 4, 20, 100],
    [1, 1, 3, 500, 900], [1, 1, 3, 510, 610], [1, 2, 5, 0, 300],
  ]);
}

test('the frame menu, the breadcrumbs, the hash and Esc', async () => {
  const { page, log } = await h.openPage(browser.context, h.exportHtml(smallDb()), '#merge=0');
  const at = await h.frameCentre(page, 'a');
  await page.mouse.click(at.x, at.y, { button: 'right' });
  assert.equal(await page.isVisible('#frame-menu'), true);
  await page.click('#frame-menu button[data-op="focus-subtree"]');
  assert.equal(await page.isVisible('#frame-menu'), false);
  assert.deepEqual((await state(page)).transforms, [{ op: 'focus-subtree', arg: 'main;a' }]);
  assert.deepEqual(await dump(page), ['1/1\t1\t400\t0', '1/1;a\t1\t400\t200', '1/1;a;F\t1\t200\t120', '1/1;a;F;c\t1\t80\t80']);
  assert.ok((await page.evaluate(() => location.hash))
    .endsWith('&t=' + encodeURIComponent(JSON.stringify([{ op: 'focus-subtree', arg: 'main;a' }]))));

  const f = await h.frameCentre(page, 'F');
  await page.mouse.click(f.x, f.y, { button: 'right' });
  await page.click('#frame-menu button[data-op="merge-function"]');
  assert.deepEqual(await dump(page), ['1/1\t1\t400\t0', '1/1;a\t1\t400\t320', '1/1;a;c\t1\t80\t80']);
  assert.equal(await page.locator('#transforms .crumb').count(), 2);


  // × on the first breadcrumb leaves the second alone.
  await page.click('#transforms .crumb:nth-child(1) button');
  assert.deepEqual((await state(page)).transforms, [{ op: 'merge-function', arg: 'F' }]);
  assert.deepEqual(await dump(page), ['1/1\t1\t1000\t0', '1/1;main\t1\t1000\t600', '1/1;main;a\t1\t400\t320',
                                      '1/1;main;a;c\t1\t80\t80', '1/2\t1\t300\t0', '1/2;b\t1\t300\t300']);

  // Esc: the search first, then the zoom, then the last transform.
  await page.fill('#search', 'c');
  const main = await h.frameCentre(page, 'a');
  await page.mouse.click(main.x, main.y);
  assert.notEqual((await state(page)).zoom, null);
  await page.focus('#flame-wrap');
  await page.keyboard.press('Escape');
  assert.equal((await state(page)).search, '');
  assert.notEqual((await state(page)).zoom, null);
  await page.keyboard.press('Escape');
  assert.equal((await state(page)).zoom, null);
  assert.equal((await state(page)).transforms.length, 1);
  await page.keyboard.press('Escape');
  assert.deepEqual((await state(page)).transforms, []);
  assert.equal(await page.isVisible('#transforms'), false);
  assert.doesNotMatch(await page.evaluate(() => location.hash), /&t=/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a list the page cannot read is dropped', async () => {
  const file = h.exportHtml(smallDb());
  for (const bad of ['%7B', encodeURIComponent('[{"op":"nope","arg":"x"}]'), encodeURIComponent('[{"op":"merge-function","arg":"/(/"}]')]) {
    const { page, log } = await h.openPage(browser.context, file, '#merge=0&t=' + bad);
    assert.deepEqual((await state(page)).transforms, []);
    assert.equal((await dump(page)).length, 9);
    assert.deepEqual(log.errors, []);
    await page.close();
  }
});

test('a transform that leaves no thread draws an empty graph', async () => {
  const list = [{ op: 'focus-function', arg: 'nowhere' }];
  const { page, log } = await h.openPage(browser.context, h.exportHtml(smallDb()), hashOf(list, false));
  assert.deepEqual((await state(page)).transforms, list);
  assert.deepEqual(await dump(page), []);
  assert.equal(await page.locator('#thread-select option').count(), 1);
  await page.focus('#flame-wrap');
  await page.keyboard.press('Escape');
  assert.equal((await dump(page)).length, 9);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a frame named "" is a path\'s name like any other: top; focuses it, as the CLI', async () => {
  const db = h.makeDb(['top', '', 'g'], [[1, 1, 1, 0, 1000], [1, 1, 2, 10, 990], [1, 1, 3, 20, 500]]);
  const list = [{ op: 'focus-subtree', arg: 'top;' }];
  const { page, log } = await h.openPage(browser.context, h.exportHtml(db), hashOf(list, false));
  assert.deepEqual((await state(page)).transforms, list);
  assert.deepEqual(await dump(page), ['1/1\t1\t980\t0', '1/1;\t1\t980\t500', '1/1;;g\t1\t480\t480']);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('call durations show where a frame keeps its calls unchanged', async () => {
  const { page, log } = await h.openPage(browser.context, h.exportHtml(smallDb()), '#merge=0');
  const tip = async (name) => {
    const at = await h.frameCentre(page, name);
    await page.mouse.move(at.x, at.y);
    return page.textContent('#tooltip');
  };
  await page.evaluate(() => window.flamegraph.transform('merge-function', 'F'));
  assert.match(await tip('a'), /Call durations.*400 ns \/ 400 ns/);
  await page.evaluate(() => window.flamegraph.transform('drop-function', 'c'));
  assert.match(await tip('a'), /a transform merged or shortened/);
  assert.deepEqual(log.errors, []);
  await page.close();
});
