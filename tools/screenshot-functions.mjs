// SPDX-License-Identifier: MIT
// Renews docs/screenshot-html-functions.png: the exported page of a sample
// with the Functions panel open and aten::copy_ selected (its sandwich).
// Usage: node tools/screenshot-functions.mjs [BUILD_DIR]
import path from 'node:path';
import * as h from '../tests/html/helpers.mjs';

process.env.AFG_BIN ||= path.resolve(process.argv[2] || '_build', 'src', 'ascend-flamegraph');
const sample = path.join(h.repoRoot, 'tests', 'data', 'ascend_pytorch_profiler_level0_rank0.db');
const browser = await h.launchBrowser({ width: 1400, height: 900 });
const { page } = await h.openPage(browser.context, h.exportHtml(sample));
await page.evaluate(() => window.flamegraph.selectFunction('aten::copy_'));
await page.screenshot({ path: path.join(h.repoRoot, 'docs', 'screenshot-html-functions.png') });
await browser.close();
