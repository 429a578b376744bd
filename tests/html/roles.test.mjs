// SPDX-License-Identifier: MIT
// Threads named by role on the page as in the JSON: the thread picker
// and the thread frames read "main · pid/tid", the window's words.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const dir = h.samplesDir();
const samples = fs.readdirSync(dir).filter((f) => f.endsWith('.db')).sort();
let browser;

before(async () => {
  browser = await h.launchBrowser();
});

after(async () => {
  await browser?.close();
});

for (const name of samples) {
  test(`thread roles of ${name}`, async () => {
    const db = path.join(dir, name);
    const json = h.exportJson(db);
    const roles = json.threads.map((t) => t.role ?? null);
    /* The samples have one thread of each role. */
    assert.deepEqual([...roles].sort(), ['autograd', 'dequeue', 'main']);
    const p = await h.openEval(browser.context, h.exportHtml(db), '#merge=0');
    const options = await p.page.$$eval('#thread-select option', (os) => os.map((o) => o.textContent));
    json.threads.forEach((t, i) => {
      /* Worded as the window's picker words it (test-window-weight.c). */
      assert.ok(options[i + 1].startsWith(`${t.role} · ${t.label} · `), options[i + 1]);
    });
    for (const t of json.threads) {
      const title = `${t.role} · ${t.label}`;
      const c = await h.frameCentre(p.page, title);
      await p.page.mouse.move(c.x, c.y);
      assert.equal(await p.page.textContent('#tooltip .name'), title);
    }
    /* The state and the dump still name threads by pid/tid. */
    await p.page.selectOption('#thread-select', json.threads[0].label);
    assert.equal((await p.eval(() => window.flamegraph.state())).thread, json.threads[0].label);
    await h.closeClean(p);
  });
}
