/**
 * Building blocks shared by the schemas of the operations in `spec/more-endpoints.md` (runs, task
 * parameters, data): limits, ids, counts, the `null` success payload and the string-coded error
 * envelope. The client checks requests with them before sending; the sandbox validates with the
 * same schemas, so the two cannot disagree.
 */
import * as z from 'zod';

import { envelope, requestIdSchema } from './schemas';

export const OPS_LIMITS = {
  /** Task ids per request (statuses, actions); longer lists are split by the client. */
  batch: 100,
  subtaskPageMax: 20,
  dataPageMax: 1000,
  /** Not the service's (not shown): no real id comes near it, and it bounds what one id can cost. */
  idMaxLength: 128,
  /** Subtask ids per start/stop request (not shown by the service; the client refuses more). */
  subtaskIdsMax: 100,
} as const;

/** A task id as sent: non-empty, no surrounding white space, bounded. */
export const taskIdSchema = z
  .string()
  .trim()
  .min(1, 'a task id is required')
  .max(OPS_LIMITS.idMaxLength, `a task id has at most ${OPS_LIMITS.idMaxLength} characters`);

export const taskIdListSchema = z
  .array(taskIdSchema)
  .min(1, 'at least one task id is required')
  .max(OPS_LIMITS.batch, `at most ${OPS_LIMITS.batch} task ids per request`);

/** A count the service sends as a number (or a numeric string: tolerated, read as the number). */
export const countSchema = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, 'must be a whole number')])
  .transform((v) => Number(v));

/** A count that may be absent or null: null means "not known", never 0. */
export const nullableCount = countSchema.nullish().transform((v) => v ?? null);

/** A list the service might send as null when empty. */
export function listOf<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((v) => v ?? []);
}

/** `data: null` on success (start, stop, mark exported, remove): whatever comes is accepted and dropped. */
export const nullDataResponseSchema = envelope(z.unknown());

/** The error envelope of these operations: `{ error: { code, message }, requestId }`, code a string (or an integer). */
export const serviceErrorSchema = z.object({
  error: z.object({ code: z.union([z.string(), z.number().int()]), message: z.string() }),
  requestId: requestIdSchema,
});
export type ServiceErrorBody = z.infer<typeof serviceErrorSchema>;

/** The sandbox's string codes (the service names some of them; the rest are the sandbox's choice, see docs/contracts/api-operations.md). */
export const SERVICE_CODES = {
  invalidParameter: 'InvalidParameter',
  required: 'InvalidParameter.Required',
  invalidTaskId: 'InvalidTaskId',
  invalidTaskGroupId: 'InvalidTaskGroupId',
  invalidLotNo: 'InvalidLotNo',
  taskUpdateFail: 'TaskUpdateFail',
  alreadyRunning: 'TaskAlreadyRunning',
  notRunning: 'TaskNotRunning',
  plan: 'Forbidden.Plan',
} as const;
