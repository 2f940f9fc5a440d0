/**
 * Pulls killed with SIGKILL at each point where an interruption can fall (issue 29): a child
 * process runs the pull exactly as the extension does (the client over HTTP to a sandbox, the
 * sink, the protocol) and kills itself at the chosen point; the parent then pulls again and
 * compares the destination with the sandbox row by row. Shared by the unit tests and the bench.
 */
import type { PullFormat } from '../../src/data/pull/pullSinks';
import { killedChild, type KillSpecBase, runKillChild } from './killSwitch';
import { pullOnce, wasmDir } from './pullScenario';

const FLAG = 'SCRAPEDECK_KILL_PULL';

/**
 * - `record`: the batch is recorded, none of its bytes written (files; SQLite records inside its transaction)
 * - `mid-write`: half of the batch's bytes written and not flushed (SQLite: half its rows inserted, transaction open)
 * - `before-mark`: the batch written and flushed, the mark not sent
 * - `mark-in-flight`: the mark request sent, its reply not awaited (the service may or may not have it)
 * - `mark-applied`: the mark answered, its record not yet dropped
 */
export type KillPoint = 'record' | 'mid-write' | 'before-mark' | 'mark-in-flight' | 'mark-applied';

export const KILL_POINTS: Record<PullFormat, KillPoint[]> = {
  csv: ['record', 'mid-write', 'before-mark', 'mark-in-flight', 'mark-applied'],
  jsonl: ['record', 'mid-write', 'before-mark', 'mark-in-flight', 'mark-applied'],
  sqlite: ['mid-write', 'before-mark', 'mark-in-flight', 'mark-applied'],
};

export interface KillSpec extends KillSpecBase<KillPoint> {
  file: string;
  format: PullFormat;
}

/** In the forked child: runs the pull and dies at the point. Returns false in any other process. */
export function isKillChild(): boolean {
  return runKillChild<KillSpec, KillPoint>(FLAG, (spec, kill) =>
    pullOnce({
      source: kill.source(spec),
      task: spec.task,
      file: spec.file,
      format: spec.format,
      batchSize: spec.batchSize,
      sink: {
        afterRecord: () => {
          kill.batch++;
          kill.dieAt('record');
        },
        midWrite: () => {
          if (spec.format === 'sqlite') kill.batch++;
          kill.dieAt('mid-write');
        },
      },
      pull: kill.pullHooks(),
    }),
  );
}

/** Runs the child; resolves once it is dead. Rejects unless it died by SIGKILL (the point was reached). */
export function killedPull(script: string, spec: KillSpec): Promise<void> {
  return killedChild(script, FLAG, spec);
}

export { wasmDir };
