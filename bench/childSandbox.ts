/**
 * A sandbox in its own process, so the client being measured does not share an event loop or a
 * heap (the sandbox precomputes large record stores) with the server answering it. The child is
 * this very bundle, forked with an environment flag; it answers `info` at start and `stats` on ask.
 */
import { type ChildProcess, fork } from 'node:child_process';

import { type SandboxInfo, type SandboxOptions, type SandboxStats, startSandbox } from '../src/sandbox/server';

const FLAG = 'SCRAPEDECK_BENCH_SANDBOX';

type ToChild = { type: 'stats'; id: number } | { type: 'close' };
type FromChild = { type: 'ready'; info: SandboxInfo } | { type: 'stats'; id: number; stats: SandboxStats };

export interface ChildSandbox {
  info: SandboxInfo;
  stats(): Promise<SandboxStats>;
  close(): Promise<void>;
}

/** Call at the top of a bench module: in the forked child it runs the sandbox instead. */
export function isSandboxChild(): boolean {
  const raw = process.env[FLAG];
  if (raw === undefined || !process.send) return false;
  const { offsetMs, ...options } = JSON.parse(raw) as SandboxOptions & { offsetMs?: number };
  const shifted = offsetMs === undefined ? {} : { now: () => Date.now() + offsetMs };
  void startSandbox({ ...options, ...shifted }).then((sandbox) => {
    process.send?.({ type: 'ready', info: sandbox.info } satisfies FromChild);
    process.on('message', (m: ToChild) => {
      if (m.type === 'stats') process.send?.({ type: 'stats', id: m.id, stats: sandbox.stats } satisfies FromChild);
      else void sandbox.close().then(() => process.exit(0));
    });
  });
  return true;
}

/** `offsetMs`: the sandbox's clock runs this far from the real one (a bench pins its "today"). */
export function startChildSandbox(
  moduleFile: string,
  options: Omit<SandboxOptions, 'log' | 'now'> & { offsetMs?: number },
): Promise<ChildSandbox> {
  const child: ChildProcess = fork(moduleFile, [], {
    env: { ...process.env, [FLAG]: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const waiting = new Map<number, (s: SandboxStats) => void>();
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`sandbox child exited (${code ?? 'signal'})`)));
    child.on('message', (m: FromChild) => {
      if (m.type === 'stats') {
        waiting.get(m.id)?.(m.stats);
        waiting.delete(m.id);
        return;
      }
      resolve({
        info: m.info,
        stats: () =>
          new Promise<SandboxStats>((done) => {
            const id = nextId++;
            waiting.set(id, done);
            child.send({ type: 'stats', id } satisfies ToChild);
          }),
        close: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.send({ type: 'close' } satisfies ToChild);
          }),
      });
    });
  });
}
