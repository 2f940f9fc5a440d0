/**
 * A fast path for the one big message: tens of thousands of analytics records. zod (jitless,
 * as the CSP requires) spends ~15 µs per record; this plain check takes a fraction of that.
 * It only ever ACCEPTS what analyticsRecordSchema accepts, producing the same output (unit
 * tested against the schema); anything it is unsure of returns undefined and zod decides,
 * with zod's error message.
 *
 * Each field is checked by its kind in the field table (analytics/model/recordFields.ts).
 */
import type { AnalyticsRecord } from '../../api/schemas/analyticsSchemas';
import { isDay } from '../../api/schemas/dates';
import { type FieldKind, type FieldValue, RECORD_FIELDS, recordFromValues } from '../model/recordFields';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** number (finite) -> itself; null/undefined -> null; anything else -> undefined (refuse). */
export function metric(v: unknown): number | null | undefined {
  if (v === null || v === undefined) return null;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A yyyy-MM-dd day -> itself; null/undefined -> null; anything else -> undefined (refuse). */
export function day(v: unknown): string | null | undefined {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' && isDay(v) ? v : undefined;
}

/**
 * One value as analyticsRecordSchema outputs it for a field of this kind (and, for a string, at
 * most `max` long: the field table's bound); undefined to refuse.
 */
export function checkValue(kind: FieldKind, v: unknown, max: number): FieldValue | undefined {
  switch (kind) {
    case 'text':
      return typeof v === 'string' && v.length <= max ? v : undefined;
    case 'name':
      return v === null || v === undefined ? null : typeof v === 'string' && v.length <= max ? v : undefined;
    case 'day':
      return day(v);
    case 'method':
      return v === 'Cloud' || v === 'Local' ? v : undefined;
    default:
      return metric(v);
  }
}

const KINDS = RECORD_FIELDS.map((f) => f.kind);
const MAXES = RECORD_FIELDS.map((f) => f.max ?? 0);
const GROUPS = [...new Set(RECORD_FIELDS.flatMap((f) => (f.group ? [f.group] : [])))];

/** How many values a packed row holds. */
export const FIELD_COUNT = RECORD_FIELDS.length;

/** The record of raw values in field order, when every one is plainly valid. */
function checked(raw: readonly unknown[]): AnalyticsRecord | undefined {
  const values = new Array<FieldValue>(FIELD_COUNT);
  for (let i = 0; i < FIELD_COUNT; i++) {
    const v = checkValue(KINDS[i] as FieldKind, raw[i], MAXES[i]);
    if (v === undefined) return undefined;
    values[i] = v;
  }
  return recordFromValues(values) as AnalyticsRecord;
}

export function fastRecord(v: unknown): AnalyticsRecord | undefined {
  if (!isObj(v)) return undefined;
  for (const g of GROUPS) if (!isObj(v[g])) return undefined;
  return checked(RECORD_FIELDS.map((f) => (f.group === undefined ? v[f.key] : (v[f.group] as Obj)[f.key])));
}

/** A packed row (see packedRecords.ts) as a record when it is plainly valid; undefined when zod must decide. */
export function fastPackedRecord(row: unknown): AnalyticsRecord | undefined {
  return Array.isArray(row) && row.length === FIELD_COUNT ? checked(row) : undefined;
}

/** Every item through `one`, or undefined as soon as one is not plainly valid (zod then explains). */
function every(items: unknown, one: (item: unknown) => AnalyticsRecord | undefined): AnalyticsRecord[] | undefined {
  if (!Array.isArray(items)) return undefined;
  const out: AnalyticsRecord[] = new Array<AnalyticsRecord>(items.length);
  for (let i = 0; i < items.length; i++) {
    const r = one(items[i]);
    if (!r) return undefined;
    out[i] = r;
  }
  return out;
}

export function fastRecords(v: unknown): AnalyticsRecord[] | undefined {
  return every(v, fastRecord);
}

export function fastPackedRecords(rows: unknown): AnalyticsRecord[] | undefined {
  return every(rows, fastPackedRecord);
}
