/**
 * What other programs make of Scrapedeck's files (issue 27, item 7): a spreadsheet that splits a
 * CSV on `;` (German or French Excel) finds no formula cell, and a line reader that breaks on
 * NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR (Python's `str.splitlines`) reads one JSON Lines row
 * per line. Both read by Python, as those programs would.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { CsvEncoder, JsonArrayEncoder, JsonLinesEncoder } from '../../src/data/formats/rowFormats';
import { csvCell } from '../../src/platform/csvCell';

const FORMULA = /^[=+\-@\t\r\n\0]/;

function python(script: string, file: string): unknown {
  return JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }));
}

describe('data: cells other programs read safely', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-cells-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const rows: DataRow[] = [
    { Name: "a;=cmd|' /C calc'!A0", Note: 'x;+1;-2;@SUM(1);\tTab', Plain: 'one;two' },
    { Name: 'first', Note: '=1+1', Plain: ';=HYPERLINK("http://example.invalid")' },
  ];

  it('CSV: a spreadsheet splitting on “;” reads no cell that starts a formula; a comma reader still reads every value', () => {
    const file = path.join(dir, 'semicolons.csv');
    const csv = new CsvEncoder();
    writeFileSync(file, csv.start(rows) + csv.rows(rows));
    // Excel set to split on “;” honours a quote only at a cell's start: split each line on every “;”.
    const semicolon = python(
      'import json,sys\nprint(json.dumps([c for l in open(sys.argv[1], encoding="utf-8-sig").read().split("\\r\\n") for c in l.split(";")]))',
      file,
    ) as string[];
    const formulas = semicolon.filter((c) => FORMULA.test(c.replace(/^"/, '')));
    assert.deepEqual(formulas, [], 'no cell a “;” spreadsheet would evaluate');
    const comma = python(
      'import csv,json,sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], encoding="utf-8-sig", newline="")))))',
      file,
    ) as string[][];
    assert.deepEqual(comma[1], ["a;'=cmd|' /C calc'!A0", "x;'+1;'-2;'@SUM(1);'\tTab", 'one;two']);
    assert.deepEqual(comma[2], ['first', "'=1+1", `;'=HYPERLINK("http://example.invalid")`]);
  });

  it('CSV: a cell with “;” is quoted; numbers stay numbers', () => {
    assert.equal(csvCell('one;two'), '"one;two"');
    assert.equal(csvCell('a;=b'), `"a;'=b"`);
    assert.equal(csvCell(-15), '-15');
  });

  it('JSON Lines: NEL, U+2028 and U+2029 are escaped, so a line reader reads one row per line and JSON reads the same values', () => {
    const awkward: DataRow[] = [
      { Text: 'before\u0085after', Sep: 'line\u2028separator', Para: 'para\u2029graph' },
      { Text: 'plain', Sep: '\u2028', Para: 'x' },
    ];
    const file = path.join(dir, 'breaks.jsonl');
    writeFileSync(file, new JsonLinesEncoder().rows(awkward));
    const lines = python(
      'import json,sys\nprint(json.dumps([json.loads(l) for l in open(sys.argv[1], encoding="utf-8", newline="").read().splitlines()]))',
      file,
    ) as DataRow[];
    assert.deepEqual(lines, awkward, 'splitlines() gives exactly the rows');
    const array = new JsonArrayEncoder();
    const json = array.start() + array.rows(awkward) + array.end();
    assert.doesNotMatch(json, /[\u0085\u2028\u2029]/);
    assert.deepEqual(JSON.parse(json), awkward);
  });
});
