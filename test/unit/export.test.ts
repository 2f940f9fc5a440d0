import * as assert from 'node:assert/strict';

import { UTF8_BOM } from '../../src/analytics/host/csv';
import {
  buildJsonExport,
  defaultExportFileName,
  EXPORT_FILTERS,
  type ExportedRows,
  serialiseExport,
} from '../../src/analytics/host/exportFormat';
import type { AnalyticsQuery, AnalyticsRecord } from '../../src/api/schemas/schemas';
import { analyticsRecordSchema } from '../../src/api/schemas/schemas';
import { blankRecord, oneSuccessfulRun, WEEK_47 } from '../shared/analyticsRecords';

const query: AnalyticsQuery = { start: '2026-11-16', end: '2026-11-22', timeGranularity: 'Week', taskIds: ['t1'] };
const rec: AnalyticsRecord = blankRecord({
  taskId: 't1',
  userId: 'u1',
  ...WEEK_47,
  dataVolumeMetrics: { totalCollected: 10, deduplicatedVolume: null },
  executionMetrics: oneSuccessfulRun(3.5),
});
const now = new Date('2026-11-22T10:00:00.000Z');

describe('analytics export format', () => {
  it('names the file after the range and granularity', () => {
    const whole = (q: AnalyticsQuery): ExportedRows => ({ query: q, total: 1, records: [rec] });
    assert.equal(defaultExportFileName(whole(query), 'csv'), 'scrapedeck-analytics-2026-11-16_2026-11-22-week.csv');
    assert.equal(
      defaultExportFileName(whole({ start: '2026-11-01', end: '2026-11-02' }), 'json'),
      'scrapedeck-analytics-2026-11-01_2026-11-02-day.json',
    );
    assert.equal(
      defaultExportFileName(whole({ ...query, timeGranularity: 'Month' }), 'csv'),
      'scrapedeck-analytics-2026-11-16_2026-11-22-month.csv',
    );
  });

  it('says in the file name when the rows are only the first of the query', () => {
    const part: ExportedRows = { query, total: 25_300, records: Array.from({ length: 1000 }, () => rec) };
    assert.equal(
      defaultExportFileName(part, 'csv'),
      'scrapedeck-analytics-2026-11-16_2026-11-22-week-first-1000-of-25300.csv',
    );
    assert.equal(
      defaultExportFileName({ ...part, total: 1000 }, 'csv'),
      'scrapedeck-analytics-2026-11-16_2026-11-22-week.csv',
      'all rows: no note',
    );
    const doc = buildJsonExport(part, now);
    assert.deepEqual([doc.count, doc.total, doc.complete], [1000, 25_300, false]);
  });

  it('offers one filter per format', () => {
    assert.deepEqual(Object.values(EXPORT_FILTERS.csv), [['csv']]);
    assert.deepEqual(Object.values(EXPORT_FILTERS.json), [['json']]);
  });

  it('JSON: the query, a count and the records as the service sent them (nulls kept)', () => {
    const rows: ExportedRows = { query, total: 1, records: [rec] };
    const doc = buildJsonExport(rows, now);
    assert.deepEqual(doc, {
      format: 'scrapedeck-analytics',
      version: 1,
      exportedAt: '2026-11-22T10:00:00.000Z',
      query,
      count: 1,
      total: 1,
      complete: true,
      records: [rec],
    });
    const text = new TextDecoder().decode(serialiseExport('json', rows, now));
    const parsed = JSON.parse(text) as { records: unknown[] };
    assert.equal(parsed.records.length, 1);
    // What was exported parses back as a record: the file is usable as input again.
    assert.deepEqual(analyticsRecordSchema.parse(parsed.records[0]), rec);
    assert.equal(
      (parsed.records[0] as { dataVolumeMetrics: { deduplicatedVolume: unknown } }).dataVolumeMetrics
        .deduplicatedVolume,
      null,
    );
    assert.ok(text.endsWith('\n'));
  });

  it('CSV: UTF-8 bytes with the byte-order mark', () => {
    const bytes = serialiseExport('csv', { query, total: 1, records: [rec] }, now);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    assert.ok(text.startsWith(UTF8_BOM + 'taskId,userId,taskName,'));
    assert.equal(text.split('\r\n').length, 3);
  });
});
