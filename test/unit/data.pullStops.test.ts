/**
 * Where a pull stops (`pullRows.ts`), against a service and a destination faked in memory, and
 * what it finds beside a file from an earlier pull (`pullJournal.ts`):
 * - cancelled between batches: it stops before asking for more, and a batch on disk is still
 *   marked when the cancel comes between its write and its mark (never left written and unmarked);
 * - rows that keep arriving: it stops after as many batches as the task had rows at the start and
 *   says more are coming;
 * - a damaged or oversized record is refused before anything is asked or written.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { ApiError } from '../../src/api/errors/errors';
import type { CallOptions } from '../../src/api/http/mainCaller';
import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { FilePullSink } from '../../src/data/pull/fileSink';
import {
  batchHash,
  bindingOf,
  DamagedJournalError,
  journalPathFor,
  readFileJournal,
  realFilePath,
} from '../../src/data/pull/pullJournal';
import { PullFailure, pullNewRows, type PullSink, type PullSource } from '../../src/data/pull/pullRows';

/** A service whose not-exported rows are `rows` (more appended by `arrive`); it ignores signals, so the pull's own checks are what stop it. */
class FakeService implements PullSource {
  exported = 0;
  handedOut = 0;
  readonly calls: string[] = [];
  readonly markSignals: (AbortSignal | undefined)[] = [];
  constructor(
    readonly rows: DataRow[],
    private readonly arrive?: () => DataRow[],
  ) {}
  getNotExportedData(_taskId: string, size: number) {
    this.calls.push('fetch');
    this.rows.push(...(this.arrive?.() ?? []));
    const data = this.rows.slice(this.exported, this.exported + size);
    this.handedOut = data.length;
    return Promise.resolve({
      data: { total: this.rows.length - this.exported, current: data.length, data },
      requestId: undefined,
    });
  }
  markExported(_taskId: string, o?: CallOptions) {
    this.calls.push('mark');
    this.markSignals.push(o?.signal);
    if (o?.signal?.aborted) return Promise.reject(new ApiError({ kind: 'cancelled', message: 'cancelled' }));
    this.exported += this.handedOut;
    return Promise.resolve({ data: null, requestId: `mark-${this.calls.length}` });
  }
}

class MemorySink implements PullSink {
  readonly written: DataRow[] = [];
  pending = undefined;
  write(rows: readonly DataRow[]) {
    this.written.push(...rows);
    return Promise.resolve();
  }
  resume(): Promise<number> {
    throw new Error('nothing is pending');
  }
  marked() {
    return Promise.resolve();
  }
  release() {
    return Promise.resolve(0);
  }
  close() {}
}

const rowsOf = (n: number, from = 0): DataRow[] => Array.from({ length: n }, (_, i) => ({ n: from + i }));

/** A pull of 50 rows in batches of 10 that cancels itself at `hook` of batch 2. */
function cancelledAt(hook: 'afterMark' | 'afterWrite') {
  const service = new FakeService(rowsOf(50));
  const sink = new MemorySink();
  const cancel = new AbortController();
  const cancelAtTwo = (batch: number): void => {
    if (batch === 2) cancel.abort();
  };
  const pulled = pullNewRows(service, { taskId: 't', sink, batchSize: 10, signal: cancel.signal, [hook]: cancelAtTwo });
  return { service, sink, pulled };
}

describe('data: where a pull stops', () => {
  it('cancelled between batches: no more rows are asked for, and the rows written are the rows marked', async () => {
    const { service, sink, pulled } = cancelledAt('afterMark');
    await assert.rejects(
      pulled,
      (e: unknown) =>
        e instanceof PullFailure &&
        e.stage === 'fetch' &&
        e.rowsDone === 20 &&
        e.error instanceof ApiError &&
        e.error.kind === 'cancelled',
    );
    assert.deepEqual(service.calls, ['fetch', 'mark', 'fetch', 'mark'], 'nothing asked after the cancel');
    assert.equal(sink.written.length, 20);
    assert.equal(service.exported, 20, 'every row written is marked');
  });

  it('cancelled between a write and its mark: the batch on disk is still marked, then the pull stops', async () => {
    const { service, sink, pulled } = cancelledAt('afterWrite');
    await assert.rejects(pulled, (e: unknown) => e instanceof PullFailure && e.stage === 'fetch' && e.rowsDone === 20);
    assert.deepEqual(service.calls, ['fetch', 'mark', 'fetch', 'mark']);
    assert.equal(service.exported, sink.written.length, 'no batch left written and unmarked');
    assert.ok(
      service.markSignals.every((s) => s === undefined),
      'a mark is never cancellable',
    );
  });

  it('rows that keep arriving: it stops after as many batches as there were rows at the start, and says more are coming', async () => {
    let next = 25;
    // Every request finds 10 new rows (a run still going), for 20 requests (so a pull that did not stop would end, and fail here).
    const service = new FakeService(rowsOf(25), () => {
      if (next >= 225) return [];
      const more = rowsOf(10, next);
      next += 10;
      return more;
    });
    const sink = new MemorySink();
    const progress: number[] = [];
    const result = await pullNewRows(service, {
      taskId: 't',
      sink,
      batchSize: 10,
      onProgress: (p) => progress.push(p.total),
    });
    // 35 rows not exported at the first request: 1 + ceil((35 - 10) / 10) = 4 batches.
    assert.deepEqual([result.batches, result.rows, result.more], [4, 40, true]);
    assert.equal(
      service.rows.length - service.exported,
      service.rows.length - 40,
      'what was written was marked; the rest waits for the next pull',
    );
    assert.equal(progress[0], 35, 'the total is what there was at the start');
  });

  it('the last batch taken: it stops without saying more are coming', async () => {
    const result = await pullNewRows(new FakeService(rowsOf(25)), {
      taskId: 't',
      sink: new MemorySink(),
      batchSize: 10,
    });
    assert.deepEqual([result.batches, result.rows, result.more], [3, 25, false]);
  });
});

describe('data: a damaged or oversized pull record', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-record-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const records = (): string => path.join(dir, 'records');
  /** A record that binds to `file` as it is now (so only its damage can refuse it). */
  const recordFor = async (file: string) => ({
    version: 2,
    file: await realFilePath(file),
    taskId: 't',
    taskName: 'Prices',
    offset: 0,
    rows: 2,
    hash: batchHash(rowsOf(2)),
    ...(await bindingOf(file, 0)),
  });
  const cases: [string, (record: object) => string][] = [
    ['not JSON', () => '{"version": 2, "taskId": '],
    ['JSON of another shape', (record) => JSON.stringify({ ...record, rows: 'two' })],
    ['a valid record padded past 8 KB', (record) => JSON.stringify(record) + ' '.repeat(9000)],
    ['binary bytes', () => '\u0000\u0001\u0002'],
  ];
  for (const [what, textOf] of cases) {
    it(`${what}: refused, naming the record, and the file is left as it is`, async () => {
      const file = path.join(dir, 'rows.csv');
      writeFileSync(file, 'n\r\n1\r\n');
      const at = await journalPathFor(records(), file);
      mkdirSync(records(), { recursive: true });
      const text = textOf(await recordFor(file));
      writeFileSync(at, text);
      await assert.rejects(
        readFileJournal(records(), file),
        (e: unknown) => e instanceof DamagedJournalError && e.journal === at,
      );
      await assert.rejects(
        FilePullSink.open(file, 'csv', { taskId: 't', taskName: 'Prices', root: dir, records: records() }),
        DamagedJournalError,
      );
      assert.equal(readFileSync(file, 'utf8'), 'n\r\n1\r\n');
      assert.equal(readFileSync(at, 'utf8'), text, 'the record is kept for the user to look at');
    });
  }

  it('a valid record is read (control for the cases above)', async () => {
    const file = path.join(dir, 'rows.csv');
    writeFileSync(file, 'n\r\n1\r\n');
    const record = await recordFor(file);
    mkdirSync(records(), { recursive: true });
    writeFileSync(await journalPathFor(records(), file), JSON.stringify(record));
    assert.deepEqual(await readFileJournal(records(), file), record);
  });
});
