/**
 * The export writers: CSV (a property test read back by Python's csv module, as a spreadsheet
 * would), JSON Lines and JSON read back equal to the rows; the late-field padding pass at every
 * chunk boundary; and the temporary file: a cancelled or failed export leaves nothing under the
 * chosen name (an existing file there stays as it was), a resumable failure continues from the
 * last offset without asking a page twice.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { ApiError } from '../../src/api/errors/errors';
import type { ReadDataOptions } from '../../src/api/ops/data';
import { DataReader, type FetchDataPage } from '../../src/api/ops/dataReader';
import type { DataRow, DataValue } from '../../src/api/schemas/dataSchemas';
import { type ExportSource, TaskExport } from '../../src/data/export/exportRows';
import { CsvRecordPadder, readFirstRecord } from '../../src/data/formats/csvRecords';
import { CsvEncoder, type DataFormat, formatOfPath, safeFileName } from '../../src/data/formats/rowFormats';
import { neutraliseFormula } from '../../src/platform/csvCell';
import { mulberry32 } from '../../src/sandbox/seed/prng';
import { pageAt } from './helpers/dataPages';
import { runIntoStorm } from './helpers/exportStorm';

/** Reads each file as a spreadsheet does: Python's csv module, UTF-8 with or without BOM. */
function pythonCsv(files: string[]): string[][][] {
  const script = [
    'import csv, json, sys',
    'out = []',
    'for name in sys.argv[1:]:',
    '    with open(name, encoding="utf-8-sig", newline="") as f:',
    '        out.append(list(csv.reader(f)))',
    'print(json.dumps(out))',
  ].join('\n');
  return JSON.parse(
    execFileSync('python3', ['-c', script, ...files], { encoding: 'utf8', maxBuffer: 256 << 20 }),
  ) as string[][][];
}

/** A task of these rows behind the real reader, `size` rows a page; records the offsets asked. */
function source(
  rows: readonly DataRow[],
  o: { failAt?: { offset: number; times: number; error: () => unknown } } = {},
): ExportSource & { asked: number[] } {
  const asked: number[] = [];
  const fetch: FetchDataPage = (offset, size, signal) => {
    asked.push(offset);
    if (signal.aborted) return Promise.reject(new ApiError({ kind: 'cancelled', message: 'aborted' }));
    const f = o.failAt;
    if (f && f.offset === offset && f.times > 0) {
      f.times--;
      return Promise.reject(f.error());
    }
    return pageAt(rows, offset, size);
  };
  return {
    asked,
    readData: (_taskId: string, options?: ReadDataOptions) => new DataReader(fetch, { resumeDelayMs: 1, ...options }),
  };
}

const AWKWARD = [
  '',
  ',',
  '"',
  '""',
  'a,b',
  'say "hi"',
  'line\nbreak',
  'crlf\r\nhere',
  'lone\rcr',
  '=1+1',
  '+1 555',
  '-15%',
  '@user',
  '\tTab',
  '東京都',
  '😀 ✓',
  'Ελληνικά',
  ' padded ',
  "'quoted",
  'x'.repeat(300),
];
const NAMES = ['Title', 'Price', 'URL', 'a,b', 'say "x"', '=sum', 'Größe', 'multi\nline', '', 'id'];

function randomValue(rng: () => number): DataValue {
  const r = rng();
  if (r < 0.08) return null;
  if (r < 0.14) return Math.round((rng() - 0.5) * 1e6) / 100;
  if (r < 0.18) return rng() < 0.5;
  if (r < 0.6) return AWKWARD[Math.floor(rng() * AWKWARD.length)] as string;
  let s = '';
  const n = Math.floor(rng() * 12);
  for (let i = 0; i < n; i++)
    s += String.fromCodePoint(
      [32 + Math.floor(rng() * 95), 0x4e00 + Math.floor(rng() * 500), 0x1f600 + Math.floor(rng() * 50), 10, 13, 44, 34][
        Math.floor(rng() * 7)
      ] as number,
    );
  return s;
}

/** Rows whose field sets vary, some fields appearing only after the first page. */
function randomRows(seed: number, count: number): DataRow[] {
  const rng = mulberry32(seed);
  const early = NAMES.slice(0, 3 + Math.floor(rng() * 4));
  const late = NAMES.filter((n) => !early.includes(n));
  const rows: DataRow[] = [];
  for (let i = 0; i < count; i++) {
    const row: DataRow = {};
    const names =
      i > count / 2 && rng() < 0.3 ? [...early, ...late.slice(0, 1 + Math.floor(rng() * late.length))] : early;
    for (const name of names) if (rng() > 0.1) row[name] = randomValue(rng);
    rows.push(row);
  }
  return rows;
}

/** What a spreadsheet should read: union of names in first-seen order, neutralised text, numbers as numbers. */
function expectedTable(rows: readonly DataRow[]): string[][] {
  const columns: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const cell = (v: DataValue | undefined): string =>
    v === null || v === undefined ? '' : typeof v === 'string' ? neutraliseFormula(v) : String(v);
  return [columns.map((c) => neutraliseFormula(c)), ...rows.map((r) => columns.map((c) => cell(r[c])))];
}

describe('data export writers', function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-export-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const exportTo = async (rows: readonly DataRow[], format: DataFormat, name: string, pageSize = 7) => {
    const target = path.join(dir, name);
    const result = await new TaskExport(source(rows), { taskId: 't1', target, format, read: { pageSize } }).run();
    return { target, result };
  };

  it("CSV, property: what Python's csv module reads back equals the rows (40 random tasks, late fields, awkward values)", async () => {
    const cases: { file: string; rows: DataRow[] }[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const rows = randomRows(seed, 5 + ((seed * 13) % 90));
      const { target, result } = await exportTo(rows, 'csv', `case-${seed}.csv`, 1 + (seed % 11));
      assert.equal(result.rows, rows.length);
      cases.push({ file: target, rows });
    }
    const read = pythonCsv(cases.map((c) => c.file));
    cases.forEach((c, i) => assert.deepEqual(read[i], expectedTable(c.rows), `case ${i + 1}`));
    assert.ok(
      cases.some((c) => expectedTable(c.rows)[0]!.length > Object.keys(c.rows[0] ?? {}).length),
      'some case had fields first seen late',
    );
    // Every file: UTF-8 BOM, CRLF line ends, no temporary file left over.
    for (const c of cases) assert.deepEqual([...readFileSync(c.file).subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.scrapedeck-tmp')),
      [],
    );
  });

  it('CSV: a late field is a new last column and the rows before it get its empty cell', async () => {
    const rows: DataRow[] = [{ a: '1', b: '2' }, { a: '3' }, { b: '4', c: '=x' }, { c: 'y', a: '5' }];
    const { target, result } = await exportTo(rows, 'csv', 'late.csv', 2);
    assert.equal(result.widened, true);
    assert.deepEqual(result.columns, ['a', 'b', 'c']);
    assert.equal(readFileSync(target, 'utf8'), "\uFEFFa,b,c\r\n1,2,\r\n3,,\r\n,4,'=x\r\n5,,y\r\n");
  });

  it('CSV: a row with no value in a single column is a quoted empty cell, not a blank line', async () => {
    const { target } = await exportTo([{ only: 'a' }, {}, { only: null }], 'csv', 'one.csv');
    assert.deepEqual(pythonCsv([target])[0], [['only'], ['a'], [''], ['']]);
  });

  it('JSON Lines and JSON read back equal to the rows, keys and value types as sent', async () => {
    const rows = randomRows(99, 57);
    const lines = await exportTo(rows, 'jsonl', 'rows.jsonl');
    const text = readFileSync(lines.target, 'utf8');
    assert.ok(text.endsWith('\n'));
    assert.deepEqual(
      text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as DataRow),
      rows,
    );
    const json = await exportTo(rows, 'json', 'rows.json');
    assert.deepEqual(JSON.parse(readFileSync(json.target, 'utf8')), rows);
    const empty = await exportTo([], 'json', 'empty.json');
    assert.equal(empty.result.rows, 0, 'an empty task writes nothing');
    assert.deepEqual(readdirSync(dir).sort(), ['rows.json', 'rows.jsonl']);
  });

  it('a cancelled export leaves no file under the chosen name, an existing one unchanged, and no temporary file', async () => {
    const rows = randomRows(5, 200);
    const target = path.join(dir, 'keep.csv');
    writeFileSync(target, "the user's own file\n");
    const abort = new AbortController();
    const job = new TaskExport(source(rows), { taskId: 't1', target, format: 'csv', read: { pageSize: 10 } });
    const run = job.run({ signal: abort.signal, onProgress: (p) => p.rows >= 50 && abort.abort() });
    await assert.rejects(run, (e: unknown) => e instanceof ApiError && e.kind === 'cancelled');
    assert.equal(readFileSync(target, 'utf8'), "the user's own file\n");
    assert.deepEqual(readdirSync(dir), ['keep.csv']);
    assert.equal(job.resumable, false);
  });

  it('a failure the reader cannot get past (a bad reply) leaves nothing, and a new target does not appear', async () => {
    const rows = randomRows(6, 100);
    const src = source(rows, {
      failAt: {
        offset: 30,
        times: 1,
        error: () => new ApiError({ kind: 'bad-response', message: 'garbled', requestId: 'req-bad' }),
      },
    });
    const job = new TaskExport(src, {
      taskId: 't1',
      target: path.join(dir, 'new.jsonl'),
      format: 'jsonl',
      read: { pageSize: 10 },
    });
    await assert.rejects(job.run(), (e: unknown) => e instanceof ApiError && e.requestId === 'req-bad');
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(job.resumable, false);
  });

  it("a 429 storm past the reader's resumes: the job keeps its place, run() again continues from the last offset, no page asked twice", async () => {
    const rows = randomRows(7, 100);
    const storm = () => new ApiError({ kind: 'rate-limited', status: 429, message: 'too many', requestId: 'req-429' });
    const src = source(rows, { failAt: { offset: 60, times: 4, error: storm } });
    const target = path.join(dir, 'resumed.jsonl');
    const job = new TaskExport(src, { taskId: 't1', target, format: 'jsonl', read: { pageSize: 10, maxResumes: 2 } });
    await runIntoStorm(job, dir, 60);
    const result = await job.run();
    assert.equal(result.rows, 100);
    assert.deepEqual(
      readFileSync(target, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as DataRow),
      rows,
    );
    // 0..50 once each, 60 failed four times (three in the first run, one in the second), then on;
    // 70 was on its way behind 60 when the first run gave up (its rows unread), so it is asked again.
    const asked = src.asked.filter((o) => o !== 60 && o !== 70);
    assert.deepEqual(asked, [...new Set(asked)], 'no page whose rows were read was asked twice');
    assert.ok(src.asked.filter((o) => o === 70).length <= 2);
    assert.deepEqual(readdirSync(dir), ['resumed.jsonl']);
  });

  it('a stopped job discarded: its temporary file goes, the target never appears', async () => {
    const src = source(randomRows(8, 50), {
      failAt: { offset: 20, times: 9, error: () => new ApiError({ kind: 'server', status: 503, message: 'busy' }) },
    });
    const job = new TaskExport(src, {
      taskId: 't1',
      target: path.join(dir, 'dropped.csv'),
      format: 'csv',
      read: { pageSize: 10, maxResumes: 1 },
    });
    await assert.rejects(job.run());
    assert.equal(readdirSync(dir).length, 1, 'the temporary file is kept for Resume');
    await job.discard();
    assert.deepEqual(readdirSync(dir), []);
  });
});

describe('data: CSV records read back', () => {
  it('padding is the same whatever the chunk boundaries (CRLF split, quotes split, BOM)', () => {
    const text = '\uFEFFa,b\r\n1,"x,\r\ny"\r\n"q""",\r\n,\r\n3\r\nlast';
    const whole = new CsvRecordPadder(4, true);
    const expected = whole.push(text) + whole.end();
    assert.equal(expected, '1,"x,\r\ny",,\r\n"q""",,,\r\n,,,\r\n3,,,\r\nlast,,,');
    for (let cut = 0; cut <= text.length; cut++) {
      for (let cut2 = cut; cut2 <= text.length; cut2 += 3) {
        const p = new CsvRecordPadder(4, true);
        assert.equal(
          p.push(text.slice(0, cut)) + p.push(text.slice(cut, cut2)) + p.push(text.slice(cut2)) + p.end(),
          expected,
          `cuts ${cut}, ${cut2}`,
        );
      }
    }
  });

  it('the first record: quoted cells, doubled quotes, LF or CRLF, BOM; none without a line break', () => {
    assert.deepEqual(readFirstRecord('\uFEFFa,"b,c","d""e"\r\nrest'), { cells: ['a', 'b,c', 'd"e'], length: 17 });
    assert.deepEqual(readFirstRecord('x,"multi\nline"\n1,2')?.cells, ['x', 'multi\nline']);
    assert.equal(readFirstRecord('no line break'), undefined);
  });

  it("an appended file's header matches fields by their neutralised names", () => {
    const enc = new CsvEncoder(["'=sum", 'Title']);
    enc.learn([{ '=sum': '1', Title: 't', New: 'n' }]);
    assert.deepEqual(enc.columns, ["'=sum", 'Title', 'New']);
    assert.equal(enc.widened, true);
  });

  it('formats by file name, and file names from task names', () => {
    assert.deepEqual(['a.CSV', 'b.jsonl', 'c.ndjson', 'd.json', 'e.txt', 'noext', '.csv/x'].map(formatOfPath), [
      'csv',
      'jsonl',
      'jsonl',
      'json',
      undefined,
      undefined,
      undefined,
    ]);
    assert.equal(safeFileName('a/b: c*?'), 'a b c');
    assert.equal(safeFileName('...'), 'task');
  });
});
