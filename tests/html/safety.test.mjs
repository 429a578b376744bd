// SPDX-License-Identifier: MIT
// Hostile names, the empty profile, offline use, determinism and size.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import * as h from './helpers.mjs';
import * as fx from './fixtures.mjs';

let browser;

before(async () => {
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

function dataBlock(html) {
  const m = html.match(/<script type="application\/json" id="afg-data">([^]*?)<\/script>/);
  assert.ok(m, 'data block present');
  return m[1];
}

test('names that look like markup are text and run nothing', async () => {
  const file = h.exportHtml(fx.hostileDb());
  const html = fs.readFileSync(file, 'utf8');
  assert.equal(html.match(/<\/script/gi).length, 2, 'only the page\'s own script ends');
  assert.equal(html.includes('<img'), false);
  assert.equal(html.includes('<!-- -->'), false);
  const { page, log } = await h.openPage(browser.context, file);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img').count(), 0);
  assert.equal(await page.locator('script').count(), 2);
  for (const name of [fx.SCRIPT_NAME, fx.IMG_NAME, fx.AMP_NAME, fx.REPAIRED_NAME]) {
    const c = await h.frameCentre(page, name);
    await page.mouse.move(c.x, c.y);
    assert.equal(await page.textContent('#tooltip .name'), name);
  }
  await page.fill('#search', '<img');
  assert.equal(await page.textContent('#match-count'), '1 match · 40.0%');
  await page.fill('#search', fx.SCRIPT_NAME);
  assert.equal((await page.evaluate(() => window.flamegraph.state())).search, fx.SCRIPT_NAME);
  const hash = await page.evaluate(() => location.hash);
  await page.close();
  const again = await h.openPage(browser.context, file, hash);
  assert.equal(await again.page.inputValue('#search'), fx.SCRIPT_NAME);
  assert.equal(await again.page.evaluate(() => window.__pwned), undefined);
  for (const l of [log, again.log]) {
    assert.deepEqual(l.errors, []);
    assert.deepEqual(l.dialogs, []);
    assert.deepEqual(l.requests, []);
  }
  await again.page.close();
});

test('an empty profile says so and lists the likely causes', async () => {
  const file = h.exportHtml(fx.emptyDb());
  const { page, log } = await h.openPage(browser.context, file);
  assert.equal(await page.isVisible('#empty'), true);
  assert.equal(await page.isVisible('#flame'), false);
  const text = await page.textContent('#empty');
  assert.match(text, /no usable rows/);
  assert.match(text, /ProfilerActivity\.CPU/);
  assert.match(text, /ProfilerStep# markers or mstx/);
  assert.match(text, /before any step/);
  assert.equal(await page.$eval('#summary dd[data-stat="profilerSteps"]', (e) => e.textContent), '1');
  assert.deepEqual(await page.evaluate(() => window.flamegraph.frames('ProfilerStep#1')), []);
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.requests, []);
  await page.close();
});

test('the file is offline-only: no URL, a CSP that forbids fetching, no request', async () => {
  const file = h.exportHtml(fx.knownDb());
  const html = fs.readFileSync(file, 'utf8');
  assert.doesNotMatch(html, /\b(https?|ftp|wss?):\/\//i);
  assert.doesNotMatch(html, /\b(src|href)\s*=/i);
  const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/);
  assert.ok(csp, 'CSP meta tag');
  assert.match(csp[1], /default-src 'none'/);
  assert.match(csp[1], /img-src data:/);
  assert.doesNotMatch(csp[1], /connect-src|font-src|https?:/);
  const { page, log } = await h.openPage(browser.context, file);
  const blocked = await page.evaluate(async () => {
    try {
      await fetch('http://127.0.0.1:9/');
      return false;
    } catch {
      return true;
    }
  });
  assert.equal(blocked, true, 'fetch is refused');
  log.requests = log.requests.filter((u) => u !== 'http://127.0.0.1:9/');
  await page.mouse.move(300, 650);
  await page.fill('#search', 'a');
  assert.deepEqual(log.requests, []);
  assert.deepEqual(log.errors, []);
  await page.close();
});

// script-src names the hash of each inline script, nothing else: a
// script that escaping let through (or one added later) would not run.
function assertScriptHashes(html) {
  const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)[1];
  const scriptSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src '));
  const hashes = [...html.matchAll(/<script>([^]*?)<\/script>/g)]
    .map((m) => `'sha256-${crypto.createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
  assert.equal(hashes.length, 1, 'one inline script (the data block is JSON, not a script)');
  assert.equal(scriptSrc, `script-src ${hashes.join(' ')}`);
  assert.doesNotMatch(scriptSrc, /unsafe/);
}

test('the CSP allows the page\'s own script by its hash, and no other inline script', async () => {
  const file = h.exportHtml(fx.knownDb());
  const html = fs.readFileSync(file, 'utf8');
  assertScriptHashes(html);
  const { page, log } = await h.openPage(browser.context, file);
  assert.equal(await page.evaluate(() => typeof window.flamegraph), 'object', 'the page\'s script ran');
  assert.deepEqual(log.errors, []);
  await page.close();
  const injected = `${file}.injected.html`;
  fs.writeFileSync(injected, html.replace('</body>', '<script>window.__injected = 1;</script></body>'));
  const second = await h.openPage(browser.context, injected);
  assert.equal(await second.page.evaluate(() => window.__injected), undefined, 'an added script is refused');
  assert.equal(await second.page.evaluate(() => typeof window.flamegraph), 'object');
  await second.page.close();
});

test('the diff page\'s CSP names its script\'s hash too', () => {
  const db = fx.knownDb();
  assertScriptHashes(fs.readFileSync(h.exportDiff(db, db, 'html'), 'utf8'));
});

test('the export is byte-for-byte deterministic', () => {
  const db = fx.hostileDb();
  const a = fs.readFileSync(h.exportHtml(db));
  const b = fs.readFileSync(h.exportHtml(db));
  assert.equal(Buffer.compare(a, b), 0);
});

test('the data fits in the names plus 40 bytes per node', () => {
  const file = h.exportHtml(fx.knownDb());
  const data = JSON.parse(dataBlock(fs.readFileSync(file, 'utf8')));
  const nameBytes = h.decodeNames(data).reduce((n, s) => n + Buffer.byteLength(s), 0);
  const nodes = data.threads.length + h.decodeVarints(data.nodes).length / 4;
  assert.ok(Buffer.byteLength(dataBlock(fs.readFileSync(file, 'utf8'))) <= nameBytes + 40 * nodes + 1024);
});

/* Names that share prefixes ending inside multi-byte and astral characters:
 * the front coding must cut on character boundaries and count UTF-16 units. */
test('front-coded names round-trip through the page exactly', async () => {
  const names = ['é前缀😀a', 'é前缀😀b', 'é前缀😁', 'é前缀', 'é前', 'é剌', '😀', '😀😀x', '😁',
    'aten::add', 'aten::addmm', 'aten::add_', 'a', 'z\u{10FFFF}', 'z\u{10FFFE}', 'Ab'];
  const events = names.map((_, i) => [1, 2, i + 1, 1000 * i, 1000 * i + 500]);
  const file = h.exportHtml(h.makeDb(names, events));
  const data = JSON.parse(dataBlock(fs.readFileSync(file, 'utf8')));
  const decoded = h.decodeNames(data);
  const byteOrder = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  assert.deepEqual(decoded, byteOrder);
  assert.ok(data.names.join('').length < names.join('').length, 'shared prefixes are sent once');
  const { page, log } = await h.openPage(browser.context, file);
  const dumped = (await page.evaluate(() => window.flamegraph.dump()))
    .map((l) => l.split('\t')[0].split(';').slice(1).join(';'))
    .filter((n) => n !== '')
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  assert.deepEqual(dumped, byteOrder);
  assert.deepEqual(log.errors, []);
  await page.close();
});
