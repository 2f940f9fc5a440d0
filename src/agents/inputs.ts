/** Input pieces several tools share, each described for the model. */
import * as z from 'zod';

export const taskRefSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('The task: its id (from scrapedeck_list_tasks), or its exact name when that name is unique.');

export const groupRefSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('Only tasks of this task group: its exact name (case ignored) or its id.');

export const queryRefSchema = z
  .string()
  .trim()
  .max(200)
  .describe('Only tasks whose name contains this text (case ignored).');

/** At most `max`, default `fallback`. */
export function limitSchema(max: number, fallback: number, what: string) {
  return z
    .number()
    .int()
    .min(1)
    .max(max)
    .default(fallback)
    .describe(`How many ${what} to return (1-${max}, default ${fallback}).`);
}

export const offsetSchema = z.number().int().min(0).max(1_000_000_000).default(0);

/** Narrowing by group and by part of the name, as every tool that selects tasks offers it. */
export const scopeFields = { group: groupRefSchema.optional(), query: queryRefSchema.optional() };

/** The refinement for `.refine(...)`: the tool's own task refs (`key`) or group/query, not both. */
export function refsOrScope<K extends string>(key: K) {
  const check = (i: { [P in K]?: unknown } & { group?: string | undefined; query?: string | undefined }): boolean =>
    i[key] === undefined || (i.group === undefined && i.query === undefined);
  // Worded for the model that called the tool, not for a person: English, like every zod refinement here.
  const params: { message: string; path: PropertyKey[] } = {
    // l10n-exempt: worded for the model that called the tool, not for a person
    message: `use either ${key} or group/query, not both`,
    path: [key],
  };
  return [check, params] as const;
}
