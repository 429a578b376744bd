// SPDX-License-Identifier: MIT
// The page's number texts (data/html/format.js) against the table the
// window's test reads too (tests/data/format-cases.tsv): one set of rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const source = fs.readFileSync(path.join(h.repoRoot, 'data', 'html', 'format.js'), 'utf8');
// eslint-disable-next-line no-new-func
const F = new Function(`${source}\nreturn AFG_FORMAT;`)();

test('format.js prints the window\'s texts', () => {
  const lines = fs.readFileSync(path.join(h.samplesDir(), 'format-cases.tsv'), 'utf8').split('\n');
  let checked = 0;
  for (const line of lines) {
    if (line === '' || line.startsWith('#'))
      continue;
    const f = line.split('\t');
    const want = f[f.length - 1];
    const got = f[0] === 'duration' ? F.time(Number(f[1]))
      : f[0] === 'percent' ? F.pct(Number(f[1]), Number(f[2]))
        : f[0] === 'share' ? F.share(Number(f[1]))
          : f[0] === 'count' ? F.count(Number(f[1])) : null;
    assert.equal(got, want, line);
    checked++;
  }
  assert.ok(checked >= 30);
});
