/**
 * Pulls killed with SIGKILL at each point where an interruption can fall (issue 29): a child
 * process runs the pull exactly as the extension does (the client over HTTP to a sandbox, the
 * sink, the protocol) and kills itself at the chosen point; the parent then pulls again and
 * compares the destination with the sandbox row by row. Shared by the unit tests and the bench.
 */
import { fork } from 'node:child_process';
import type { PullFormat } from '../../src/data/pull/pullSinks';
import { pullOnce, sandboxClient, wasmDir } from './pullScenario';

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

export interface KillSpec {
  baseUrl: string;
  apiKey: string;
  task: { taskId: string; taskName: string };
  file: string;
  format: PullFormat;
  batchSize: number;
  point: KillPoint;
  /** The batch (1-based) at which to die. */
  batch: number;
}

const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};

/** In the forked child: runs the pull and dies at the point. Returns false in any other process. */
export function isKillChild(): boolean {
  const raw = process.env[FLAG];
  if (raw === undefined) return false;
  const spec = JSON.parse(raw) as KillSpec;
  const client = sandboxClient(spec.baseUrl, spec.apiKey);
  let batch = 0;
  const at = (point: KillPoint) => spec.point === point && batch === spec.batch;
  void pullOnce({
    source: {
      getNotExportedData: (id, size, o) => client.getNotExportedData(id, size, o),
      markExported: async (id, o) => {
        const reply = client.markExported(id, o);
        if (at('mark-in-flight')) setImmediate(die);
        return reply;
      },
    },
    task: spec.task,
    file: spec.file,
    format: spec.format,
    batchSize: spec.batchSize,
    sink: {
      afterRecord: () => {
        batch++;
        if (at('record')) die();
      },
      midWrite: () => {
        if (spec.format === 'sqlite') batch++;
        if (at('mid-write')) die();
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
export function killedPull(script: string, spec: KillSpec): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { env: { ...process.env, [FLAG]: JSON.stringify(spec) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('error', reject);
    child.once('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the pull was not killed at ${spec.point} of batch ${spec.batch} (exit ${code ?? signal})`))));
  });
}

export { wasmDir };
