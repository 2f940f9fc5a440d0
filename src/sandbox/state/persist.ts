/**
 * The sandbox's state across a restart (`--state FILE`): what users changed (rows handed out and
 * marked exported, removals, runs, loop items, duplicates and moves, deprecations, tokens issued)
 * is written after every request that changed it, to a temporary file renamed onto FILE, so a
 * sandbox killed at any moment restarts with the last complete state. Everything else is seeded
 * and comes back the same from the seed. A file made by another seed or world, one that does not
 * parse within the bounds of `stateSchema.ts`, or one holding what this sandbox could not have
 * written (a name it did not give, a token it would not grant) is refused with one sentence, kept
 * aside (FILE.unreadable), and the sandbox starts from the seed: nothing is lost, nothing planted is used.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';

import { errorMessage } from '../../api/errors/errors';
import type { SeedTask } from '../seed/seed';
import type { TokenSnapshot } from './auth';
import type { SandboxAction } from './loops';
import { TaskRuntime } from './runtime';
import type { SandboxState } from './state';
import { STATE_MAX_BYTES, STATE_VERSION, type StateFile, stateFileSchema, vouch } from './stateSchema';

export { STATE_VERSION, type StateFile };

/** What must match for a state to apply: it names tasks and rows of this world. */
export interface WorldKey {
  seed: number;
  bigTaskRows: number;
  extraTasks: number;
  extraTasksOneMethod: boolean;
  extraTasksOnly: boolean;
}

/** The state as written: only what differs from the seed matters, but all of it is small. */
export function snapshot(state: SandboxState, world: WorldKey): StateFile {
  const runtimes: StateFile['runtimes'] = {};
  for (const [taskId, rt] of state.ops.runs.entries()) runtimes[taskId] = rt.toJSON();
  const loops: StateFile['loops'] = {};
  for (const [taskId, actions] of state.ops.loops.entries())
    loops[taskId] = actions.map((a) => ({ ...a, loopItems: [...a.loopItems], properties: { ...a.properties } }));
  const groups: StateFile['groups'] = {};
  const copies: StateFile['copies'] = [];
  for (const account of state.world.accounts) {
    const own: Record<string, string[]> = {};
    for (const g of account.groups) {
      own[g.taskGroupId] = g.tasks.map((t) => t.taskId);
      for (const t of g.tasks)
        if (t.copiedFrom !== undefined)
          copies.push({
            username: account.username,
            taskId: t.taskId,
            taskName: t.taskName,
            taskGroupId: t.taskGroupId,
            copiedFrom: t.copiedFrom,
          });
    }
    groups[account.username] = own;
  }
  return {
    version: STATE_VERSION,
    world,
    bornAt: state.ops.runs.options.bornAt,
    runtimes,
    loops,
    copies,
    copyCount: state.ops.tasks.copyCount,
    groups,
    deprecated: [...state.deprecated],
    tokens: state.tokens.toSnapshot(),
  };
}

export type LoadResult =
  { kind: 'none' } | { kind: 'loaded'; file: StateFile } | { kind: 'set-aside'; reason: string; movedTo: string };

/** FILE's text, read without following a link, at most STATE_MAX_BYTES. */
function readOwnFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new Error('it is a symbolic link');
    throw e;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('it is not a regular file');
    if (stat.size > STATE_MAX_BYTES)
      throw new Error(`it is larger (${stat.size} bytes) than any state the sandbox writes`);
    const buffer = Buffer.alloc(stat.size);
    let at = 0;
    while (at < buffer.length) {
      const n = readSync(fd, buffer, at, buffer.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return buffer.subarray(0, at).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads FILE; one that cannot be used is moved aside (never overwritten), and the reason said.
 * `check` says why a parsed file could not have been written by this sandbox (`vouch`).
 */
export function loadState(
  path: string,
  world: WorldKey,
  check: (file: StateFile) => string | undefined = () => undefined,
): LoadResult {
  if (!existsSync(path) && !isLink(path)) return { kind: 'none' };
  let reason: string;
  try {
    if (isLink(path)) throw new Error('it is a symbolic link');
    const parsed = stateFileSchema.safeParse(JSON.parse(readOwnFile(path)) as unknown);
    if (!parsed.success)
      throw new Error(
        `it does not parse (${parsed.error.issues[0]?.path.join('.') ?? 'body'}: ${parsed.error.issues[0]?.message ?? '?'})`,
      );
    const mismatch = (Object.keys(world) as (keyof WorldKey)[]).find((k) => parsed.data.world[k] !== world[k]);
    if (mismatch !== undefined)
      throw new Error(
        `it was made with another ${mismatch} (${String(parsed.data.world[mismatch])}, now ${String(world[mismatch])})`,
      );
    const foreign = check(parsed.data);
    if (foreign !== undefined) throw new Error(`it holds what this sandbox did not write: ${foreign}`);
    return { kind: 'loaded', file: parsed.data };
  } catch (e) {
    reason = errorMessage(e);
  }
  const movedTo = `${path}.unreadable`;
  renameSync(path, movedTo);
  return { kind: 'set-aside', reason, movedTo };
}

/** Applies a loaded state to a freshly seeded sandbox (before it answers anything). */
export function restore(state: SandboxState, file: StateFile): void {
  state.ops.runs.options.bornAt = file.bornAt;
  for (const [taskId, data] of Object.entries(file.runtimes))
    state.ops.runs.restore(taskId, TaskRuntime.fromJSON(data));
  for (const [taskId, actions] of Object.entries(file.loops))
    state.ops.loops.restore(taskId, actions as SandboxAction[]);
  const byUser = new Map(state.world.accounts.map((a) => [a.username, a]));
  for (const c of file.copies) {
    const account = byUser.get(c.username);
    if (account === undefined) continue;
    const copy: SeedTask = {
      taskId: c.taskId,
      taskName: c.taskName,
      taskGroupId: c.taskGroupId,
      copiedFrom: c.copiedFrom,
    };
    state.ops.tasks.adopt(account, copy);
  }
  state.ops.tasks.copyCount = file.copyCount;
  for (const [username, groups] of Object.entries(file.groups)) {
    const account = byUser.get(username);
    if (account !== undefined) state.ops.tasks.arrange(account, groups);
  }
  for (const ref of file.deprecated) if (state.world.apps.has(ref)) state.deprecated.add(ref);
  state.tokens.restore(file.tokens as TokenSnapshot);
}

function isLink(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
}

/**
 * Writes the state: a temporary file beside FILE, flushed, then renamed onto it (a reader, or a
 * restart after a kill, sees the old file or the new one, never half of one). Owner-only: it
 * holds the sandbox's tokens. The temporary file has a random name and is created exclusively
 * without following a link: whatever was planted beside FILE (a link, a file) is never opened.
 */
export function writeState(path: string, file: StateFile): void {
  if (isLink(path)) throw new Error(`${path} is a symbolic link: not written through`);
  const temp = `${path}.${randomBytes(8).toString('hex')}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, JSON.stringify(file));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (e) {
    unlinkSync(temp);
    throw e;
  }
}

/** What became of the state file at start: applied, or a fresh start (with why, when one was set aside). */
export interface StateNote {
  loaded: boolean;
  setAside?: { reason: string; movedTo: string };
}

/**
 * Reads the state file into a freshly seeded sandbox and returns how to keep it: `save()` after
 * each change (a failure is logged, never thrown: the request was answered). No path: nothing kept.
 */
export function keepState(
  state: SandboxState,
  path: string | undefined,
  world: WorldKey,
  log: ((line: string) => void) | undefined,
  tokenTtlMs: number,
): { note: StateNote | undefined; save: () => void } {
  if (path === undefined) return { note: undefined, save: () => undefined };
  const loaded = loadState(path, world, (file) => vouch(file, state.world, state.now(), tokenTtlMs));
  if (loaded.kind === 'loaded') restore(state, loaded.file);
  const note: StateNote =
    loaded.kind === 'set-aside'
      ? { loaded: false, setAside: { reason: loaded.reason, movedTo: loaded.movedTo } }
      : { loaded: loaded.kind === 'loaded' };
  const save = (): void => {
    try {
      writeState(path, snapshot(state, world));
    } catch (err) {
      log?.(`state not written: ${errorMessage(err)}`);
    }
  };
  return { note, save };
}
