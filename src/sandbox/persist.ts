/**
 * The sandbox's state across a restart (`--state FILE`): what users changed (rows handed out and
 * marked exported, removals, runs, loop items, duplicates and moves, deprecations, tokens issued)
 * is written after every request that changed it, to a temporary file renamed onto FILE, so a
 * sandbox killed at any moment restarts with the last complete state. Everything else is seeded
 * and comes back the same from the seed. A file made by another seed or world, or one that does
 * not parse, is kept aside (FILE.unreadable) and the sandbox starts from the seed: nothing is lost.
 */
import { closeSync, existsSync, fsyncSync, lstatSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import * as z from 'zod';
import type { TokenSnapshot } from './auth';
import type { SandboxAction } from './loops';
import { TaskRuntime } from './runtime';
import type { SeedTask } from './seed';
import type { SandboxState } from './state';
import { errorMessage } from '../api/errors';

export const STATE_VERSION = 1;

/** What must match for a state to apply: it names tasks and rows of this world. */
export interface WorldKey {
  seed: number;
  bigTaskRows: number;
  extraTasks: number;
  extraTasksOneMethod: boolean;
  extraTasksOnly: boolean;
}

const num = z.number().finite();
const subtaskSchema = z.object({ subTaskId: z.string(), endsAt: num, stoppedAt: num.nullable() });
const runSchema = z.object({
  lotNo: z.string(),
  acceptedAt: num,
  startedAt: num,
  endsAt: num,
  plannedRows: num,
  first: num,
  outcome: z.enum(['Finished', 'Failed']),
  subtasks: z.array(subtaskSchema),
  end: z.object({ at: num, status: z.string(), rows: num }).optional(),
});
const runtimeSchema = z.object({
  run: runSchema.optional(),
  executedTimes: num,
  lots: z.array(z.object({ lotNo: z.string(), first: num, count: num })),
  rowEnd: num,
  visibleStart: num,
  exportedUpTo: num,
  pendingUpTo: num,
  schedule: z.object({ anchor: num, periodMs: num }).optional(),
});
const actionSchema = z.object({
  actionType: z.string(),
  actionId: z.string(),
  name: z.string(),
  loopType: z.enum(['URLList', 'TextList']),
  loopItems: z.array(z.string()),
  properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
const copySchema = z.object({ username: z.string(), taskId: z.string(), taskName: z.string(), taskGroupId: z.string(), copiedFrom: z.string() });
const stateFileSchema = z.object({
  version: z.literal(STATE_VERSION),
  world: z.object({ seed: num, bigTaskRows: num, extraTasks: num, extraTasksOneMethod: z.boolean(), extraTasksOnly: z.boolean() }),
  bornAt: num,
  runtimes: z.record(z.string(), runtimeSchema),
  loops: z.record(z.string(), z.array(actionSchema)),
  copies: z.array(copySchema),
  copyCount: num,
  /** Per account, per group: the task ids in order (after copies and moves). */
  groups: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
  deprecated: z.array(z.string()),
  tokens: z.object({
    access: z.array(z.tuple([z.string(), z.object({ username: z.string(), expiresAt: num })])),
    refresh: z.array(z.tuple([z.string(), z.object({ username: z.string(), used: z.boolean(), at: num })])),
  }),
});
export type StateFile = z.infer<typeof stateFileSchema>;

/** The state as written: only what differs from the seed matters, but all of it is small. */
export function snapshot(state: SandboxState, world: WorldKey): StateFile {
  const runtimes: StateFile['runtimes'] = {};
  for (const [taskId, rt] of state.ops.runs.entries()) runtimes[taskId] = rt.toJSON();
  const loops: StateFile['loops'] = {};
  for (const [taskId, actions] of state.ops.loops.entries()) loops[taskId] = actions.map((a) => ({ ...a, loopItems: [...a.loopItems], properties: { ...a.properties } }));
  const groups: StateFile['groups'] = {};
  const copies: StateFile['copies'] = [];
  for (const account of state.world.accounts) {
    const own: Record<string, string[]> = {};
    for (const g of account.groups) {
      own[g.taskGroupId] = g.tasks.map((t) => t.taskId);
      for (const t of g.tasks) if (t.copiedFrom !== undefined) copies.push({ username: account.username, taskId: t.taskId, taskName: t.taskName, taskGroupId: t.taskGroupId, copiedFrom: t.copiedFrom });
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

export type LoadResult = { kind: 'none' } | { kind: 'loaded'; file: StateFile } | { kind: 'set-aside'; reason: string; movedTo: string };

/** Reads FILE; one that cannot be used is moved aside (never overwritten), and the reason said. */
export function loadState(path: string, world: WorldKey): LoadResult {
  if (!existsSync(path)) return { kind: 'none' };
  let reason: string;
  try {
    if (lstatSync(path).isSymbolicLink()) throw new Error('it is a symbolic link');
    const parsed = stateFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')) as unknown);
    if (!parsed.success) throw new Error(`it does not parse (${parsed.error.issues[0]?.path.join('.') ?? 'body'}: ${parsed.error.issues[0]?.message ?? '?'})`);
    const mismatch = (Object.keys(world) as (keyof WorldKey)[]).find((k) => parsed.data.world[k] !== world[k]);
    if (mismatch === undefined) return { kind: 'loaded', file: parsed.data };
    reason = `it was made with another ${mismatch} (${String(parsed.data.world[mismatch])}, now ${String(world[mismatch])})`;
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
  for (const [taskId, data] of Object.entries(file.runtimes)) state.ops.runs.restore(taskId, TaskRuntime.fromJSON(data));
  for (const [taskId, actions] of Object.entries(file.loops)) state.ops.loops.restore(taskId, actions as SandboxAction[]);
  const byUser = new Map(state.world.accounts.map((a) => [a.username, a]));
  for (const c of file.copies) {
    const account = byUser.get(c.username);
    if (account === undefined) continue;
    const copy: SeedTask = { taskId: c.taskId, taskName: c.taskName, taskGroupId: c.taskGroupId, copiedFrom: c.copiedFrom };
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

/**
 * Writes the state: a temporary file beside FILE, flushed, then renamed onto it (a reader, or a
 * restart after a kill, sees the old file or the new one, never half of one). Owner-only: it
 * holds the sandbox's tokens.
 */
export function writeState(path: string, file: StateFile): void {
  if (existsSync(path) && lstatSync(path).isSymbolicLink()) throw new Error(`${path} is a symbolic link: not written through`);
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
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
export function keepState(state: SandboxState, path: string | undefined, world: WorldKey, log: ((line: string) => void) | undefined): { note: StateNote | undefined; save: () => void } {
  if (path === undefined) return { note: undefined, save: () => undefined };
  const loaded = loadState(path, world);
  if (loaded.kind === 'loaded') restore(state, loaded.file);
  const note: StateNote = loaded.kind === 'set-aside' ? { loaded: false, setAside: { reason: loaded.reason, movedTo: loaded.movedTo } } : { loaded: loaded.kind === 'loaded' };
  const save = (): void => {
    try {
      writeState(path, snapshot(state, world));
    } catch (err) {
      log?.(`state not written: ${errorMessage(err)}`);
    }
  };
  return { note, save };
}
