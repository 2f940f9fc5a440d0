/**
 * Pulls into the tests' PostgreSQL server through the code the extension runs, and what a schema
 * holds read back by another program (psql), one comparable string per row. Shared by the unit
 * tests, the kill child and the bench.
 */
import { execFileSync } from 'node:child_process';

import type { DataRow } from '../../src/api/schemas/dataSchemas';
import type { PgConnection } from '../../src/data/postgres/pgConnection';
import { PostgresPullSink, type PostgresSinkOptions } from '../../src/data/pull/postgresSink';
import { pullNewRows, type PullOptions, type PullResult, type PullSource } from '../../src/data/pull/pullRows';
import type { TestServer } from './pgServer';

export function connectionOf(server: TestServer, schema: string): PgConnection {
  return { host: server.host, port: server.port, database: server.database, user: server.user, schema, tls: 'disable' };
}

export interface PgPullRun {
  source: PullSource;
  task: { taskId: string; taskName: string };
  connection: PgConnection;
  password: string;
  batchSize?: number;
  sink?: Partial<PostgresSinkOptions>;
  pull?: Partial<PullOptions>;
}

/** One pull as the extension runs it: the sink opened, the protocol, the sink closed. */
export async function pgPullOnce(run: PgPullRun): Promise<PullResult> {
  const sink = await PostgresPullSink.open({
    taskId: run.task.taskId,
    taskName: run.task.taskName,
    connection: run.connection,
    password: run.password,
    ...run.sink,
  });
  try {
    return await pullNewRows(run.source, { taskId: run.task.taskId, sink, batchSize: run.batchSize, ...run.pull });
  } finally {
    await sink.close();
  }
}

/** `sql` run by psql as the cluster's superuser; its one value. */
export function psql(server: TestServer, sql: string): string {
  return execFileSync(
    'psql',
    [
      '-X',
      '-At',
      '-v',
      'ON_ERROR_STOP=1',
      '-h',
      server.host,
      '-p',
      String(server.port),
      '-U',
      server.admin.user,
      '-d',
      server.database,
      '-c',
      sql,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, PGPASSWORD: server.admin.password },
      maxBuffer: 1 << 30,
    },
  ).trim();
}

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;
const ident = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/** A row as one string: its fields with a value (null and missing are the same in a table), keys sorted. */
function canonical(row: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(row)
        .filter(([, v]) => v !== null && v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ),
  );
}

export function expectedPg(row: DataRow): string {
  return canonical(row);
}

/** The task's table, as its fields (mapped back from its columns), in the order the rows arrived. */
export function readBackPg(server: TestServer, schema: string, taskId: string): string[] {
  const s = ident(schema);
  const table = psql(server, `SELECT table_name FROM ${s}."_scrapedeck_tables" WHERE task_id = ${literal(taskId)}`);
  if (table === '') return [];
  const map = JSON.parse(
    psql(
      server,
      `SELECT coalesce(json_object_agg(column_name, field), '{}') FROM ${s}."_scrapedeck_columns" WHERE table_name = ${literal(table)}`,
    ),
  ) as Record<string, string>;
  const rows = JSON.parse(
    psql(server, `SELECT coalesce(json_agg(t ORDER BY t."_scrapedeck_row"), '[]') FROM ${s}.${ident(table)} t`),
  ) as Record<string, unknown>[];
  return rows.map((r) =>
    canonical(
      Object.fromEntries(
        Object.entries(r)
          .filter(([k]) => !k.startsWith('_scrapedeck_'))
          .map(([k, v]) => [map[k] ?? k, v]),
      ),
    ),
  );
}

/** What the task's table says of its rows' lot and pull time: "N rows, L with a lot, P with the time of their pull" (since `since`, until now). */
export function stampsOf(server: TestServer, schema: string, taskId: string, since: Date): string {
  const s = ident(schema);
  const table = psql(server, `SELECT table_name FROM ${s}."_scrapedeck_tables" WHERE task_id = ${literal(taskId)}`);
  if (table === '') return 'no table';
  const [rows, lots, timed] = psql(
    server,
    `SELECT count(*), count("_scrapedeck_lot"), count(*) FILTER (WHERE "_scrapedeck_pulled_at" BETWEEN ${literal(since.toISOString())}::timestamptz AND now()) FROM ${s}.${ident(table)}`,
  ).split('|');
  return `${rows} rows, ${lots} with a lot, ${timed} with the time of their pull`;
}

/** A fresh schema owned by the test role. */
export function freshSchema(server: TestServer, name: string): string {
  psql(
    server,
    `DROP SCHEMA IF EXISTS ${ident(name)} CASCADE; CREATE SCHEMA ${ident(name)} AUTHORIZATION ${ident(server.user)}`,
  );
  return name;
}
