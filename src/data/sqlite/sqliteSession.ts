/**
 * What the SQLite worker does for one database, request by request (`sqliteWorker.ts` runs it,
 * `sqliteThread.ts` asks): a pull's session (the catalog, the task's table, the record of the
 * batch in flight, all in one transaction per batch, the schema vetted before every write) or an
 * export's (a new file, the task's table only). No `vscode`.
 */
import type { DataRow } from '../../api/schemas/dataSchemas';
import { sideFilesBeside, sideFilesIn } from './sqliteFiles';
import { type JournalKind, SqliteDb } from './sqliteRuntime';
import { CATALOG_TABLES, vetSchema } from './sqliteSchema';
import { TaskTable } from './sqliteTable';

/** The log is checkpointed after a marked batch once it holds this much (SQLite's own default: 1,000 pages of 4 KiB). */
const CHECKPOINT_BYTES = 4_096_000;

export interface OpenRequest {
  file: string;
  journal: JournalKind;
  task: { taskId: string; taskName: string };
  /** A pull's: the database is vetted and gets the catalog; its journal, log and lock live in `sideDir`. */
  pull?: { sideDir: string };
}

export type SessionRequest =
  | { op: 'write'; rows: DataRow[]; hash?: string; midway: boolean }
  | { op: 'resume'; rows: DataRow[]; hash: string; midway: boolean }
  | { op: 'marked' }
  | { op: 'forget' }
  | { op: 'close' };

export class SqliteSession {
  private table: TaskTable | undefined;
  /** A marked batch's record is still in the database (deleted with the next batch or at close). */
  private stale = false;

  private constructor(
    private readonly sqlite: SqliteDb,
    private readonly request: OpenRequest,
  ) {}

  /** Opens the database; for a pull, returns the record of its task's batch in flight as stored (parsed by the host). */
  static open(wasmDir: string, request: OpenRequest): { session: SqliteSession; pending: unknown; table?: string } {
    const side = request.pull ? sideFilesIn(request.pull.sideDir, request.file) : sideFilesBeside(request.file);
    const sqlite = SqliteDb.open(
      wasmDir,
      request.file,
      request.journal,
      side,
      request.pull !== undefined,
      request.pull ? vetSchema : undefined,
    );
    try {
      const session = new SqliteSession(sqlite, request);
      if (!request.pull) return { session, pending: undefined };
      sqlite.db.exec(CATALOG_TABLES.join('; '));
      vetSchema(sqlite.db);
      const pending = sqlite.db.get('SELECT rows, hash FROM "_scrapedeck_pending" WHERE task_id = ?', [
        request.task.taskId,
      ]);
      return { session, pending };
    } catch (error) {
      sqlite.close();
      throw error;
    }
  }

  get tableName(): string | undefined {
    return this.table?.name;
  }

  handle(request: SessionRequest, midway: () => void): unknown {
    switch (request.op) {
      case 'write':
        return this.transaction(() => this.insert(request.rows, request.hash, request.midway ? midway : undefined));
      case 'resume':
        // The record says the batch was committed with it; the table is asked, not the record.
        return this.transaction(() => {
          this.table ??= TaskTable.forTask(this.sqlite.db, this.request.task, true);
          if (this.table.holdsLast(request.rows)) return 0;
          this.insert(request.rows, request.hash, request.midway ? midway : undefined);
          return request.rows.length;
        });
      case 'marked':
        this.stale = true;
        if (this.sqlite.logBytes() >= CHECKPOINT_BYTES) this.sqlite.checkpoint();
        return undefined;
      case 'forget':
        this.forget();
        return undefined;
      case 'close':
        try {
          if (this.stale) this.forget();
        } finally {
          this.sqlite.close();
        }
        return undefined;
    }
  }

  private insert(rows: readonly DataRow[], hash: string | undefined, midway: (() => void) | undefined): void {
    const pull = this.request.pull !== undefined;
    this.table ??= TaskTable.forTask(this.sqlite.db, this.request.task, pull);
    this.table.insertRows(rows, midway);
    if (pull && hash !== undefined) {
      this.sqlite.db.run('INSERT OR REPLACE INTO "_scrapedeck_pending" (task_id, rows, hash) VALUES (?, ?, ?)', [
        this.request.task.taskId,
        rows.length,
        hash,
      ]);
    }
  }

  /** One transaction, the schema vetted inside it before anything is written (a pull's). */
  private transaction<T>(work: () => T): T {
    const db = this.sqlite.db;
    db.exec('BEGIN IMMEDIATE');
    try {
      if (this.request.pull) vetSchema(db);
      const result = work();
      db.exec('COMMIT');
      this.stale = false;
      return result;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      this.table = undefined; // its columns may have been rolled back with the batch
      throw error;
    }
  }

  private forget(): void {
    this.stale = false;
    this.sqlite.db.run('DELETE FROM "_scrapedeck_pending" WHERE task_id = ?', [this.request.task.taskId]);
  }
}
