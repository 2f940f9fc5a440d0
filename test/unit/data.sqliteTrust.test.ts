/**
 * A planted SQLite database is not trusted (issue 44 items 2 and 3), against the sandbox and the
 * real pull code: a repository ships a database (or a log, a lock, a record beside or inside the
 * user's own) and Pull New Rows into it is refused before anything is asked from the service, or
 * completes every row exactly once; nothing the workspace ships freezes the extension host's
 * thread, drops rows the pull reports written, or makes the pull remove a file outside.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';

import type { ScrapedeckClient } from '../../src/api/client';
import { batchHash } from '../../src/data/pull/pullJournal';
import { PullFailure, type PullSource } from '../../src/data/pull/pullRows';
import { UnusableFileError } from '../../src/data/pull/unusableFile';
import { closeFresh, type FreshSandbox, freshSandbox } from '../shared/freshSandbox';
import { compareRows, expected, PYTHON, readBack } from '../shared/pullDestination';
import { pullOnce } from '../shared/pullScenario';
import { scratchFolder } from '../shared/scratchFolder';

/** The catalog a pull makes, as SQL (a planted database copies it to look like a pulled one). */
const CATALOG = [
  'CREATE TABLE "_scrapedeck_tables" (task_id TEXT PRIMARY KEY, table_name TEXT NOT NULL, task_name TEXT NOT NULL)',
  'CREATE TABLE "_scrapedeck_columns" (table_name TEXT NOT NULL, field TEXT NOT NULL, column_name TEXT NOT NULL, PRIMARY KEY (table_name, field))',
  'CREATE TABLE "_scrapedeck_pending" (task_id TEXT PRIMARY KEY, rows INTEGER NOT NULL, hash TEXT NOT NULL)',
];

/** A database made by another program (Python's sqlite3): `sql` run as a script. */
function plant(file: string, sql: string): void {
  execFileSync(PYTHON, [
    '-c',
    'import sqlite3,sys\ndb=sqlite3.connect(sys.argv[1])\ndb.executescript(sys.argv[2])\ndb.commit()\ndb.close()',
    file,
    sql,
  ]);
}

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The service, counting what it was asked. */
function counted(client: ScrapedeckClient): PullSource & { asked: number; marked: number } {
  const s = {
    asked: 0,
    marked: 0,
    getNotExportedData: (id: string, size: number) => {
      s.asked++;
      return client.getNotExportedData(id, size);
    },
    markExported: (id: string) => {
      s.marked++;
      return client.markExported(id);
    },
  };
  return s;
}

const refused = (reason: UnusableFileError['reason']) => (e: unknown) => {
  const error = e instanceof PullFailure ? e.error : e;
  assert.ok(error instanceof UnusableFileError, `refused as ${reason}, not ${String(e)}`);
  assert.equal(error.reason, reason, String(error.message));
  return true;
};

describe('data: a planted SQLite database cannot cut, drop, fake or freeze a pull (issue 44)', function () {
  this.timeout(120_000);
  let dir: string;
  let f: FreshSandbox;
  // A sandbox of its own per case: the service's state (rows handed out, marked) is part of what each checks.
  beforeEach(async () => {
    dir = scratchFolder('scrapedeck-trust-');
    f = await freshSandbox(120);
  });
  afterEach(async () => {
    await closeFresh(f);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Nothing was marked: the service still hands out every row of the task. */
  async function nothingMarked(): Promise<void> {
    assert.equal(
      (await f.client.getNotExportedData(f.task.taskId, 1)).data.total,
      f.rows.length,
      'no row was marked exported',
    );
  }

  /** A database that looks pulled into: the catalog, the task's table "Rows" with its columns, and `extra`. */
  function pulledLooking(file: string, extra: string): void {
    const fields = Object.keys(f.rows[0] ?? {});
    plant(
      file,
      [
        ...CATALOG,
        `CREATE TABLE "Rows" (${fields.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ')})`,
        `INSERT INTO "_scrapedeck_tables" VALUES (${q(f.task.taskId)}, 'Rows', ${q(f.task.taskName)})`,
        ...fields.map((c) => `INSERT INTO "_scrapedeck_columns" VALUES ('Rows', ${q(c)}, ${q(c)})`),
        extra,
      ].join(';\n'),
    );
  }

  it('a view named _scrapedeck_pending with a recursive query is refused before anything is read through it or asked', async () => {
    const file = path.join(dir, 'rows.sqlite');
    // Bounded, so the code before this guard fails the test instead of stalling its thread for good.
    plant(
      file,
      `${CATALOG.slice(0, 2).join(';')}; CREATE VIEW "_scrapedeck_pending" AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT 't' AS task_id, 1 AS rows, 'h' AS hash FROM c WHERE x < 0`,
    );
    const before = readFileSync(file);
    const source = counted(f.client);
    await assert.rejects(pullOnce({ source, task: f.task, file, format: 'sqlite' }), refused('schema'));
    assert.equal(source.asked, 0, 'nothing asked from the service');
    assert.deepEqual(readFileSync(file), before, 'the database is as it was');
  });

  for (const [what, trigger] of [
    [
      'AFTER INSERT ON "_scrapedeck_pending" … DELETE FROM the task\'s table',
      'CREATE TRIGGER "cut" AFTER INSERT ON "_scrapedeck_pending" BEGIN DELETE FROM "Rows"; END',
    ],
    [
      "BEFORE INSERT ON the task's table … RAISE(IGNORE)",
      'CREATE TRIGGER "drop" BEFORE INSERT ON "Rows" BEGIN SELECT RAISE(IGNORE); END',
    ],
  ] as const) {
    it(`a trigger (${what}) is refused: no row is dropped and marked`, async () => {
      const file = path.join(dir, 'rows.sqlite');
      pulledLooking(file, trigger);
      const before = readFileSync(file);
      const source = counted(f.client);
      await assert.rejects(pullOnce({ source, task: f.task, file, format: 'sqlite' }), refused('schema'));
      assert.deepEqual([source.asked, source.marked], [0, 0], 'nothing asked, nothing marked');
      assert.deepEqual(readFileSync(file), before);
      await nothingMarked();
    });
  }

  it('a table whose conflict clause would ignore rows (UNIQUE ON CONFLICT IGNORE) loses none: the insert overrides it, and a conflict fails the batch unmarked', async () => {
    const file = path.join(dir, 'rows.sqlite');
    const first = Object.keys(f.rows[0] ?? {})[0] ?? 'x';
    plant(
      file,
      [
        ...CATALOG,
        `CREATE TABLE "Rows" ("${first}", "one" UNIQUE ON CONFLICT IGNORE DEFAULT 1)`,
        `INSERT INTO "_scrapedeck_tables" VALUES (${q(f.task.taskId)}, 'Rows', 'T')`,
        `INSERT INTO "_scrapedeck_columns" VALUES ('Rows', ${q(first)}, ${q(first)})`,
      ].join(';'),
    );
    const source = counted(f.client);
    await assert.rejects(
      pullOnce({ source, task: f.task, file, format: 'sqlite' }),
      (e: unknown) => e instanceof PullFailure && e.stage === 'write',
    );
    assert.equal(source.marked, 0, 'the batch is not marked');
    await nothingMarked();
  });

  it("a -wal planted beside the user's own database is not read back: refused, the rows and the schema as they were", async () => {
    const file = path.join(dir, 'rows.sqlite');
    // The user's own database, from a pull (interrupted after its first batch, so rows are still new).
    await assert.rejects(
      pullOnce({
        source: f.client,
        task: f.task,
        file,
        format: 'sqlite',
        batchSize: 40,
        pull: {
          afterWrite: () => {
            throw new Error('stop');
          },
        },
      }),
    );
    const rowsBefore = readBack(file, 'sqlite', f.task.taskId);
    assert.equal(rowsBefore.length, 40);
    const before = readFileSync(file);
    // The attacker's log: made on a copy of the same database, cutting the rows and adding a trigger.
    const copy = path.join(dir, 'copy.sqlite');
    writeFileSync(copy, before);
    const table = String(
      execFileSync(
        PYTHON,
        [
          '-c',
          'import sqlite3,sys\nprint(sqlite3.connect(sys.argv[1]).execute("SELECT table_name FROM _scrapedeck_tables").fetchone()[0])',
          file,
        ],
        { encoding: 'utf8' },
      ),
    ).trim();
    execFileSync(PYTHON, [
      '-c',
      `
import os, shutil, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute('PRAGMA journal_mode=WAL'); db.execute('PRAGMA wal_autocheckpoint=0')
db.execute('DELETE FROM "%s"' % sys.argv[3].replace('"', '""'))
db.execute('CREATE TRIGGER "cut" AFTER INSERT ON "_scrapedeck_pending" BEGIN DELETE FROM "_scrapedeck_tables"; END')
shutil.copyfile(sys.argv[1] + '-wal', sys.argv[2] + '-wal')
os._exit(0)
`,
      copy,
      file,
      table,
    ]);
    const wal = readFileSync(`${file}-wal`);
    const source = counted(f.client);
    await assert.rejects(pullOnce({ source, task: f.task, file, format: 'sqlite' }), refused('foreign-log'));
    assert.equal(source.asked, 0);
    assert.deepEqual(readFileSync(file), before, 'the database is as it was');
    assert.deepEqual(readFileSync(`${file}-wal`), wal, 'the planted log is left as it is');
    rmSync(`${file}-wal`);
    assert.deepEqual(readBack(file, 'sqlite', f.task.taskId), rowsBefore, "the user's rows are all there");
    // A planted rollback journal the same.
    writeFileSync(`${file}-journal`, wal);
    await assert.rejects(pullOnce({ source, task: f.task, file, format: 'sqlite' }), refused('foreign-log'));
    assert.deepEqual(readFileSync(file), before);
  });

  for (const rows of [0, -5, 1e9, 2.5]) {
    it(`a pending record of ${rows} rows is refused as not Scrapedeck's before anything is asked`, async () => {
      const file = path.join(dir, 'rows.sqlite');
      plant(
        file,
        `${CATALOG.join(';')}; INSERT INTO "_scrapedeck_pending" VALUES (${q(f.task.taskId)}, ${rows}, '${'a'.repeat(64)}')`,
      );
      const source = counted(f.client);
      await assert.rejects(pullOnce({ source, task: f.task, file, format: 'sqlite' }), refused('damaged-record'));
      assert.equal(source.asked, 0, "nothing asked: its size is never a request's");
    });
  }

  it('a pending record whose hash matches the next batch does not make the pull skip it: the table is asked, and the batch written', async () => {
    const file = path.join(dir, 'rows.sqlite');
    const next = f.rows.slice(0, 30);
    plant(
      file,
      `${CATALOG.join(';')}; INSERT INTO "_scrapedeck_pending" VALUES (${q(f.task.taskId)}, 30, '${batchHash(next)}')`,
    );
    const result = await pullOnce({ source: f.client, task: f.task, file, format: 'sqlite', batchSize: 30 });
    assert.equal(result.recovered, 0, 'no row counted as already there');
    const c = compareRows(
      readBack(file, 'sqlite', f.task.taskId),
      f.rows.map((r) => expected(r, 'sqlite')),
    );
    assert.deepEqual([c.missing, c.twice, c.wrong, c.equal], [0, 0, 0, true], 'every row exactly once');
  });

  it("a table whose every insert costs seconds: the step passes the time limit, the worker is ended, the host's thread runs on, nothing is marked", async () => {
    const file = path.join(dir, 'rows.sqlite');
    const logs = path.join(dir, 'logs');
    pulledLooking(file, 'SELECT 1');
    // The task's table, remade with a check that takes a long time for each row (allowed: no trigger, no view).
    const fields = Object.keys(f.rows[0] ?? {}).map((c) => `"${c.replace(/"/g, '""')}"`);
    plant(
      file,
      `DROP TABLE "Rows"; CREATE TABLE "Rows" (${fields.join(', ')}, CHECK (length(hex(zeroblob(8000000))) > 0))`,
    );
    // The host's thread is never held for the step: the longest gap between its timer's ticks stays
    // well under the step's 1.5 s (a step run on this thread would hold it for all of them). A gap,
    // not a count of ticks: a loaded machine delays ticks, but does not stop the thread for 1.5 s.
    let last = performance.now();
    let longest = 0;
    let ticks = 0;
    const tick = (): void => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    };
    const timer = setInterval(tick, 20);
    try {
      const source = counted(f.client);
      await assert.rejects(
        pullOnce({ source, task: f.task, file, format: 'sqlite', sink: { logDir: logs, sqliteTimeLimitMs: 1500 } }),
        refused('slow'),
      );
      assert.equal(source.marked, 0);
    } finally {
      clearInterval(timer);
      tick();
    }
    assert.ok(
      ticks >= 3 && longest < 1000,
      `the host's thread ran while SQLite worked (${ticks} ticks, longest gap ${Math.round(longest)} ms)`,
    );
    await nothingMarked();
    assert.deepEqual(
      readdirSync(logs).filter((n) => n.endsWith('.lock')),
      [],
      "the ended worker's lock is removed",
    );
    assert.equal(readBack(file, 'sqlite', f.task.taskId).length, 0, 'no row of the stopped batch was committed');
  });

  it('<db>.lock planted as a link to a folder outside (older than a minute): refused with what to do; nothing outside or the link is removed', async () => {
    const ws = path.join(dir, 'ws');
    const outside = path.join(dir, 'outside');
    mkdirSync(ws);
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'owner'), "the user's file");
    const file = path.join(ws, 'rows.sqlite');
    plant(file, CATALOG.join(';'));
    symlinkSync(outside, `${file}.lock`);
    const old = new Date(Date.now() - 3_600_000);
    lutimesSync(`${file}.lock`, old, old);
    const source = counted(f.client);
    await assert.rejects(
      pullOnce({ source, task: f.task, file, format: 'sqlite', sink: { root: ws } }),
      refused('locked'),
    );
    assert.equal(readFileSync(path.join(outside, 'owner'), 'utf8'), "the user's file", 'the file outside is kept');
    assert.ok(existsSync(`${file}.lock`), 'the link is left as it is');
    assert.equal(source.asked, 0);
  });

  it('a real lock folder with a foreign owner: refused with what to do (delete it), and left as it is', async () => {
    const file = path.join(dir, 'rows.sqlite');
    plant(file, CATALOG.join(';'));
    mkdirSync(`${file}.lock`);
    writeFileSync(path.join(`${file}.lock`, 'owner'), JSON.stringify({ pid: 1, host: 'elsewhere' }));
    const old = new Date(Date.now() - 3_600_000);
    lutimesSync(`${file}.lock`, old, old);
    await assert.rejects(
      pullOnce({ source: counted(f.client), task: f.task, file, format: 'sqlite' }),
      refused('locked'),
    );
    assert.deepEqual(readdirSync(`${file}.lock`), ['owner']);
    // Once the user deletes it, as the sentence says, the pull goes ahead.
    rmSync(`${file}.lock`, { recursive: true });
    const result = await pullOnce({ source: f.client, task: f.task, file, format: 'sqlite' });
    assert.equal(result.rows, f.rows.length);
    assert.equal(existsSync(`${file}.lock`), false, 'the pull leaves no lock beside the database');
  });
});
