/**
 * The wire form of many analytics records: each record as one flat array of its 20 values, in
 * the field table's order (RECORD_FIELDS, analytics/model/recordFields.ts). Crossing into a webview
 * costs a structured clone (and, in VS Code, a JSON trip between processes); 10,000 records as
 * nested objects clone in 50–100 ms, as flat arrays in about a quarter of that, and they are a
 * third of the size.
 *
 * The page validates a packed row directly (fastPackedRecord in fastRecords.ts, never looser
 * than analyticsRecordSchema, unit-tested against it); when unsure, the rows are unpacked as they
 * are and zod decides, naming the field.
 */
import type { AnalyticsRecord } from '../../api/schemas/analyticsSchemas';
import { type FieldValue, RECORD_FIELDS, recordFromValues } from '../model/recordFields';

/** Record fields in packed order: top-level first, then each metrics group's fields. */
export const PACKED_FIELDS = RECORD_FIELDS.map((f) => f.path);

export type PackedRecord = FieldValue[];

const GETTERS = RECORD_FIELDS.map((f) => f.get);

export function packRecord(r: AnalyticsRecord): PackedRecord {
  const row: PackedRecord = new Array<FieldValue>(GETTERS.length);
  for (let i = 0; i < GETTERS.length; i++) row[i] = (GETTERS[i] as (typeof GETTERS)[number])(r);
  return row;
}

/**
 * A row back in record shape, unchecked (zod checks it next); anything that is not an array of
 * PACKED_FIELDS.length values is passed on as it is, for zod to refuse by its index.
 */
export function unpackRecord(row: unknown): unknown {
  return Array.isArray(row) && row.length === RECORD_FIELDS.length ? recordFromValues(row as unknown[]) : row;
}
