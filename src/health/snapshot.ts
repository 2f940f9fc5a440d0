/**
 * One computed health: the tasks it covers and their totals in both windows, with when and for
 * which dates. It keeps totals, not verdicts, so new thresholds apply without a request. Stored
 * in globalState in a compact form, parsed with zod when read back (nothing stored is trusted).
 * No secrets: task and group ids and names, and counts.
 */
import * as z from 'zod';

import { daySchema } from '../api/schemas/schemas';
import type { Totals } from './healthModel';
import type { DayRange } from './healthWindow';

export interface SnapshotTask {
  taskId: string;
  taskName: string;
  taskGroupId: string;
  taskGroupName: string;
  /** null: no record in the window (no runs). */
  current: Totals | null;
  previous: Totals | null;
}

export interface HealthSnapshot {
  windowDays: number;
  current: DayRange;
  previous: DayRange;
  /** Epoch ms when the answers arrived. */
  computedAt: number;
  tasks: SnapshotTask[];
}

const count = z.number().finite().nonnegative();
/** [runs, judgedRuns, failures, timedRuns, seconds] */
const packedTotals = z.tuple([count, count, count, count, count]).nullable();
const text = z.string().max(1000);
const range = z.object({ start: daySchema, end: daySchema });

/** The stored form: group names once, totals as tuples. */
export const storedSnapshotSchema = z.object({
  windowDays: z.number().int().min(1).max(400),
  current: range,
  previous: range,
  computedAt: z.number().finite().nonnegative(),
  groups: z.array(z.tuple([text, text])).max(100_000),
  tasks: z.array(z.tuple([text, text, z.number().int().nonnegative(), packedTotals, packedTotals])).max(100_000),
});
export type StoredSnapshot = z.infer<typeof storedSnapshotSchema>;

const pack = (t: Totals | null): StoredSnapshot['tasks'][number][3] =>
  t === null ? null : [t.runs, t.judgedRuns, t.failures, t.timedRuns, t.seconds];
const unpack = (t: StoredSnapshot['tasks'][number][3]): Totals | null =>
  t === null ? null : { runs: t[0], judgedRuns: t[1], failures: t[2], timedRuns: t[3], seconds: t[4] };

export function encodeSnapshot(s: HealthSnapshot): StoredSnapshot {
  const groupIndex = new Map<string, number>();
  const groups: [string, string][] = [];
  const tasks = s.tasks.map((t): StoredSnapshot['tasks'][number] => {
    let gi = groupIndex.get(t.taskGroupId);
    if (gi === undefined) {
      gi = groups.push([t.taskGroupId, t.taskGroupName]) - 1;
      groupIndex.set(t.taskGroupId, gi);
    }
    return [t.taskId, t.taskName, gi, pack(t.current), pack(t.previous)];
  });
  return {
    windowDays: s.windowDays,
    current: s.current,
    previous: s.previous,
    computedAt: s.computedAt,
    groups,
    tasks,
  };
}

/** undefined when the stored value is not a snapshot (an older shape, or damaged). */
export function decodeSnapshot(raw: unknown): HealthSnapshot | undefined {
  const parsed = storedSnapshotSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const { groups, tasks, ...rest } = parsed.data;
  const out: SnapshotTask[] = [];
  for (const [taskId, taskName, gi, current, previous] of tasks) {
    const group = groups[gi];
    if (!group) return undefined;
    out.push({
      taskId,
      taskName,
      taskGroupId: group[0],
      taskGroupName: group[1],
      current: unpack(current),
      previous: unpack(previous),
    });
  }
  return { ...rest, tasks: out };
}
