/**
 * Export Data… to .xlsx and SQLite (issue 29 items 2 and 3), read back by real readers: Debian's
 * openpyxl for the workbook (as Excel shows it: `_xHHHH_` escapes decoded), Python's sqlite3 for
 * the database. Numbers stay numbers, text stays text (never a formula), a field first seen late
 * gets its header or column, a task larger than a sheet goes on on the next, and a cancelled
 * export leaves nothing behind.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { ApiError } from '../../src/api/errors/errors';
import type { ReadDataOptions } from '../../src/api/ops/data';
import { DataReader, type FetchDataPage } from '../../src/api/ops/dataReader';
import type { DataRow, DataValue } from '../../src/api/schemas/dataSchemas';
import { TaskExport } from '../../src/data/export/exportRows';
import { MAX_CELL_TEXT, MAX_SHEET_ROWS, sheetName } from '../../src/data/xlsx/xlsxParts';
import { XlsxWriter } from '../../src/data/xlsx/xlsxWriter';
import { crc32, crc32Combine } from '../../src/data/xlsx/zipParts';
import { mulberry32 } from '../../src/sandbox/seed/prng';
import { PYTHON } from '../shared/pullDestination';
import { wasmDir } from '../shared/pullScenario';
import { pageAt } from './helpers/dataPages';
import { runIntoStorm } from './helpers/exportStorm';

function source(
  rows: readonly DataRow[],
  pageSize = 5,
  failAt?: { offset: number; times: number },
): { readData(taskId: string, o?: ReadDataOptions): DataReader } {
  const fetch: FetchDataPage = (offset, size, signal) => {
    if (signal.aborted) return Promise.reject(new ApiError({ kind: 'cancelled', message: 'aborted' }));
    if (failAt && failAt.offset === offset && failAt.times > 0) {
      failAt.times--;
      return Promise.reject(new ApiError({ kind: 'rate-limited', status: 429, message: 'Too many requests' }));
    }
    return pageAt(rows, offset, Math.min(size, pageSize));
  };
  return { readData: (_id, o) => new DataReader(fetch, { resumeDelayMs: 1, ...o }) };
}

const AWKWARD: DataValue[] = [
  '=1+1',
  '+1 555',
  '-15%',
  '@user',
  '\tTab',
  'a;=cmd',
  'line\nbreak',
  'crlf\r\nhere',
  '<b>&amp;</b>',
  '"quoted"',
  '東京都',
  '😀 ✓',
  'ctl\u0001\u001f',
  '_x0041_ literal',
  'lone \ud800 half',
  '007',
  '',
  ' padded ',
  12.5,
  -3,
  0,
  1e21,
  123456789012,
  true,
  false,
  null,
];

/** What a cancelled export rejects with: the reader's cancellation, not some other failure on the way. */
const CANCELLED = (e: unknown): boolean => {
  assert.ok(e instanceof ApiError, `a cancellation, got ${String(e)}`);
  assert.equal(e.kind, 'cancelled');
  return true;
};

function rowsOf(seed: number, count: number): DataRow[] {
  const rng = mulberry32(seed);
  const out: DataRow[] = [];
  for (let i = 0; i < count; i++) {
    const row: DataRow = {};
    for (const name of ['Title', 'Price', 'price', 'In stock'])
      if (rng() > 0.1) row[name] = AWKWARD[Math.floor(rng() * AWKWARD.length)] as DataValue;
    if (i >= count - 3) row['Added late'] = `late ${i}`;
    out.push(row);
  }
  return out;
}

const OPENPYXL = `
import json, re, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
unescape = lambda v: re.sub(r'_x([0-9A-F]{4})_', lambda m: chr(int(m.group(1), 16)), v) if isinstance(v, str) else v
out = []
for ws in wb.worksheets:
    rows = [[{'v': unescape(c.value), 't': c.data_type} for c in r] for r in ws.iter_rows()]
    out.append({'title': ws.title, 'rows': rows})
print(json.dumps(out))
`;

interface Sheet {
  title: string;
  rows: { v: string | number | boolean | null; t: string }[][];
}

/** Leaves argv[1] with a committed table argv[2] of argv[3] rows only in its write-ahead log beside it (the connection is never closed). */
const PLANT_WAL = `
import os, shutil, sqlite3, sys
name, table, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
db = sqlite3.connect(name + '.tmp', isolation_level=None)
db.execute('PRAGMA journal_mode=WAL'); db.execute('PRAGMA wal_autocheckpoint=0')
db.execute('CREATE TABLE "%s" (a)' % table)
db.executemany('INSERT INTO "%s" VALUES (?)' % table, [(i,) for i in range(n)])
shutil.copyfile(name + '.tmp', name); shutil.copyfile(name + '.tmp-wal', name + '-wal')
for side in ('', '-wal', '-shm'): os.remove(name + '.tmp' + side)
os._exit(0)
`;

describe('data: Export Data… to .xlsx and SQLite, read back by real readers', function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-xlsx-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('.xlsx: openpyxl reads every row back: numbers as numbers, booleans as booleans, text as text (no formula), late fields in the header, 7 rows a sheet', async () => {
    const rows = rowsOf(7, 40);
    const target = path.join(dir, 'prices.xlsx');
    const result = await new TaskExport(source(rows), {
      taskId: 't',
      taskName: 'Prices: [EU] / 2026',
      target,
      format: 'xlsx',
      rowsPerSheet: 7,
    }).run();
    assert.equal(result.rows, 40);
    const sheets = JSON.parse(execFileSync(PYTHON, ['-c', OPENPYXL, target], { encoding: 'utf8' })) as Sheet[];
    assert.deepEqual(
      sheets.map((s) => s.title),
      Array.from({ length: 6 }, (_, i) => sheetName('Prices: [EU] / 2026', i)),
    );
    assert.equal(sheets[0]?.title, 'Prices EU 2026');
    const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const data: Sheet['rows'] = [];
    for (const sheet of sheets) {
      assert.deepEqual(
        sheet.rows[0]?.map((c) => c.v),
        fields,
        `${sheet.title}: the header is every field`,
      );
      data.push(...sheet.rows.slice(1));
    }
    assert.deepEqual(
      sheets.map((s) => s.rows.length - 1),
      [7, 7, 7, 7, 7, 5],
    );
    rows.forEach((row, i) => {
      const got = data[i] ?? [];
      fields.forEach((f, c) => {
        const want = row[f];
        const cell = got[c] ?? { v: null, t: 'n' };
        assert.notEqual(cell.t, 'f', `row ${i} ${f}: never a formula`);
        if (want === undefined || want === null) assert.equal(cell.v, null, `row ${i} ${f}: empty`);
        else if (typeof want === 'number') assert.deepEqual([cell.v, cell.t], [want, 'n'], `row ${i} ${f}: a number`);
        else if (typeof want === 'boolean') assert.deepEqual([cell.v, cell.t], [want, 'b'], `row ${i} ${f}: a boolean`);
        else assert.deepEqual([cell.v, cell.t], [want, 's'], `row ${i} ${f}: text as sent`);
      });
    });
    assert.deepEqual(readdirSync(dir), ['prices.xlsx'], 'no temporary file left');
  });

  it('.xlsx: a text longer than a cell holds is cut at 32,767 characters and counted; a sheet holds 1,048,575 data rows by default', async () => {
    const long = 'x'.repeat(MAX_CELL_TEXT + 10);
    const target = path.join(dir, 'long.xlsx');
    const result = await new TaskExport(source([{ A: long }, { A: 'short' }]), {
      taskId: 't',
      target,
      format: 'xlsx',
    }).run();
    assert.equal(result.cutCells, 1);
    const sheets = JSON.parse(execFileSync(PYTHON, ['-c', OPENPYXL, target], { encoding: 'utf8' })) as Sheet[];
    assert.equal((sheets[0]?.rows[1]?.[0]?.v as string).length, MAX_CELL_TEXT);
  });

  it(".xlsx: by default a sheet holds 1,048,575 data rows under its header (Excel's 1,048,576 rows); the next row starts a second sheet", async () => {
    const target = path.join(dir, 'tall.xlsx');
    const writer = await XlsxWriter.create({ target, taskName: 'Tall' });
    const batch: DataRow[] = Array.from({ length: 4096 }, () => ({ n: 1 }));
    for (let left = MAX_SHEET_ROWS; left > 0; left -= batch.length)
      await writer.write(batch.slice(0, Math.min(batch.length, left)));
    await writer.commit();
    // Read as Excel would lay it out: the sheets, each one's row count and last row number (openpyxl would take minutes here).
    const read = `
import json, re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = sorted(n for n in z.namelist() if re.match(r'xl/worksheets/sheet\\d+\\.xml$', n))
out = []
for n in names:
    xml = z.read(n).decode('utf-8')
    rows = re.findall(r'<row r="(\\d+)"', xml)
    out.append([len(rows), int(rows[-1])])
print(json.dumps(out))
`;
    const sheets = JSON.parse(execFileSync(PYTHON, ['-c', read, target], { encoding: 'utf8', maxBuffer: 1 << 20 })) as [
      number,
      number,
    ][];
    assert.deepEqual(
      sheets,
      [
        [MAX_SHEET_ROWS, MAX_SHEET_ROWS],
        [2, 2],
      ],
      'a full first sheet (header and 1,048,575 rows), then a header and the last row',
    );
  });

  it('.xlsx: a cancelled export leaves no file and no temporary file', async () => {
    const controller = new AbortController();
    const job = new TaskExport(source(rowsOf(3, 30)), {
      taskId: 't',
      target: path.join(dir, 'x.xlsx'),
      format: 'xlsx',
    });
    await assert.rejects(
      job.run({
        signal: controller.signal,
        onProgress: (p) => {
          if (p.rows >= 10) controller.abort();
        },
      }),
      CANCELLED,
    );
    assert.deepEqual(readdirSync(dir), []);
  });

  for (const format of ['xlsx', 'sqlite'] as const) {
    it(`${format}: a 429 storm past the reader's resumes keeps the job's place; run() again continues, every row once; a cancelled export leaves nothing`, async () => {
      const rows = rowsOf(13, 30);
      const target = path.join(dir, `storm.${format}`);
      const job = new TaskExport(source(rows, 5, { offset: 15, times: 2 }), {
        taskId: 't',
        taskName: 'Storm',
        target,
        format,
        wasmDir: wasmDir(),
        read: { maxResumes: 1, resumeDelayMs: 1 },
      });
      await runIntoStorm(job, dir, 15);
      const result = await job.run();
      assert.equal(result.rows, 30);
      const count =
        format === 'xlsx'
          ? (JSON.parse(execFileSync(PYTHON, ['-c', OPENPYXL, target], { encoding: 'utf8' })) as Sheet[])[0]?.rows
              .length
          : Number(
              execFileSync(
                PYTHON,
                [
                  '-c',
                  'import sqlite3,sys\nprint(sqlite3.connect(sys.argv[1]).execute(\'SELECT count(*) FROM "Storm"\').fetchone()[0])',
                  target,
                ],
                { encoding: 'utf8' },
              ).trim(),
            );
      assert.equal(count, format === 'xlsx' ? 31 : 30, 'every row once');
      assert.deepEqual(readdirSync(dir), [`storm.${format}`]);
      const controller = new AbortController();
      const cancelled = new TaskExport(source(rows), {
        taskId: 't',
        target: path.join(dir, `gone.${format}`),
        format,
        wasmDir: wasmDir(),
      });
      await assert.rejects(
        cancelled.run({
          signal: controller.signal,
          onProgress: (p) => {
            if (p.rows >= 10) controller.abort();
          },
        }),
        CANCELLED,
      );
      assert.deepEqual(readdirSync(dir), [`storm.${format}`], 'no file, no temporary file, no journal');
    });
  }

  it('zip: joined CRCs equal the CRC of the joined bytes', () => {
    const rng = mulberry32(5);
    for (let i = 0; i < 50; i++) {
      const a = Buffer.from(Array.from({ length: Math.floor(rng() * 3000) }, () => Math.floor(rng() * 256)));
      const b = Buffer.from(Array.from({ length: Math.floor(rng() * 3000) }, () => Math.floor(rng() * 256)));
      assert.equal(crc32Combine(crc32(a), crc32(b), b.length), crc32(Buffer.concat([a, b])));
    }
  });

  it('SQLite: one table named from the task, a column per field (Price and price apart), values typed as sent, late fields as new columns', async () => {
    const rows = rowsOf(11, 40);
    const target = path.join(dir, 'prices.sqlite');
    const result = await new TaskExport(source(rows), {
      taskId: 't',
      taskName: 'Prices "EU"',
      target,
      format: 'sqlite',
      wasmDir: wasmDir(),
    }).run();
    assert.equal(result.table, 'Prices "EU"');
    const read = `
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
cur = db.execute('SELECT * FROM "Prices ""EU""" ORDER BY rowid')
print(json.dumps({'tables': names, 'columns': [d[0] for d in cur.description], 'rows': [list(r) for r in cur]}))
`;
    const got = JSON.parse(execFileSync(PYTHON, ['-c', read, target], { encoding: 'utf8' })) as {
      tables: string[];
      columns: string[];
      rows: unknown[][];
    };
    assert.deepEqual(got.tables, ['Prices "EU"'], "only the task's table");
    const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    assert.deepEqual(
      got.columns,
      fields.map((f) => (f === 'price' ? 'price (2)' : f)),
      'Price and price are two columns',
    );
    // Half a surrogate pair is stored as U+FFFD (as in every UTF-8 file); everything else as sent.
    const stored = (v: DataValue | undefined) =>
      v === undefined
        ? null
        : typeof v === 'boolean'
          ? Number(v)
          : typeof v === 'string'
            ? v.replace('\ud800', '\ufffd')
            : v;
    assert.deepEqual(
      got.rows,
      rows.map((r) => fields.map((f) => stored(r[f]))),
    );
    assert.deepEqual(readdirSync(dir), ['prices.sqlite'], 'no temporary file or journal left');
  });

  it("SQLite: an export replacing a database with a write-ahead log beside it (a stopped program's, or one a repository shipped) leaves no log to be read into the new file", async () => {
    // A database with committed rows still in its log, as a stopped SQLite program leaves it (copied while open).
    const target = path.join(dir, 'prices.sqlite');
    execFileSync(PYTHON, ['-c', PLANT_WAL, target, 'Old', '50']);
    assert.ok(existsSync(`${target}-wal`), 'the log is there');

    const rows = rowsOf(12, 30);
    await new TaskExport(source(rows), {
      taskId: 't',
      taskName: 'Prices',
      target,
      format: 'sqlite',
      wasmDir: wasmDir(),
    }).run();
    assert.equal(existsSync(`${target}-wal`), false, 'the old log is gone');
    const read = `
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
print(json.dumps({'tables': names, 'rows': db.execute('SELECT count(*) FROM "Prices"').fetchone()[0]}))
`;
    assert.deepEqual(JSON.parse(execFileSync(PYTHON, ['-c', read, target], { encoding: 'utf8' })), {
      tables: ['Prices'],
      rows: 30,
    });
  });
});
