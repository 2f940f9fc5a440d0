/**
 * The data browser sorts and searches an SQLite table as it does a CSV file: the same rows
 * through the file store (src/data/browse/store/rowStore.ts) and the SQLite table's store
 * (sqliteTableStore.ts, keys read in the worker, ranked on the host; a search by the file's
 * bytes, src/data/sqlite/sqliteFileSearch.ts) give the same order and the same matches. And the
 * byte search's own guards: a hit across two cells, in another table, in a deleted row's bytes,
 * in a row longer than a page, in a column's default, in a number's text.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { indexFile } from '../../src/data/browse/store/fileIndexer';
import { RecordFile } from '../../src/data/browse/store/recordFile';
import { RowStore } from '../../src/data/browse/store/rowStore';
import { SqliteTableStore } from '../../src/data/browse/store/sqliteTableStore';
import { PYTHON } from '../shared/pullDestination';
import { wasmDir } from '../shared/pullScenario';

/** Runs SQL (on its standard input) against a new database with Python's sqlite3 (not the code under test). */
function makeDb(file: string, sql: string): void {
  execFileSync(
    PYTHON,
    [
      '-c',
      'import sqlite3,sys\ndb=sqlite3.connect(sys.argv[1])\ndb.executescript(sys.stdin.read())\ndb.commit()\ndb.close()',
      file,
    ],
    { input: sql },
  );
}

const WORDS = ['pear', 'Apple', 'apple', 'Éclair', 'éclair', 'fig', 'Mango', '12', 'zebra', ''];
const ROWS = 3000;
const quoteSql = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const quoteCsv = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** The same rows as CSV text and as SQL, each cell of a mix of kinds, empties and ties. */
function rows(): { csv: string; sql: string } {
  let seed = 43;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const csv = ['id,name,price,day,note'];
  const values: string[] = [];
  for (let i = 1; i <= ROWS; i++) {
    const name = `${WORDS[next(WORDS.length)] as string}${next(3) === 0 ? ` ${next(50)}` : ''}`;
    const blankName = next(20) === 0 ? '   ' : name;
    const price = next(10) === 0 ? undefined : `${next(400)}.${['25', '5', '75'][next(3)] as string}`;
    const day =
      next(8) === 0 ? '' : `2024-${String(1 + next(12)).padStart(2, '0')}-${String(1 + next(28)).padStart(2, '0')}`;
    const note = next(7) === 0 ? `ripe man${next(2) === 0 ? 'go' : 'dolin'} ${i}` : `note ${i}`;
    csv.push([String(i), blankName, price ?? '', day, note].map(quoteCsv).join(','));
    // Prices as numbers mostly, as text now and then, as SQLite tables hold them.
    const priceSql = price === undefined ? 'NULL' : next(5) === 0 ? quoteSql(price) : price;
    values.push(
      `(${i}, ${quoteSql(blankName)}, ${priceSql}, ${day === '' ? 'NULL' : quoteSql(day)}, ${quoteSql(note)})`,
    );
  }
  return {
    csv: `${csv.join('\n')}\n`,
    sql: `CREATE TABLE items (id, name, price, day, note); INSERT INTO items VALUES ${values.join(', ')};`,
  };
}

describe('data browser: an SQLite table sorts and searches as the same rows in a CSV', function () {
  this.timeout(60_000);
  let dir: string;
  let csv: RowStore;
  let table: SqliteTableStore;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'browse-same-'));
    const made = rows();
    writeFileSync(path.join(dir, 'rows.csv'), made.csv);
    const file = await RecordFile.open(path.join(dir, 'rows.csv'), 'csv');
    await indexFile(file);
    csv = new RowStore(file);
    makeDb(path.join(dir, 'rows.sqlite'), made.sql);
    const opened = await SqliteTableStore.open(path.join(dir, 'rows.sqlite'), {
      wasmDir: wasmDir(),
      choose: (t) => t[0],
    });
    assert.ok(opened);
    table = opened;
    await table.load(() => undefined);
  });
  after(async () => {
    await csv.close();
    await table.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async (store: RowStore | SqliteTableStore): Promise<string[]> => {
    const out: string[] = [];
    for (let at = 0; at < store.shown; at += 500)
      out.push(...(await store.window(at, 500)).map((r) => String(r.cells[0])));
    return out;
  };

  for (const [column, name] of [
    [1, 'text (case folded, ties, empties, accents)'],
    [2, 'numbers (some held as text)'],
    [3, 'dates'],
    [4, 'text with numbers in it'],
  ] as const) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`sorts by ${name}, ${direction}, in the same order`, async () => {
        const view = { sort: { column, direction } };
        assert.equal(await table.setView(view), await csv.setView(view));
        assert.deepEqual(await ids(table), await ids(csv));
      });
    }
  }

  for (const search of ['mango', 'MANGO', 'man', 'clair', 'ripe man', '12', '.5', 'e 1']) {
    it(`searches for ${JSON.stringify(search)} and finds the same rows`, async () => {
      const view = { filter: { search } };
      const found = await table.setView(view);
      assert.equal(found, await csv.setView(view));
      assert.deepEqual(await ids(table), await ids(csv));
    });
  }

  it('searches and sorts at once as the CSV does', async () => {
    const view = { sort: { column: 2, direction: 'desc' as const }, filter: { search: 'mango' } };
    const found = await table.setView(view);
    assert.ok(found > 100, `${found} rows`);
    assert.equal(found, await csv.setView(view));
    assert.deepEqual(await ids(table), await ids(csv));
  });
});

describe("data browser: an SQLite table's search by its file's bytes counts only whole text cells of its own rows", function () {
  this.timeout(60_000);
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'browse-bytes-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const found = async (name: string, sql: string, search: string): Promise<string[]> => {
    const file = path.join(dir, name);
    makeDb(file, sql);
    const store = await SqliteTableStore.open(file, { wasmDir: wasmDir(), choose: (t) => t[0] });
    assert.ok(store);
    try {
      await store.load(() => undefined);
      await store.setView({ filter: { search } });
      return (await store.window(0, 500)).map((r) => String(r.cells[0]));
    } finally {
      await store.close();
    }
  };
  const many = Array.from({ length: 400 }, (_, i) => `('r${i}', 'plain ${i}')`).join(', ');

  it('a term across two cells, in another table or in a deleted row is no match', async () => {
    const sql = `CREATE TABLE items (name, note); INSERT INTO items VALUES ('man', 'go'), ('b', 'a MANGO'), ${many};
      INSERT INTO items VALUES ('gone', 'mango deleted'); DELETE FROM items WHERE name = 'gone';
      CREATE TABLE other (k); INSERT INTO other VALUES ('mango'), ('mango');`;
    assert.deepEqual(await found('cells.sqlite', sql, 'mango'), ['b']);
  });

  it('a row longer than a page is searched whole (its text goes on in other pages)', async () => {
    const sql = `CREATE TABLE items (name, note); INSERT INTO items VALUES ('short', 'x'), ${many},
      ('long', '${'lorem '.repeat(2000)} mango'), ('long plain', '${'lorem '.repeat(2000)}');`;
    assert.deepEqual(await found('long.sqlite', sql, 'mango'), ['long']);
  });

  it("a column's default (rows written before it was added hold none) is searched", async () => {
    const sql = `CREATE TABLE items (name); INSERT INTO items VALUES ('a'), ('b');
      ALTER TABLE items ADD COLUMN tag DEFAULT 'mango'; INSERT INTO items VALUES ('c', 'kiwi');`;
    assert.deepEqual(await found('default.sqlite', sql, 'mango'), ['a', 'b']);
  });
});
