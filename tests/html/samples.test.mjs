// SPDX-License-Identifier: MIT
// Pages exported from the real profiles in tests/data, checked
// against the core's expected trees.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const dir = h.samplesDir();
const samples = fs.existsSync(dir)
  ? fs.readdirSync(dir).filter((f) => f.endsWith('.db')).sort()
  : [];
let browser;

before(async () => {
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

test('the sample profiles are there', () => {
  assert.ok(samples.length >= 2, `no sample DBs in ${dir} (set AFG_SAMPLES)`);
});

const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function readExpected(db) {
  const text = fs.readFileSync(db.replace(/\.db$/, '.expected'), 'utf8');
  return text.split('\n').filter((l) => l !== '').sort(byCodeUnit);
}

/* Matching frames and their share, as the page defines them. */
function expectedSearch(lines, query) {
  const q = query.toLowerCase();
  let count = 0, time = 0, total = 0;
  const matched = new Set();
  for (const line of lines) {
    const [stack, , t] = line.split('\t');
    const frames = stack.split(';');
    if (frames.length === 1) {
      total += Number(t);
      continue;
    }
    if (!frames[frames.length - 1].toLowerCase().includes(q))
      continue;
    count++;
    matched.add(stack);
    if (!frames.slice(1, -1).some((f) => f.toLowerCase().includes(q)))
      time += Number(t);
  }
  return { count, share: ((100 * time) / total).toFixed(1) + '%' };
}

for (const name of samples) {
  test(`sample ${name}`, async () => {
    const db = path.join(dir, name);
    const file = h.exportHtml(db);
    const expected = readExpected(db);
    const data = JSON.parse(fs.readFileSync(file, 'utf8')
      .match(/<script type="application\/json" id="afg-data">([^]*?)<\/script>/)[1]);
    const nameBytes = h.decodeNames(data).reduce((n, s) => n + Buffer.byteLength(s), 0);
    const dataBytes = Buffer.byteLength(JSON.stringify(data));
    assert.ok(dataBytes <= nameBytes + 40 * expected.length, `${dataBytes} bytes of data`);

    const { page, log } = await h.openPage(browser.context, file, '#merge=0');
    const dump = await page.evaluate(() => window.flamegraph.dump());
    assert.deepEqual(dump.sort(byCodeUnit), expected);

    const threads = expected.filter((l) => !l.split('\t')[0].includes(';')).map((l) => l.split('\t')[0]);
    const options = await page.$$eval('#thread-select option', (os) => os.map((o) => o.value));
    assert.deepEqual(options, ['all', ...threads]);
    assert.equal(await page.$eval('#summary dd[data-stat="frames"]', (e) => e.textContent),
                 (expected.length - threads.length).toLocaleString('en-US'));

    for (const query of ['aten', 'Module', 'py(']) {
      await page.fill('#search', query);
      const want = expectedSearch(expected, query);
      assert.equal(await page.textContent('#match-count'),
                   `${want.count.toLocaleString('en-US')} matches · ${want.share}`, query);
    }
    await page.keyboard.press('Escape');

    const before = await page.evaluate(() => window.flamegraph.frames('<string>(1): <module>'));
    await page.selectOption('#thread-select', threads[threads.length - 1]);
    const after = await page.evaluate(() => window.flamegraph.frames('<string>(1): <module>'));
    assert.notDeepEqual(after, before);

    await page.selectOption('#thread-select', threads[0]);
    const target = '<string>(1): <module>';
    const c = await h.frameCentre(page, target);
    await page.mouse.move(c.x, c.y);
    assert.equal(await page.textContent('#tooltip .name'), target);
    await page.mouse.click(c.x, c.y);
    assert.equal((await page.evaluate(() => window.flamegraph.state())).zoomName, target);
    assert.deepEqual(log.errors, []);
    assert.deepEqual(log.requests, []);
    await page.close();
  });
}
