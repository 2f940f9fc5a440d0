import * as assert from 'node:assert/strict';

import { CSV_COLUMNS, csvCell, neutraliseFormula, recordsToCsv, UTF8_BOM } from '../../src/analytics/host/csv';
import { type AnalyticsRecord, analyticsRecordSchema } from '../../src/api/schemas/schemas';
import { pricesRecord } from '../shared/analyticsRecords';

/** A strict RFC 4180 reader, as a spreadsheet would read the file: quoted fields, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i++;
        assert.ok(i === text.length || text[i] === ',' || text[i] === '\r', `stray text after a closing quote at ${i}`);
      } else {
        field += ch;
        i++;
      }
    } else if (ch === '"') {
      assert.equal(field, '', `a quote inside an unquoted field at ${i}`);
      quoted = true;
      i++;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else {
      assert.ok(ch !== '\r' && ch !== '\n', `a bare line break in an unquoted field at ${i}`);
      field += ch;
      i++;
    }
  }
  assert.equal(quoted, false, 'unterminated quoted field');
  assert.equal(field, '', 'the last row does not end with CRLF');
  assert.equal(row.length, 0, 'the last row does not end with CRLF');
  return rows;
}

function record(overrides: Partial<AnalyticsRecord> = {}): AnalyticsRecord {
  const prices = pricesRecord();
  return pricesRecord({
    taskId: 'task-1',
    userId: 'user-1',
    dayKey: '2026-11-16',
    executionMetrics: { ...prices.executionMetrics, durationPerRunSeconds: 12.5, totalExecutionSeconds: 50 },
    resourceUsageMetrics: { captchaCount: 0, simpleTemplateCount: 2, proxyIpCount: 1.5, balance: -3.25 },
    ...overrides,
  });
}

/** Every leaf of the record schema, as `group.field` for nested objects. */
function schemaLeaves(): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(analyticsRecordSchema.shape)) {
    const shape = (value as { shape?: Record<string, unknown> }).shape;
    if (shape && typeof shape === 'object') out.push(...Object.keys(shape).map((k) => `${key}.${k}`));
    else out.push(key);
  }
  return out;
}

describe('analytics CSV', () => {
  describe('cells', () => {
    it('quotes commas, quotes, CR and LF (RFC 4180)', () => {
      assert.equal(csvCell('a,b'), '"a,b"');
      assert.equal(csvCell('say "hi"'), '"say ""hi"""');
      assert.equal(csvCell('line1\nline2'), '"line1\nline2"');
      assert.equal(csvCell('line1\r\nline2'), '"line1\r\nline2"');
      assert.equal(csvCell('plain'), 'plain');
    });

    for (const start of ['=', '+', '-', '@', '\t', '\r', '\n', '\0']) {
      it(`neutralises a text cell starting with ${JSON.stringify(start)}`, () => {
        const cell = csvCell(`${start}SUM(A1:A9)`);
        const [[parsed]] = parseCsv(`${cell}\r\n`) as [[string]];
        assert.equal(parsed, `'${start}SUM(A1:A9)`);
      });
    }

    it('the guard cannot be undone on reading: a value that had the apostrophe is written the same (so the data browser shows it as it is)', () => {
      assert.equal(csvCell('=SUM(A1)'), csvCell("'=SUM(A1)"));
      assert.equal(csvCell('-15%'), csvCell("'-15%"));
      assert.equal(csvCell('a;=b'), csvCell("a;'=b"));
    });

    it('neutralises a formula and still escapes it', () => {
      assert.equal(csvCell('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
    });

    it('leaves numbers intact, negative ones included', () => {
      assert.equal(csvCell(-3.25), '-3.25');
      assert.equal(csvCell(0), '0');
      assert.equal(csvCell(0.75), '0.75');
      assert.equal(csvCell(1e21), '1e+21');
    });

    it('writes null as an empty cell, never 0', () => {
      assert.equal(csvCell(null), '');
    });

    it('does not touch text that only contains formula characters later', () => {
      assert.equal(neutraliseFormula('a=b'), 'a=b');
      assert.equal(neutraliseFormula('2026-W47'), '2026-W47');
    });
  });

  describe('file', () => {
    it('starts with a UTF-8 byte-order mark and ends rows with CRLF', () => {
      const csv = recordsToCsv([record()]);
      assert.ok(csv.startsWith(UTF8_BOM));
      assert.equal(csv.split('\r\n').length, 3); // header, one row, and the empty tail after the last CRLF
      assert.equal(Buffer.from(csv, 'utf8').subarray(0, 3).toString('hex'), 'efbbbf');
    });

    it('has a header column for every field of the record schema', () => {
      const [header] = parseCsv(recordsToCsv([]).slice(1));
      assert.deepEqual([...(header ?? [])].sort(), schemaLeaves().sort());
      assert.equal(header?.length, CSV_COLUMNS.length);
    });

    it('round-trips through an RFC 4180 reader: every value where the header says', () => {
      const awkward = record({
        taskId: '-42',
        taskName: '=cmd|"/c calc"!A1, "quoted"\r\nnext line — 价格',
        weekStartDate: '2026-11-16',
        weekEndDate: '2026-11-22',
        dayKey: '2026-W47',
        collectionMethod: 'Local',
        dataVolumeMetrics: { totalCollected: null, deduplicatedVolume: 0 },
      });
      const nameless = record({ taskName: null, userId: '@admin' });
      const records = [record(), awkward, nameless];
      const rows = parseCsv(recordsToCsv(records).slice(UTF8_BOM.length));
      const [header, ...body] = rows as [string[], ...string[][]];
      assert.equal(body.length, records.length);
      body.forEach((row, i) => {
        assert.equal(row.length, header.length, `row ${i} has a cell per column`);
        const rec = records[i] as AnalyticsRecord;
        header.forEach((name, c) => {
          const [group, leaf] = name.split('.') as [string, string | undefined];
          const top = (rec as unknown as Record<string, unknown>)[group];
          const value = leaf === undefined ? top : (top as Record<string, unknown>)[leaf];
          const expected =
            value === null
              ? ''
              : typeof value === 'number'
                ? String(value)
                : /^[=+\-@\t\r]/.test(String(value))
                  ? `'${String(value)}`
                  : String(value);
          assert.equal(row[c], expected, `row ${i}, column ${name}`);
        });
      });
      // The spreadsheet sees text, not a formula, and the negative number stays a number.
      assert.ok(body[1]?.[header.indexOf('taskName')]?.startsWith("'="));
      assert.equal(body[1]?.[header.indexOf('taskId')], "'-42");
      assert.equal(body[0]?.[header.indexOf('resourceUsageMetrics.balance')], '-3.25');
      assert.equal(body[2]?.[header.indexOf('taskName')], '');
      assert.equal(body[1]?.[header.indexOf('dataVolumeMetrics.totalCollected')], '');
    });
  });
});
