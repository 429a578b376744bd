// SPDX-License-Identifier: MIT
// Property test of the exported page: 1,000 random hostile
// names (control characters, quotes, </script>, <!--, invalid UTF-8, RTL
// marks, 10 KiB names) through the export. In Chromium the data embedded
// in the page decodes to exactly the JSON export, only the page's own
// script runs and no request leaves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from '../html/helpers.mjs';

const N_NAMES = 1000;
const SEED = Number(process.env.AFG_PROPERTY_SEED || 20240611);

// mulberry32: small, seeded, reproducible.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const enc = (s) => Buffer.from(s, 'utf8');
const PIECES = [
  enc('</script>'), enc('</SCRIPT >'), enc('<script>window.__pwned=1</script>'), enc('<!--'),
  enc('-->'), enc('<![CDATA['), enc(']]>'), enc('"'), enc("'"), enc('`'), enc('\\'), enc('\\u0000'),
  enc('<img src=x onerror="window.__pwned=1">'), enc('<img src="http://127.0.0.1:9/leak.png">'),
  enc('<link rel=prefetch href="http://127.0.0.1:9/">'), enc('url(http://127.0.0.1:9/)'),
  enc('javascript:alert(1)'), enc('${alert(1)}'), enc('&lt;&amp;&#x3c;'), enc('\u202e'), enc('\u200f'),
  enc('\u2066'), enc('\u2028'), enc('\u2029'), enc('\ufeff'), enc('\u0627\u0644\u0639'),
  enc('\ud83d\udd25'), enc('aten::mm'), enc('torch/nn/module.py(1): forward'), enc(' '), enc(';'),
  Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xe2, 0x82]),
];

function randomName(r, i) {
  const parts = [Buffer.from(`n${i}-`)];
  const big = i % 50 === 7;
  const target = big ? 10 * 1024 : 1 + Math.floor(r() * 60);
  let len = parts[0].length;
  while (len < target) {
    let piece;
    const pick = r();
    if (pick < 0.15)  // a control character, 0x01-0x1f or DEL
      piece = Buffer.from([r() < 0.95 ? 1 + Math.floor(r() * 31) : 0x7f]);
    else if (pick < 0.55)
      piece = PIECES[Math.floor(r() * PIECES.length)];
    else
      piece = Buffer.from(String.fromCharCode(0x20 + Math.floor(r() * 95)));
    parts.push(piece);
    len += piece.length;
  }
  return Buffer.concat(parts);
}

/* The DB: every name is a frame; names nest in runs of up to 5 so that
 * both siblings and paths carry hostile text. */
function makeDb(names, r) {
  const dir = h.tmpDir('afg-property-');
  const file = path.join(dir, 'ascend_pytorch_profiler_property.db');
  let sql = `CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, name INTEGER, type INTEGER);
BEGIN;
`;
  names.forEach((n, i) => {
    sql += `INSERT INTO STRING_IDS VALUES (${i + 1}, CAST(x'${n.toString('hex')}' AS TEXT));\n`;
  });
  let t = 1000;
  for (let i = 0; i < names.length;) {
    const depth = 1 + Math.floor(r() * 5);
    const gtid = (1n << 32n) | BigInt(1 + Math.floor(r() * 3));
    const span = 100000;
    for (let d = 0; d < depth && i < names.length; d++, i++)
      sql += `INSERT INTO PYTORCH_API VALUES ('${t + d * 10}','${t + span - d * 10 - Math.floor(r() * 5)}',` +
             `${gtid},${i + 1},50001);\n`;
    t += span + 1;
  }
  sql += 'COMMIT;\n';
  execFileSync('sqlite3', [file], { input: sql });
  return file;
}

function exportAs(db, format) {
  const dir = h.tmpDir('afg-property-out-');
  execFileSync(h.afgBin(), ['--export', '-q', '-f', format, '-o', dir, db], { stdio: 'pipe' });
  return path.join(dir, `flamegraph.${format}`);
}

/* The JSON export as the page's dump lines: path, calls, total, self. */
function jsonDump(doc) {
  const lines = [];
  const walk = (prefix, node) => {
    for (const c of node.children) {
      const p = `${prefix};${c.name}`;
      lines.push(`${p}\t${c.calls}\t${c.total_ns}\t${c.self_ns}`);
      walk(p, c);
    }
  };
  for (const t of doc.threads) {
    const calls = t.children.reduce((s, c) => s + c.calls, 0);
    lines.push(`${t.label}\t${calls}\t${t.total_ns}\t0`);
    walk(t.label, t);
  }
  return lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/* Decodes the compact page data back into JSON v1 threads. */
function decodeCompact(raw) {
  const threads = raw.threads.map((t) => ({
    global_tid: t.global_tid, pid: t.pid, tid: t.tid, label: t.label, total_ns: t.total_ns,
    children: [], n: t.children,
  }));
  const queue = [...threads];
  const nodes = h.decodeVarints(raw.nodes);
  const names = h.decodeNames(raw);
  let q = 0;
  for (let k = 0; k < nodes.length; k += 4) {
    while (queue[q].children.length === queue[q].n)
      q++;
    const node = {
      name: names[nodes[k]], category: raw.categories[raw.name_categories.charCodeAt(nodes[k]) - 48],
      calls: nodes[k + 1], total_ns: nodes[k + 2], self_ns: nodes[k + 2], children: [], n: nodes[k + 3],
    };
    queue[q].children.push(node);
    if (queue[q].self_ns !== undefined)
      queue[q].self_ns -= node.total_ns;
    queue.push(node);
  }
  const strip = (n) => {
    delete n.n;
    n.children.forEach(strip);
    return n;
  };
  return threads.map(strip);
}

let browser;
before(async () => { browser = await h.launchBrowser(); });
after(async () => { await browser?.close(); });

test(`${N_NAMES} hostile names: the page's data is the JSON export, nothing else runs or loads`, async () => {
  const r = rng(SEED);
  const names = Array.from({ length: N_NAMES }, (_, i) => randomName(r, i));
  const db = makeDb(names, r);
  const before = fs.readFileSync(db);
  // Strict decoding: invalid UTF-8 in an export would be silently repaired
  // by a lenient read.
  const strict = new TextDecoder('utf-8', { fatal: true });
  const json = JSON.parse(strict.decode(fs.readFileSync(exportAs(db, 'json'))));
  const html = exportAs(db, 'html');
  strict.decode(fs.readFileSync(html));
  assert.deepEqual(fs.readFileSync(db), before, 'the DB is untouched');
  assert.equal(json.stats.used, N_NAMES);

  const { page, log } = await h.openPage(browser.context, html);
  const embedded = await page.evaluate(() => document.getElementById('afg-data').textContent);
  const raw = JSON.parse(embedded);
  assert.deepEqual(raw.stats, json.stats);
  assert.deepEqual(raw.source, json.source);
  // The page's durations are rounded (functions.test.mjs checks them).
  const exactPart = (n) => {
    const { durations, ...rest } = n;
    return { ...rest, children: n.children.map(exactPart) };
  };
  assert.deepEqual(decodeCompact(raw), json.threads.map(exactPart));
  assert.deepEqual(await page.evaluate(() => window.flamegraph.dump()), jsonDump(json));

  // Only the page's own two script elements (data + code); no injected markup.
  assert.equal(await page.locator('script').count(), 2);
  assert.equal(await page.locator('img, link[rel=prefetch], iframe, object, embed').count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  // Names reach the DOM through the search box and tooltips as text only.
  const r2 = rng(SEED + 1);
  for (let i = 0; i < 25; i++) {
    const name = json.threads[0].children[Math.floor(r2() * json.threads[0].children.length)].name;
    await page.fill('#search', name.slice(0, 200));
  }
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(log.errors, []);
  assert.deepEqual(log.dialogs, []);
  assert.deepEqual(log.requests, []);
  await page.close();
});

/* Hostile timestamps: totals above 2^53 (where doubles stop being exact)
 * and saturated at 2^63 - 1. The page must show what the JSON says and
 * draw without a script error. */
test('nanosecond values above 2^53 decode to the JSON export', async () => {
  const dir = h.tmpDir('afg-property-');
  const db = path.join(dir, 'ascend_pytorch_profiler_huge.db');
  const rows = [
    ['0', '9007199254740993', 1, 1], ['1', '9007199254740992', 1, 2],
    ['-9223372036854775807', '-1', 2, 1], ['0', '9223372036854775807', 2, 1],
    ['1', '4611686018427387907', 2, 2], ['2', '4611686018427387906', 2, 3],
    ['100', '200', 3, 3],
  ];
  execFileSync('sqlite3', [db], { input: `CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, name INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'outer'), (2, 'inner'), (3, 'leaf');
${rows.map(([s, e, t, n]) => `INSERT INTO PYTORCH_API VALUES ('${s}', '${e}', ${t}, ${n}, 50001);`).join('\n')}
` });
  const json = JSON.parse(fs.readFileSync(exportAs(db, 'json'), 'utf8'));
  const { page, log } = await h.openPage(browser.context, exportAs(db, 'html'));
  assert.deepEqual(await page.evaluate(() => window.flamegraph.dump()), jsonDump(json));
  assert.deepEqual(log.errors, []);
  await page.close();
});
