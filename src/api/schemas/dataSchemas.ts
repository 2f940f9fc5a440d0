/**
 * Data: pages by offset (all data, one run's), not-yet-exported rows. Rows are flat objects whose
 * keys are the task's own field names; values are strings in the examples, and other JSON scalars
 * are kept as they came (a nested value is not a row the spec describes: refused).
 */
import * as z from 'zod';

import { countSchema, listOf, OPS_LIMITS, taskIdSchema } from './opsSchemas';
import { envelope } from './schemas';

export const dataValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type DataValue = z.infer<typeof dataValueSchema>;
export type DataRow = Record<string, DataValue>;

const isDataValue = (v: unknown): v is DataValue =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * A row is checked where it lies, not copied as z.record would: a pull of a million rows made
 * about 40 % of its short-lived heap from those copies (docs/contracts/data-databases.md).
 */
export const dataRowSchema = z
  .custom<DataRow>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'a row is an object of fields')
  .superRefine((row, ctx) => {
    for (const key of Object.keys(row)) {
      if (!isDataValue(row[key]))
        ctx.addIssue({ code: 'custom', path: [key], message: 'a value is text, a number, true, false or null' });
    }
  });

/** `/data/all` and `/data/lotno/all`: `offset` is where the next page starts; done when `restTotal` is 0. */
export const dataPageSchema = z.object({
  offset: countSchema,
  total: countSchema,
  restTotal: countSchema,
  data: listOf(dataRowSchema),
});
export type DataPage = z.infer<typeof dataPageSchema>;
export const dataPageResponseSchema = envelope(dataPageSchema);

/** `/data/notexported`: `total` rows not yet exported, `current` of them in this reply. */
export const notExportedPageSchema = z.object({
  total: countSchema,
  current: countSchema,
  data: listOf(dataRowSchema),
});
export type NotExportedPage = z.infer<typeof notExportedPageSchema>;
export const notExportedResponseSchema = envelope(notExportedPageSchema);

// ---- requests -------------------------------------------------------------------------------

const sizeSchema = z
  .number()
  .int('size is a whole number')
  .min(1, `size is 1 to ${OPS_LIMITS.dataPageMax}`)
  .max(OPS_LIMITS.dataPageMax, `size is 1 to ${OPS_LIMITS.dataPageMax}`);

export const dataQuerySchema = z.object({
  taskId: taskIdSchema,
  offset: z.number().int('offset is a whole number').min(0, 'offset starts at 0'),
  size: sizeSchema,
});
export const lotDataQuerySchema = dataQuerySchema.extend({
  lotNo: z.string().trim().min(1, 'a lot number is required').max(OPS_LIMITS.idMaxLength),
});
export const notExportedQuerySchema = z.object({ taskId: taskIdSchema, size: sizeSchema });
