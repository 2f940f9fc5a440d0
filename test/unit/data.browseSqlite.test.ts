/**
 * The data browser on an SQLite table (src/data/browse/store/sqliteTableStore.ts asking the
 * SQLite worker's read session, src/data/sqlite/sqliteReader.ts): windows in table order (deep
 * ones too), a sort with numbers as numbers and empties last, a filter with its count, the column
 * profile, the table chosen; and the database only read: nothing made beside it, its bytes
 * unchanged, views never offered, triggers never fired; a file that is not SQLite, a damaged one,
 * one another program is writing and a locked one each refused with their reason.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { SqliteTableStore } from '../../src/data/browse/store/sqliteTableStore';
import { SqliteReadError } from '../../src/data/sqlite/sqliteReader';
import { SqliteTimeLimitError } from '../../src/data/sqlite/sqliteThread';
import { PYTHON } from '../shared/pullDestination';
import { wasmDir } from '../shared/pullScenario';
import { profileFigures } from './helpers/profileFigures';

/** Runs SQL against a new database with Python's sqlite3 (not the code under test). */
function makeDb(file: string, sql: string): void {
  execFileSync(PYTHON, [
    '-c',
    'import sqlite3,sys\ndb=sqlite3.connect(sys.argv[1])\ndb.executescript(sys.argv[2])\ndb.commit()\ndb.close()',
    file,
    sql,
  ]);
}

const ROWS = `
CREATE TABLE items (name, price, day, note);
INSERT INTO items VALUES ('pear', 10, '2024-03-01', 'a'), ('Apple', '9.5', NULL, 'b'), ('fig', NULL, '2023-12-31', '100% sure'),
  ('apple', 100, '2024-01-15T10:00:00Z', 'c'), (NULL, 9.5, '2024-03-01', '  '), ('kiwi', '', '2024-02-01', '${'x'.repeat(400)}');
CREATE TABLE other (k);
INSERT INTO other VALUES (1);
`;

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const refusal = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
  } catch (error) {
    if (error instanceof SqliteReadError) return error.problem;
    throw error;
  }
  throw new Error('it was not refused');
};

describe('data browser: an SQLite table, read in the SQLite worker', function () {
  this.timeout(60_000);
  let dir: string;
  let db: string;
  let store: SqliteTableStore;
  const offered: string[][] = [];
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'browse-sqlite-'));
    db = path.join(dir, 'shop.sqlite');
    makeDb(db, ROWS);
    const opened = await SqliteTableStore.open(db, {
      wasmDir: wasmDir(),
      choose: (tables) => (offered.push([...tables]), tables[0]),
    });
    assert.ok(opened);
    store = opened;
    await store.load(() => undefined);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = async (): Promise<unknown[]> => (await store.window(0, 50)).map((r) => r.cells[0]);

  it("offers the tables in the file's order and reads a window by row id, long text cut for the page", async () => {
    assert.deepEqual(offered, [['items', 'other']]);
    assert.deepEqual(store.columns, ['name', 'price', 'day', 'note']);
    assert.equal(store.shown, 6);
    const rows = await store.window(0, 50);
    assert.deepEqual(
      rows.map((r) => r.n),
      [0, 1, 2, 3, 4, 5],
    );
    assert.deepEqual(rows[1]?.cells, ['Apple', '9.5', null, 'b']);
    assert.equal(
      (rows[5]?.cells[3] as string).length,
      301,
      "cut one past the page's 300 characters, so the page marks it cut",
    );
    assert.equal(((await store.cell(5, 3)) as string).length, 400, 'the whole value on demand');
  });

  it('sorts numbers as numbers (text that is one too), empties last in both directions, ties in table order', async () => {
    assert.equal(await store.setView({ sort: { column: 1, direction: 'asc' } }), 6);
    assert.deepEqual(await names(), ['Apple', null, 'pear', 'apple', 'fig', 'kiwi']);
    await store.setView({ sort: { column: 1, direction: 'desc' } });
    assert.deepEqual(await names(), ['apple', 'pear', 'Apple', null, 'fig', 'kiwi']);
    await store.setView({ sort: { column: 2, direction: 'asc' } });
    assert.deepEqual(await names(), ['fig', 'apple', 'kiwi', 'pear', null, 'Apple'], 'dates as dates');
    await store.setView({ sort: { column: 0, direction: 'asc' } });
    assert.deepEqual(await names(), ['Apple', 'apple', 'fig', 'kiwi', 'pear', null], 'text case-folded');
  });

  it('filters: a search over every column (% taken literally), conditions, the count of rows shown', async () => {
    assert.equal(await store.setView({ filter: { search: 'APPLE' } }), 2);
    assert.equal(await store.setView({ filter: { search: '0%' } }), 1);
    assert.deepEqual(await names(), ['fig']);
    assert.equal(await store.setView({ filter: { conditions: [{ column: 1, op: 'empty' }] } }), 2);
    assert.equal(await store.setView({ filter: { conditions: [{ column: 3, op: 'notEmpty' }] } }), 5);
    assert.equal(
      await store.setView({
        sort: { column: 1, direction: 'asc' },
        filter: { conditions: [{ column: 1, op: 'equals', value: ' 9.5 ' }] },
      }),
      2,
    );
    assert.deepEqual(await names(), ['Apple', null]);
    await store.setView({});
    assert.equal(store.shown, 6);
  });

  it('profiles a column over the rows the filter shows, with aggregate queries', async () => {
    await store.setView({});
    const price = await store.profile(1);
    assert.deepEqual(profileFigures(price), { kind: 'number', rows: 6, empty: 2, distinct: 3, min: '9.5', max: '100' });
    assert.deepEqual(price.common[0], { value: '9.5', count: 2 });
    await store.setView({ filter: { search: 'apple' } });
    const name = await store.profile(0);
    assert.deepEqual(
      { kind: name.kind, rows: name.rows, min: name.min, max: name.max },
      { kind: 'text', rows: 2, min: 'Apple', max: 'apple' },
    );
    await store.setView({});
  });

  it('reads deep windows without counting from the start, forwards and backwards', async () => {
    const big = path.join(dir, 'big.db');
    makeDb(
      big,
      "CREATE TABLE t (i INTEGER, s TEXT); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000) INSERT INTO t SELECT x, 'r' || x FROM c; DELETE FROM t WHERE i % 7 = 0;",
    );
    const s = await SqliteTableStore.open(big, { wasmDir: wasmDir(), choose: (t) => t[0] });
    assert.ok(s);
    try {
      const kept = Array.from({ length: 5000 }, (_, i) => i + 1).filter((i) => i % 7 !== 0);
      await s.load(() => undefined);
      assert.equal(s.shown, kept.length);
      for (const from of [0, 1000, 1990, 2500, 3000, 4280]) {
        const rows = await s.window(from, 20);
        assert.deepEqual(
          rows.map((r) => r.cells[0]),
          kept.slice(from, from + 20),
          `window at ${from}`,
        );
      }
    } finally {
      await s.close();
    }
  });

  it('counts every row only after the first window was answered (the worker answers one request at a time)', async () => {
    const big = path.join(dir, 'first.sqlite');
    makeDb(
      big,
      'CREATE TABLE t (i INTEGER); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000) INSERT INTO t SELECT x FROM c;',
    );
    const s = await SqliteTableStore.open(big, { wasmDir: wasmDir(), choose: (t) => t[0] });
    assert.ok(s);
    try {
      const seen: string[] = [];
      let asked: Promise<unknown> | undefined;
      const counted = s.load(
        (loaded) => {
          seen.push(`progress ${loaded}`);
          // The page asks for its window a moment after the first count, as a webview's round trip does.
          asked ??= new Promise((resolve) => setTimeout(resolve, 100)).then(async () => {
            const rows = await s.window(0, 5);
            seen.push(`window ${rows.length}`);
          });
        },
        { firstWindowWaitMs: 30_000 },
      );
      assert.equal(await counted, 3000);
      await asked;
      assert.deepEqual(seen, ['progress 501', 'window 5', 'progress 3000']);
      // With no window asked for, the count goes on after the wait.
      const again = await SqliteTableStore.open(big, { wasmDir: wasmDir(), choose: (t) => t[0] });
      assert.ok(again);
      try {
        assert.equal(await again.load(() => undefined, { firstWindowWaitMs: 50 }), 3000);
      } finally {
        await again.close();
      }
    } finally {
      await s.close();
    }
  });

  it('only reads: nothing is made beside the database (no lock, journal or log), its bytes stay as they were', async () => {
    const before = sha(db);
    const seen: string[] = [];
    const watcher = watch(dir, (_event, name) => seen.push(String(name)));
    try {
      const s = await SqliteTableStore.open(db, { wasmDir: wasmDir(), choose: (t) => t[0] });
      assert.ok(s);
      await s.load(() => undefined);
      await s.setView({ sort: { column: 0, direction: 'desc' }, filter: { search: 'a' } });
      await s.window(0, 10);
      await s.profile(1);
      await s.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      watcher.close();
    }
    assert.deepEqual(
      seen.filter((n) => n.startsWith('shop.sqlite')),
      [],
    );
    assert.equal(sha(db), before);
  });

  it('offers tables only: a view is never run, a trigger never fires', async () => {
    const planted = path.join(dir, 'planted.sqlite');
    makeDb(
      planted,
      `CREATE TABLE t (a); INSERT INTO t VALUES (1), (2);
      CREATE VIEW endless AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x FROM r;
      CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t; END;
      CREATE VIRTUAL TABLE v USING rtree(id, x0, x1);`,
    );
    const before = sha(planted);
    const s = await SqliteTableStore.open(planted, {
      wasmDir: wasmDir(),
      choose: (tables) => (assert.deepEqual(tables, ['t']), tables[0]),
    });
    assert.ok(s);
    await s.load(() => undefined);
    assert.deepEqual(
      (await s.window(0, 10)).map((r) => r.cells[0]),
      [1, 2],
    );
    await s.close();
    assert.equal(sha(planted), before);
  });

  it('refuses a file that is not SQLite, a damaged one, one being written (a journal beside it) and a locked one, each with its reason', async () => {
    const open = (file: string): Promise<unknown> =>
      SqliteTableStore.open(file, { wasmDir: wasmDir(), choose: (t) => t[0] });
    const text = path.join(dir, 'notes.sqlite');
    writeFileSync(text, 'name,price\npear,10\n'.repeat(20));
    assert.equal(await refusal(open(text)), 'not-sqlite');

    const damaged = path.join(dir, 'damaged.db');
    makeDb(damaged, ROWS);
    const bytes = readFileSync(damaged);
    bytes.fill(0x5a, 100, 4096); // the schema's page, past the header
    writeFileSync(damaged, bytes);
    assert.equal(await refusal(open(damaged)), 'damaged');

    const busy = path.join(dir, 'busy.db');
    makeDb(busy, ROWS);
    writeFileSync(`${busy}-journal`, Buffer.alloc(512, 1));
    assert.equal(await refusal(open(busy)), 'in-use');

    const locked = path.join(dir, 'locked.db');
    makeDb(locked, ROWS);
    mkdirSync(`${locked}.lock`);
    assert.equal(await refusal(open(locked)), 'locked');
  });

  it('a table whose pages are damaged fails the window with its reason; the session stays usable', async () => {
    const file = path.join(dir, 'torn.db');
    makeDb(
      file,
      "CREATE TABLE t (s); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000) INSERT INTO t SELECT printf('%0200d', x) FROM c;",
    );
    const bytes = readFileSync(file);
    bytes.fill(0xff, 4096 * 60, 4096 * 100); // leaves well after the first rows
    writeFileSync(file, bytes);
    const s = await SqliteTableStore.open(file, { wasmDir: wasmDir(), choose: (t) => t[0] });
    assert.ok(s);
    try {
      assert.equal(await refusal(s.load(() => undefined)), 'damaged');
      assert.equal((await s.window(0, 10)).length, 10, 'the rows before the damage are still shown');
      assert.equal(await refusal(s.setView({ sort: { column: 0, direction: 'desc' } })), 'damaged');
    } finally {
      await s.close();
    }
  });

  it('reads a database left in WAL mode (no log beside it) and a table without row ids, sorted and filtered', async () => {
    const file = path.join(dir, 'wal.db');
    makeDb(
      file,
      "PRAGMA journal_mode=WAL; CREATE TABLE k (id TEXT PRIMARY KEY, n) WITHOUT ROWID; INSERT INTO k VALUES ('b', 2), ('a', 10), ('c', NULL), ('d', 1);",
    );
    assert.equal(readFileSync(file)[18], 2, 'the header says WAL');
    const s = await SqliteTableStore.open(file, { wasmDir: wasmDir(), choose: (t) => t[0] });
    assert.ok(s);
    try {
      await s.load(() => undefined);
      assert.deepEqual(
        (await s.window(1, 10)).map((r) => r.cells[0]),
        ['b', 'c', 'd'],
      );
      assert.equal(
        await s.setView({
          sort: { column: 1, direction: 'desc' },
          filter: { conditions: [{ column: 0, op: 'notEmpty' }] },
        }),
        4,
      );
      assert.deepEqual(
        (await s.window(0, 10)).map((r) => r.cells[0]),
        ['a', 'b', 'd', 'c'],
      );
    } finally {
      await s.close();
    }
  });

  it("each step has the worker's time limit", async () => {
    await assert.rejects(
      SqliteTableStore.open(db, { wasmDir: wasmDir(), timeLimitMs: 1, choose: (t) => t[0] }),
      SqliteTimeLimitError,
    );
  });
});
