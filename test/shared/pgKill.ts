/**
 * Pulls into PostgreSQL killed with SIGKILL at each point of a batch: a child process runs the
 * pull as the extension does (the client over HTTP to a sandbox, the PostgreSQL sink, the
 * protocol) and kills itself at the chosen point; its connection dies with it, and the server
 * rolls back whatever transaction it had open. The parent then pulls again and compares.
 */
import type { PgConnection } from '../../src/data/postgres/pgConnection';
import { killedChild, type KillSpecBase, runKillChild } from './killSwitch';
import { pgPullOnce } from './pgPull';

const FLAG = 'SCRAPEDECK_KILL_PG_PULL';

/**
 * - `before-begin`: the batch fetched, its transaction not begun
 * - `in-transaction`: half of the batch's rows inserted, the transaction open
 * - `before-mark`: committed (rows and record), the mark not sent
 * - `mark-in-flight`: the mark request sent, its reply not awaited
 * - `mark-applied`: the mark answered, the record not yet dropped
 */
export type PgKillPoint = 'before-begin' | 'in-transaction' | 'before-mark' | 'mark-in-flight' | 'mark-applied';
export const PG_KILL_POINTS: PgKillPoint[] = [
  'before-begin',
  'in-transaction',
  'before-mark',
  'mark-in-flight',
  'mark-applied',
];

export interface PgKillSpec extends KillSpecBase<PgKillPoint> {
  connection: PgConnection;
  password: string;
}

/** In the forked child: runs the pull and dies at the point. Returns false in any other process. */
export function isPgKillChild(): boolean {
  return runKillChild<PgKillSpec, PgKillPoint>(FLAG, (spec, kill) =>
    pgPullOnce({
      source: kill.source(spec),
      task: spec.task,
      connection: spec.connection,
      password: spec.password,
      batchSize: spec.batchSize,
      sink: {
        beforeBegin: () => {
          kill.batch++;
          kill.dieAt('before-begin');
        },
        midWrite: () => kill.dieAt('in-transaction'),
      },
      pull: kill.pullHooks(),
    }),
  );
}

/** Runs the child; resolves once it is dead. Rejects unless it died by SIGKILL (the point was reached). */
export function killedPgPull(script: string, spec: PgKillSpec): Promise<void> {
  return killedChild(script, FLAG, spec);
}
