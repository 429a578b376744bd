// SPDX-License-Identifier: MIT
// Shared pieces of the HTML page tests: exporting pages with the built
// binary, building small profiler DBs with the sqlite3 CLI, and a headless
// Debian Chromium driven by playwright-core.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const CHROMIUM = process.env.AFG_CHROMIUM || '/usr/bin/chromium';

export function loadPlaywright() {
  const require = createRequire(path.join(repoRoot, 'package.json'));
  try {
    return require('playwright-core');
  } catch (err) {
    throw new Error(`playwright-core is not installed in ${repoRoot}/node_modules: run "npm ci" ` +
                    `in ${repoRoot} first (${err.code || err.message})`);
  }
}

export function afgBin() {
  const bin = process.env.AFG_BIN || path.join(repoRoot, 'build-html', 'src', 'ascend-flamegraph');
  if (!fs.existsSync(bin))
    throw new Error(`ascend-flamegraph not found at ${bin}: set AFG_BIN or build first`);
  return bin;
}

export function samplesDir() {
  return process.env.AFG_SAMPLES || path.resolve(repoRoot, 'tests', 'data');
}

/* Every directory a test makes goes when its process exits, pass or
 * fail; AFG_KEEP_TMP=1 keeps them for a look after a failure. */
const madeDirs = [];
process.on('exit', () => {
  if (process.env.AFG_KEEP_TMP)
    return;
  for (const dir of madeDirs)
    fs.rmSync(dir, { recursive: true, force: true });
});

export function tmpDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

/* Exports @db as HTML into a fresh directory; returns the page's path. */
export function exportHtml(db, extraArgs = []) {
  const dir = tmpDir('afg-html-');
  execFileSync(afgBin(), ['--export', '-q', '-o', dir, ...extraArgs, db], { stdio: 'pipe' });
  return path.join(dir, 'flamegraph.html');
}

const SCHEMA = `
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER,
  name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER,
  inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO ENUM_API_TYPE VALUES (50001,'op'),(50002,'queue'),(50003,'trace'),(50004,'mstx');
`;

const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;

/* Builds a profiler DB. @names: array of strings, or {sql} for a raw SQL
 * value expression (e.g. invalid UTF-8); ids start at 1. @events:
 * [pid, tid, nameId, startNs, endNs]. */
export function makeDb(names, events) {
  const file = path.join(tmpDir('afg-db-'), 'ascend_pytorch_profiler_test.db');
  let sql = SCHEMA + 'BEGIN;\n';
  names.forEach((n, i) => {
    const value = typeof n === 'string' ? sqlString(n) : n.sql;
    sql += `INSERT INTO STRING_IDS VALUES (${i + 1}, ${value});\n`;
  });
  for (const [pid, tid, name, start, end] of events) {
    const gtid = (BigInt(pid) << 32n) | BigInt(tid);
    sql += `INSERT INTO PYTORCH_API VALUES ('${start}','${end}',${gtid},0,${name},0,0,0,0,0,50001);\n`;
  }
  sql += 'COMMIT;\n';
  execFileSync('sqlite3', [file], { input: sql });
  return file;
}

export const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync'];

export async function launchBrowser(viewport = { width: 1200, height: 700 }) {
  const { chromium } = loadPlaywright();
  const profile = tmpDir('afg-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS, viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/* Opens @file in a new page; collects script errors, console errors,
 * dialogs and every request that is not the page itself. */
export async function openPage(context, file, hash = '') {
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  const log = { errors: [], requests: [], dialogs: [], consoleErrors: [] };
  page.on('pageerror', (e) => log.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') log.consoleErrors.push(m.text()); });
  page.on('dialog', (d) => { log.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  page.on('request', (r) => { if (r.url() !== url && r.url() !== url + hash) log.requests.push(r.url()); });
  await page.goto(url + hash);
  await page.waitForFunction(() => window.flamegraph !== undefined);
  return { page, log, url };
}

/* Opens the Functions panel. The <details> element's toggle event, which
 * fills the table, comes in a task of its own after the click: wait for
 * the filled table rather than read it at once. */
export async function openFunctions(page) {
  await page.click('#functions-title');
  await page.waitForFunction(() => document.querySelector('#functions-box').open
    && document.querySelector('#functions-count').textContent !== '');
}

/* Page coordinates of the centre of the first on-screen frame named @name. */
export async function frameCentre(page, name, index = 0) {
  const rects = await page.evaluate((n) => window.flamegraph.frames(n), name);
  if (rects.length <= index)
    throw new Error(`no on-screen frame named ${JSON.stringify(name)}`);
  const box = await page.locator('#flame').boundingBox();
  const r = rects[index];
  return { x: box.x + r.x + r.width / 2, y: box.y + r.y + r.height / 2, rect: r, box };
}

/* The page's front-coded names (see data/html/README.md), decoded. */
export function decodeNames(data) {
  const shared = decodeVarints(data.name_prefix);
  let prev = '';
  return data.names.map((suffix, i) => (prev = prev.slice(0, shared[i]) + suffix));
}

/* The page's base-64 varints (see data/html/README.md), decoded. */
export function decodeVarints(text) {
  const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const values = [];
  let v = 0, scale = 1;
  for (const ch of text) {
    const d = digits.indexOf(ch);
    if (d < 0)
      throw new Error(`not a varint digit: ${ch}`);
    v += (d & 31) * scale;
    if (d & 32) {
      scale *= 32;
    } else {
      values.push(v);
      v = 0;
      scale = 1;
    }
  }
  return values;
}

/* Exports @db as JSON (with @extraArgs) and parses it. */
export function exportJson(db, extraArgs = []) {
  const dir = tmpDir('afg-json-');
  execFileSync(afgBin(), ['--export', '-q', '-f', 'json', '-o', dir, ...extraArgs, db], { stdio: 'pipe' });
  return JSON.parse(fs.readFileSync(path.join(dir, 'flamegraph.json'), 'utf8'));
}

/* The JSON tree in dump('npu')'s line format, sorted by code unit. */
export function npuJsonLines(json) {
  const lines = [];
  const walk = (prefix, node) => {
    const p = `${prefix};${node.name}`;
    lines.push(`${p}\t${node.calls}\t${node.total_ns}\t${node.self_ns}\t${node.npu_total_ns}\t${node.npu_self_ns}\t${node.npu_tasks}`);
    node.children.forEach((c) => walk(p, c));
  };
  for (const t of json.threads) {
    const calls = t.children.reduce((n, c) => n + c.calls, 0);
    lines.push(`${t.label}\t${calls}\t${t.total_ns}\t0\t${t.npu_total_ns}\t0\t0`);
    t.children.forEach((c) => walk(t.label, c));
  }
  return lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/* Writes the diff of @a and @b as @format; returns the file's path. */
export function exportDiff(a, b, format, extraArgs = []) {
  const dir = tmpDir('afg-diff-');
  execFileSync(afgBin(), ['--diff', a, b, '--export', '-q', '-f', format, '-o', dir, ...extraArgs], { stdio: 'pipe' });
  return path.join(dir, `flamegraph-diff.${format}`);
}

/* A diff JSON file's tree as the diff page's dump() lines, sorted by code
 * unit; integers past 2^53 kept exact. */
export function diffJsonLines(file) {
  const text = fs.readFileSync(file, 'utf8').replace(/:(\d{16,})([,}])/g, ':"$1"$2');
  const lines = [];
  const walk = (nodes, prefix) => {
    for (const n of nodes) {
      const p = prefix === null ? n.name : `${prefix};${n.name}`;
      lines.push([p, n.a.calls, n.a.total_ns, n.a.self_ns, n.b.calls, n.b.total_ns, n.b.self_ns].join('\t'));
      walk(n.children, p);
    }
  };
  walk(JSON.parse(text).children, null);
  return lines.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}
