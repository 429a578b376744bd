// SPDX-License-Identifier: MIT
// Renews docs/screenshot-html-ranks.png: the index page of a generated
// job of eight ranks (afg-gen-db, 4 steps, tensor-parallel pairs), rank 5
// arriving 3 ms late at its collectives.
// Usage: node tools/screenshot-ranks.mjs [BUILD_DIR]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as h from '../tests/html/helpers.mjs';

const build = path.resolve(process.argv[2] || '_build');
process.env.AFG_BIN ||= path.join(build, 'src', 'ascend-flamegraph');
const job = h.tmpDir('afg-job-');
for (let rank = 0; rank < 8; rank++) {
  const dir = path.join(job, `host_${rank}_20261204000000000_ascend_pt`, 'ASCEND_PROFILER_OUTPUT');
  fs.mkdirSync(dir, { recursive: true });
  execFileSync(path.join(build, 'tools', 'afg-gen-db'),
               ['--steps', '4', '--rank', String(rank), '--ranks', '8', '--tp', '2', '--collectives', '6',
                '--late-rank', '5', '--late-ns', '3000000', path.join(dir, `ascend_pytorch_profiler_${rank}.db`),
                '20000'], { stdio: 'ignore' });
}
const out = h.tmpDir('afg-ranks-');
execFileSync(h.afgBin(), ['--export', '-q', '-o', out, job]);
const browser = await h.launchBrowser({ width: 1400, height: 1000 });
const page = await browser.context.newPage();
await page.goto(pathToFileURL(path.join(out, 'index.html')).href);
await page.screenshot({ path: path.join(h.repoRoot, 'docs', 'screenshot-html-ranks.png'), fullPage: true });
await browser.close();
fs.rmSync(job, { recursive: true, force: true });
fs.rmSync(out, { recursive: true, force: true });
