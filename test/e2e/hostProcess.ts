/**
 * The extension host of this run's workbench window, found from this run's code-server (its
 * remote agent's log names each extension host it launched and each that exited, by pid), never
 * by a process name: other sessions on the machine run code-server too. Linux only (/proc).
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';

import type { E2eContext } from './support';

/** The pids this run's code-server launched as extension hosts and that have not exited. */
function launchedHosts(ctx: E2eContext): number[] {
  const logs = path.join(ctx.run.ud, 'logs');
  const launched = new Set<number>();
  for (const session of existsSync(logs) ? readdirSync(logs) : []) {
    const file = path.join(logs, session, 'remoteagent.log');
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const m =
        /\[ExtensionHostConnection\] <(\d+)> (Launched Extension Host Process|Extension Host Process exited)/.exec(
          line,
        );
      if (m === null) continue;
      if (m[2]?.startsWith('Launched')) launched.add(Number(m[1]));
      else launched.delete(Number(m[1]));
    }
  }
  return [...launched];
}

const cmdline = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

const parentOf = (pid: number): number => {
  try {
    // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
};

/** Whether a process of this run's code-server (its command line names the run's user data folder) is an ancestor. */
function underThisRun(pid: number, ctx: E2eContext): boolean {
  for (let p = parentOf(pid), hops = 0; p > 1 && hops < 10; p = parentOf(p), hops++) {
    if (cmdline(p).includes(ctx.run.ud)) return true;
  }
  return false;
}

/** Whether the process holds a file open under `folder`. */
function holdsFileIn(pid: number, folder: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(`${folder}${path.sep}`);
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/**
 * The live extension host of this run's window: launched by this run's code-server and not
 * exited. Several live (a closed window's host not yet gone): the one holding a file under
 * `writing` open (the pull's file). Undefined when none, or not one alone.
 */
export function ourExtensionHost(ctx: E2eContext, writing?: string): number | undefined {
  const live = launchedHosts(ctx).filter((pid) => /extensionHost/.test(cmdline(pid)) && underThisRun(pid, ctx));
  if (live.length === 1) return live[0];
  const holding = writing === undefined ? [] : live.filter((pid) => holdsFileIn(pid, writing));
  return holding.length === 1 ? holding[0] : undefined;
}

/** Whether the process is gone (or a zombie). */
export function isGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}
