/**
 * Pull New Rows against the real sandbox and client: rows are written and flushed before they
 * are marked, so a failure injected exactly between the write and the mark loses no row (the
 * batch comes again and appears twice); a second pull appends only rows that arrived since; the
 * CSV file keeps its header and grows a column for a late field; unusable files are refused
 * before anything is asked or written.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { MemoryCredentialsStore } from '../../src/api/auth';
import { ScrapedeckClient } from '../../src/api/client';
import type { DataRow } from '../../src/api/dataSchemas';
import { ApiError } from '../../src/api/errors';
import { UnlimitedLimiter } from '../../src/api/limiter';
import { AppendFile, UnusableFileError } from '../../src/data/appendFile';
import { PullFailure, pullNewRows, type PullSource } from '../../src/data/pullRows';
import { PullTargets } from '../../src/data/pullTargets';
import { BENCH_GROUP_NAME } from '../../src/sandbox/seed';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';
import { FakeClock } from './helpers/sandbox';

const BIG = 2_500;
const T0 = Date.parse('2026-11-22T12:00:00Z');

const jsonl = (file: string): DataRow[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as DataRow);

describe('data: Pull New Rows (write and flush, then mark) against the sandbox', function () {
  this.timeout(60_000);
  const clock = new FakeClock(T0);
  let sandbox: RunningSandbox;
  let client: ScrapedeckClient;
  let big: { taskId: string; taskName: string };
  let dir: string;

  /** Every row the task has now, through the reader (a read: marks nothing). */
  const allRows = async (taskId: string): Promise<DataRow[]> => {
    const rows: DataRow[] = [];
    for await (const page of client.readData(taskId)) rows.push(...page.rows);
    return rows;
  };

  before(async () => {
    sandbox = await startSandbox({ now: clock.now, rateLimit: 0, seed: 13, runSeconds: 10, bigTaskRows: BIG });
    const ada = sandbox.info.accounts[0];
    assert.ok(ada);
    client = new ScrapedeckClient({ baseUrl: sandbox.info.baseUrl, credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: ada.apiKey }), env: {}, limiter: new UnlimitedLimiter() });
    const group = (await client.listTaskGroups()).data.find((g) => g.taskGroupName === BENCH_GROUP_NAME);
    assert.ok(group);
    const first = (await client.searchTasks(group.taskGroupId)).data[0];
    assert.ok(first);
    big = first;
  });
  after(async () => {
    await client.close();
    await sandbox.close();
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-pull-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a failure between the write and the mark loses no row: the batch comes again (twice in the file), nothing else does', async () => {
    const expected = await allRows(big.taskId);
    assert.equal(expected.length, BIG, 'the big task has no row exported yet');
    const file = path.join(dir, 'big.jsonl');
    const sink = await AppendFile.open(file, 'jsonl');

    // The crash: batch 2 is on disk and flushed, and the process dies before marking it.
    const crash = new Error('the window closed');
    const first = pullNewRows(client, { taskId: big.taskId, sink, afterWrite: (batch) => { if (batch === 2) throw crash; } });
    await assert.rejects(first, (e: unknown) => e instanceof PullFailure && e.stage === 'mark' && e.error === crash && e.rowsDone === 1000 && e.batchRows === 1000);
    assert.equal(jsonl(file).length, 2000, 'both batches were written before the failure');

    // The next pull (a new window: a fresh AppendFile) starts with the unmarked batch again.
    const second = await pullNewRows(client, { taskId: big.taskId, sink: await AppendFile.open(file, 'jsonl') });
    assert.deepEqual([second.rows, second.batches, second.more], [1500, 2, false]);
    const lines = jsonl(file);
    assert.deepEqual(lines, [...expected.slice(0, 2000), ...expected.slice(1000)], 'batch 2 twice, every row at least once, in order');
    assert.equal(new Set(lines.map((r) => JSON.stringify(r))).size, BIG, 'no row lost');

    // Everything is marked now: a third pull finds nothing and leaves the file alone.
    const before = readFileSync(file);
    const third = await pullNewRows(client, { taskId: big.taskId, sink: await AppendFile.open(file, 'jsonl') });
    assert.equal(third.rows, 0);
    assert.deepEqual(readFileSync(file), before);
  });

  it('a mark whose reply was lost (maybeApplied): rows already in the file; whether or not it applied, none is lost', async () => {
    const task = (await client.searchTasks((await client.listTaskGroups()).data[0]?.taskGroupId ?? '')).data.find(() => true);
    assert.ok(task);
    // Start a run so the task has rows to pull, and let it finish.
    await client.startTask(task.taskId);
    clock.advance(11_000);
    const rows = await allRows(task.taskId);
    const file = path.join(dir, 'lost-reply.jsonl');
    let calls = 0;
    // The service marks, then the connection drops before the reply: the client says maybeApplied.
    const flaky: PullSource = {
      getNotExportedData: (id, size, o) => client.getNotExportedData(id, size, o),
      markExported: async (id, o) => {
        await client.markExported(id, o);
        if (++calls === 1) throw new ApiError({ kind: 'network', message: 'The connection dropped. It may have been carried out: check before trying again.', maybeApplied: true, requestId: 'req-lost' });
        return { data: null, requestId: 'ok' };
      },
    };
    await assert.rejects(pullNewRows(flaky, { taskId: task.taskId, sink: await AppendFile.open(file, 'jsonl'), batchSize: 50 }), (e: unknown) => e instanceof PullFailure && e.stage === 'mark' && (e.error as ApiError).maybeApplied);
    await pullNewRows(client, { taskId: task.taskId, sink: await AppendFile.open(file, 'jsonl'), batchSize: 50 });
    const lines = jsonl(file).map((r) => JSON.stringify(r));
    const all = new Set(rows.map((r) => JSON.stringify(r)));
    assert.ok(lines.length > 0);
    assert.ok(lines.every((l) => all.has(l)), 'only the task\'s rows');
    const pulled = new Set(lines);
    // The not-exported rows are the task's newest ones: every one of them is in the file.
    assert.deepEqual(rows.slice(rows.length - pulled.size).map((r) => JSON.stringify(r)), [...pulled], 'the newest rows, each in the file, none lost');
  });

  it('the second pull appends only the rows a new run added; CSV keeps its header, and a late field becomes a new column', async () => {
    const tasks = (await client.searchTasks((await client.listTaskGroups()).data[0]?.taskGroupId ?? '')).data;
    const task = tasks[3];
    assert.ok(task);
    const file = path.join(dir, 'rows.csv');
    const one = await pullNewRows(client, { taskId: task.taskId, sink: await AppendFile.open(file, 'csv') });
    const afterOne = await allRows(task.taskId);
    await client.startTask(task.taskId);
    clock.advance(11_000);
    const afterRun = await allRows(task.taskId);
    const added = afterRun.length - afterOne.length;
    assert.ok(added > 0, 'the run added rows');
    const two = await pullNewRows(client, { taskId: task.taskId, sink: await AppendFile.open(file, 'csv') });
    assert.equal(two.rows, added, 'only the new rows');
    const table = JSON.parse(execFileSync('python3', ['-c', 'import csv,json,sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], encoding="utf-8-sig", newline="")))))', file], { encoding: 'utf8' })) as string[][];
    assert.equal(table.length, 1 + one.rows + two.rows, 'one header, then every pulled row');
    assert.deepEqual(table[0], Object.keys(afterRun[0] ?? {}), 'the task\'s field names');

    // A row with a field the file lacks: the file is rewritten once with the wider header.
    const sink = await AppendFile.open(file, 'csv');
    await sink.append([{ ...(afterRun[0] as DataRow), 'Added later': 'late' }]);
    const wide = JSON.parse(execFileSync('python3', ['-c', 'import csv,json,sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], encoding="utf-8-sig", newline="")))))', file], { encoding: 'utf8' })) as string[][];
    assert.deepEqual(wide[0], [...(table[0] as string[]), 'Added later']);
    assert.ok(wide.every((r) => r.length === wide[0]!.length), 'every row has every column');
    assert.equal(wide.at(-1)?.at(-1), 'late');
    assert.deepEqual([...readFileSync(file).subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the BOM stays');
  });

  it('refuses a file it cannot append to before asking the service for anything', async () => {
    const binary = path.join(dir, 'binary.jsonl');
    writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    await assert.rejects(AppendFile.open(binary, 'jsonl'), (e: unknown) => e instanceof UnusableFileError && e.reason === 'not-text');
    const headless = path.join(dir, 'headless.csv');
    writeFileSync(headless, 'no line break at all');
    await assert.rejects(AppendFile.open(headless, 'csv'), (e: unknown) => e instanceof UnusableFileError && e.reason === 'no-header');
    await assert.rejects(AppendFile.open(dir, 'csv'), (e: unknown) => e instanceof UnusableFileError && e.reason === 'folder');
    // A JSON Lines file without a final line break: the rows start on a new line.
    const open = path.join(dir, 'open.jsonl');
    writeFileSync(open, '{"kept":true}');
    await (await AppendFile.open(open, 'jsonl')).append([{ a: '1' }]);
    assert.equal(readFileSync(open, 'utf8'), '{"kept":true}\n{"a":"1"}\n');
  });
});

describe('data: remembered pull files', () => {
  const memento = () => {
    const store = new Map<string, unknown>();
    return { get: <T>(k: string) => store.get(k) as T | undefined, update: (k: string, v: unknown) => Promise.resolve(void store.set(k, v)), store };
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
