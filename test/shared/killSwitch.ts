/**
 * What every killed-pull harness shares (files and SQLite in `pullKill.ts`, PostgreSQL in
 * `pgKill.ts`): the child reads its spec from the environment, counts batches, and dies by SIGKILL
 * at the chosen point; the points around the mark are the same for every sink. The harness
 * hands in only the sink it opens and its own points.
 */
import { fork } from 'node:child_process';

import type { PullOptions, PullSource } from '../../src/data/pull/pullRows';
import { sandboxClient } from './pullScenario';

/** The points every sink shares: written and flushed, mark sent, mark answered. */
export type MarkPoint = 'before-mark' | 'mark-in-flight' | 'mark-applied';

/** What every kill spec holds; each harness adds its destination and its points. */
export interface KillSpecBase<P extends string> {
  baseUrl: string;
  apiKey: string;
  task: { taskId: string; taskName: string };
  batchSize: number;
  point: P;
  /** The batch (1-based) at which to die. */
  batch: number;
}

export const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};

/** The batch the pull is at, and whether this is the point to die at. */
export class KillSwitch<P extends string> {
  batch = 0;

  constructor(private readonly spec: { point: P; batch: number }) {}

  /** Dies when the pull is at `point` of the chosen batch. */
  dieAt(point: P | MarkPoint): void {
    if (this.spec.point === point && this.batch === this.spec.batch) die();
  }

  /** The sandbox's rows, dying right after a mark request has left when that is the point. */
  source(spec: KillSpecBase<P>): PullSource {
    const client = sandboxClient(spec.baseUrl, spec.apiKey);
    return {
      getNotExportedData: (id, size, o) => client.getNotExportedData(id, size, o),
      markExported: async (id, o) => {
        const reply = client.markExported(id, o);
        if (this.spec.point === 'mark-in-flight' && this.batch === this.spec.batch) setImmediate(die);
        return reply;
      },
    };
  }

  /** The pull's own hooks: the points around the mark. */
  pullHooks(): Partial<PullOptions> {
    return {
      afterWrite: (b) => {
        this.batch = b;
        this.dieAt('before-mark');
      },
      afterMark: (b) => {
        this.batch = b;
        this.dieAt('mark-applied');
      },
    };
  }
}

/**
 * In the forked child: the spec from `flag`, and `pull` run with a kill switch; the process exits
 * 3 when the point was never reached, 4 when the pull failed. Returns false in any other process.
 */
export function runKillChild<S extends KillSpecBase<P>, P extends string>(
  flag: string,
  pull: (spec: S, kill: KillSwitch<P>) => Promise<unknown>,
): boolean {
  const raw = process.env[flag];
  if (raw === undefined) return false;
  const spec = JSON.parse(raw) as S;
  void pull(spec, new KillSwitch<P>(spec)).then(
    () => process.exit(3), // the point was never reached
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(4);
    },
  );
  return true;
}

/** Runs the child; resolves once it is dead. Rejects unless it died by SIGKILL (the point was reached). */
export function killedChild(script: string, flag: string, spec: { point: string; batch: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], {
      env: { ...process.env, [flag]: JSON.stringify(spec) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      signal === 'SIGKILL'
        ? resolve()
        : reject(new Error(`the pull was not killed at ${spec.point} of batch ${spec.batch} (exit ${code ?? signal})`)),
    );
  });
}
