/**
 * The pieces the panel <-> page messages are made of: the bounds on what a message may carry,
 * presets, errors as the page shows them, and the page's saved state.
 */
import * as z from 'zod/mini';

import { analyticsQuerySchema, analyticsRecordSchema } from '../../api/schemas/analyticsSchemas';
import { FORM_LIMITS, formStateSchema } from '../model/formState';

export { formStateSchema };
export type { FormValues as FormState } from '../model/formState';

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
export const taskIdText = z.string().check(z.maxLength(L.taskId));
/** Text of at most `max` characters. */
const text = (max: number) => z.string().check(z.maxLength(max));

export const taskOptionSchema = z.object({
  taskId: taskIdText,
  taskName: text(L.label),
  taskGroupName: z.optional(text(L.label)),
});
export type TaskOption = z.infer<typeof taskOptionSchema>;

/**
 * A task's name as the host's cache of the signed-in account knows it: the page labels its task
 * chips with these and nothing else (a task the host cannot name shows its id).
 */
export const taskNameSchema = z.object({ taskId: taskIdText, taskName: text(L.label) });
export type TaskName = z.infer<typeof taskNameSchema>;
/** A preset's ids and a restored form's ids: at most 100 each. */
export const taskNamesSchema = z.array(taskNameSchema).check(z.maxLength(200));

/** What opened the panel: a task, a group's tasks, or nothing (all tasks). */
export const presetSchema = z.object({
  taskIds: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(L.taskId))).check(z.maxLength(100))),
  label: z.optional(text(200)),
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
  kind: text(L.shortText),
  message: text(L.logMessage),
  status: z.optional(z.int()),
  code: z.optional(z.union([text(L.shortText), z.number()])),
  requestId: z.optional(text(L.requestId)),
  field: z.optional(text(L.shortText)),
});
export type WireError = z.infer<typeof wireErrorSchema>;

/** Which result the host keeps: an export or a fetch names it instead of sending its rows. */
export const resultIdSchema = z.string().check(z.minLength(1), z.maxLength(L.shortText));

/**
 * The result on screen: the first rows of a query (all of them once `records.length` reaches
 * `total`), asked from page 1 at 100 rows a page. The table pages through them on the page.
 */
export const resultStateSchema = z.object({
  query: analyticsQuerySchema,
  total: z.int().check(z.nonnegative()),
  records: z.array(analyticsRecordSchema).check(z.maxLength(L.records)),
  requestIds: z.array(text(L.requestId)).check(z.maxLength(L.requestIds)),
  fetchedAt: text(L.shortText),
  /** The host's id for the result (absent when the host never said one). */
  resultId: z.optional(resultIdSchema),
});
export type ResultState = z.infer<typeof resultStateSchema>;

const sortSchema = z.object({ column: text(L.shortText), direction: z.enum(['asc', 'desc']) });

/** Which account a page's content belongs to: `accountKey` (a short hash that reveals nothing). */
export const accountTagSchema = text(L.shortText);

const pageStateV2 = z.object({
  version: z.literal(2),
  /** The account whose results, tasks and members this state holds; absent: signed out (or older). */
  account: z.optional(accountTagSchema),
  preset: z.optional(presetSchema),
  form: z.optional(formStateSchema),
  result: z.optional(resultStateSchema),
  sort: z.optional(sortSchema),
  /** The table shows every row fetched, scrollable, instead of one page. */
  showAll: z.optional(z.boolean()),
});

/**
 * A state saved by the version before (1), whose result was one page of the service rather than
 * the query's first rows: its preset, form and sort are kept, its result is dropped.
 */
const pageStateV1 = z.pipe(
  z.object({
    version: z.literal(1),
    preset: z.optional(presetSchema),
    form: z.optional(formStateSchema),
    result: z.optional(z.extend(resultStateSchema, { mode: z.enum(['page', 'all']) })),
    sort: z.optional(sortSchema),
  }),
  z.transform(({ preset, form, sort }): z.output<typeof pageStateV2> => {
    const kept: z.output<typeof pageStateV2> = { version: 2 };
    if (preset) kept.preset = preset;
    if (form) kept.form = form;
    if (sort) kept.sort = sort;
    return kept;
  }),
);

/** What the page keeps with setState and the serializer hands back after a reload. */
export const pageStateSchema = z.union([pageStateV2, pageStateV1]);
export type PageState = z.output<typeof pageStateSchema>;
