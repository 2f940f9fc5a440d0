/**
 * The typed messages between the analytics panel (extension side) and its page (browser side).
 * Both sides import this file and parse every message on arrival with these schemas; a message
 * that does not parse is logged and ignored. A request carries an `id`; its reply or error
 * carries the same `id`.
 */
import * as z from 'zod';
import { analyticsPageSchema, analyticsQuerySchema, analyticsRecordSchema } from '../api/schemas';

const id = z.string().min(1).max(64);

/**
 * Bounds on everything a message may carry: the page is not trusted, and one oversized item (a
 * megabyte "task id", a million request ids) must be refused whole, with a log line, before the
 * host stores, logs or sends it anywhere. The numbers are far above any real value.
 */
export const MESSAGE_LIMITS = {
  taskId: 128,
  label: 300,
  memberNames: 100 * 257,
  shortText: 64,
  requestIds: 1_001,
  requestId: 128,
  records: 100_000,
  logMessage: 4_000,
} as const;
const L = MESSAGE_LIMITS;
const taskIdText = z.string().max(L.taskId);

export const taskOptionSchema = z.object({
  taskId: taskIdText,
  taskName: z.string().max(L.label),
  taskGroupName: z.string().max(L.label).optional(),
});
export type TaskOption = z.infer<typeof taskOptionSchema>;

/** What opened the panel: a task, a group's tasks, or nothing (all tasks). */
export const presetSchema = z.object({
  taskIds: z.array(taskIdText.min(1)).max(100).optional(),
  label: z.string().max(200).optional(),
});
export type Preset = z.infer<typeof presetSchema>;

/**
 * An error as the page shows it: enough to explain it and to copy the request id.
 * `kind` is an ApiErrorKind, or 'internal' (a bug on the host side). 'cancelled' means the request
 * was cancelled (by `cancel`, or the user dismissed the save dialog / task pick): the page settles
 * that request without showing an error; for a running query the host cancelled (an account change
 * closed the client), it ends the wait with a notice.
 */
export const wireErrorSchema = z.object({
  kind: z.string().max(L.shortText),
  message: z.string().max(L.logMessage),
  status: z.number().int().optional(),
  code: z.union([z.string().max(L.shortText), z.number()]).optional(),
  requestId: z.string().max(L.requestId).optional(),
  field: z.string().max(L.shortText).optional(),
});
export type WireError = z.infer<typeof wireErrorSchema>;

/** The form as the user left it (values may be invalid: the page explains them). */
export const formStateSchema = z.object({
  start: z.string().max(L.shortText),
  end: z.string().max(L.shortText),
  timeGranularity: z.enum(['Day', 'Week', 'Month']),
  collectionMethod: z.enum(['All', 'Cloud', 'Local']),
  taskIds: z.array(taskIdText).max(100),
  taskLabels: z.array(z.string().max(L.label)).max(100),
  memberNames: z.string().max(L.memberNames), // free text, comma or newline separated
  pageSize: z.string().max(L.shortText),
  page: z.number().int().min(1),
});
export type FormState = z.infer<typeof formStateSchema>;

/** The result on screen: one page, or every page fetched with "Fetch all pages". */
export const resultStateSchema = z.object({
  mode: z.enum(['page', 'all']),
  query: analyticsQuerySchema,
  total: z.number().int().nonnegative(),
  records: z.array(analyticsRecordSchema).max(L.records),
  requestIds: z.array(z.string().max(L.requestId)).max(L.requestIds),
  fetchedAt: z.string().max(L.shortText),
});
export type ResultState = z.infer<typeof resultStateSchema>;

/** What the page keeps with setState and the serializer hands back after a reload. */
export const pageStateSchema = z.object({
  version: z.literal(1),
  preset: presetSchema.optional(),
  form: formStateSchema.optional(),
  result: resultStateSchema.optional(),
  sort: z.object({ column: z.string().max(L.shortText), direction: z.enum(['asc', 'desc']) }).optional(),
});
export type PageState = z.infer<typeof pageStateSchema>;

// ---- host -> page ----------------------------------------------------------------------------

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), today: z.string(), preset: presetSchema.optional(), state: pageStateSchema.optional() }),
  z.object({ type: z.literal('queryResult'), id, query: analyticsQuerySchema, page: analyticsPageSchema, requestId: z.string().optional() }),
  z.object({ type: z.literal('fetchAllProgress'), id, fetched: z.number().int().nonnegative(), total: z.number().int().nonnegative() }),
  z.object({
    type: z.literal('fetchAllResult'),
    id,
    query: analyticsQuerySchema,
    total: z.number().int().nonnegative(),
    records: z.array(analyticsRecordSchema),
    requestIds: z.array(z.string()),
  }),
  z.object({ type: z.literal('tasksPicked'), id, taskIds: z.array(z.string()).max(100), taskLabels: z.array(z.string()).max(100) }),
  z.object({ type: z.literal('exportDone'), id, path: z.string() }),
  z.object({ type: z.literal('error'), id, error: wireErrorSchema }),
  z.object({ type: z.literal('signedIn'), signedIn: z.boolean() }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

// ---- page -> host ----------------------------------------------------------------------------

export const pageMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('query'), id, query: analyticsQuerySchema }),
  z.object({ type: z.literal('fetchAll'), id, query: analyticsQuerySchema }),
  z.object({ type: z.literal('cancel'), id }),
  z.object({ type: z.literal('pickTasks'), id, selected: z.array(taskIdText).max(100) }),
  z.object({
    type: z.literal('export'),
    id,
    format: z.enum(['csv', 'json']),
    query: analyticsQuerySchema,
    records: z.array(analyticsRecordSchema).max(L.records),
  }),
  z.object({ type: z.literal('copy'), text: z.string().max(1000) }),
  z.object({ type: z.literal('state'), state: pageStateSchema }),
  z.object({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), message: z.string().max(L.logMessage) }),
]);
export type PageMessage = z.infer<typeof pageMessageSchema>;

/** Parses one message; returns undefined (and a reason) instead of throwing. */
export function parseMessage<T>(schema: z.ZodType<T>, raw: unknown): { ok: true; message: T } | { ok: false; reason: string } {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  const first = result.error.issues[0];
  const where = first && first.path.length > 0 ? first.path.join('.') : 'message';
  return { ok: false, reason: `${where}: ${first?.message ?? 'invalid'}` };
}
