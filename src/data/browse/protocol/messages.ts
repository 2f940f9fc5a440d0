/**
 * The typed messages between a data browser (extension side) and its page (browser side). Both
 * sides parse every message with these schemas (zod/mini: the page runs without eval); one that
 * does not parse is logged and ignored. A request carries an `id`; its answer carries the same.
 * Rows cross as windows (at most MAX_WINDOW), never all of them; long text is cut (CUT_CHARS)
 * and the whole value is asked for on demand.
 */
import * as z from 'zod/mini';

export const LIMITS = {
  window: 500,
  columns: 2000,
  name: 1000,
  cell: 2000,
  text: 20_000,
  search: 500,
  conditions: 50,
} as const;
/** Characters of a cell sent with a window; the whole value comes with `cell`. */
export const CUT_CHARS = 300;

const id = z.string().check(z.minLength(1), z.maxLength(64));
const text = (max: number) => z.string().check(z.maxLength(max));
const count = z.int().check(z.nonnegative());
const cell = z.union([text(LIMITS.cell), z.number(), z.boolean(), z.null()]);

export const kindSchema = z.enum(['empty', 'number', 'date', 'boolean', 'text']);
export const directionSchema = z.enum(['asc', 'desc']);
export const conditionSchema = z.object({
  column: count,
  op: z.enum(['contains', 'equals', 'empty', 'notEmpty']),
  value: z.optional(text(LIMITS.search)),
});
export const viewSchema = z.object({
  sort: z.optional(z.object({ column: count, direction: directionSchema })),
  search: z.optional(text(LIMITS.search)),
  conditions: z.optional(z.array(conditionSchema).check(z.maxLength(LIMITS.conditions))),
});

export const rowSchema = z.object({
  /** The row's number in its source (1-based, as shown). */
  n: count,
  cells: z.array(cell).check(z.maxLength(LIMITS.columns)),
  /** Indexes of the cells cut at CUT_CHARS. */
  cut: z.optional(z.array(count).check(z.maxLength(LIMITS.columns))),
  /** Why the row could not be read (with its line), shown in place of its cells. */
  problem: z.optional(text(LIMITS.name)),
});

export const statusSchema = z.object({
  state: z.enum(['loading', 'done', 'stopped', 'failed']),
  loaded: count,
  /** Rows the source has, when known. */
  total: z.optional(count),
  /** Rows the view shows (after the filter). */
  shown: count,
  /** Rows that could not be read. */
  problems: count,
  /** The file changed on disk after it was opened. */
  changed: z.optional(z.boolean()),
  /** A sentence for the user (a failure, a stop). */
  message: z.optional(text(LIMITS.name)),
  /** A sort or filter is being computed. */
  busy: z.optional(z.boolean()),
});

export const profileSchema = z.object({
  column: text(LIMITS.name),
  kind: kindSchema,
  rows: count,
  empty: count,
  distinct: count,
  distinctAtLeast: z.boolean(),
  min: z.optional(text(LIMITS.cell)),
  max: z.optional(text(LIMITS.cell)),
  common: z.array(z.object({ value: text(LIMITS.cell), count })).check(z.maxLength(5)),
});

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    title: text(LIMITS.name),
    columns: z.array(text(LIMITS.name)).check(z.maxLength(LIMITS.columns)),
    status: statusSchema,
    canStop: z.boolean(),
  }),
  z.object({ type: z.literal('columns'), columns: z.array(text(LIMITS.name)).check(z.maxLength(LIMITS.columns)) }),
  z.object({ type: z.literal('status'), status: statusSchema }),
  /** The view changed (sorted, filtered, rows loaded): the page asks for its window again. */
  z.object({ type: z.literal('view'), view: viewSchema, shown: count }),
  z.object({ type: z.literal('rows'), id, from: count, rows: z.array(rowSchema).check(z.maxLength(LIMITS.window)) }),
  z.object({ type: z.literal('cell'), id, value: text(LIMITS.text), cut: z.boolean() }),
  z.object({ type: z.literal('profile'), id, profile: profileSchema }),
  z.object({ type: z.literal('error'), id: z.optional(id), message: text(LIMITS.name) }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const pageMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('window'),
    id,
    from: count,
    count: z.int().check(z.minimum(1), z.maximum(LIMITS.window)),
  }),
  z.object({ type: z.literal('cell'), id, row: count, column: count }),
  z.object({ type: z.literal('view'), view: viewSchema }),
  z.object({ type: z.literal('profile'), id, column: count }),
  /** A block of the view, inclusive: one cell, one row, or a selection. */
  z.object({ type: z.literal('copy'), from: count, to: count, firstColumn: count, lastColumn: count }),
  z.object({ type: z.literal('export') }),
  /** Open the URL in a cell, after the host has said where it goes. */
  z.object({ type: z.literal('openLink'), row: count, column: count }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), message: text(4000) }),
]);
export type PageMessage = z.infer<typeof pageMessageSchema>;
export type BrowseView = z.infer<typeof viewSchema>;
export type BrowseStatus = z.infer<typeof statusSchema>;
export type BrowseRow = z.infer<typeof rowSchema>;
export type BrowseProfile = z.infer<typeof profileSchema>;

/** The page's kept state (getState/setState): where it was and what it showed. */
export const pageStateSchema = z.object({
  view: viewSchema,
  top: count,
  widths: z.optional(z.array(z.number().check(z.minimum(24), z.maximum(4000))).check(z.maxLength(LIMITS.columns))),
});
export type PageState = z.infer<typeof pageStateSchema>;

export function parseMessage<T>(
  schema: z.ZodMiniType<T>,
  data: unknown,
): { ok: true; message: T } | { ok: false; issue: string } {
  const parsed = schema.safeParse(data);
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, issue: parsed.error.issues[0]?.message ?? 'unknown shape' };
}
