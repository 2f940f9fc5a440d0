/**
 * The one field table (src/analytics/model/recordFields.ts) and what is derived from it: CSV
 * columns, packed rows and their fast checks, table columns. Each must read every field the way
 * the table says, and the shapes people see (CSV header, table columns) must not have moved.
 */
import * as assert from 'node:assert/strict';

import * as z from 'zod/mini';

import { CSV_COLUMNS, csvCell, recordsToCsv } from '../../src/analytics/host/csv';
import { isMetricKind, RECORD_FIELDS, recordFromValues } from '../../src/analytics/model/recordFields';
import { COLUMNS } from '../../src/analytics/model/tableModel';
import { checkValue, fastPackedRecord } from '../../src/analytics/protocol/fastRecords';
import { PACKED_FIELDS, packRecord, unpackRecord } from '../../src/analytics/protocol/packedRecords';
import { type AnalyticsRecord, analyticsRecordSchema } from '../../src/api/schemas/schemas';

const sample: AnalyticsRecord = {
  taskId: 't-1',
  userId: 'u-1',
  taskName: 'Prices, "EU"',
  dayKey: '2026-W47',
  weekStartDate: '2026-11-16',
  weekEndDate: '2026-11-22',
  collectionMethod: 'Local',
  dataVolumeMetrics: { totalCollected: 101, deduplicatedVolume: 102 },
  executionMetrics: {
    runCount: 103,
    successCount: 104,
    failureCount: 105,
    durationPerRunSeconds: 106.5,
    totalExecutionSeconds: 107,
    successRate: 0.108,
    failureRate: 0.109,
  },
  resourceUsageMetrics: { captchaCount: 110, simpleTemplateCount: 111, proxyIpCount: 112.5, balance: 113.25 },
};

/** Every leaf path of the record schema, in schema order. */
function schemaPaths(): string[] {
  const paths: string[] = [];
  for (const [key, schema] of Object.entries(analyticsRecordSchema.shape)) {
    if (schema instanceof z.core.$ZodObject)
      for (const inner of Object.keys(schema.shape)) paths.push(`${key}.${inner}`);
    else paths.push(key);
  }
  return paths;
}

describe('analytics record field table', () => {
  it('lists every field of the record schema once, in the schema (spec) order', () => {
    assert.deepEqual(
      RECORD_FIELDS.map((f) => f.path),
      schemaPaths(),
    );
    assert.equal(
      new Set(RECORD_FIELDS.map((f) => f.key)).size,
      RECORD_FIELDS.length,
      'keys are unique: they are the table column ids',
    );
  });

  it('reads each field where its path says, and gives metrics (only) a metric kind', () => {
    for (const f of RECORD_FIELDS) {
      const [head, leaf] = f.path.split('.') as [string, string | undefined];
      const where = sample as unknown as Record<string, Record<string, unknown>>;
      assert.equal(f.get(sample), leaf === undefined ? where[head] : where[head]?.[leaf], f.path);
      assert.equal(isMetricKind(f.kind), f.group !== undefined, f.path);
      assert.notEqual(
        checkValue(f.kind, f.get(sample), f.max ?? 0),
        undefined,
        `${f.path}: its kind accepts its value`,
      );
    }
  });

  it("bounds every string field by the schema's own limit (the fast path reads it from the table)", () => {
    for (const f of RECORD_FIELDS) {
      const top =
        f.group === undefined
          ? analyticsRecordSchema.shape[f.key as keyof typeof analyticsRecordSchema.shape]
          : undefined;
      if (f.kind !== 'text' && f.kind !== 'name') {
        assert.equal(f.max, undefined, f.path);
        continue;
      }
      assert.ok(f.max !== undefined && f.max > 0, `${f.path} has a maximum`);
      assert.ok(top, f.path);
      assert.equal(top.safeParse('x'.repeat(f.max)).success, true, `${f.path}: ${f.max} characters pass`);
      assert.equal(
        top.safeParse('x'.repeat(f.max + 1)).success,
        false,
        `${f.path}: ${f.max + 1} characters are refused`,
      );
      assert.equal(
        checkValue(f.kind, 'x'.repeat(f.max + 1), f.max),
        undefined,
        `${f.path}: the fast check refuses too`,
      );
    }
  });

  it('recordFromValues puts the i-th value at the i-th field of the table (the one literal agrees with the table)', () => {
    const positions = recordFromValues(RECORD_FIELDS.map((_, i) => i)) as unknown as AnalyticsRecord;
    RECORD_FIELDS.forEach((f, i) => assert.equal(f.get(positions), i, f.path));
    assert.deepEqual(recordFromValues(RECORD_FIELDS.map((f) => f.get(sample))), sample);
  });

  it('drives CSV, packed rows and table columns identically', () => {
    const csvRow = recordsToCsv([sample]).split('\r\n')[1];
    assert.equal(csvRow, RECORD_FIELDS.map((f) => csvCell(f.get(sample))).join(','));
    assert.deepEqual(
      CSV_COLUMNS.map((c) => c.header),
      RECORD_FIELDS.map((f) => f.path),
    );
    assert.deepEqual(
      packRecord(sample),
      RECORD_FIELDS.map((f) => f.get(sample)),
    );
    assert.deepEqual(
      PACKED_FIELDS,
      RECORD_FIELDS.map((f) => f.path),
    );
    assert.deepEqual(fastPackedRecord(packRecord(sample)), sample);
    assert.deepEqual(analyticsRecordSchema.parse(unpackRecord(packRecord(sample))), sample);
    for (const f of RECORD_FIELDS) {
      const column = COLUMNS.find((c) => c.id === f.key);
      if (f.column === undefined) {
        assert.equal(column, undefined, `${f.path} is shown by another column`);
        continue;
      }
      assert.ok(column, f.path);
      assert.equal(column.value(sample), f.get(sample), f.path);
      assert.deepEqual([column.header, column.title], [f.label, f.title], f.path);
      assert.equal(COLUMNS.indexOf(column), f.column, `${f.path} at its place in the table`);
    }
  });

  it('keeps the CSV header and the table columns people already know (no visible change)', () => {
    assert.equal(
      recordsToCsv([]).slice(1).trimEnd(),
      [
        'taskId',
        'userId',
        'taskName',
        'dayKey',
        'weekStartDate',
        'weekEndDate',
        'collectionMethod',
        'dataVolumeMetrics.totalCollected',
        'dataVolumeMetrics.deduplicatedVolume',
        'executionMetrics.runCount',
        'executionMetrics.successCount',
        'executionMetrics.failureCount',
        'executionMetrics.durationPerRunSeconds',
        'executionMetrics.totalExecutionSeconds',
        'executionMetrics.successRate',
        'executionMetrics.failureRate',
        'resourceUsageMetrics.captchaCount',
        'resourceUsageMetrics.simpleTemplateCount',
        'resourceUsageMetrics.proxyIpCount',
        'resourceUsageMetrics.balance',
      ].join(','),
    );
    assert.deepEqual(
      COLUMNS.map((c) => `${c.id}:${c.header}:${c.kind}`),
      [
        'task:Task:text',
        'taskId:Task ID:text',
        'userId:User ID:text',
        'dayKey:Date bucket:text',
        'weekStartDate:Week start:text',
        'weekEndDate:Week end:text',
        'collectionMethod:Method:text',
        'totalCollected:Collected:int',
        'deduplicatedVolume:After dedup:int',
        'runCount:Runs:int',
        'successCount:Successes:int',
        'failureCount:Failures:int',
        'successRate:Success rate:percent',
        'failureRate:Failure rate:percent',
        'durationPerRunSeconds:Avg duration:duration',
        'totalExecutionSeconds:Total time:duration',
        'captchaCount:CAPTCHAs:int',
        'simpleTemplateCount:Templates:int',
        'proxyIpCount:Proxy IP usage:decimal',
        'balance:Cost:decimal',
      ],
    );
  });
});
