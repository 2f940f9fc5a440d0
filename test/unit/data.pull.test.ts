/**
 * Pull New Rows against the real sandbox and client, exactly once (issue 29 item 1): whatever
 * stops a pull (a failure between the write and the mark, a mark whose reply was lost, the
 * service failing at any request, a crash that left part of a batch), the next pull leaves every
 * row in the destination exactly once, in order, for CSV, JSON Lines and SQLite; read back by
 * Python and compared with the sandbox row by row. Also: the second pull appends only rows that
 * arrived since, a late field, and files refused before anything is asked or written.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import type { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { AppendFile } from '../../src/data/pull/appendFile';
import { FilePullSink, OtherTaskPendingError } from '../../src/data/pull/fileSink';
import { bindingOf, journalPathFor, readFileJournal, writeFileJournal } from '../../src/data/pull/pullJournal';
import { PullFailure, type PullSource } from '../../src/data/pull/pullRows';
import type { PullFormat } from '../../src/data/pull/pullSinks';
import { PullTargets } from '../../src/data/pull/rememberedTargets';
import { UnusableFileError } from '../../src/data/pull/unusableFile';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { compareRows, expected, readBack } from '../shared/pullDestination';
import { failAfterWrite } from '../shared/pullHooks';
import { allRows, bigTask, EXTENSIONS, pullOnce, sandboxClient, TaskPool, TEST_RECORDS } from '../shared/pullScenario';
import { FakeClock } from './helpers/sandbox';

const T0 = Date.parse('2026-11-22T12:00:00Z');
const FORMATS: PullFormat[] = ['csv', 'jsonl', 'sqlite'];

interface Fresh {
  sandbox: RunningSandbox;
  client: ScrapedeckClient;
  task: { taskId: string; taskName: string };
  rows: DataRow[];
}

/** A sandbox whose big task has `rows` rows, none exported yet. */
async function fresh(rows: number, clock = new FakeClock(T0)): Promise<Fresh> {
  const sandbox = await startSandbox({ now: clock.now, rateLimit: 0, seed: 13, runSeconds: 10, bigTaskRows: rows });
  const ada = sandbox.info.accounts[0];
  assert.ok(ada);
  const client = sandboxClient(sandbox.info.baseUrl, ada.apiKey);
  const task = await bigTask(client);
  return { sandbox, client, task, rows: await allRows(client, task.taskId) };
}

async function close(f: Fresh): Promise<void> {
  await f.client.close();
  await f.sandbox.close();
}

/** The destination holds every row of the task exactly once, in order. */
function assertExactlyOnce(file: string, format: PullFormat, f: Fresh, what: string): void {
  const got = readBack(file, format, f.task.taskId);
  const c = compareRows(
    got,
    f.rows.map((r) => expected(r, format)),
  );
  assert.deepEqual(
    { missing: c.missing, twice: c.twice, wrong: c.wrong },
    { missing: 0, twice: 0, wrong: 0 },
    `${what}: ${got.length} rows read back for ${f.rows.length}`,
  );
  assert.ok(c.equal, `${what}: in order`);
}

/** Fails the k-th request (1-based); `applied`: the service carried it out, only the reply was lost. */
function failingAt(client: ScrapedeckClient, k: number, applied: boolean): PullSource {
  let n = 0;
  const lost = () =>
    new ApiError({
      kind: 'network',
      message: 'The connection dropped. It may have been carried out: check before trying again.',
      maybeApplied: true,
      requestId: `req-${k}`,
    });
  return {
    getNotExportedData: async (id, size, o) => {
      if (++n === k) {
        if (applied) await client.getNotExportedData(id, size, o);
        throw lost();
      }
      return client.getNotExportedData(id, size, o);
    },
    markExported: async (id, o) => {
      if (++n === k) {
        if (applied) await client.markExported(id, o);
        throw lost();
      }
      return client.markExported(id, o);
    },
  };
}

describe('data: Pull New Rows, exactly once, against the sandbox', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-pull-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const records = () => TEST_RECORDS;
  const journal = (file: string) => readFileJournal(records(), file);

  for (const format of FORMATS) {
    it(`${format}: a failure between the write and the mark: the next pull marks the batch without writing it again, and says so`, async () => {
      const f = await fresh(2_500);
      try {
        const file = path.join(dir, `rows.${EXTENSIONS[format]}`);
        const crash = new Error('the window closed');
        await assert.rejects(
          pullOnce({
            source: f.client,
            task: f.task,
            file,
            format,
            pull: failAfterWrite(2, crash),
          }),
          (e: unknown) =>
            e instanceof PullFailure &&
            e.stage === 'mark' &&
            e.error === crash &&
            e.rowsDone === 1000 &&
            e.batchRows === 1000,
        );
        assert.equal(
          readBack(file, format, f.task.taskId).length,
          2000,
          'both batches were written before the failure',
        );
        const second = await pullOnce({ source: f.client, task: f.task, file, format });
        assert.deepEqual(
          [second.rows, second.recovered, second.completed, second.more],
          [500, 1000, true, false],
          'batch 2 marked without writing; the last 500 rows written',
        );
        assertExactlyOnce(file, format, f, 'after the second pull');
        const third = await pullOnce({ source: f.client, task: f.task, file, format });
        assert.deepEqual([third.rows, third.completed], [0, false], 'nothing left, nothing to complete');
        assertExactlyOnce(file, format, f, 'after a third pull');
        if (format !== 'sqlite') assert.equal(await journal(file), undefined, 'no record left');
      } finally {
        await close(f);
      }
    });

    it(`${format}: the service failing at any request (reply lost, carried out or not): the next pull leaves every row exactly once`, async () => {
      // One sandbox, a task of its own per case (its latest run's rows are new).
      const sandbox = await startSandbox({ rateLimit: 0, seed: 31, extraTasks: 60 });
      const pool = await TaskPool.of(sandboxClient(sandbox.info.baseUrl, sandbox.info.accounts[0]?.apiKey ?? ''));
      try {
        for (const applied of [false, true]) {
          for (let k = 1; k <= 6; k++) {
            const { task, rows } = await pool.next(81);
            const f: Fresh = { sandbox, client: pool.client, task, rows };
            const file = path.join(dir, `fail-${k}-${applied}.${EXTENSIONS[format]}`);
            await assert.rejects(
              pullOnce({ source: failingAt(f.client, k, applied), task, file, format, batchSize: 40 }),
              PullFailure,
            );
            const again = await pullOnce({ source: f.client, task, file, format, batchSize: 40 });
            assert.equal(again.more, false);
            assertExactlyOnce(file, format, f, `request ${k} failed (${applied ? 'carried out' : 'not carried out'})`);
          }
        }
      } finally {
        await pool.client.close();
        await sandbox.close();
      }
    });
  }

  /** A pull in batches of 100 that stops once batch 2 is on disk, before its mark: the worst an interruption leaves. */
  const stopAfterSecondWrite = (f: Fresh, file: string, format: PullFormat) =>
    assert.rejects(pullOnce({ source: f.client, task: f.task, file, format, batchSize: 100, pull: failAfterWrite(2) }));

  for (const format of ['csv', 'jsonl'] as const) {
    it(`${format}: a crash that left only part of a batch (cut at any byte, or zeros after it): the partial row is cut back and the batch completed`, async () => {
      const f = await fresh(250);
      try {
        // Batch 2 on disk, recorded, not marked: the state any interruption leaves at worst.
        const file = path.join(dir, `partial.${EXTENSIONS[format]}`);
        await stopAfterSecondWrite(f, file, format);
        const whole = readFileSync(file);
        const record = await journal(file);
        assert.ok(record, 'the batch in flight is recorded');
        const cuts = [
          record.offset,
          record.offset + 1,
          record.offset + 57,
          record.offset + Math.floor((whole.length - record.offset) / 2),
          whole.length - 1,
          whole.length,
        ];
        for (const [i, cut] of cuts.entries()) {
          const copy = path.join(dir, `cut-${i}.${EXTENSIONS[format]}`);
          const zeros = i % 2 === 1 ? Buffer.alloc(300) : Buffer.alloc(0); // what a machine crash may leave past the data
          writeFileSync(copy, Buffer.concat([whole.subarray(0, cut), zeros]));
          // The record as the pull would have written it for the copy (bound to the copy).
          await writeFileJournal(records(), { ...record, file: copy, ...(await bindingOf(copy, record.offset)) });
        }
        // The service still has batch 2 handed out and unmarked; each copy is completed by the same rows.
        for (const [i] of cuts.entries()) {
          const copy = path.join(dir, `cut-${i}.${EXTENSIONS[format]}`);
          const sink = await FilePullSink.open(copy, format, {
            taskId: f.task.taskId,
            taskName: f.task.taskName,
            records: records(),
          });
          const page = (await f.client.getNotExportedData(f.task.taskId, 100)).data.data;
          await sink.resume(page);
          const rows = readBack(copy, format).length;
          assert.equal(rows, 200, `cut ${i}: batches 1 and 2 exactly once (${rows} rows)`);
        }
        // And a real second pull completes the original.
        await pullOnce({ source: f.client, task: f.task, file, format, batchSize: 100 });
        assertExactlyOnce(file, format, f, 'the original file');
      } finally {
        await close(f);
      }
    });

    it(`${format}: a file changed after the interruption (other lines after the batch's start) is refused and left as it is`, async () => {
      const f = await fresh(250);
      try {
        const file = path.join(dir, `changed.${EXTENSIONS[format]}`);
        await stopAfterSecondWrite(f, file, format);
        const record = await journal(file);
        assert.ok(record);
        const edited = Buffer.concat([
          readFileSync(file).subarray(0, record.offset),
          Buffer.from('someone else\nwrote here\n'),
        ]);
        writeFileSync(file, edited);
        await assert.rejects(
          pullOnce({ source: f.client, task: f.task, file, format, batchSize: 100 }),
          (e: unknown) =>
            e instanceof PullFailure && e.error instanceof UnusableFileError && e.error.reason === 'changed',
        );
        assert.deepEqual(readFileSync(file), edited, 'not cut, not appended');
        // Another task may not write into a file with this task's batch in flight.
        await assert.rejects(
          FilePullSink.open(file, format, { taskId: 'another', taskName: 'Another', records: records() }),
          (e: unknown) => e instanceof OtherTaskPendingError && e.taskName === f.task.taskName,
        );
        // A file shorter than the record says is not the file it was written for: the record is dropped, nothing cut.
        truncateSync(file, Math.max(0, record.offset - 10));
        const shorter = readFileSync(file);
        const sink = await FilePullSink.open(file, format, {
          taskId: f.task.taskId,
          taskName: f.task.taskName,
          records: records(),
        });
        assert.equal(sink.pending, undefined, 'the record no longer binds to the file');
        assert.equal(await journal(file), undefined, 'and is gone');
        assert.deepEqual(readFileSync(file), shorter);
      } finally {
        await close(f);
      }
    });
  }

  it('the second pull appends only the rows a new run added; CSV keeps its header, and a late field becomes a new column', async () => {
    const clock = new FakeClock(T0);
    const f = await fresh(10, clock);
    try {
      const tasks = (await f.client.searchTasks((await f.client.listTaskGroups()).data[0]?.taskGroupId ?? '')).data;
      const task = tasks[3];
      assert.ok(task);
      const file = path.join(dir, 'rows.csv');
      const one = await pullOnce({ source: f.client, task, file, format: 'csv' });
      const afterOne = await allRows(f.client, task.taskId);
      await f.client.startTask(task.taskId);
      clock.advance(11_000);
      const afterRun = await allRows(f.client, task.taskId);
      const added = afterRun.length - afterOne.length;
      assert.ok(added > 0, 'the run added rows');
      const two = await pullOnce({ source: f.client, task, file, format: 'csv' });
      assert.equal(two.rows, added, 'only the new rows');
      const table = readBack(file, 'csv').map((r) => JSON.parse(r) as Record<string, string>);
      assert.equal(table.length, one.rows + two.rows, 'every pulled row under one header');
      assert.deepEqual(Object.keys(table[0] ?? {}), Object.keys(afterRun[0] ?? {}), "the task's field names");

      // A row with a field the file lacks: the file is rewritten once with the wider header.
      const sink = await FilePullSink.open(file, 'csv', {
        taskId: task.taskId,
        taskName: task.taskName,
        records: records(),
      });
      await sink.write([{ ...(afterRun[0] as DataRow), 'Added later': 'late' }]);
      await sink.marked();
      const wide = readBack(file, 'csv').map((r) => JSON.parse(r) as Record<string, string>);
      assert.deepEqual(Object.keys(wide[0] ?? {}), [...Object.keys(afterRun[0] ?? {}), 'Added later']);
      assert.equal(wide.at(-1)?.['Added later'], 'late');
      assert.equal(wide[0]?.['Added later'], '', 'earlier rows padded');
      assert.deepEqual([...readFileSync(file).subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the BOM stays');
    } finally {
      await close(f);
    }
  });

  it('refuses a file it cannot append to before asking the service for anything', async () => {
    const binary = path.join(dir, 'binary.jsonl');
    writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    await assert.rejects(
      AppendFile.open(binary, 'jsonl'),
      (e: unknown) => e instanceof UnusableFileError && e.reason === 'not-text',
    );
    const headless = path.join(dir, 'headless.csv');
    writeFileSync(headless, 'no line break at all');
    await assert.rejects(
      AppendFile.open(headless, 'csv'),
      (e: unknown) => e instanceof UnusableFileError && e.reason === 'no-header',
    );
    await assert.rejects(
      AppendFile.open(dir, 'csv'),
      (e: unknown) => e instanceof UnusableFileError && e.reason === 'folder',
    );
    const notDb = path.join(dir, 'notes.sqlite');
    writeFileSync(notDb, 'just text');
    await assert.rejects(
      pullOnce({
        source: { getNotExportedData: () => assert.fail('asked'), markExported: () => assert.fail('marked') },
        task: { taskId: 't', taskName: 'T' },
        file: notDb,
        format: 'sqlite',
      }),
      (e: unknown) => e instanceof UnusableFileError && e.reason === 'not-sqlite',
    );
    assert.equal(readFileSync(notDb, 'utf8'), 'just text');
    // Another SQLite program's shared index of its write-ahead log: that program has the database.
    const shared = path.join(dir, 'shared.sqlite');
    writeFileSync(shared, '');
    writeFileSync(`${shared}-shm`, '');
    await assert.rejects(
      pullOnce({
        source: { getNotExportedData: () => assert.fail('asked'), markExported: () => assert.fail('marked') },
        task: { taskId: 't', taskName: 'T' },
        file: shared,
        format: 'sqlite',
      }),
      (e: unknown) => e instanceof UnusableFileError && e.reason === 'not-sqlite',
    );
    // A JSON Lines file without a final line break: the rows start on a new line.
    const open = path.join(dir, 'open.jsonl');
    writeFileSync(open, '{"kept":true}');
    const sink = await FilePullSink.open(open, 'jsonl', { taskId: 't', taskName: 'T', records: records() });
    await sink.write([{ a: '1' }]);
    assert.equal(readFileSync(open, 'utf8'), '{"kept":true}\n{"a":"1"}\n');
    assert.ok(statSync(await journalPathFor(records(), open)).isFile(), 'recorded until marked');
    await sink.marked();
    assert.equal(await journal(open), undefined);
  });
});

describe('data: remembered pull files', () => {
  const memento = () => {
    const store = new Map<string, unknown>();
    return {
      get: <T>(k: string) => store.get(k) as T | undefined,
      update: (k: string, v: unknown) => Promise.resolve(void store.set(k, v)),
      store,
    };
  };

  it('per account and per task; another account sees none of them; a damaged state is ignored with a warning', async () => {
    const m = memento();
    const warnings: string[] = [];
    const targets = new PullTargets(m, (w) => warnings.push(w));
    await targets.set('acctA', 't1', 'file:///ws/a.jsonl');
    await targets.set('acctA', 't2', 'file:///ws/b.csv');
    await targets.set('acctB', 't1', 'file:///ws/other.jsonl');
    assert.equal(targets.get('acctA', 't1'), 'file:///ws/a.jsonl');
    assert.equal(targets.get('acctB', 't1'), 'file:///ws/other.jsonl');
    assert.equal(targets.get('acctC', 't1'), undefined);
    await targets.forget('acctA', 't1');
    assert.equal(targets.get('acctA', 't1'), undefined);
    assert.equal(targets.get('acctA', 't2'), 'file:///ws/b.csv');
    m.store.set('scrapedeck.data.pullFiles', { acctA: { t1: 42 } });
    assert.equal(targets.get('acctA', 't1'), undefined);
    assert.equal(warnings.length, 1);
  });
});
