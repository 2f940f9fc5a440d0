/**
 * Export Data… to an SQLite database: a new database file with one table, the task's
 * (`sqliteTable.ts`), written under a temporary name beside the target, one transaction per page,
 * and renamed onto the target when complete. No `vscode`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DataRow } from '../../api/dataSchemas';
import { syncFolder, tempPathFor } from '../../platform/files/atomicFile';
import { checkFile, checkTarget } from '../../platform/files/safeFiles';
import { SqliteDb } from './sqliteRuntime';
import { TaskTable } from './sqliteTable';

export interface SqliteExportOptions {
  target: string;
  root?: string;
  taskId: string;
  taskName: string;
  /** Where node-sqlite3-wasm's files are. */
  wasmDir: string;
}

export class SqliteExportWriter {
  private table: TaskTable | undefined;

  private constructor(
    private readonly options: SqliteExportOptions,
    readonly tempPath: string,
    private readonly sqlite: SqliteDb,
  ) {}

  static async create(options: SqliteExportOptions): Promise<SqliteExportWriter> {
    await checkTarget(options.target, options.root, true);
    const temp = tempPathFor(options.target);
    // Created here with O_EXCL (never an existing name, a link included), then opened by SQLite.
    await (await fs.open(temp, 'wx')).close();
    try {
      return new SqliteExportWriter(options, temp, SqliteDb.open(options.wasmDir, temp));
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  get tableName(): string | undefined {
    return this.table?.name;
  }

  async write(rows: readonly DataRow[]): Promise<void> {
    const db = this.sqlite.db;
    db.exec('BEGIN IMMEDIATE');
    try {
      this.table ??= TaskTable.forTask(db, this.options, false);
      this.table.insertRows(rows);
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
    await Promise.resolve();
  }

  /** Closed (every page was committed and flushed), then renamed onto the target. */
  async commit(): Promise<void> {
    this.sqlite.close();
    await checkFile(this.options.target);
    await settleTarget(this.options.target, this.options.wasmDir);
    await fs.rename(this.tempPath, this.options.target);
    await syncFolder(path.dirname(this.options.target));
  }

  async discard(): Promise<void> {
    this.sqlite.close();
    await fs.rm(this.tempPath, { force: true }).catch(() => undefined);
    await fs.rm(`${this.tempPath}-journal`, { force: true }).catch(() => undefined);
  }
}

/**
 * A database being replaced may have a write-ahead log (a pull that was stopped) or a hot journal
 * beside it. SQLite reads such a file back into whatever database then has that name, so it must
 * not outlive the file it belongs to: the target is opened and closed first, which folds the log
 * in (or rolls the journal back) and deletes it. The old database stays whole until the rename.
 */
async function settleTarget(target: string, wasmDir: string): Promise<void> {
  const wal = await checkFile(`${target}-wal`);
  const journal = await checkFile(`${target}-journal`);
  if (wal === undefined && journal === undefined) return;
  SqliteDb.open(wasmDir, target, wal !== undefined ? 'wal' : 'rollback').close();
}
