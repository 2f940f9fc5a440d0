/**
 * A pull against a sandbox's big task, for the exactly-once tests and the bench: a client for the
 * demo account, the big task, every row it has (read by offset: marks nothing), and one pull into
 * a destination of a given format through the code the extension runs.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { pullNewRows, type PullOptions, type PullResult, type PullSource } from '../../src/data/pull/pullRows';
import { openPullSink, type PullFormat, type SinkOptions } from '../../src/data/pull/pullSinks';
import { BENCH_GROUP_NAME } from '../../src/sandbox/seed/seed';

/** The SQLite pulls' own folder for their logs and locks (the extension's storage in VS Code); shared by a killed child and the pull after it. */
export function logDir(): string {
  return path.join(tmpdir(), 'scrapedeck-test-sqlite-logs');
}

/** node-sqlite3-wasm's files, as installed. */
export function wasmDir(): string {
  return path.dirname(require.resolve('node-sqlite3-wasm'));
}

export function sandboxClient(baseUrl: string, apiKey: string, limited = false): ScrapedeckClient {
  return new ScrapedeckClient({
    baseUrl,
    credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey }),
    env: {},
    limiter: limited ? undefined : new UnlimitedLimiter(),
  });
}

export async function bigTask(client: ScrapedeckClient): Promise<{ taskId: string; taskName: string }> {
  const group = (await client.listTaskGroups()).data.find((g) => g.taskGroupName === BENCH_GROUP_NAME);
  const task = group && (await client.searchTasks(group.taskGroupId)).data[0];
  if (!task) throw new Error('the sandbox has no big task (start it with bigTaskRows)');
  return task;
}

export async function allRows(client: ScrapedeckClient, taskId: string): Promise<DataRow[]> {
  const rows: DataRow[] = [];
  for await (const page of client.readData(taskId)) rows.push(...page.rows);
  return rows;
}

export const EXTENSIONS: Record<PullFormat, string> = { csv: 'csv', jsonl: 'jsonl', sqlite: 'sqlite' };

export interface PullRun {
  source: PullSource;
  task: { taskId: string; taskName: string };
  file: string;
  format: PullFormat;
  batchSize?: number;
  sink?: Partial<SinkOptions>;
  pull?: Partial<PullOptions>;
}

/**
 * The pull records' store of the tests, as the extension keeps it out of the workspace (its global
 * storage): one folder outside every test's files per test process, handed to the children of a
 * killed-pull test through the environment (records are named by the file's real path, so tests
 * never share one), and removed when the process that made it exits.
 */
const RECORDS_ENV = 'SCRAPEDECK_TEST_PULL_RECORDS';
export const TEST_RECORDS = ((): string => {
  const inherited = process.env[RECORDS_ENV];
  if (inherited !== undefined) return inherited;
  const own = path.join(tmpdir(), `scrapedeck-test-pull-records-${process.pid}`);
  process.env[RECORDS_ENV] = own;
  process.once('exit', () => rmSync(own, { recursive: true, force: true }));
  return own;
})();

/** One pull as the extension runs it: the sink opened (checks included), the protocol, the sink closed. */
export async function pullOnce(run: PullRun): Promise<PullResult> {
  const sink = await openPullSink(run.file, run.format, {
    taskId: run.task.taskId,
    taskName: run.task.taskName,
    wasmDir: wasmDir(),
    records: TEST_RECORDS,
    trusted: true,
    logDir: logDir(),
    ...run.sink,
  });
  try {
    return await pullNewRows(run.source, { taskId: run.task.taskId, sink, batchSize: run.batchSize, ...run.pull });
  } finally {
    await sink.close();
  }
}

/**
 * Tasks of one sandbox's Benchmarks group whose latest run's rows are not exported yet, handed
 * out one per scenario, so many scenarios share one sandbox. `next(min)` gives a task with at
 * least `min` new rows and those rows (the task's last ones), read without marking anything.
 */
export class TaskPool {
  private readonly used = new Set<string>();

  private constructor(
    readonly client: ScrapedeckClient,
    private readonly tasks: { taskId: string; taskName: string }[],
  ) {}

  static async of(client: ScrapedeckClient): Promise<TaskPool> {
    const group = (await client.listTaskGroups()).data.find((g) => g.taskGroupName === BENCH_GROUP_NAME);
    if (!group) throw new Error('the sandbox has no Benchmarks group (start it with extraTasks)');
    return new TaskPool(client, (await client.searchTasks(group.taskGroupId)).data);
  }

  async next(min: number): Promise<{ task: { taskId: string; taskName: string }; rows: DataRow[] }> {
    for (const task of this.tasks) {
      if (this.used.has(task.taskId)) continue;
      this.used.add(task.taskId);
      // Asking for one hands it out without marking it: the pull gets it again. So a probe whose
      // reply was lost is asked again (the client leaves that to its caller: the read hands rows
      // out); on a starved machine a kept-alive connection the sandbox had just closed was reset.
      const total = (await this.newRowsOf(task.taskId)).data.total;
      if (total < min) continue;
      const all = await allRows(this.client, task.taskId);
      return { task, rows: all.slice(all.length - total) };
    }
    throw new Error(`no task left with ${min} new rows`);
  }

  private async newRowsOf(taskId: string, attempts = 3): ReturnType<ScrapedeckClient['getNotExportedData']> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.client.getNotExportedData(taskId, 1);
      } catch (error) {
        if (attempt >= attempts || !(error instanceof ApiError) || error.kind !== 'network') throw error;
      }
    }
  }
}
