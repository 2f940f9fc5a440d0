/**
 * What a state file (`--state FILE`, persist.ts) may hold, with bounds: a file the sandbox did not
 * write (planted, edited, another tool's) is refused unless every value is one the sandbox itself
 * could have written. Strings are short and of the sandbox's own shapes (ids, tokens as `auth.ts`
 * makes them), numbers are integers in range or times Date can hold, and `vouch` checks what the
 * schema cannot: the accounts, tasks and groups named exist in this world, a copy's name is its
 * original's with " (copy)" added, and no token outlives what this sandbox would grant.
 */
import * as z from 'zod';

import type { World } from '../seed/seed';

export const STATE_VERSION = 1;
/** The sandbox writes a few hundred KB at most; a bigger file is not one of its own. */
export const STATE_MAX_BYTES = 64 * 1024 * 1024;

/** Epoch milliseconds Date can hold. */
const time = z.number().min(0).max(8.64e15);
/** Rows, runs, offsets: whole numbers no world of the sandbox comes near. */
const count = z.number().int().min(0).max(1e12);
const id = z.string().regex(/^[A-Za-z0-9_.-]{1,80}$/);
/** One line of text: no control, format or separator character. */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u);

const subtaskSchema = z.object({ subTaskId: id, endsAt: time, stoppedAt: time.nullable() });
const runSchema = z.object({
  lotNo: id,
  acceptedAt: time,
  startedAt: time,
  endsAt: time,
  plannedRows: count,
  first: count,
  outcome: z.enum(['Finished', 'Failed']),
  subtasks: z.array(subtaskSchema).max(1000),
  end: z.object({ at: time, status: text(40), rows: count }).optional(),
});
const runtimeSchema = z.object({
  run: runSchema.optional(),
  executedTimes: count,
  lots: z.array(z.object({ lotNo: id, first: count, count })).max(100_000),
  rowEnd: count,
  visibleStart: count,
  exportedUpTo: count,
  pendingUpTo: count,
  schedule: z.object({ anchor: time, periodMs: z.number().int().min(1).max(1e12) }).optional(),
});
const actionSchema = z.object({
  actionType: id,
  actionId: id,
  name: text(200),
  loopType: z.enum(['URLList', 'TextList']),
  loopItems: z.array(text(10_000)).max(100_000),
  properties: z.record(id, z.union([text(10_000), z.number().finite(), z.boolean()])),
});
const copySchema = z.object({ username: id, taskId: id, taskName: text(1000), taskGroupId: id, copiedFrom: id });
/** As `auth.ts` makes them: a prefix and 24 random bytes in base64url. */
const accessToken = z.string().regex(/^sat_[A-Za-z0-9_-]{32}$/);
const refreshToken = z.string().regex(/^srt_[A-Za-z0-9_-]{32}$/);

export const stateFileSchema = z.object({
  version: z.literal(STATE_VERSION),
  world: z.object({
    seed: z
      .number()
      .int()
      .min(-(2 ** 53))
      .max(2 ** 53),
    bigTaskRows: count,
    extraTasks: count,
    extraTasksOneMethod: z.boolean(),
    extraTasksOnly: z.boolean(),
  }),
  bornAt: time,
  runtimes: z.record(id, runtimeSchema),
  loops: z.record(id, z.array(actionSchema).max(1000)),
  copies: z.array(copySchema).max(100_000),
  copyCount: count,
  /** Per account, per group: the task ids in order (after copies and moves). */
  groups: z.record(id, z.record(id, z.array(id).max(1_000_000))),
  deprecated: z.array(text(400)).max(100_000),
  tokens: z.object({
    access: z.array(z.tuple([accessToken, z.object({ username: id, expiresAt: time })])).max(1_000_000),
    refresh: z.array(z.tuple([refreshToken, z.object({ username: id, used: z.boolean(), at: time })])).max(1_000_000),
  }),
});
export type StateFile = z.infer<typeof stateFileSchema>;

const COPY_SUFFIX = / \(copy(?: [1-9][0-9]{0,5})?\)$/;

/** A copy's name is its original's with one or more " (copy)" / " (copy N)" added (taskIndex.ts). */
function isCopyName(name: string, original: string): boolean {
  let rest = name;
  while (COPY_SUFFIX.test(rest)) {
    rest = rest.replace(COPY_SUFFIX, '');
    if (rest === original) return true;
  }
  return false;
}

/** Why the sandbox could not have written this state for this world, or undefined when it could. */
export function vouch(file: StateFile, world: World, now: number, tokenTtlMs: number): string | undefined {
  const accounts = new Map(world.accounts.map((a) => [a.username, a]));
  for (const c of file.copies) {
    const account = accounts.get(c.username);
    const original = account?.groups.flatMap((g) => g.tasks).find((t) => t.taskId === c.copiedFrom);
    if (account === undefined || original === undefined)
      return `a copy names a task or account this world does not have (${c.copiedFrom})`;
    if (!account.groups.some((g) => g.taskGroupId === c.taskGroupId))
      return `a copy is in a group its account does not have (${c.taskGroupId})`;
    if (!isCopyName(c.taskName, original.taskName))
      return `a copy of task ${c.copiedFrom} has a name the sandbox did not give it`;
  }
  for (const [, e] of file.tokens.access) {
    if (!accounts.has(e.username)) return 'a token names an account this world does not have';
    if (e.expiresAt > now + tokenTtlMs) return 'a token expires later than any this sandbox grants';
  }
  for (const [, e] of file.tokens.refresh) {
    if (!accounts.has(e.username)) return 'a token names an account this world does not have';
    if (e.at > now) return 'a token was issued in the future';
  }
  return undefined;
}
