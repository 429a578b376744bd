// SPDX-License-Identifier: MIT
// The diff page's "Merge addresses" toggle: on a diff exported
// without --merge-addresses, the toggle on dumps exactly what
// `--diff A B --export -f json --merge-addresses` says and colours every
// frame as the core does (afg-diff-dump: afg_diff_hsl() on the core's
// merged diff); off, the plain export and its colours. The choice is
// remembered (localStorage) and lives in the hash; on an export merged
// already the checkbox is checked, disabled, and says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const samples = h.samplesDir();
const A = path.join(samples, 'ascend_pytorch_profiler_level0_rank0.db');
const B = path.join(samples, 'ascend_pytorch_profiler_level1_rank0.db');
const SETTINGS = [['', 'self', 'raw'], ['&by=total&norm=per-step', 'total', 'per-step'],
                  ['&norm=equal-totals&shape=a', 'self', 'equal-totals']];
let browser;

before(async () => {
  browser = await h.launchBrowser({ width: 1400, height: 800 });
});

after(async () => {
  await browser?.close();
});

const exportDiff = h.exportDiff;
const jsonLines = (a, b, extra = []) => h.diffJsonLines(exportDiff(a, b, 'json', extra));

/* The core's colour of every frame (afg_diff_hsl), merged or plain. */
function coreColours(a, b, by, norm, merged) {
  const args = ['view', a, b, by, norm, ...(merged ? [] : ['plain'])];
  return execFileSync(process.env.AFG_DIFF_DUMP, args, { encoding: 'utf8', maxBuffer: 1 << 26 })
    .split('\n').filter(Boolean).sort(byCodeUnit);
}

const state = (page) => page.evaluate(() => window.flamegraph.state());
const dump = (page, kind) => page.evaluate((k) => window.flamegraph.dump(k), kind);

/* The page of @a vs @b exported plain agrees with the core both ways, in
 * each of SETTINGS; returns the merged and the plain lines. */
async function checkAgainstCore(a, b, settings = SETTINGS) {
  const page = exportDiff(a, b, 'html');
  const merged = jsonLines(a, b, ['--merge-addresses']);
  const plain = jsonLines(a, b);
  assert.notDeepEqual(merged, plain, 'the profiles must have address variants');
  for (const [hash, by, norm] of settings) {
    const { page: p, log } = await h.openPage(browser.context, page, '#merge=1' + hash);
    assert.equal((await state(p)).merged, true);
    assert.equal(await p.isChecked('#merge-addresses'), true);
    assert.deepEqual(await dump(p), merged, hash);
    assert.deepEqual(await dump(p, 'view'), coreColours(a, b, by, norm, true), hash);
    await p.click('#merge-addresses');
    assert.equal((await state(p)).merged, false);
    assert.deepEqual(await dump(p), plain, hash);
    assert.deepEqual(await dump(p, 'view'), coreColours(a, b, by, norm, false), hash);
    assert.equal((await state(p)).normalize, norm, 'the settings survive the toggle');
    await p.click('#merge-addresses');
    assert.deepEqual(await dump(p), merged, hash);
    assert.deepEqual(log.errors, []);
    await p.close();
  }
  return { merged, plain };
}

test('the samples: merged in the page is --merge-addresses, off is the plain diff', async () => {
  const { merged, plain } = await checkAgainstCore(A, B);
  const expected = fs.readFileSync(path.join(samples, 'level0_rank0-vs-level1_rank0.diff.expected'), 'utf8')
    .split('\n').filter(Boolean).sort(byCodeUnit);
  assert.deepEqual(merged, expected);
  assert.equal(merged.length, 1128);
  assert.equal(plain.length, 1609);
});

const ITEM = 'item of T';
const US = 1e5;  /* over the default noise floor, so that colours differ */

/* Variants at two depths, under two threads, a name with two addresses,
 * " at 0x" without digits, upper-case hex, a merged name that sorts
 * elsewhere than its variants, and frames that are on one side only
 * until merged. */
function variantPair() {
  const names = ['main', `${ITEM} at 0xaa1>`, `${ITEM} at 0xAB2>`, `${ITEM} at 0xcc3>`, 'inner at 0x1', 'inner at 0x2',
                 'leaf', 'q at 0x1 z', 'x at 0x', 'two at 0x1 and at 0x2', 'gone at 0x5', `${ITEM} at 0xdd>`,
                 'inner at 0x9', 'q at 0x3', 'two at 0xf and at 0x0', 'fresh at 0x7', 'q at 0x2 z'];
  const id = (n) => names.indexOf(n) + 1;
  const ev = (pid, tid, name, s, e) => [pid, tid, id(name), s * US, e * US];
  const a = h.makeDb(names, [
    ev(1, 1, 'main', 0, 1000),
    ev(1, 1, `${ITEM} at 0xaa1>`, 0, 100), ev(1, 1, 'inner at 0x1', 10, 50),
    ev(1, 1, `${ITEM} at 0xAB2>`, 100, 300), ev(1, 1, 'inner at 0x2', 110, 200), ev(1, 1, 'leaf', 200, 250),
    ev(1, 1, 'q at 0x1 z', 300, 400), ev(1, 1, 'q at 0x2 z', 400, 410), ev(1, 1, 'x at 0x', 410, 450),
    ev(1, 1, 'two at 0x1 and at 0x2', 450, 500), ev(1, 1, 'gone at 0x5', 500, 900),
    ev(1, 2, 'main', 0, 500), ev(1, 2, `${ITEM} at 0xcc3>`, 0, 200), ev(1, 2, 'inner at 0x1', 20, 30),
  ]);
  const b = h.makeDb(names, [
    ev(2, 1, 'main', 0, 2000),
    ev(2, 1, `${ITEM} at 0xdd>`, 0, 600), ev(2, 1, 'inner at 0x9', 0, 400),
    ev(2, 1, 'q at 0x3', 600, 700), ev(2, 1, 'two at 0xf and at 0x0', 700, 720),
    ev(2, 1, 'fresh at 0x7', 800, 1200), ev(2, 1, 'x at 0x', 1200, 1250),
  ]);
  return { a, b };
}

test('generated profiles with address variants: the page is the core, both ways', async () => {
  const { a, b } = variantPair();
  const { merged } = await checkAgainstCore(a, b);
  /* By hand: A's three item variants (2 threads) merge, their inner ones too. */
  const u = (n) => String(n * US);
  assert.ok(merged.includes(['main', `${ITEM} at 0x…>`].join(';') +
                            `\t3\t${u(500)}\t${u(500 - 140 - 50)}\t1\t${u(600)}\t${u(600 - 400)}`), merged.join('\n'));
  assert.ok(merged.includes(`main;${ITEM} at 0x…>;inner at 0x…\t3\t${u(140)}\t${u(140)}\t1\t${u(400)}\t${u(400)}`));
  assert.ok(merged.includes(`main;two at 0x… and at 0x…\t1\t${u(50)}\t${u(50)}\t1\t${u(20)}\t${u(20)}`));
  assert.ok(merged.some((l) => l.startsWith('main;x at 0x\t')));
  assert.ok(merged.some((l) => l.startsWith('main;q at 0x… z\t2\t')));
});

/* afg-gen-db's names carry one address each; A gets a second variant of
 * each (every other row), B other addresses and some later starts, so
 * that merged, the two line up and differ. */
const SPLIT_VARIANTS = `
INSERT INTO STRING_IDS SELECT id + 10000000, replace(value, ' at 0x', ' at 0xbeef') FROM STRING_IDS
  WHERE value LIKE '% at 0x%';
UPDATE PYTORCH_API SET name = name + 10000000 WHERE rowid % 2 = 0
  AND name IN (SELECT id FROM STRING_IDS WHERE value LIKE '% at 0x%' AND id < 10000000);`;
const MOVE_ADDRESSES = `
UPDATE STRING_IDS SET value = replace(value, ' at 0x', ' at 0xf');
UPDATE PYTORCH_API SET startNs = startNs + 50000 WHERE rowid % 5 = 0 AND endNs - startNs > 100000;`;

test('synthetic profiles (afg-gen-db): the page is the core, both ways', async () => {
  const gen = process.env.AFG_GEN_DB;
  assert.ok(gen && fs.existsSync(gen), 'AFG_GEN_DB must name the built afg-gen-db');
  const dir = h.tmpDir('afg-gen-');
  const [a, b] = [SPLIT_VARIANTS, MOVE_ADDRESSES].map((sql, i) => {
    const db = path.join(dir, `ascend_pytorch_profiler_${i}.db`);
    execFileSync(gen, ['--steps', '1', '--seed', '1', db, '2000'], { stdio: 'pipe' });
    execFileSync('sqlite3', [db], { input: sql });
    return db;
  });
  const { merged, plain } = await checkAgainstCore(a, b, SETTINGS.slice(0, 2));
  assert.ok(merged.length > 1000 && plain.length > merged.length + 1000, `${merged.length} vs ${plain.length}`);
});

test('totals past 2^53 add up exactly when variants merge', async () => {
  const a = h.makeDb(['p', 'v at 0x1', 'v at 0x2'], [
    [1, 1, 1, '0', '4611686018427387907'],
    [1, 1, 2, '1', '2305843009213693955'],
    [1, 1, 3, '2305843009213693955', '4611686018427387906'],
  ]);
  const b = h.makeDb(['p', 'v at 0x3'], [[1, 1, 1, 0, 1000], [1, 1, 2, 0, 10]]);
  const merged = jsonLines(a, b, ['--merge-addresses']);
  assert.ok(merged.some((l) => l.startsWith('p;v at 0x…\t2\t4611686018427387905\t')), merged.join('\n'));
  const { page, log } = await h.openPage(browser.context, exportDiff(a, b, 'html'), '#merge=1');
  assert.deepEqual(await dump(page), merged);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the choice is remembered and lives in the hash', async () => {
  const { a, b } = variantPair();
  const file = exportDiff(a, b, 'html');
  const { page, log } = await h.openPage(browser.context, file);
  await page.evaluate(() => localStorage.removeItem('afg.mergeAddresses'));
  await page.reload();
  await page.waitForFunction(() => window.flamegraph !== undefined);
  assert.equal((await state(page)).merged, true, 'on by default');
  assert.equal(await page.evaluate(() => location.hash), '', 'a plain URL stays plain');
  await page.click('#merge-addresses');
  assert.equal((await state(page)).merged, false);
  assert.equal(await page.evaluate(() => localStorage.getItem('afg.mergeAddresses')), '0');
  assert.match(await page.evaluate(() => location.hash), /merge=0/);
  await page.selectOption('#shape', 'a');
  assert.match(await page.evaluate(() => location.hash), /shape=a&merge=0/);
  await page.evaluate(() => { location.hash = '#merge=1'; });
  await page.waitForFunction(() => window.flamegraph.state().merged === true);
  assert.equal(await page.isChecked('#merge-addresses'), true);
  assert.ok((await dump(page)).some((l) => l.includes(' at 0x…')));
  await page.close();

  const again = await h.openPage(browser.context, file);
  assert.equal((await state(again.page)).merged, false, 'the stored choice');
  assert.equal(await again.page.isChecked('#merge-addresses'), false);
  assert.ok(!(await dump(again.page)).some((l) => l.includes(' at 0x…')));
  await again.page.close();
  const forced = await h.openPage(browser.context, file, '#merge=1');
  assert.equal((await state(forced.page)).merged, true, '#merge=1 wins over the stored choice');
  await forced.page.click('#merge-addresses');
  await forced.page.click('#merge-addresses');
  assert.equal(await forced.page.evaluate(() => localStorage.getItem('afg.mergeAddresses')), '1');
  await forced.page.close();
  assert.deepEqual(log.errors, []);
});

test('an export merged already: checked, disabled, and says why', async () => {
  const { a, b } = variantPair();
  const merged = jsonLines(a, b, ['--merge-addresses']);
  const file = exportDiff(a, b, 'html', ['--merge-addresses']);
  for (const hash of ['', '#merge=0']) {
    const { page, log } = await h.openPage(browser.context, file, hash);
    assert.equal((await state(page)).merged, true, hash);
    assert.equal(await page.isChecked('#merge-addresses'), true);
    assert.equal(await page.isDisabled('#merge-addresses'), true);
    assert.match(await page.getAttribute('#merge-field', 'title'), /--merge-addresses/);
    assert.deepEqual(await dump(page), merged);
    assert.deepEqual(log.errors, []);
    await page.close();
  }
});
