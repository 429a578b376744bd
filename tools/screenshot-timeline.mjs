// SPDX-License-Identifier: MIT
// Renews docs/screenshot-html-timeline.png: the exported page of a
// generated 8-step profile (afg-gen-db --steps 8) with --npu-idle, the
// step strip stacked by what the NPU did, the tooltip of the slowest
// step, and the "While NPU idle" tree shown.
// Usage: node tools/screenshot-timeline.mjs [BUILD_DIR]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as h from '../tests/html/helpers.mjs';

const build = path.resolve(process.argv[2] || '_build');
process.env.AFG_BIN ||= path.join(build, 'src', 'ascend-flamegraph');
const db = path.join(h.tmpDir('afg-shot-'), 'ascend_pytorch_profiler_0.db');
execFileSync(path.join(build, 'tools', 'afg-gen-db'), ['--steps', '8', '--seed', '1', db, '20000'], { stdio: 'pipe' });
const browser = await h.launchBrowser({ width: 1400, height: 800 });
const { page } = await h.openPage(browser.context, h.exportHtml(db, ['--npu-idle']), '#idle=1');
const bars = await page.evaluate(() => window.flamegraph.steps());
const slowest = bars.reduce((a, b) => (b.durationNs > a.durationNs ? b : a));
const box = await page.locator('#steps').boundingBox();
await page.mouse.move(box.x + slowest.x + slowest.width / 2, box.y + box.height - 2);
await page.waitForSelector('#tooltip:not([hidden])');
await page.screenshot({ path: path.join(h.repoRoot, 'docs', 'screenshot-html-timeline.png') });
await browser.close();
