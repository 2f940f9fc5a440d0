/**
 * The data browser's readers (src/data/browse/store): a CSV with quoted line breaks, a BOM and
 * ragged rows; JSON Lines with a bad line (shown with its line number, not thrown); a JSON array;
 * files that are not what their name says; a file changed while open; and every boundary of a
 * record crossing a chunk (read one byte at a time).
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { csvCellAt, csvCells } from '../../src/data/browse/store/csvBytes';
import { indexFile, NotThatFormat } from '../../src/data/browse/store/fileIndexer';
import { type FileFormat, RecordFile } from '../../src/data/browse/store/recordFile';

describe('data browser: readers', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'browse-readers-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function read(
    name: string,
    text: string | Buffer,
    format: FileFormat,
    chunkBytes?: number,
  ): Promise<RecordFile> {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    const records = await RecordFile.open(file, format);
    await indexFile(records, { chunkBytes });
    return records;
  }

  const CSV = '\ufeffname,note,price\r\n"Ann","two\r\nlines",1.5\r\nBob,"say ""hi""",2\r\n\r\nCy\r\nDee,x,3,extra\r\n';

  for (const chunkBytes of [undefined, 1, 7]) {
    it(`CSV: BOM dropped, quoted line breaks and quotes kept, ragged rows padded and widened (chunks of ${chunkBytes ?? 'default'} bytes)`, async () => {
      const file = await read(`a${chunkBytes ?? 0}.csv`, CSV, 'csv', chunkBytes);
      assert.deepEqual(file.columns, ['name', 'note', 'price', 'column 4']);
      assert.equal(file.count, 4);
      const rows = await file.rows([0, 1, 2, 3]);
      assert.deepEqual(
        rows.map((r) => r.cells),
        [
          ['Ann', 'two\r\nlines', '1.5', null],
          ['Bob', 'say "hi"', '2', null],
          ['Cy', null, null, null],
          ['Dee', 'x', '3', 'extra'],
        ],
      );
      assert.deepEqual(
        rows.map((r) => r.line),
        [2, 4, 6, 7],
      );
      await file.close();
    });

    it(`JSON Lines: a bad line is that row's problem with its line number; the others read (chunks of ${chunkBytes ?? 'default'} bytes)`, async () => {
      const file = await read(
        `b${chunkBytes ?? 0}.jsonl`,
        '{"a":1,"b":"x"}\n\n{"a":2, oops}\n[1,2]\n{"c":{"d":true},"a":null}\n',
        'jsonl',
        chunkBytes,
      );
      assert.deepEqual(file.columns, ['a', 'b', 'c']);
      assert.equal(file.count, 4);
      assert.equal(file.problemCount, 2);
      const rows = await file.rows([0, 1, 2, 3]);
      assert.deepEqual(rows[0]?.cells, [1, 'x', null]);
      assert.match(rows[1]?.problem ?? '', /^Line 3 is not valid JSON/);
      assert.equal(rows[1]?.line, 3);
      assert.match(rows[2]?.problem ?? '', /^Line 4 is not an object/);
      assert.deepEqual(rows[3]?.cells, [null, null, '{"d":true}']);
      await file.close();
    });

    it(`JSON: the elements of an array are the rows (chunks of ${chunkBytes ?? 'default'} bytes)`, async () => {
      const file = await read(
        `c${chunkBytes ?? 0}.json`,
        '[\n {"a": "x, ] {"},\n {"a": 2, "b": [1, {"c": "]"}]}\n]\n',
        'json',
        chunkBytes,
      );
      assert.deepEqual(file.columns, ['a', 'b']);
      assert.equal(file.count, 2);
      const rows = await file.rows([1, 0]);
      assert.deepEqual(
        rows.map((r) => r.cells),
        [
          [2, '[1,{"c":"]"}]'],
          ['x, ] {', null],
        ],
      );
      assert.equal(rows[0]?.line, 3);
      await file.close();
    });
  }

  it('one CSV cell is found without decoding the others, quotes and commas inside cells included', () => {
    for (const record of ['a,"b,""c""",d\r\n', '"x\ny",,z', 'only', ',', '"q"tail,2']) {
      const buf = Buffer.from(record);
      const all = csvCells(buf);
      for (let i = 0; i < all.length + 2; i++)
        assert.equal(csvCellAt(buf, 0, buf.length, i), all[i] ?? null, `${JSON.stringify(record)} cell ${i}`);
    }
  });

  it('a file that is not what its name says gets a sentence, not a crash', async () => {
    const cases: Array<[string, string | Buffer, FileFormat, RegExp]> = [
      ['obj.json', '{"a":1}', 'json', /not a JSON array of rows/],
      ['cut.json', '[{"a":1},', 'json', /not a JSON array of rows/],
      ['db.csv', Buffer.from('SQLite format 3\0\0\0\x01', 'latin1'), 'csv', /not text/],
    ];
    for (const [name, text, format, message] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const records = await RecordFile.open(file, format);
      await assert.rejects(indexFile(records), (e: unknown) => e instanceof NotThatFormat && message.test(e.message));
      await records.close();
    }
  });

  it('an empty JSON array and an empty CSV have no rows (and no error)', async () => {
    const json = await read('empty.json', '[]', 'json');
    assert.equal(json.count, 0);
    const csv = await read('header.csv', 'a,b\n', 'csv');
    assert.deepEqual([csv.count, csv.columns], [0, ['a', 'b']]);
    await Promise.all([json.close(), csv.close()]);
  });

  it('a file changed while open is noticed', async () => {
    const file = await read('grows.csv', 'a\n1\n', 'csv');
    assert.equal(await file.changed(), false);
    appendFileSync(path.join(dir, 'grows.csv'), '2\n');
    assert.equal(await file.changed(), true);
    await file.close();
  });
});
