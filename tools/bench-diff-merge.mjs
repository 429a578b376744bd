#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The diff page's "Merge addresses" cost, in headless Chromium:
// per run, the first draw (window.flamegraph.firstDrawMs) opened with
// #merge=0 and with #merge=1, and the click that switches it (building
// the merged tree and redrawing, or going back to the plain one).
//
//   node tools/bench-diff-merge.mjs PAGE.html [RUNS]
//
// e.g. on tools/bench-diff.sh's DBs:
//   ascend-flamegraph --diff /tmp/afg-bench/diff-1000000/ascend_pytorch_profiler_{1,2}.db --export -q -o DIR
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { chromium } = createRequire(path.join(root, 'package.json'))('playwright-core');
const [file, runs = '3'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tools/bench-diff-merge.mjs PAGE.html [RUNS]');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: process.env.AFG_CHROMIUM || '/usr/bin/chromium',
                                        args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
console.log('run\thash\tfirst_draw_ms\tframes\tclick_ms');
for (let run = 0; run < Number(runs); run++) {
  for (const hash of ['#merge=0', '#merge=1']) {
    await page.goto('about:blank');
    await page.goto(pathToFileURL(path.resolve(file)).href + hash);
    await page.waitForFunction(() => window.flamegraph?.firstDrawMs != null, null, { timeout: 120000 });
    const first = await page.evaluate(() => window.flamegraph.firstDrawMs);
    const frames = await page.evaluate(() => window.flamegraph.dump().length);
    const click = await page.evaluate(() => {
      const t = performance.now();
      document.getElementById('merge-addresses').click();
      return performance.now() - t;
    });
    console.log([run, hash, first.toFixed(0), frames, click.toFixed(0)].join('\t'));
  }
}
await browser.close();
