/**
 * Cloud extraction (runs): task statuses v1 and v2, subtask statuses, and the request bodies of
 * start/stop. Status values are open: `Extracting` and `Stopped` are the ones the spec shows, and
 * any other value is kept as it came (a number becomes its text), never refused.
 */
import * as z from 'zod';

import { listOf, nullableCount, OPS_LIMITS, taskIdListSchema, taskIdSchema } from './opsSchemas';
import { envelope, idSchema, nullableString } from './schemas';

/** A status value as it came; the full list is not published. */
export const statusValueSchema = z.union([z.string(), z.number()]).transform((v) => String(v));

/** A service time (`2018-04-04T18:34:20.973`, no zone shown) kept as the text it came as; null if absent. */
export const serviceTimeSchema = z
  .string()
  .nullish()
  .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v));

export const taskStatusV1Schema = z.object({
  taskId: idSchema,
  taskName: nullableString,
  status: statusValueSchema,
});
export type TaskStatusV1 = z.infer<typeof taskStatusV1Schema>;

export const taskStatusV2Schema = z.object({
  taskId: idSchema,
  status: statusValueSchema,
  currentTotalExtractCount: nullableCount,
  executedTimes: nullableCount,
  subTaskCount: nullableCount,
  startExecuteTime: serviceTimeSchema,
  endExecuteTime: serviceTimeSchema,
  nextExecuteTime: serviceTimeSchema,
});
export type TaskStatusV2 = z.infer<typeof taskStatusV2Schema>;

export const taskStatusV1ResponseSchema = envelope(listOf(taskStatusV1Schema));
export const taskStatusV2ResponseSchema = envelope(listOf(taskStatusV2Schema));

export const subtaskStatusSchema = z.object({
  subTaskId: idSchema,
  status: statusValueSchema,
});
export type SubtaskStatus = z.infer<typeof subtaskStatusSchema>;
export const subtaskStatusResponseSchema = envelope(listOf(subtaskStatusSchema));

/**
 * What a start answers. The published example shows `data: null`; two public clients read
 * `data.lotNo` (the run's lot, a string of up to 19 digits: kept exact, never a number) and
 * `data.status`. Read leniently: the start happened whatever `data` holds, so an odd field is
 * dropped (null), never a reason to call the start failed.
 */
export interface StartedRun {
  /** The run's lot number (`GET /data/lotno/all`), or null when the service did not send one. */
  lotNo: string | null;
  /** The run's status as sent (`Waiting`, `Extracting`…), or null. */
  status: string | null;
}

const LOT_NO_MAX = 128;

/** A lot number as text: a string as sent (trimmed, no control characters); a number only when JSON kept it exact. */
function lotNoOf(value: unknown): string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  // eslint-disable-next-line no-control-regex
  return text === '' || text.length > LOT_NO_MAX || /[\u0000-\u001f\u007f]/.test(text) ? null : text;
}

export const startedRunSchema = z.unknown().transform((data): StartedRun | null => {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const d = data as { lotNo?: unknown; status?: unknown };
  const status = typeof d.status === 'string' || typeof d.status === 'number' ? String(d.status) : null;
  return { lotNo: lotNoOf(d.lotNo), status };
});
export const startResponseSchema = envelope(startedRunSchema);

// ---- requests -------------------------------------------------------------------------------

/**
 * Start / stop subtasks. The published path is written `cloudextraction/subtasks{start}`; what
 * stands in the braces' place is not certain: two public clients send `subtasks:start`, one sends
 * `subtasks/start`. Both spellings are written here and nowhere else (the client sends them, the
 * sandbox answers them). The client tries `colon` first; a route 404 makes it try the other once
 * and remember, per service address, the one that worked (`ServiceRoutes`).
 */
export const SUBTASK_ACTION_PATHS = {
  colon: { start: '/cloudextraction/subtasks:start', stop: '/cloudextraction/subtasks:stop' },
  slash: { start: '/cloudextraction/subtasks/start', stop: '/cloudextraction/subtasks/stop' },
} as const;
export type SubtaskSpelling = keyof typeof SUBTASK_ACTION_PATHS;
/** The spelling tried first at a service address nothing is known of. */
export const SUBTASK_ACTION_PATH = SUBTASK_ACTION_PATHS.colon;

export const taskIdsBodySchema = z.object({ taskIds: taskIdListSchema });
export const taskIdBodySchema = z.object({ taskId: taskIdSchema });

export const subtaskPageSchema = z.object({
  page: z.number().int().min(1, 'page starts at 1'),
  size: z.number().int().min(1, 'size is 1 to 20').max(OPS_LIMITS.subtaskPageMax, 'size is 1 to 20'),
});
export type SubtaskPage = z.infer<typeof subtaskPageSchema>;

export const subtasksBodySchema = z.object({
  taskId: taskIdSchema,
  subTaskIds: z
    .array(z.string().trim().min(1, 'a subtask id is required').max(OPS_LIMITS.idMaxLength))
    .min(1, 'at least one subtask id is required')
    .max(OPS_LIMITS.subtaskIdsMax, `at most ${OPS_LIMITS.subtaskIdsMax} subtask ids per request`),
});

/**
 * A service time as epoch ms. The spec's times carry no zone; they are read as UTC (say so where
 * they are shown). Undefined when the text is not a date-time.
 */
export function parseServiceTime(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!m) return undefined;
  const [, day, time, zone] = m as unknown as [string, string, string, string | undefined];
  // Date.parse reads at most milliseconds: cut longer fractions.
  const clipped = time.replace(/(\.\d{3})\d+$/, '$1');
  const ms = Date.parse(`${day}T${clipped}${zone ?? 'Z'}`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Epoch ms as the service writes times: `yyyy-MM-ddTHH:mm:ss.SSS`, UTC, no zone (the sandbox's replies). */
export function formatServiceTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23);
}
