/**
 * npm test's second lane yields the CPU (scripts/lib/proc.mjs, yieldCpu): every process group the
 * harness starts for it runs at nice 10, on the process and on its session's scheduling group
 * (Linux shares the CPU equally between sessions, whatever one process's nice says). A group
 * started without the setting keeps the usual priority.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';

import { importScriptLib } from './helpers/scriptLib';

interface ProcLib {
  YIELD_ENV: string;
  startGroup(cmd: string, args: string[], options: { env?: NodeJS.ProcessEnv; stdio?: 'ignore' }): ChildProcess;
  killGroup(pid: number | undefined, options?: { graceMs?: number }): Promise<void>;
  pidsWithArgument(text: string): number[];
}

/** "nice N" of the session's scheduling group, or undefined where the kernel has none. */
function groupNice(pid: number): number | undefined {
  const file = `/proc/${pid}/autogroup`;
  if (!existsSync(file)) return undefined;
  return Number(/nice (-?\d+)/.exec(readFileSync(file, 'utf8'))?.[1]);
}

describe('scripts: a yielding stage runs its process groups at a lower CPU priority', () => {
  let lib: ProcLib;
  const started: ChildProcess[] = [];
  before(async () => {
    lib = await importScriptLib<ProcLib>('proc.mjs');
  });
  after(async () => {
    for (const child of started) await lib.killGroup(child.pid, { graceMs: 500 });
  });

  const start = (env: NodeJS.ProcessEnv, marker: string): number => {
    const child = lib.startGroup(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', marker], {
      env,
      stdio: 'ignore',
    });
    started.push(child);
    assert.ok(child.pid);
    return child.pid;
  };

  it('with the setting: the process at nice 10, and its session too where the kernel groups sessions', () => {
    const pid = start({ ...process.env, [lib.YIELD_ENV]: '10' }, 'yielding');
    assert.equal(getPriority(pid), 10);
    const group = groupNice(pid);
    if (group !== undefined) assert.equal(group, 10);
  });

  it('without it: the usual priority, on both', () => {
    const env = { ...process.env };
    delete env[lib.YIELD_ENV];
    const pid = start(env, 'not-yielding');
    assert.equal(getPriority(pid), getPriority(process.pid));
    const group = groupNice(pid);
    if (group !== undefined) assert.equal(group, 0);
  });

  it('finds a process by one of its arguments (how a yielding stage finds its Chromium)', async () => {
    const marker = `scrapedeck-marker-${process.pid}-${Date.now()}`;
    const pid = start(process.env, marker);
    // Until the child has exec'd, /proc shows the command line it was forked with (ours).
    let found: number[] = [];
    for (let i = 0; i < 100 && found.length === 0; i++) {
      found = lib.pidsWithArgument(marker);
      if (found.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(found, [pid]);
  });
});
