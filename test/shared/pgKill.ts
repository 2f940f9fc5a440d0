/**
 * Pulls into PostgreSQL killed with SIGKILL at each point of a batch: a child process runs the
 * pull as the extension does (the client over HTTP to a sandbox, the PostgreSQL sink, the
 * protocol) and kills itself at the chosen point; its connection dies with it, and the server
 * rolls back whatever transaction it had open. The parent then pulls again and compares.
 */
import { fork } from 'node:child_process';
import type { PgConnection } from '../../src/data/postgres/pgConnection';
import { pgPullOnce } from './pgPull';
import { sandboxClient } from './pullScenario';

const FLAG = 'SCRAPEDECK_KILL_PG_PULL';

/**
 * - `before-begin`: the batch fetched, its transaction not begun
 * - `in-transaction`: half of the batch's rows inserted, the transaction open
 * - `before-mark`: committed (rows and record), the mark not sent
 * - `mark-in-flight`: the mark request sent, its reply not awaited
 * - `mark-applied`: the mark answered, the record not yet dropped
 */
export type PgKillPoint = 'before-begin' | 'in-transaction' | 'before-mark' | 'mark-in-flight' | 'mark-applied';
export const PG_KILL_POINTS: PgKillPoint[] = ['before-begin', 'in-transaction', 'before-mark', 'mark-in-flight', 'mark-applied'];

export interface PgKillSpec {
  baseUrl: string;
  apiKey: string;
  task: { taskId: string; taskName: string };
  connection: PgConnection;
  password: string;
  batchSize: number;
  point: PgKillPoint;
  batch: number;
}

const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};

/** In the forked child: runs the pull and dies at the point. Returns false in any other process. */
export function isPgKillChild(): boolean {
  const raw = process.env[FLAG];
  if (raw === undefined) return false;
  const spec = JSON.parse(raw) as PgKillSpec;
  const client = sandboxClient(spec.baseUrl, spec.apiKey);
  let batch = 0;
  const at = (point: PgKillPoint) => spec.point === point && batch === spec.batch;
  void pgPullOnce({
    source: {
      getNotExportedData: (id, size, o) => client.getNotExportedData(id, size, o),
      markExported: async (id, o) => {
        const reply = client.markExported(id, o);
        if (at('mark-in-flight')) setImmediate(die);
        return reply;
      },
    },
    task: spec.task,
    connection: spec.connection,
    password: spec.password,
    batchSize: spec.batchSize,
    sink: {
      beforeBegin: () => {
        batch++;
        if (at('before-begin')) die();
      },
      midWrite: () => {
        if (at('in-transaction')) die();
      },
    },
    pull: {
      afterWrite: (b) => {
        batch = b;
        if (at('before-mark')) die();
      },
      afterMark: (b) => {
        batch = b;
        if (at('mark-applied')) die();
      },
    },
  }).then(
    () => process.exit(3), // the point was never reached
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(4);
    },
  );
  return true;
}

/** Runs the child; resolves once it is dead. Rejects unless it died by SIGKILL (the point was reached). */
export function killedPgPull(script: string, spec: PgKillSpec): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { env: { ...process.env, [FLAG]: JSON.stringify(spec) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('error', reject);
    child.once('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the pull was not killed at ${spec.point} of batch ${spec.batch} (exit ${code ?? signal})`))));
  });
}
