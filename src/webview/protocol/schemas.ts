/**
 * The pieces the panel <-> page messages are made of: the bounds on what a message may carry,
 * presets, errors as the page shows them, and the page's saved state.
 */
import * as z from 'zod';
import { analyticsQuerySchema, analyticsRecordSchema } from '../../api/schemas';
import { FORM_LIMITS, formStateSchema } from '../../analyticsModel/formState';

export { formStateSchema };
export type { FormValues as FormState } from '../../analyticsModel/formState';

/**
 * Bounds on everything a message may carry: the page is not trusted, and one oversized item (a
 * megabyte "task id", a million request ids) must be refused whole, with a log line, before the
 * host stores, logs or sends it anywhere. The numbers are far above any real value.
 */
export const MESSAGE_LIMITS = {
  ...FORM_LIMITS,
  requestIds: 1_001,
  requestId: 128,
  records: 100_000,
  logMessage: 4_000,
  /** A file path the host reports (an export's): longer than any file system allows. */
  path: 32_768,
} as const;
const L = MESSAGE_LIMITS;
export const taskIdText = z.string().max(L.taskId);

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

/** Which result the host keeps: an export or a fetch names it instead of sending its rows. */
export const resultIdSchema = z.string().min(1).max(L.shortText);

/**
 * The result on screen: the first rows of a query (all of them once `records.length` reaches
 * `total`), asked from page 1 at 100 rows a page. The table pages through them on the page.
 */
export const resultStateSchema = z.object({
  query: analyticsQuerySchema,
  total: z.number().int().nonnegative(),
  records: z.array(analyticsRecordSchema).max(L.records),
  requestIds: z.array(z.string().max(L.requestId)).max(L.requestIds),
  fetchedAt: z.string().max(L.shortText),
  /** The host's id for the result (absent when the host never said one). */
  resultId: resultIdSchema.optional(),
});
export type ResultState = z.infer<typeof resultStateSchema>;

const sortSchema = z.object({ column: z.string().max(L.shortText), direction: z.enum(['asc', 'desc']) });

/** Which account a page's content belongs to: `accountKey` (a short hash that reveals nothing). */
export const accountTagSchema = z.string().max(L.shortText);

const pageStateV2 = z.object({
  version: z.literal(2),
  /** The account whose results, tasks and members this state holds; absent: signed out (or older). */
  account: accountTagSchema.optional(),
  preset: presetSchema.optional(),
  form: formStateSchema.optional(),
  result: resultStateSchema.optional(),
  sort: sortSchema.optional(),
});

/**
 * A state saved by the version before (1), whose result was one page of the service rather than
 * the query's first rows: its preset, form and sort are kept, its result is dropped.
 */
const pageStateV1 = z.object({
  version: z.literal(1),
  preset: presetSchema.optional(),
  form: formStateSchema.optional(),
  result: resultStateSchema.extend({ mode: z.enum(['page', 'all']) }).optional(),
  sort: sortSchema.optional(),
}).transform(({ preset, form, sort }): z.output<typeof pageStateV2> => {
  const kept: z.output<typeof pageStateV2> = { version: 2 };
  if (preset) kept.preset = preset;
  if (form) kept.form = form;
  if (sort) kept.sort = sort;
  return kept;
});

/** What the page keeps with setState and the serializer hands back after a reload. */
export const pageStateSchema = z.union([pageStateV2, pageStateV1]);
export type PageState = z.output<typeof pageStateSchema>;
