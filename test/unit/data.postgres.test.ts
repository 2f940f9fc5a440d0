/**
 * Pull New Rows into a real PostgreSQL server (the private one the test scripts start,
 * scripts/lib/postgres.mjs), exactly once (issue 45): the table made and named as for SQLite, a
 * new field as a new column, values round-trip with their types; a pull killed at each point of a
 * batch, the server restarted mid-pull, a wrong password and a user without CREATE: after the
 * next pull every row is there exactly once, in order (read back by psql). Without a server these
 * tests fail.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

import type { ApiResult } from '../../src/api/http/mainCaller';
import type { DataRow, NotExportedPage } from '../../src/api/schemas/dataSchemas';
import { failureKind } from '../../src/data/postgres/pgConnection';
import { PgExportWriter } from '../../src/data/postgres/pgExport';
import { PostgresPullSink } from '../../src/data/pull/postgresSink';
import { PullFailure, type PullSource } from '../../src/data/pull/pullRows';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { killedPgPull, PG_KILL_POINTS } from '../shared/pgKill';
import { connectionOf, expectedPg, freshSchema, pgPullOnce, type PgPullRun, psql, readBackPg } from '../shared/pgPull';
import { restartServer, type TestServer, testServer } from '../shared/pgServer';
import { compareRows } from '../shared/pullDestination';
import { failAfterWrite } from '../shared/pullHooks';
import { allRows, sandboxClient, TaskPool } from '../shared/pullScenario';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const BATCH = 25;

/** A service in memory that hands out rows not yet marked, as the real one does (for rows of every kind). */
class MemoryService implements PullSource {
  private marked = 0;
  private handed = 0;
  constructor(readonly rows: DataRow[]) {}
  add(rows: DataRow[]): void {
    this.rows.push(...rows);
  }
  getNotExportedData(_taskId: string, size: number): Promise<ApiResult<NotExportedPage>> {
    const data = this.rows.slice(this.marked, this.marked + size);
    this.handed = data.length;
    return Promise.resolve({
      data: { total: this.rows.length - this.marked, current: data.length, data },
      requestId: undefined,
    });
  }
  markExported(): Promise<ApiResult<null>> {
    this.marked += this.handed;
    this.handed = 0;
    return Promise.resolve({ data: null, requestId: undefined });
  }
}

function assertOnce(server: TestServer, schema: string, taskId: string, rows: readonly DataRow[], what: string): void {
  const got = readBackPg(server, schema, taskId);
  const c = compareRows(got, rows.map(expectedPg));
  assert.deepEqual(
    { missing: c.missing, twice: c.twice, wrong: c.wrong },
    { missing: 0, twice: 0, wrong: 0 },
    `${what}: ${got.length} rows read back for ${rows.length}`,
  );
  assert.ok(c.equal, `${what}: in order`);
}

async function bundleChild(): Promise<string> {
  const outfile = path.join(ROOT, 'out', 'test', 'shared', `pgKillChild.${process.pid}.bundle.cjs`);
  const esbuild = await import('esbuild');
  // pg is bundled as the extension bundles it; its optional native binding is never loaded.
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test', 'shared', 'pgKillChild.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['pg-native'],
    logLevel: 'warning',
  });
  return outfile;
}

describe('data: Pull New Rows into PostgreSQL, exactly once, against a real server', function () {
  this.timeout(300_000);
  let server: TestServer;
  let sandbox: RunningSandbox | undefined;
  let pool: TaskPool;
  let apiKey: string;
  before(async () => {
    server = testServer();
    sandbox = await startSandbox({ rateLimit: 0, seed: 45, extraTasks: 40 });
    apiKey = sandbox.info.accounts[0]?.apiKey ?? '';
    pool = await TaskPool.of(sandboxClient(sandbox.info.baseUrl, apiKey));
  });
  after(async () => {
    await pool?.client.close();
    await sandbox?.close();
  });
  /** A pull of a pooled task into `connection` as the superuser, in batches of BATCH; `run` adds hooks. */
  const pullPooled = (run: Pick<PgPullRun, 'task' | 'connection'> & Partial<PgPullRun>) =>
    pgPullOnce({ source: pool.client, password: server.password, batchSize: BATCH, ...run });

  it('makes the task table named as for SQLite, adds a column for a new field, keeps each value with its type', async () => {
    const schema = freshSchema(server, 'types');
    const connection = connectionOf(server, schema);
    const task = { taskId: 'task-types', taskName: 'Shop "prices"; DROP TABLE x' };
    const first: DataRow[] = [
      { name: 'Tea', code: '007', price: 12.5, stock: 3, active: true, note: null },
      { name: 'Café \u0000 crème', code: '0.10', price: 0.1, stock: -2, active: false, note: 'x' },
    ];
    const service = new MemoryService([...first]);
    await pgPullOnce({ source: service, task, connection, password: server.password });
    assert.equal(
      psql(server, `SELECT table_name FROM types."_scrapedeck_tables" WHERE task_id = 'task-types'`),
      'Shop "prices"; DROP TABLE x',
    );
    const types = psql(
      server,
      `SELECT string_agg(column_name || ':' || data_type, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = 'types' AND table_name = 'Shop "prices"; DROP TABLE x'`,
    );
    assert.equal(
      types,
      '_scrapedeck_row:bigint,name:text,code:text,price:double precision,stock:double precision,active:boolean,note:text,_scrapedeck_lot:text,_scrapedeck_pulled_at:timestamp with time zone',
    );
    const stored = first.map((r) => (r.name === 'Café \u0000 crème' ? { ...r, name: 'Café \ufffd crème' } : r));
    assertOnce(server, schema, task.taskId, stored, 'first pull');
    // A later pull: a new field becomes a new column, a number where text was keeps the column text.
    const later: DataRow[] = [{ name: 'Mate', code: 8, price: 4, stock: 1, active: true, note: null, origin: 'AR' }];
    service.add(later);
    const second = await pgPullOnce({ source: service, task, connection, password: server.password });
    assert.equal(second.rows, 1);
    assert.match(
      psql(
        server,
        `SELECT string_agg(column_name || ':' || data_type, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = 'types' AND table_name = 'Shop "prices"; DROP TABLE x'`,
      ),
      /code:text.*origin:text/,
    );
    assertOnce(server, schema, task.taskId, [...stored, { ...later[0], code: '8' } as DataRow], 'second pull');
    assert.equal(
      psql(
        server,
        `SELECT count(*) FROM types."Shop ""prices""; DROP TABLE x" WHERE "_scrapedeck_pulled_at" > now() - interval '1 hour' AND "_scrapedeck_lot" IS NULL`,
      ),
      '3',
      'every row has the time of its pull',
    );
    assert.equal(
      psql(server, `SELECT count(*) FROM types."_scrapedeck_pending"`),
      '0',
      'no record left after a clean pull',
    );
  });

  it('lets go of each batch once it is in the statement (the first, which makes the table, and the usual one after it)', async () => {
    const schema = freshSchema(server, 'handover');
    const task = { taskId: 'task-handover', taskName: 'Handed over' };
    const sink = await PostgresPullSink.open({
      ...task,
      connection: connectionOf(server, schema),
      password: server.password,
    });
    const batches: DataRow[][] = [
      [
        { name: 'a', n: 1 },
        { name: 'b', n: 2 },
      ],
      [{ name: 'c', n: 3 }],
    ];
    try {
      for (const rows of batches) {
        await sink.write(rows);
        await sink.marked();
      }
    } finally {
      await sink.close();
    }
    assert.deepEqual(
      batches.map((rows) => rows.length),
      [0, 0],
      'each batch array was emptied by the sink',
    );
    assertOnce(
      server,
      schema,
      task.taskId,
      [
        { name: 'a', n: 1 },
        { name: 'b', n: 2 },
        { name: 'c', n: 3 },
      ],
      'handed over',
    );
  });

  it('a failure between the commit and the mark: the next pull marks the batch without writing it again', async () => {
    const schema = freshSchema(server, 'gap');
    const connection = connectionOf(server, schema);
    const { task, rows } = await pool.next(3 * BATCH);
    const crash = new Error('the window closed');
    await assert.rejects(
      pullPooled({
        task,
        connection,
        pull: failAfterWrite(2, crash),
      }),
      (e: unknown) => e instanceof PullFailure && e.stage === 'mark' && e.error === crash,
    );
    const again = await pullPooled({ task, connection });
    assert.deepEqual([again.completed, again.recovered], [true, BATCH]);
    assertOnce(server, schema, task.taskId, rows, 'after the next pull');
  });

  it('killed (SIGKILL) before the transaction, inside it, after the commit before the mark, with the mark in flight and after it; at batch 1 and 2', async () => {
    const child = await bundleChild();
    const schema = freshSchema(server, 'kills');
    const connection = connectionOf(server, schema);
    const outcomes: string[] = [];
    for (const point of PG_KILL_POINTS) {
      for (const batch of [1, 2]) {
        const { task, rows } = await pool.next(3 * BATCH);
        await killedPgPull(child, {
          baseUrl: sandbox?.info.baseUrl ?? '',
          apiKey,
          task,
          connection,
          password: server.password,
          batchSize: BATCH,
          point,
          batch,
        });
        const result = await pullPooled({ task, connection });
        const c = compareRows(readBackPg(server, schema, task.taskId), rows.map(expectedPg));
        outcomes.push(
          `${point}@${batch}: ${c.missing} missing, ${c.twice} twice, ${c.wrong} wrong${result.completed ? ', completed' : ''}`,
        );
        assert.deepEqual(
          [c.missing, c.twice, c.wrong, c.equal],
          [0, 0, 0, true],
          `killed at ${point} of batch ${batch}: ${outcomes.at(-1)}`,
        );
      }
    }
    // Killed after the commit and before the mark was answered, the next pull completed that batch instead of writing it again.
    assert.ok(outcomes.filter((o) => o.endsWith('completed')).length >= 4, outcomes.join('\n'));
  });

  it('the server restarted mid-pull (inside a transaction, and between a commit and the next batch): the next pull leaves every row exactly once', async () => {
    const schema = freshSchema(server, 'restart');
    const connection = connectionOf(server, schema);
    for (const when of ['inside', 'between'] as const) {
      const { task, rows } = await pool.next(3 * BATCH);
      let batch = 0;
      await assert.rejects(
        pullPooled({
          task,
          connection,
          sink: {
            beforeBegin: () => void batch++,
            midWrite: () => {
              if (when === 'inside' && batch === 2) restartServer(server);
            },
          },
          pull: {
            afterWrite: (b) => {
              if (when === 'between' && b === 1) restartServer(server);
            },
          },
        }),
        (e: unknown) => e instanceof PullFailure && e.stage === 'write',
      );
      await pullPooled({ task, connection });
      assertOnce(server, schema, task.taskId, rows, `restarted ${when}`);
    }
  });

  it('a wrong password: the pull stops before asking the service for rows, and says why', async () => {
    const connection = connectionOf(server, freshSchema(server, 'password'));
    const untouched: PullSource = {
      getNotExportedData: () => assert.fail('asked'),
      markExported: () => assert.fail('marked'),
    };
    await assert.rejects(
      pgPullOnce({
        source: untouched,
        task: { taskId: 't', taskName: 'T' },
        connection,
        password: `${server.password}x`,
      }),
      (e: unknown) => failureKind(e) === 'bad-password',
    );
  });

  it('a user without CREATE on the schema is told so before anything is asked; once granted, the next pull writes every row exactly once', async () => {
    const schema = freshSchema(server, 'rights');
    psql(
      server,
      `DROP ROLE IF EXISTS reader; CREATE ROLE reader LOGIN PASSWORD 'reader-pw'; GRANT USAGE ON SCHEMA rights TO reader`,
    );
    const connection = { ...connectionOf(server, schema), user: 'reader' };
    const { task, rows } = await pool.next(2 * BATCH);
    const untouched: PullSource = {
      getNotExportedData: () => assert.fail('asked'),
      markExported: () => assert.fail('marked'),
    };
    await assert.rejects(
      pgPullOnce({ source: untouched, task, connection, password: 'reader-pw' }),
      (e: unknown) => failureKind(e) === 'no-create',
    );
    psql(server, 'GRANT CREATE ON SCHEMA rights TO reader');
    await pgPullOnce({ source: pool.client, task, connection, password: 'reader-pw', batchSize: BATCH });
    assertOnce(server, schema, task.taskId, rows, 'after the grant');
  });

  it('Export Data: every row into a new table in one transaction (a second export makes “(2)”); a discarded export leaves no table', async () => {
    const schema = freshSchema(server, 'export');
    const connection = connectionOf(server, schema);
    const { task } = await pool.next(1);
    const rows = await allRows(pool.client, task.taskId);
    const tables: string[] = [];
    for (let i = 0; i < 2; i++) {
      const writer = await PgExportWriter.create({
        connection,
        password: server.password,
        taskId: task.taskId,
        taskName: task.taskName,
        lot: 'lot-7',
      });
      for (let at = 0; at < rows.length; at += 40) await writer.write(rows.slice(at, at + 40));
      await writer.commit();
      tables.push(writer.tableName ?? '');
    }
    assert.deepEqual(tables, [task.taskName, `${task.taskName} (2)`]);
    const read = JSON.parse(
      psql(
        server,
        `SELECT coalesce(json_agg(t ORDER BY "_scrapedeck_row"), '[]') FROM export."${task.taskName.replace(/"/g, '""')} (2)" t`,
      ),
    ) as Record<string, unknown>[];
    assert.deepEqual(
      read.map((r) =>
        expectedPg(Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('_scrapedeck_'))) as DataRow),
      ),
      rows.map(expectedPg),
    );
    assert.ok(
      read.every((r) => r._scrapedeck_lot === 'lot-7'),
      'each row has its lot',
    );
    const dropped = await PgExportWriter.create({
      connection,
      password: server.password,
      taskId: task.taskId,
      taskName: 'Never kept',
    });
    await dropped.write(rows.slice(0, 10));
    await dropped.discard();
    assert.equal(
      psql(server, `SELECT count(*) FROM pg_tables WHERE schemaname = 'export' AND tablename = 'Never kept'`),
      '0',
    );
  });

  it('names what failed to connect: refused, unknown host', async () => {
    const base = connectionOf(server, 'public');
    const free = await import('node:net').then(
      (net) =>
        new Promise<number>((resolve) => {
          const s = net.createServer().listen(0, '127.0.0.1', () => {
            const a = s.address();
            s.close(() => resolve(typeof a === 'object' && a !== null ? a.port : 0));
          });
        }),
    );
    await assert.rejects(
      PostgresPullSink.open({ taskId: 't', taskName: 'T', connection: { ...base, port: free }, password: 'x' }),
      (e: unknown) => failureKind(e) === 'refused',
    );
    await assert.rejects(
      PostgresPullSink.open({
        taskId: 't',
        taskName: 'T',
        connection: { ...base, host: 'no-such-host.invalid' },
        password: 'x',
      }),
      (e: unknown) => failureKind(e) === 'unknown-host',
    );
  });
});
