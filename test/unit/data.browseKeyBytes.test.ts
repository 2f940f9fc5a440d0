/**
 * The data browser's sort keys read from a CSV's bytes (src/data/browse/store: cellBytes.ts,
 * csvCellRange, numberRanks.ts, textRanks.ts) agree with reading the cells as text: the same
 * numbers and dates, the same cell, and the same order of rows as comparing numberOf/dateOf/
 * textKey would give, for the cells the byte paths take and the ones they leave to the text path.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { dateAt, numberAt } from '../../src/data/browse/store/cellBytes';
import { dateOf, isEmpty, numberOf, textKey } from '../../src/data/browse/store/cells';
import { columnKeys, orderByRanks } from '../../src/data/browse/store/columnKeys';
import { CellRange, csvCellAt, csvCellRange } from '../../src/data/browse/store/csvBytes';
import { indexFile } from '../../src/data/browse/store/fileIndexer';
import { RecordFile } from '../../src/data/browse/store/recordFile';

const NUMBERS = ['0', '-0', '+5', '5.', '.5', '-.25', '0.1', '123.45', '-999.999', '000123', '1e5', '2E-3', '1e999'];
// 16 digits and more: no longer an exact integer, so the division could round twice (264007021851.06894 does).
const MORE = [
  '123456789012345',
  '264007021851.06894',
  '700.2741420170939417',
  '1234567890123456',
  '9007199254740993',
  '0.30000000000000004',
  '12a',
  ' 12',
  '1 2',
];
const DATES = ['2024-02-29', '2023-02-29', '2024-04-31', '2024-13-01', '0050-01-01', '0100-03-01', '2024-1-01'];
const DATE_TIMES = ['2024-03-01T10:00:00Z', '2024-03-01 10:00', '1999-12-31', '9999-12-31'];

describe('data browser: sort keys from bytes', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'browse-key-bytes-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a number or date read from bytes is the one read from the text, or left to the text', () => {
    for (const text of [...NUMBERS, ...MORE, ...DATES, ...DATE_TIMES, '', '-', '.', 'x']) {
      const buf = Buffer.from(text, 'utf8');
      const n = numberAt(buf, 0, buf.length);
      if (n !== undefined) assert.ok(Object.is(n, numberOf(text)), `${text}: ${n} read, ${numberOf(text)} meant`);
      const d = dateAt(buf, 0, buf.length);
      if (d !== undefined) assert.equal(d, dateOf(text), text);
    }
    // The usual cells take the byte path (else this test would prove nothing).
    for (const text of ['123.45', '-0', '000123'])
      assert.notEqual(numberAt(Buffer.from(text), 0, text.length), undefined);
    assert.equal(dateAt(Buffer.from('2024-02-29'), 0, 10), Date.UTC(2024, 1, 29));
  });

  it("a cell's bytes, where they are its text, are the cell csvCellAt reads", () => {
    const records = ['a,"b,c",d', '"x""y",z,', 'p,"q"r,s', '"unclosed,t', 'u,v"w,x', ',,', 'é,"ü",ß\r\n', '"",1'];
    const at = { start: 0, end: 0 };
    let taken = 0;
    for (const record of records) {
      const buf = Buffer.from(record, 'utf8');
      for (let column = 0; column < 5; column++) {
        const cell = csvCellAt(buf, 0, buf.length, column);
        const found = csvCellRange(buf, 0, buf.length, column, at);
        if (found === CellRange.Missing) assert.equal(cell, null, `${record} #${column}`);
        else if (found === CellRange.Bytes) {
          taken++;
          assert.equal(buf.toString('utf8', at.start, at.end), cell, `${record} #${column}`);
        }
      }
    }
    assert.ok(taken > 10, 'hardly any cell took the byte path');
  });

  async function keysOf(
    cells: readonly string[],
  ): Promise<{ file: RecordFile; kind: string; order: (d: 'asc' | 'desc') => number[] }> {
    const quoted = cells.map((c) => (/[",\n\r]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c));
    // A second column: a record of one empty cell would be a blank line, which is no record.
    writeFileSync(path.join(dir, 'cells.csv'), `v,i\n${quoted.map((c, i) => `${c},${i}`).join('\n')}\n`);
    const file = await RecordFile.open(path.join(dir, 'cells.csv'), 'csv');
    await indexFile(file);
    assert.equal(file.count, cells.length);
    const keys = await columnKeys(file, 0, cells.length);
    return { file, kind: keys.kind, order: (d) => [...orderByRanks(keys, d)] };
  }

  /** Rows in the order the cells' values give: stable, empties last in both directions. */
  function expected(values: ReadonlyArray<number | string | undefined>, direction: 'asc' | 'desc'): number[] {
    const sign = direction === 'asc' ? 1 : -1;
    return values
      .map((_, i) => i)
      .sort((a, b) => {
        const [x, y] = [values[a], values[b]];
        if (x === undefined || y === undefined) return x === y ? a - b : x === undefined ? 1 : -1;
        return x === y ? a - b : (x < y ? -1 : 1) * sign;
      });
  }

  it('numbers from bytes and from text order rows as their values do (-0 is 0, an exponent, 16 digits)', async () => {
    const cells = [...NUMBERS, ...MORE.slice(0, 6), '', ' 7 ', '-1e999', '-5', '5', '\u00a012'];
    const { file, kind, order } = await keysOf(cells);
    assert.equal(kind, 'number');
    const values = cells.map((c) => (isEmpty(c) ? undefined : numberOf(c)));
    for (const d of ['asc', 'desc'] as const) assert.deepEqual(order(d), expected(values, d), d);
    await file.close();
  });

  it('dates from bytes and from text order rows as their values do', async () => {
    const cells = [...DATES.filter((d) => dateOf(d) !== undefined), ...DATE_TIMES, '', '2024-02-29'];
    const { file, kind, order } = await keysOf(cells);
    assert.equal(kind, 'date');
    const values = cells.map((c) => (isEmpty(c) ? undefined : dateOf(c)));
    for (const d of ['asc', 'desc'] as const) assert.deepEqual(order(d), expected(values, d), d);
    await file.close();
  });

  it('text keys from bytes and from text order rows as comparing textKey does', async () => {
    const long = 'x'.repeat(70);
    const cells = [
      ...['Kiwi', 'kiwi', 'KIWI', ' kiwi', 'kiwi ', 'ki', 'kiwis', 'k', '\u212a', '\u212aiwi', 'é', 'E', 'e', 'f'],
      ...[
        '\ud83d\ude00',
        '\uff21',
        '\ufffd',
        '',
        '   ',
        '\u00a0',
        `${long}a`,
        `${long}b`,
        `${'y'.repeat(63)}é`,
        `${' '.repeat(70)}a`,
      ],
      ...['a,b', 'say "hi"', 'line\nbreak', '12', '2024-01-01', 'true'],
    ];
    const { file, order } = await keysOf(cells);
    const values = cells.map((c) => (isEmpty(c) ? undefined : textKey(c)));
    for (const d of ['asc', 'desc'] as const) assert.deepEqual(order(d), expected(values, d), d);
    await file.close();
  });

  it('many rows of long, shared and few texts rank as comparing them does', async () => {
    const cells: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const word = ['pear', 'Plum', 'plum', 'péar'][i % 4] as string;
      cells.push(
        i % 7 === 0
          ? ''
          : i % 3 === 0
            ? `https://shop.example/${word}/${(i * 7919) % 1000}`
            : `${word} ${'lorem ipsum '.repeat(i % 2 === 0 ? 6 : 1)}${i % 50}`,
      );
    }
    const { file, order } = await keysOf(cells);
    const values = cells.map((c) => (isEmpty(c) ? undefined : textKey(c)));
    for (const d of ['asc', 'desc'] as const) assert.deepEqual(order(d), expected(values, d), d);
    await file.close();
  });
});
