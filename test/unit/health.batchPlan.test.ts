import * as assert from 'node:assert/strict';
import { FILL, planBatches } from '../../src/health/batchPlan';

const ids = (n: number, prefix = 't'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
const pagesOf = (batches: string[][], estimate: (id: string) => number): number =>
  batches.reduce((n, b) => n + Math.max(1, Math.ceil(b.reduce((r, id) => r + estimate(id), 0) / 100)), 0);

describe('health: batches cut so their pages come back full', () => {
  it('keeps 100 ids a batch when each task answers one record or fewer', () => {
    const all = ids(1000);
    const batches = planBatches(all, () => 0.9);
    assert.deepEqual(batches.map((b) => b.length), Array(10).fill(100));
    assert.deepEqual(batches.flat(), all, 'every id once, in order');
  });

  it('cuts smaller batches when tasks answer a record per method (1.26 a task): one page each instead of two', () => {
    const all = ids(1000);
    const estimate = (id: string): number => (Number(id.slice(1)) % 4 === 0 ? 2 : 1); // a quarter run both ways
    const batches = planBatches(all, estimate);
    assert.deepEqual(batches.flat(), all);
    for (const b of batches) assert.ok(b.reduce((r, id) => r + estimate(id), 0) <= 100 * FILL, 'each batch fits one page with room');
    assert.ok(pagesOf(batches, estimate) <= 14, `${pagesOf(batches, estimate)} pages`);
    assert.equal(pagesOf(ids(10).map((_, i) => all.slice(i * 100, i * 100 + 100)), estimate), 20, 'against 20 with 100 ids a batch');
  });

  it('packs two pages a batch when every task answers two records', () => {
    const batches = planBatches(ids(1000), () => 2);
    assert.ok(batches.every((b) => b.length <= 100 && b.length * 2 <= 200 * FILL));
    assert.ok(pagesOf(batches, () => 2) <= 22, `${pagesOf(batches, () => 2)} pages`);
  });

  it('never puts more than 100 ids in a batch, and takes at least one id however large its estimate', () => {
    assert.deepEqual(planBatches(ids(250), () => 0).map((b) => b.length), [100, 100, 50]);
    assert.deepEqual(planBatches(ids(3), () => 500).map((b) => b.length), [1, 1, 1]);
    assert.deepEqual(planBatches([], () => 1), []);
  });
});
