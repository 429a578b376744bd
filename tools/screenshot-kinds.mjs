// SPDX-License-Identifier: MIT
// Renews docs/screenshot-html-kinds.png: the exported page of a sample in
// the NPU compute weight, its kernel leaves under their frames, the
// tooltip of the largest one.
// Usage: node tools/screenshot-kinds.mjs [BUILD_DIR]
import path from 'node:path';
import * as h from '../tests/html/helpers.mjs';

process.env.AFG_BIN ||= path.resolve(process.argv[2] || '_build', 'src', 'ascend-flamegraph');
const sample = path.join(h.repoRoot, 'tests', 'data', 'ascend_pytorch_profiler_level1_rank0.db');
const browser = await h.launchBrowser({ width: 1400, height: 900 });
const { page } = await h.openPage(browser.context, h.exportHtml(sample), '#weight=compute&merge=1');
const leaf = '[compute] aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList';
const c = await h.frameCentre(page, leaf);
await page.mouse.move(c.x, c.y);
await page.waitForTimeout(200);
await page.screenshot({ path: path.join(h.repoRoot, 'docs', 'screenshot-html-kinds.png') });
await browser.close();
