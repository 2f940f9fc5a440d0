/**
 * A sandbox of a spec's own, beside the harness's (scripts/test-e2e.mjs), for options the other
 * specs must not see (a task with 60,000 rows in ada's Benchmarks group, another run clock). It
 * runs the same dist/sandbox.js in its own process group; its request log (stderr) goes to the
 * run's logs folder, each line with the time it arrived. `stop()` ends the group.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';

import type { SandboxInfo } from './support';
import { waitUntil } from './waits';

export interface OwnSandbox {
  info: SandboxInfo;
  /** The request log so far: each line and when it arrived (Date.now()). */
  requests: { at: number; line: string }[];
  /** Stops answering (SIGSTOP): a request on its way waits, as on a network that stalls. */
  pause(): void;
  /** Answers again (SIGCONT). */
  resume(): void;
  stop(): Promise<void>;
}

export async function startOwnSandbox(args: string[], logFile: string): Promise<OwnSandbox> {
  const entry = path.resolve(__dirname, '..', '..', '..', 'dist', 'sandbox.js');
  const child: ChildProcess = spawn(process.execPath, [entry, '--port', '0', '--json', ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile, { flags: 'a' });
  const requests: { at: number; line: string }[] = [];
  if (child.stderr) {
    createInterface({ input: child.stderr }).on('line', (line) => {
      requests.push({ at: Date.now(), line });
      log.write(`${new Date().toISOString()} ${line}\n`);
    });
  }
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(-child.pid, 'SIGCONT');
      process.kill(-child.pid, 'SIGTERM');
      const ended = (): boolean => child.exitCode !== null || child.signalCode !== null;
      await waitUntil('the own sandbox to stop', ended, { timeoutMs: 3_000, intervalMs: 50 }).catch(() => undefined);
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    log.end();
  };
  try {
    if (child.stdout === null) throw new Error('no stdout');
    const exit = once(child, 'exit').then(([code]) => {
      throw new Error(`the sandbox exited with ${String(code)} (see ${logFile})`);
    });
    exit.catch(() => undefined);
    const info = await Promise.race([
      once(createInterface({ input: child.stdout }), 'line', { signal: AbortSignal.timeout(60_000) }).then(
        ([line]) => JSON.parse(String(line)) as SandboxInfo,
        () => {
          throw new Error(`the sandbox printed nothing in 60 s (see ${logFile})`);
        },
      ),
      exit,
    ]);
    const signal = (name: NodeJS.Signals) => () => {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    };
    return { info, requests, pause: signal('SIGSTOP'), resume: signal('SIGCONT'), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
