// SPDX-License-Identifier: MIT
// The small profiles the page tests are written against.
import { makeDb } from './helpers.mjs';

export const MAIN = 'main.py(1): main';
export const FORWARD = 'torch/nn/module.py(10): forward';
export const MATMUL = 'aten::matmul';
export const ACLNN = 'aclnnMatmul';
export const ADD = 'aten::add';
export const LOOP = 'worker.py(5): loop';

/* Thread 100/1 (1000 ns): main > forward ×2 (700 ns) > matmul (300 ns) >
 * aclnnMatmul (200 ns), and forward > add (50 ns). Thread 100/2 (300 ns):
 * loop > add (100 ns). */
export function knownDb() {
  return makeDb([MAIN, FORWARD, MATMUL, ACLNN, ADD, LOOP], [
    [100, 1, 1, 0, 1000],
    [100, 1, 2, 100, 600],
    [100, 1, 3, 150, 450],
    [100, 1, 4, 200, 400],
    [100, 1, 2, 700, 900],
    [100, 1, 5, 710, 760],
    [100, 2, 6, 0, 300],
    [100, 2, 5, 10, 110],
  ]);
}

export const SCRIPT_NAME = '</script><script>window.__pwned = 1; alert(1)</script>';
export const IMG_NAME = '<img src=x onerror="window.__pwned = 2">';
export const AMP_NAME = '&amp; "quoted" \'single\' <!-- -->';
export const REPAIRED_NAME = 'a\uFFFDb';

export function hostileDb() {
  return makeDb([SCRIPT_NAME, IMG_NAME, AMP_NAME, { sql: "CAST(X'61FF62' AS TEXT)" }], [
    [7, 7, 1, 0, 1000],
    [7, 7, 2, 0, 400],
    [7, 7, 3, 500, 900],
    [7, 7, 4, 500, 700],
  ]);
}

/* Only a ProfilerStep# marker: nothing usable. */
export function emptyDb() {
  return makeDb(['ProfilerStep#1'], [[1, 1, 1, 0, 100]]);
}

/* Three steps of unequal length, the last one slow: 1 [0, 100),
 * 2 [100, 250), 3 [250, 1000) as ProfilerStep# rows; train began before
 * every step but the first, span crosses steps 1 and 2, fwd crosses from
 * 2 into 3 with a child in each, 100/2 runs in step 1 only (the tree of
 * tests/core/test-steps.c). */
export const TRAIN = 'train.py(1): train';
export function stepsDb() {
  return makeDb([TRAIN, 'span', 'fwd', 'c1', 'c2', 'late', 'other',
                 'ProfilerStep#1', 'ProfilerStep#2', 'ProfilerStep#3'], [
    [100, 1, 1, 0, 1000],
    [100, 1, 2, 50, 150],
    [100, 1, 3, 200, 300],
    [100, 1, 4, 210, 240],
    [100, 1, 5, 260, 290],
    [100, 1, 6, 400, 500],
    [100, 2, 7, 0, 50],
    [100, 1, 8, 0, 100],
    [100, 1, 9, 100, 250],
    [100, 1, 10, 250, 1000],
  ]);
}
