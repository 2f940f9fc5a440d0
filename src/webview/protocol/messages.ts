/**
 * The typed messages between the analytics panel (extension side) and its page (browser side).
 * Both sides parse every message on arrival with these schemas; a message that does not parse is
 * logged and ignored. A request carries an `id`; its reply or error carries the same `id`.
 */
import * as z from 'zod';
import { analyticsPageSchema, analyticsQuerySchema, analyticsRecordSchema } from '../../api/schemas';
import { MESSAGE_LIMITS as L, accountTagSchema, pageStateSchema, presetSchema, resultIdSchema, taskIdText, taskNamesSchema, wireErrorSchema } from './schemas';

const id = z.string().min(1).max(64);

// ---- host -> page ----------------------------------------------------------------------------

export const hostMessageSchema = z.discriminatedUnion('type', [
  /**
   * `account`: the signed-in account's tag (absent signed out); a saved state of another account is
   * dropped (see accountBoundary.ts). `cleared`: the host dropped the page's content since it last
   * loaded (the account changed while the page was hidden): the page drops its own copy too.
   */
  z.object({
    type: z.literal('init'), today: z.string().max(L.shortText), preset: presetSchema.optional(), state: pageStateSchema.optional(),
    account: accountTagSchema.optional(), cleared: z.boolean().optional(),
    /** The names of the preset's and the restored form's tasks, from the host's task cache. */
    taskNames: taskNamesSchema.optional(),
  }),
  /**
   * Names the host found after `init` (it loaded the task list): the page labels the chips of
   * these ids, if they are still chosen and `account` is still the page's account.
   */
  z.object({ type: z.literal('taskNames'), account: accountTagSchema.optional(), names: taskNamesSchema }),
  z.object({
    type: z.literal('queryResult'), id, resultId: resultIdSchema, query: analyticsQuerySchema, page: analyticsPageSchema.extend({ data: analyticsPageSchema.shape.data.max(L.records) }), requestId: z.string().max(L.requestId).optional(),
  }),
  /**
   * Rows fetched so far of `total`; `target` when the fetch stops short of `total` (the setting's
   * cap). `records`: the result's rows from index `at` on, in order, sent as they come; the page
   * keeps them for the `fetchAllResult` under the same id.
   */
  z.object({
    type: z.literal('fetchAllProgress'), id, fetched: z.number().int().nonnegative(), total: z.number().int().nonnegative(), target: z.number().int().nonnegative().optional(),
    at: z.number().int().nonnegative().max(L.records).optional(), records: z.array(analyticsRecordSchema).max(L.records).optional(),
  }),
  /** `streamed`: how many of the result's rows came first in this id's progress; `records` are the rest. */
  z.object({
    type: z.literal('fetchAllResult'),
    id,
    resultId: resultIdSchema,
    query: analyticsQuerySchema,
    total: z.number().int().nonnegative(),
    records: z.array(analyticsRecordSchema).max(L.records),
    streamed: z.number().int().nonnegative().max(L.records).optional(),
    requestIds: z.array(z.string().max(L.requestId)).max(L.requestIds),
  }),
  z.object({ type: z.literal('tasksPicked'), id, taskIds: z.array(taskIdText).max(100), taskLabels: z.array(z.string().max(L.label)).max(100) }),
  z.object({ type: z.literal('exportDone'), id, path: z.string().max(L.path) }),
  z.object({ type: z.literal('error'), id, error: wireErrorSchema }),
  /** With `cleared`, the account changed: the page drops the previous account's results, tasks and members. */
  z.object({ type: z.literal('signedIn'), signedIn: z.boolean(), account: accountTagSchema.optional(), cleared: z.boolean().optional() }),
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
  z.object({ type: z.literal('query'), id, query: analyticsQuerySchema, rest: z.enum(['auto', 'all']).optional() }),
  /**
   * More rows of a query: 'auto' up to the host's autoFetchRows setting (after Run query), 'all'
   * every row (Fetch all pages, the default). With the id of a result the host holds, it goes on
   * from the rows it has; otherwise it starts from page 1.
   */
  z.object({ type: z.literal('fetchAll'), id, query: analyticsQuerySchema, resultId: resultIdSchema.optional(), scope: z.enum(['auto', 'all']).optional() }),
  z.object({ type: z.literal('cancel'), id }),
  z.object({ type: z.literal('pickTasks'), id, selected: z.array(taskIdText).max(100) }),
  /** Saves a result the host keeps (named by the result's id): its rows never travel back. */
  z.object({ type: z.literal('export'), id, format: z.enum(['csv', 'json']), resultId: resultIdSchema }),
  z.object({ type: z.literal('copy'), text: z.string().max(1000) }),
  /** What the query on screen is, for the panel's tab (the page's header says the same). */
  z.object({ type: z.literal('title'), title: z.string().max(L.label) }),
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
