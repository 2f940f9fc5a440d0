/**
 * Pull New Rows into an SQLite database, exactly once: each batch, its table's new columns and
 * the record of the batch (`_scrapedeck_pending`: task, rows, hash) are written in one
 * transaction, so an interruption leaves either all of it or none. SQLite itself runs in a worker
 * thread (`sqliteThread.ts`), each step with a time limit. No `vscode`.
 *
 * write:   BEGIN; vet the schema; insert the rows; record the batch (replacing the last one);
 *          COMMIT (appended to the write-ahead log and synced once: synchronous=FULL)
 * marked:  the record is deleted with the next batch's transaction or when the sink closes; the
 *          log is copied into the database once it is large (a checkpoint)
 * resume:  the batch handed out again: if the table's last rows are that batch, nothing is
 *          written; otherwise (the record was not ours to trust) the batch is written now
 * release: the batch was marked: the record is deleted
 *
 * A database in a workspace may come from anyone (issue 44): it is refused, before anything is
 * asked from the service, when a `-wal`, `-journal`, `-shm` or `<db>.lock` that no pull of ours
 * left is beside it (a pull's own log and lock are in the extension's storage, `sqliteFiles.ts`),
 * when its schema holds what a pull cannot vouch for (`sqliteSchema.ts`), or when its record of a
 * batch in flight is not one a pull writes.
 */
import { promises as fs } from 'node:fs';

import type { DataRow } from '../../api/schemas/dataSchemas';
import { checkFile, checkTarget, readStart } from '../../platform/files/safeFiles';
import { letGo } from '../common/handOver';
import { SchemaError } from '../sqlite/sqliteSchema';
import { SqliteLockedError, SqliteThread, SqliteTimeLimitError } from '../sqlite/sqliteThread';
import { batchHash, fileJournalSchema, type PendingBatch } from './pullJournal';
import type { PullSink } from './pullRows';
import { UnusableFileError } from './unusableFile';

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** The stored record, as strictly as the file record (`pullJournal.ts`). */
const pendingSchema = fileJournalSchema.pick({ rows: true, hash: true }).strict();

export interface SqliteSinkOptions {
  taskId: string;
  taskName: string;
  /** The workspace folder the file must stay in. */
  root?: string;
  /** Where node-sqlite3-wasm's files are (`sqliteRuntime.ts`). */
  wasmDir: string;
  /** The extension's own folder for the pull's log, journal and lock (never the workspace). */
  logDir: string;
  /** How long one step of SQLite may take (`sqliteThread.ts`). */
  timeLimitMs?: number;
  /** Test seam (a kill point): halfway through a batch's rows, inside its transaction. */
  midWrite?: () => void;
}

async function present(file: string): Promise<boolean> {
  return (await fs.lstat(file).catch(() => undefined)) !== undefined;
}

/**
 * The checks before SQLite opens `file`: no link to it or on the way down from the root, none
 * for its journal or log; an existing file must be an SQLite database; nothing of another
 * program's beside it (a log, a journal, a shared index or a lock), since a pull of ours keeps
 * its own elsewhere.
 */
export async function checkDatabaseFile(file: string, root: string | undefined): Promise<void> {
  const s = await checkTarget(file, root, true);
  await checkFile(`${file}-journal`);
  await checkFile(`${file}-wal`);
  if (s !== undefined && s.size > 0 && !(await readStart(file, HEADER.length)).equals(HEADER)) {
    throw new UnusableFileError('not-sqlite', 'it is not an SQLite database');
  }
  if (await present(`${file}-shm`)) {
    throw new UnusableFileError(
      'not-sqlite',
      'another SQLite program has it open in write-ahead-log mode (a -shm file is beside it): close that program, or open and close the database in it',
    );
  }
  for (const side of ['-wal', '-journal']) {
    if (await present(`${file}${side}`))
      throw new UnusableFileError(
        'foreign-log',
        `a ${side} file that no pull of Scrapedeck left is beside it; SQLite would read it back into the database`,
      );
  }
  if (await present(`${file}.lock`))
    throw new UnusableFileError('locked', 'a lock (.lock) that no pull of Scrapedeck made is beside it');
}

/** What the worker's failures mean for the user: refusals in one sentence (`refusals.ts`). */
function refusal(error: unknown): unknown {
  if (error instanceof SchemaError) return new UnusableFileError('schema', error.message);
  if (error instanceof SqliteTimeLimitError) return new UnusableFileError('slow', error.message);
  if (error instanceof SqliteLockedError)
    return new UnusableFileError('in-use', `another window holds the database's lock (${error.message})`);
  return error;
}

async function refused<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw refusal(error);
  }
}

export class SqlitePullSink implements PullSink {
  private constructor(
    private readonly thread: SqliteThread,
    private record: PendingBatch | undefined,
    private readonly options: SqliteSinkOptions,
  ) {}

  static async open(file: string, options: SqliteSinkOptions): Promise<SqlitePullSink> {
    await checkDatabaseFile(file, options.root);
    // The file exists before SQLite opens it: its identity names the pull's log (`sqliteFiles.ts`).
    await fs.writeFile(file, '', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await fs.mkdir(options.logDir, { recursive: true, mode: 0o700 });
    const { thread, pending } = await refused(
      SqliteThread.open(
        {
          file,
          journal: 'wal',
          task: { taskId: options.taskId, taskName: options.taskName },
          pull: { sideDir: options.logDir },
        },
        { wasmDir: options.wasmDir, timeLimitMs: options.timeLimitMs, midway: options.midWrite },
      ),
    );
    if (pending === undefined || pending === null) return new SqlitePullSink(thread, undefined, options);
    const parsed = pendingSchema.safeParse(pending);
    if (!parsed.success) {
      await thread.close().catch(() => undefined);
      throw new UnusableFileError(
        'damaged-record',
        'its record of an interrupted pull (_scrapedeck_pending) is not one Scrapedeck writes',
      );
    }
    return new SqlitePullSink(thread, parsed.data, options);
  }

  get pending(): PendingBatch | undefined {
    return this.record;
  }

  /** The task's table (after the first write). */
  get tableName(): string | undefined {
    return this.thread.tableName;
  }

  async write(rows: DataRow[]): Promise<void> {
    const hash = batchHash(rows);
    const count = rows.length;
    // Posting clones the rows at once: the worker has its own copy before the call returns.
    const done = this.thread.call({ op: 'write', rows, hash, midway: this.options.midWrite !== undefined });
    letGo(rows);
    await refused(done);
    this.record = { rows: count, hash };
  }

  async resume(rows: DataRow[]): Promise<number> {
    const hash = batchHash(rows);
    const count = rows.length;
    const done = this.thread.call({ op: 'resume', rows, hash, midway: this.options.midWrite !== undefined });
    letGo(rows);
    const written = await refused(done);
    return typeof written === 'number' ? written : count;
  }

  async marked(): Promise<void> {
    this.record = undefined;
    await refused(this.thread.call({ op: 'marked' }));
  }

  async release(): Promise<number> {
    this.record = undefined;
    await refused(this.thread.call({ op: 'forget' }));
    return 0;
  }

  /** Never fails: whatever a close could not fold in stays in the pull's own log, which the next pull reads back. */
  async close(): Promise<void> {
    await this.thread.close().catch(() => undefined);
  }
}
