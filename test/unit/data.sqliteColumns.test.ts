/**
 * SQLite holds at most 2,000 columns a table (`sqliteTable.ts` MAX_COLUMNS): rows with more fields
 * are refused with a sentence that says so, before any of them is written, for a pull and for an
 * export; the database a pull writes to keeps what it had.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { DataReader } from '../../src/api/ops/dataReader';
import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { TaskExport } from '../../src/data/export/exportRows';
import { SqlitePullSink } from '../../src/data/pull/sqliteSink';
import { MAX_COLUMNS, TooManyColumnsError } from '../../src/data/sqlite/sqliteTable';
import { PYTHON } from '../shared/pullDestination';
import { logDir, wasmDir } from '../shared/pullScenario';

const wide = (fields: number, value = 1): DataRow =>
  Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}`, value]));
const tooMany = (e: unknown) =>
  e instanceof TooManyColumnsError && e.fields === MAX_COLUMNS + 1 && /at most 2000 columns/.test(e.message);

describe('data: more than 2,000 SQLite columns', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-columns-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a pull: a batch with a field past 2,000 columns is refused; the rows pulled before stay, and the database opens', async () => {
    const file = path.join(dir, 'rows.sqlite');
    const sink = await SqlitePullSink.open(file, {
      taskId: 't',
      taskName: 'Wide',
      wasmDir: wasmDir(),
      root: dir,
      logDir: logDir(),
    });
    try {
      await sink.write([wide(MAX_COLUMNS)]);
      await sink.marked();
      await assert.rejects(sink.write([wide(MAX_COLUMNS + 1, 2)]), tooMany);
    } finally {
      await sink.close();
    }
    const read =
      'import sqlite3,sys\ndb=sqlite3.connect(sys.argv[1])\ncur=db.execute(\'SELECT * FROM "Wide"\')\nprint(len(cur.description), len(cur.fetchall()))';
    assert.equal(
      execFileSync(PYTHON, ['-c', read, file], { encoding: 'utf8' }).trim(),
      `${MAX_COLUMNS} 1`,
      'the first batch, whole; nothing of the second',
    );
  });

  it('an export: refused, and no file or temporary file is left', async () => {
    const rows = [wide(3), wide(MAX_COLUMNS + 1)];
    const source = {
      readData: () =>
        new DataReader((offset) =>
          Promise.resolve({
            data: { offset: rows.length, total: rows.length, restTotal: 0, data: rows.slice(offset) },
            requestId: 'r',
          }),
        ),
    };
    const target = path.join(dir, 'wide.sqlite');
    await assert.rejects(
      new TaskExport(source, { taskId: 't', taskName: 'Wide', target, format: 'sqlite', wasmDir: wasmDir() }).run(),
      tooMany,
    );
    assert.equal(existsSync(target), false);
    assert.deepEqual(readdirSync(dir), []);
  });
});
