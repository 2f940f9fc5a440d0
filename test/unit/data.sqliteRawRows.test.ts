/**
 * A pass over a table's cells (src/data/sqlite/sqliteRawRows.ts): through SQLite's C calls it
 * reads what node-sqlite3-wasm's own rows hold, every kind of cell, text past the memory's growth
 * included; and a library without the calls it needs is read through its rows instead.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { CELL, eachRow } from '../../src/data/sqlite/sqliteRawRows';
import { openReadOnly, wasmCalls, type WasmDatabase } from '../../src/data/sqlite/sqliteRuntime';
import { PYTHON } from '../shared/pullDestination';
import { wasmDir } from '../shared/pullScenario';

type Seen = Array<[number, number | string | null]>;

function cells(db: WasmDatabase): Seen[] {
  const out: Seen[] = [];
  eachRow(db, 'SELECT rowid, a, b FROM t WHERE rowid > ? ORDER BY rowid', [0], (row) => {
    const seen: Seen = [];
    for (let i = 0; i < 3; i++) {
      const type = row.type(i);
      const text = new Uint8Array(300);
      const whole = type === CELL.text ? row.copyText(i, text, 0, 300) : 0;
      seen.push([
        type,
        type === CELL.integer || type === CELL.float
          ? row.number(i)
          : type === CELL.text
            ? `${Buffer.from(row.text(i)).toString('utf8')}|${whole}|${Buffer.from(text.subarray(0, Math.min(whole, 300))).toString('utf8')}`
            : type === CELL.blob
              ? row.text(i).length
              : null,
      ]);
    }
    out.push(seen);
  });
  return out;
}

describe('data: a pass over SQLite cells through its C calls', function () {
  this.timeout(30_000);
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'raw-rows-'));
    file = path.join(dir, 'raw.sqlite');
    execFileSync(PYTHON, [
      '-c',
      `import sqlite3,sys
db=sqlite3.connect(sys.argv[1])
db.execute('CREATE TABLE t (a, b)')
db.executemany('INSERT INTO t VALUES (?, ?)', [(1, 'één'), (2.5, None), ('  ', b'\\x00\\x01'), ('x' * 5000, 7)])
db.commit()
db.close()`,
      file,
    ]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every kind of cell as the library does, and a library without its C calls through its rows', () => {
    const { db, close } = openReadOnly(wasmDir(), file);
    try {
      assert.ok(wasmCalls(), "the library's C calls and memory are found");
      const raw = cells(db);
      assert.equal(raw.length, 4);
      assert.deepEqual(raw[0], [
        [CELL.integer, 1],
        [CELL.integer, 1],
        [CELL.text, 'één|5|één'],
      ]);
      assert.deepEqual(raw[1]?.[2], [CELL.null, null]);
      assert.deepEqual(raw[2]?.[2], [CELL.blob, 2]);
      assert.equal(raw[3]?.[1]?.[1], `${'x'.repeat(5000)}|5000|${'x'.repeat(300)}`);
      // A statement without the insides the C calls need: the rows as the library gives them.
      const plain: WasmDatabase = Object.assign(Object.create(db) as WasmDatabase, {
        prepare: (sql: string) => {
          const stmt = db.prepare(sql);
          const only = { iterate: (v?: unknown) => stmt.iterate(v), finalize: () => stmt.finalize() };
          return only as unknown as ReturnType<WasmDatabase['prepare']>;
        },
      });
      const objects = cells(plain);
      assert.deepEqual(
        objects.map((r) => r.map(([type, v]) => [type === CELL.float ? CELL.integer : type, v])),
        raw.map((r) => r.map(([type, v]) => [type === CELL.float ? CELL.integer : type, v])),
      );
    } finally {
      close();
    }
  });
});
