/**
 * A marked batch's record is dropped while the next batch is asked for (`pullRows.ts`): the request
 * does not wait for the drop, but nothing is written, released or returned before the drop ends
 * (a record dropped after the next write would be that batch's, and the pull would lose its
 * exactly-once record).
 */
import * as assert from 'node:assert/strict';

import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { pullNewRows, type PullSink, type PullSource } from '../../src/data/pull/pullRows';

const rowsOf = (n: number): DataRow[] => Array.from({ length: n }, (_, i) => ({ n: i }));

/** Service and sink in one log; the sink's drop of a record takes `dropMs`. */
function scene(rows: DataRow[], dropMs: number): { log: string[]; source: PullSource; sink: PullSink } {
  const log: string[] = [];
  let exported = 0;
  let handedOut = 0;
  const source: PullSource = {
    getNotExportedData(_taskId, size) {
      log.push('fetch');
      const data = rows.slice(exported, exported + size);
      handedOut = data.length;
      return Promise.resolve({
        data: { total: rows.length - exported, current: data.length, data },
        requestId: undefined,
      });
    },
    markExported() {
      log.push('mark');
      exported += handedOut;
      return Promise.resolve({ data: null, requestId: undefined });
    },
  };
  const sink: PullSink = {
    pending: undefined,
    write(batch) {
      log.push(`write ${batch.length}`);
      return Promise.resolve();
    },
    resume: () => Promise.reject(new Error('nothing is pending')),
    marked() {
      log.push('drop');
      return new Promise((resolve) =>
        setTimeout(() => {
          log.push('dropped');
          resolve();
        }, dropMs),
      );
    },
    release: () => Promise.resolve(0),
    close() {},
  };
  return { log, source, sink };
}

describe('data: a marked batch’s record is dropped while the next batch is asked for', () => {
  it('asks for the next batch at once, writes it only after the drop, and returns only after the last drop', async () => {
    const { log, source, sink } = scene(rowsOf(25), 15);
    const result = await pullNewRows(source, { taskId: 't', sink, batchSize: 10 });
    log.push('returned');
    assert.equal(result.rows, 25);
    assert.deepEqual(log, [
      'fetch',
      'write 10',
      'mark',
      'drop',
      'fetch', // not waiting for the drop
      'dropped',
      'write 10',
      'mark',
      'drop',
      'fetch',
      'dropped',
      'write 5',
      'mark',
      'drop',
      'dropped',
      'returned',
    ]);
  });

  it('a drop that fails is a record left behind (the next pull finds the batch marked): the pull goes on', async () => {
    const { log, source, sink } = scene(rowsOf(20), 1);
    sink.marked = () => {
      log.push('drop');
      return Promise.reject(new Error('disk gone'));
    };
    const result = await pullNewRows(source, { taskId: 't', sink, batchSize: 10 });
    assert.equal(result.rows, 20);
    assert.deepEqual(log, ['fetch', 'write 10', 'mark', 'drop', 'fetch', 'write 10', 'mark', 'drop']);
  });
});
