/**
 * The query form's values: their schema (what the page keeps with setState and sends in `state`
 * messages), their type, and the fields that can carry an issue. Defined here, below the page and
 * the protocol, because the form model checks these values and must not import the page.
 */
import * as z from 'zod/mini';

import { collectionMethodSchema, timeGranularitySchema } from '../../api/schemas/analyticsSchemas';

/** Bounds on the form's text: far above any real value, so an oversized message is refused whole. */
export const FORM_LIMITS = {
  taskId: 128,
  label: 300,
  memberNames: 100 * 257,
  shortText: 64,
} as const;
const L = FORM_LIMITS;

/** The collection methods the form offers, "All" first (the default: no filter). */
export const FORM_METHODS = ['All', ...collectionMethodSchema.options] as const;

/** The form as the user left it (values may be invalid: the page explains them). */
const text = (max: number) => z.string().check(z.maxLength(max));
export const formStateSchema = z.object({
  start: text(L.shortText),
  end: text(L.shortText),
  timeGranularity: timeGranularitySchema,
  collectionMethod: z.enum(FORM_METHODS),
  taskIds: z.array(text(L.taskId)).check(z.maxLength(100)),
  taskLabels: z.array(text(L.label)).check(z.maxLength(100)),
  /** Free text, comma or newline separated. */
  memberNames: text(L.memberNames),
  pageSize: text(L.shortText),
  page: z.int().check(z.minimum(1)),
});
export type FormValues = z.infer<typeof formStateSchema>;

/** The form fields an issue can be shown next to (taskLabels only label taskIds). */
export type FormField = Exclude<keyof FormValues, 'taskLabels'>;
export const FORM_FIELDS: readonly FormField[] = Object.keys(formStateSchema.shape).filter(
  (k): k is FormField => k !== 'taskLabels',
);

export function isFormField(name: string): name is FormField {
  return (FORM_FIELDS as readonly string[]).includes(name);
}

/** The granularities, in the order the form offers them. */
export const GRANULARITIES = timeGranularitySchema.options;
