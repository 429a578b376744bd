#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Benchmark of the exported HTML page against speedscope and d3-flame-graph
// (both from node_modules, run from disk, no network) on one large profile.
//
//   node tools/bench-html.mjs [--build DIR] [--db FILE] [--rows N] [--runs N]
//
// Without --db it writes a synthetic profile with DIR/tools/afg-gen-db
// (default 1,000,000 rows). Figures, per viewer:
//   first paint  performance.now() (ms since navigation) once the graph is
//                drawn: ours at the end of its first draw; speedscope and
//                d3-flame-graph when their canvas/SVG is populated, + 1 frame.
//   hover, search  main-thread script time an event costs: the synchronous
//                handler plus every requestAnimationFrame callback it
//                schedules (the browser's raster/composite is not included).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { decodeNames, decodeVarints } from '../tests/html/helpers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const { chromium } = require('playwright-core');

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}

const buildDir = path.resolve(option('--build', path.join(root, 'build-html')));
const rows = Number(option('--rows', '1000000'));
const runs = Number(option('--runs', '3'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'afg-bench-'));
const bin = path.join(buildDir, 'src', 'ascend-flamegraph');

function makeDb() {
  const given = option('--db', null);
  if (given)
    return path.resolve(given);
  const gen = path.join(buildDir, 'tools', 'afg-gen-db');
  if (!fs.existsSync(gen))
    throw new Error(`${gen} not found: build it, or pass --db FILE`);
  const db = path.join(work, 'ascend_pytorch_profiler_bench.db');
  execFileSync(gen, [db, String(rows)], { stdio: 'inherit' });
  return db;
}

function exportAll(db) {
  for (const f of ['html', 'json', 'folded'])
    execFileSync(bin, ['--export', '-q', '-f', f, '-o', work, db]);
  return {
    html: path.join(work, 'flamegraph.html'),
    json: path.join(work, 'flamegraph.json'),
    folded: path.join(work, 'flamegraph.folded'),
  };
}

/* d3-flame-graph wants {name, value, children}; value is the total. */
function d3Page(jsonFile) {
  const v1 = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  const convert = (n) => ({ name: n.name, value: n.total_ns, children: n.children.map(convert) });
  const tree = {
    name: 'all', value: v1.threads.reduce((s, t) => s + t.total_ns, 0),
    children: v1.threads.map((t) => ({ name: t.label, value: t.total_ns, children: t.children.map(convert) })),
  };
  const read = (p) => fs.readFileSync(path.join(root, 'node_modules', p), 'utf8');
  const file = path.join(work, 'd3-flamegraph.html');
  const data = JSON.stringify(tree).replace(/</g, '\\u003c');
  fs.writeFileSync(file, `<!DOCTYPE html><meta charset="utf-8"><style>${read('d3-flame-graph/dist/d3-flamegraph.css')}</style>
<div id="chart"></div><script type="application/json" id="data">${data}</script>
<script>${read('d3/dist/d3.min.js')}</script><script>${read('d3-flame-graph/dist/d3-flamegraph.umd.min.js')}</script>
<script>
const chart = (flamegraph.default || flamegraph.flamegraph)().width(1200);
d3.select('#chart').datum(JSON.parse(document.getElementById('data').textContent)).call(chart);
window.__chart = chart;
requestAnimationFrame(() => { window.__painted = performance.now(); });
</script>`);
  return file;
}

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--allow-file-access-from-files'];

/* Counts script time in rAF callbacks, so that viewers that redraw on the
 * next frame are measured like those that draw synchronously. */
const RAF_METER = `(() => {
  const raf = window.requestAnimationFrame.bind(window);
  window.__afgWork = 0;
  window.requestAnimationFrame = (cb) => raf((t) => {
    const s = performance.now();
    try { cb(t); } finally { window.__afgWork += performance.now() - s; }
  });
})();`;

async function measure(page, fire) {
  return page.evaluate(async (src) => {
    const act = new Function('return (' + src + ')')();
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await frames();
    window.__afgWork = 0;
    const t0 = performance.now();
    act();
    const sync = performance.now() - t0;
    await frames();
    return sync + window.__afgWork;
  }, fire.toString());
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p95: q(0.95), max: s[s.length - 1] };
}

const fmt = (x) => (x === undefined || x === null || Number.isNaN(x) ? 'n/a' : x.toFixed(1));

async function newPage(context) {
  const page = await context.newPage();
  await page.addInitScript(RAF_METER);
  const requests = [];
  page.on('pageerror', (e) => console.error(`page error: ${e}`));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
  page.requests = requests;
  return page;
}

async function hoverSeries(page, points, target) {
  const out = [];
  for (const [x, y] of points) {
    out.push(await measure(page, `() => {
      const el = ${target};
      const r = el.getBoundingClientRect();
      el.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: r.left + ${x}, clientY: r.top + ${y} }));
      el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, clientX: r.left + ${x}, clientY: r.top + ${y} }));
    }`));
  }
  return stats(out);
}

function grid(width, height, n) {
  const pts = [];
  for (let i = 0; i < n; i++)
    pts.push([Math.round(((i * 37) % 97) / 97 * width), Math.round(((i * 53) % 89) / 89 * height)]);
  return pts;
}

const QUERIES = ['a', 'at', 'ate', 'aten', 'aten:', 'aten::', 'aten::m', 'aten::me', 'fn_1', 'fn_14'];

async function benchOurs(context, file) {
  const paints = [];
  let page;
  for (let i = 0; i < runs; i++) {
    page?.close();
    page = await newPage(context);
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => window.flamegraph?.firstDrawMs);
    paints.push(await page.evaluate(() => window.flamegraph.firstDrawMs));
  }
  const hover = await hoverSeries(page, grid(1180, 680, 200), "document.getElementById('flame')");
  const search = [];
  for (const q of QUERIES)
    search.push(await measure(page, `() => { const s = document.getElementById('search'); s.value = ${JSON.stringify(q)}; s.dispatchEvent(new Event('input', { bubbles: true })); }`));
  const count = await page.textContent('#match-count');
  /* Merging the top function and popping it again (Esc), to the redraw. */
  const top = await page.evaluate(() => window.flamegraph.functions()[0].name);
  const apply = [], pop = [];
  await measure(page, `() => { const s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input', { bubbles: true })); }`);
  for (let i = 0; i < 5; i++) {
    apply.push(await measure(page, `() => window.flamegraph.transform('merge-function', ${JSON.stringify(top)})`));
    pop.push(await measure(page, `() => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))`));
  }
  const tr = `transform ${fmt(stats(apply).median)} ms, pop ${fmt(stats(pop).median)} ms (medians)`;
  return { paint: stats(paints), hover, search: stats(search), note: `"aten" → ${count}; ${tr}`, requests: page.requests };
}

async function benchSpeedscope(context, folded) {
  const index = path.join(root, 'node_modules', 'speedscope', 'dist', 'release', 'index.html');
  const url = pathToFileURL(index).href + '#profileURL=' + encodeURIComponent(pathToFileURL(folded).href) + '&title=bench';
  const paints = [];
  let page;
  for (let i = 0; i < runs; i++) {
    page?.close();
    page = await newPage(context);
    await page.goto(url);
    await page.waitForFunction(() => [...document.querySelectorAll('canvas')].some((c) => c.width > 300)
      && !document.body.textContent.includes('Loading'), null, { timeout: 120000, polling: 50 });
    paints.push(await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now())))));
  }
  await page.keyboard.press('2');
  const canvas = `[...document.querySelectorAll('canvas')].sort((a, b) => b.clientHeight * b.clientWidth - a.clientHeight * a.clientWidth)[0]`;
  const hover = await hoverSeries(page, grid(1180, 600, 200), canvas);
  let search = null;
  await page.keyboard.press('Control+f');
  if (await page.locator('input:not([type=file])').count() > 0) {
    const s = [];
    for (const q of QUERIES)
      s.push(await measure(page, `() => { const i = document.querySelector('input:not([type=file])'); const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set; set.call(i, ${JSON.stringify(q)}); i.dispatchEvent(new Event('input', { bubbles: true })); }`));
    search = stats(s);
  }
  return { paint: stats(paints), hover, search, note: 'folded stacks via #profileURL, Left Heavy', requests: page.requests };
}

async function benchD3(context, file) {
  const paints = [];
  let page;
  for (let i = 0; i < runs; i++) {
    page?.close();
    page = await newPage(context);
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => window.__painted, null, { timeout: 300000 });
    paints.push(await page.evaluate(() => window.__painted));
  }
  const nodes = await page.evaluate(() => document.querySelectorAll('#chart g').length);
  const hover = [];
  for (let i = 0; i < 100; i++)
    hover.push(await measure(page, `() => { const gs = document.querySelectorAll('#chart g.frame, #chart g'); const g = gs[(${i} * 7919) % gs.length]; g.dispatchEvent(new MouseEvent('mouseover', { bubbles: true })); }`));
  const search = [];
  for (const q of QUERIES)
    search.push(await measure(page, `() => window.__chart.search(${JSON.stringify(q)})`));
  return { paint: stats(paints), hover: stats(hover), search: stats(search), note: `${nodes} SVG <g> nodes`, requests: page.requests };
}

function du(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory())
    return st.size;
  return fs.readdirSync(p).reduce((n, f) => n + du(path.join(p, f)), 0);
}

const MB = (n) => (n / 1e6).toFixed(2) + ' MB';

async function main() {
  const db = makeDb();
  const files = exportAll(db);
  const data = JSON.parse(fs.readFileSync(files.html, 'utf8').match(/id="afg-data">([^]*?)<\/script>/)[1]);
  const frames = decodeVarints(data.nodes).length / 4;
  const nameBytes = decodeNames(data).reduce((n, s) => n + Buffer.byteLength(s), 0);
  const d3File = d3Page(files.json);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'afg-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, args: ARGS, viewport: { width: 1200, height: 800 },
  });
  const results = [];
  try {
    results.push(['ascend-flamegraph', await benchOurs(context, files.html),
                  `${MB(du(files.html))} (one file)`]);
    results.push(['speedscope', await benchSpeedscope(context, files.folded),
                  `${MB(du(files.folded))} folded + ${MB(du(path.join(root, 'node_modules/speedscope/dist/release')))} app`]);
    results.push(['d3-flame-graph', await benchD3(context, d3File), `${MB(du(d3File))} (one file, inlined)`]);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  console.log(`\nprofile: ${path.basename(db)}, ${frames.toLocaleString('en-US')} frames, ` +
              `${data.threads.length} threads; names ${MB(nameBytes)}; page budget ` +
              `${MB(nameBytes + 40 * (frames + data.threads.length))}, page ${MB(du(files.html))}`);
  console.log(`times in ms (median / p95 / max); ${runs} loads each\n`);
  const row = (cols) => console.log(cols.map((c, i) => String(c).padEnd([18, 26, 24, 26, 40][i] || 0)).join(''));
  row(['viewer', 'first paint', 'hover redraw', 'search keystroke', 'size']);
  for (const [name, r, size] of results) {
    const s3 = (s) => (s ? `${fmt(s.median)} / ${fmt(s.p95)} / ${fmt(s.max)}` : 'n/a');
    row([name, s3(r.paint), s3(r.hover), s3(r.search), size]);
  }
  for (const [name, r] of results)
    console.log(`  ${name}: ${r.note}; network requests: ${r.requests.length}`);
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
