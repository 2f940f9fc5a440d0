/**
 * The typed messages between the analytics panel (extension side) and its page (browser side).
 * Both sides parse every message on arrival with these schemas; a message that does not parse is
 * logged and ignored. A request carries an `id`; its reply or error carries the same `id`.
 */
import * as z from 'zod/mini';

import { analyticsPageOf, analyticsQuerySchema, analyticsRecordSchema } from '../../api/schemas/analyticsSchemas';
import {
  accountTagSchema,
  MESSAGE_LIMITS as L,
  pageStateSchema,
  presetSchema,
  resultIdSchema,
  taskIdText,
  taskNamesSchema,
  wireErrorSchema,
} from './schemas';

const id = z.string().check(z.minLength(1), z.maxLength(64));
const text = (max: number) => z.string().check(z.maxLength(max));
const count = z.int().check(z.nonnegative());
const records = z.array(analyticsRecordSchema).check(z.maxLength(L.records));

// ---- host -> page ----------------------------------------------------------------------------

export const hostMessageSchema = z.discriminatedUnion('type', [
  /**
   * `account`: the signed-in account's tag (absent signed out); a saved state of another account is
   * dropped (see accountBoundary.ts). `cleared`: the host dropped the page's content since it last
   * loaded (the account changed while the page was hidden): the page drops its own copy too.
   */
  z.object({
    type: z.literal('init'),
    today: text(L.shortText),
    preset: z.optional(presetSchema),
    state: z.optional(pageStateSchema),
    account: z.optional(accountTagSchema),
    cleared: z.optional(z.boolean()),
    /** The names of the preset's and the restored form's tasks, from the host's task cache. */
    taskNames: z.optional(taskNamesSchema),
  }),
  /**
   * Names the host found after `init` (it loaded the task list): the page labels the chips of
   * these ids, if they are still chosen and `account` is still the page's account.
   */
  z.object({ type: z.literal('taskNames'), account: z.optional(accountTagSchema), names: taskNamesSchema }),
  z.object({
    type: z.literal('queryResult'),
    id,
    resultId: resultIdSchema,
    query: analyticsQuerySchema,
    page: analyticsPageOf(L.records),
    requestId: z.optional(text(L.requestId)),
  }),
  /**
   * Rows fetched so far of `total`; `target` when the fetch stops short of `total` (the setting's
   * cap). `records`: the result's rows from index `at` on, in order, sent as they come; the page
   * keeps them for the `fetchAllResult` under the same id.
   */
  z.object({
    type: z.literal('fetchAllProgress'),
    id,
    fetched: count,
    total: count,
    target: z.optional(count),
    at: z.optional(z.int().check(z.nonnegative(), z.maximum(L.records))),
    records: z.optional(records),
  }),
  /** `streamed`: how many of the result's rows came first in this id's progress; `records` are the rest. */
  z.object({
    type: z.literal('fetchAllResult'),
    id,
    resultId: resultIdSchema,
    query: analyticsQuerySchema,
    total: count,
    records,
    streamed: z.optional(z.int().check(z.nonnegative(), z.maximum(L.records))),
    requestIds: z.array(text(L.requestId)).check(z.maxLength(L.requestIds)),
  }),
  z.object({
    type: z.literal('tasksPicked'),
    id,
    taskIds: z.array(taskIdText).check(z.maxLength(100)),
    taskLabels: z.array(text(L.label)).check(z.maxLength(100)),
  }),
  z.object({ type: z.literal('exportDone'), id, path: text(L.path) }),
  z.object({ type: z.literal('error'), id, error: wireErrorSchema }),
  /** With `cleared`, the account changed: the page drops the previous account's results, tasks and members. */
  z.object({
    type: z.literal('signedIn'),
    signedIn: z.boolean(),
    account: z.optional(accountTagSchema),
    cleared: z.optional(z.boolean()),
  }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

// ---- page -> host ----------------------------------------------------------------------------

export const pageMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /**
   * One page of a query; with `rest`, the host goes on to fetch the rest under the same id (as
   * `fetchAll` with that scope would), answering with progress and a `fetchAllResult` after the
   * `queryResult`: the rest starts as soon as page 1 is in, with no round trip through the page.
   */
  z.object({ type: z.literal('query'), id, query: analyticsQuerySchema, rest: z.optional(z.enum(['auto', 'all'])) }),
  /**
   * More rows of a query: 'auto' up to the host's autoFetchRows setting (after Run query), 'all'
   * every row (Fetch all pages, the default). With the id of a result the host holds, it goes on
   * from the rows it has; otherwise it starts from page 1.
   */
  z.object({
    type: z.literal('fetchAll'),
    id,
    query: analyticsQuerySchema,
    resultId: z.optional(resultIdSchema),
    scope: z.optional(z.enum(['auto', 'all'])),
  }),
  z.object({ type: z.literal('cancel'), id }),
  z.object({ type: z.literal('pickTasks'), id, selected: z.array(taskIdText).check(z.maxLength(100)) }),
  /** Saves a result the host keeps (named by the result's id): its rows never travel back. */
  z.object({ type: z.literal('export'), id, format: z.enum(['csv', 'json']), resultId: resultIdSchema }),
  z.object({ type: z.literal('copy'), text: text(1000) }),
  /** What the query on screen is, for the panel's tab (the page's header says the same). */
  z.object({ type: z.literal('title'), title: text(L.label) }),
  z.object({ type: z.literal('state'), state: pageStateSchema }),
  z.object({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), message: text(L.logMessage) }),
]);
export type PageMessage = z.infer<typeof pageMessageSchema>;

/** Parses one message; returns undefined (and a reason) instead of throwing. */
export function parseMessage<T>(
  schema: z.ZodMiniType<T>,
  raw: unknown,
): { ok: true; message: T } | { ok: false; reason: string } {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  const first = result.error.issues[0];
  const where = first && first.path.length > 0 ? first.path.join('.') : 'message';
  return { ok: false, reason: `${where}: ${first?.message ?? 'invalid'}` };
}
