/**
 * Pull New Rows into an SQLite database, exactly once: each batch, its table's new columns and
 * the record of the batch (`_scrapedeck_pending`: task, rows, hash) are written in one
 * transaction, so an interruption leaves either all of it or none. No `vscode`.
 *
 * write:   BEGIN; insert the rows; record the batch (replacing the last one); COMMIT (appended
 *          to the write-ahead log and synced once: synchronous=FULL)
 * marked:  the record is deleted with the next batch's transaction or when the sink closes; the
 *          log is copied into the database here once it is large (a checkpoint: its syncs fall
 *          while the next request waits for its turn anyway, not between a write and its mark)
 * resume:  the record was committed with the rows: they are in the table, nothing is written
 * release: the batch was marked: the record is deleted
 */
import { promises as fs } from 'node:fs';
import type { DataRow } from '../../api/dataSchemas';
import { UnusableFileError } from './unusableFile';
import { batchHash, type PendingBatch } from './pullJournal';
import type { PullSink } from './pullRows';
import { checkFile, checkTarget, readStart } from '../../platform/files/safeFiles';
import { SqliteDb } from '../sqlite/sqliteRuntime';
import { CATALOG_SQL, TaskTable } from '../sqlite/sqliteTable';

const PENDING_SQL = 'CREATE TABLE IF NOT EXISTS "_scrapedeck_pending" (task_id TEXT PRIMARY KEY, rows INTEGER NOT NULL, hash TEXT NOT NULL)';
const HEADER = Buffer.from('SQLite format 3\0', 'latin1');
/** The log is checkpointed after a marked batch once it holds this much (SQLite's own default: 1,000 pages of 4 KiB). */
const CHECKPOINT_BYTES = 4_096_000;

export interface SqliteSinkOptions {
  taskId: string;
  taskName: string;
  /** The workspace folder the file must stay in. */
  root?: string;
  /** Where node-sqlite3-wasm's files are (`sqliteRuntime.ts`). */
  wasmDir: string;
  /** Test seam (a kill point): halfway through a batch's rows, inside its transaction. */
  midWrite?: () => void;
}

/**
 * The checks before SQLite opens `file`: no link to it or on the way down from the root, none
 * for its journal or log; an existing file must be an SQLite database. A `-wal` log alone is
 * what a pull killed after a commit leaves (SQLite reads it back on open); a `-shm` beside it
 * is another SQLite program's shared index: that program has the database open in WAL mode, or
 * had and stopped, and its log is its own to finish.
 */
export async function checkDatabaseFile(file: string, root: string | undefined): Promise<void> {
  const s = await checkTarget(file, root, true);
  await checkFile(`${file}-journal`);
  await checkFile(`${file}-wal`);
  if (s !== undefined && s.size > 0 && !(await readStart(file, HEADER.length)).equals(HEADER)) {
    throw new UnusableFileError('not-sqlite', 'it is not an SQLite database');
  }
  if ((await fs.lstat(`${file}-shm`).catch(() => undefined)) !== undefined) {
    throw new UnusableFileError('not-sqlite', 'another SQLite program has it open in write-ahead-log mode (a -shm file is beside it): close that program, or open and close the database in it');
  }
}

export class SqlitePullSink implements PullSink {
  private table: TaskTable | undefined;

  private constructor(
    private readonly sqlite: SqliteDb,
    private record: PendingBatch | undefined,
    private readonly options: SqliteSinkOptions,
  ) {}

  static async open(file: string, options: SqliteSinkOptions): Promise<SqlitePullSink> {
    await checkDatabaseFile(file, options.root);
    const sqlite = SqliteDb.open(options.wasmDir, file, 'wal');
    try {
      sqlite.db.exec(`${CATALOG_SQL}; ${PENDING_SQL}`);
      const row = sqlite.db.get('SELECT rows, hash FROM "_scrapedeck_pending" WHERE task_id = ?', [options.taskId]);
      const pending = typeof row?.rows === 'number' && typeof row.hash === 'string' ? { rows: row.rows, hash: row.hash } : undefined;
      return new SqlitePullSink(sqlite, pending, options);
    } catch (error) {
      sqlite.close();
      throw error;
    }
  }

  get pending(): PendingBatch | undefined {
    return this.record;
  }

  /** The task's table (after the first write). */
  get tableName(): string | undefined {
    return this.table?.name;
  }

  async write(rows: readonly DataRow[]): Promise<void> {
    const db = this.sqlite.db;
    const hash = batchHash(rows);
    db.exec('BEGIN IMMEDIATE');
    try {
      this.table ??= TaskTable.forTask(db, this.options, true);
      this.table.insertRows(rows, this.options.midWrite);
      db.run('INSERT OR REPLACE INTO "_scrapedeck_pending" (task_id, rows, hash) VALUES (?, ?, ?)', [this.options.taskId, rows.length, hash]);
      db.exec('COMMIT');
      this.stale = false;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      this.table = undefined; // its columns may have been rolled back with the batch
      throw error;
    }
    this.record = { rows: rows.length, hash };
    await Promise.resolve();
  }

  async resume(): Promise<number> {
    // Committed with its record: the whole batch is in the table already.
    this.table ??= TaskTable.forTask(this.sqlite.db, this.options, true);
    return Promise.resolve(0);
  }

  /**
   * The record stays in the database until the next batch's transaction replaces it or the sink
   * is closed (one commit less per batch): a record of a batch that was marked is what the next
   * pull recognises as marked anyway (other rows come).
   */
  async marked(): Promise<void> {
    this.record = undefined;
    this.stale = true;
    if (this.sqlite.logBytes() >= CHECKPOINT_BYTES) this.sqlite.checkpoint();
    await Promise.resolve();
  }

  async release(): Promise<number> {
    this.record = undefined;
    this.forget();
    return Promise.resolve(0);
  }

  close(): void {
    try {
      if (this.stale) this.forget();
    } finally {
      this.sqlite.close();
    }
  }

  private stale = false;

  private forget(): void {
    this.stale = false;
    this.sqlite.db.run('DELETE FROM "_scrapedeck_pending" WHERE task_id = ?', [this.options.taskId]);
  }
}
