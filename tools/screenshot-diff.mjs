// SPDX-License-Identifier: MIT
// Renews docs/screenshot-html-diff.png: the diff page of the two sample
// DBs (level0 as A, level1 as B, addresses merged), the tooltip of a
// frame that grew.
// Usage: node tools/screenshot-diff.mjs [BUILD_DIR]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as h from '../tests/html/helpers.mjs';

const build = path.resolve(process.argv[2] || '_build');
process.env.AFG_BIN ||= path.join(build, 'src', 'ascend-flamegraph');
const samples = h.samplesDir();
const out = h.tmpDir('afg-diff-shot-');
execFileSync(h.afgBin(), ['--diff', path.join(samples, 'ascend_pytorch_profiler_level0_rank0.db'),
                          path.join(samples, 'ascend_pytorch_profiler_level1_rank0.db'),
                          '--export', '-q', '--merge-addresses', '-o', out]);
const browser = await h.launchBrowser({ width: 1400, height: 800 });
const page = await browser.context.newPage();
await page.goto(pathToFileURL(path.join(out, 'flamegraph-diff.html')).href);
await page.waitForFunction(() => window.flamegraph?.firstDrawMs !== null);
const c = await h.frameCentre(page, 'main.py(375): train');
await page.mouse.move(c.x, c.y);
await page.screenshot({ path: path.join(h.repoRoot, 'docs', 'screenshot-html-diff.png') });
await browser.close();
fs.rmSync(out, { recursive: true, force: true });
