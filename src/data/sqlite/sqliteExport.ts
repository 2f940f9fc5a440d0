/**
 * Export Data… to an SQLite database: a new database file with one table, the task's
 * (`sqliteTable.ts`), written under a temporary name beside the target, one transaction per page,
 * and renamed onto the target when complete. SQLite runs in its worker (`sqliteThread.ts`). No
 * `vscode`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import type { DataRow } from '../../api/schemas/dataSchemas';
import { syncFolder, tempPathFor } from '../../platform/files/atomicFile';
import { checkFile, checkTarget } from '../../platform/files/safeFiles';
import { forgetTemp, noteTemp, type TempLedger } from '../../platform/files/tempLedger';
import { letGo } from '../common/handOver';
import { SqliteThread } from './sqliteThread';

export interface SqliteExportOptions {
  target: string;
  root?: string;
  taskId: string;
  taskName: string;
  /** Where node-sqlite3-wasm's files are. */
  wasmDir: string;
  /** How long one step of SQLite may take. */
  timeLimitMs?: number;
  /** Where the temporary file (and its journal) is noted (`tempLedger.ts`). */
  ledger?: TempLedger;
}

export class SqliteExportWriter {
  private closed = false;

  private constructor(
    private readonly options: SqliteExportOptions,
    readonly tempPath: string,
    private readonly thread: SqliteThread,
  ) {}

  static async create(options: SqliteExportOptions): Promise<SqliteExportWriter> {
    await checkTarget(options.target, options.root, true);
    const temp = tempPathFor(options.target);
    if (options.ledger !== undefined) await noteTemp(options.ledger, temp, ['-journal', '.lock']);
    // Created here with O_EXCL (never an existing name, a link included), then opened by SQLite.
    const opened = await fs.open(temp, 'wx').catch(async (error: unknown) => {
      if (options.ledger !== undefined) await forgetTemp(options.ledger, temp); // not ours: never swept
      throw error;
    });
    await opened.close();
    try {
      const { thread } = await SqliteThread.open(
        { file: temp, journal: 'rollback', task: { taskId: options.taskId, taskName: options.taskName } },
        { wasmDir: options.wasmDir, timeLimitMs: options.timeLimitMs },
      );
      return new SqliteExportWriter(options, temp, thread);
    } catch (error) {
      await fs.rm(temp, { force: true });
      await fs.rm(`${temp}-journal`, { force: true });
      if (options.ledger !== undefined) await forgetTemp(options.ledger, temp);
      throw error;
    }
  }

  get tableName(): string | undefined {
    return this.thread.tableName;
  }

  async write(rows: DataRow[]): Promise<void> {
    // Posting clones the rows at once: the worker has its own copy before the call returns.
    const done = this.thread.call({ op: 'write', rows, midway: false });
    letGo(rows);
    await done;
  }

  /** Closed (every page was committed and flushed), then renamed onto the target. */
  async commit(): Promise<void> {
    await this.close();
    await checkFile(this.options.target);
    await clearSideFiles(this.options.target);
    await fs.rename(this.tempPath, this.options.target);
    await fs.rm(`${this.tempPath}-journal`, { force: true });
    if (this.options.ledger !== undefined) await forgetTemp(this.options.ledger, this.tempPath);
    await syncFolder(path.dirname(this.options.target));
  }

  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    const gone = await Promise.all([
      fs.rm(this.tempPath, { force: true }).then(
        () => true,
        () => false,
      ),
      fs.rm(`${this.tempPath}-journal`, { force: true }).then(
        () => true,
        () => false,
      ),
    ]);
    if (gone.every(Boolean) && this.options.ledger !== undefined) await forgetTemp(this.options.ledger, this.tempPath);
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.thread.close();
  }
}

/**
 * A database being replaced may have a write-ahead log or a journal beside it (a stopped program's,
 * or one a repository shipped). SQLite reads such a file back into whatever database then has that
 * name, so it must not outlive the file it belongs to: it is removed before the new file takes the
 * name. The old database is being replaced, so nothing of it is read; an export never opens a
 * database it did not make. A link there is refused (`checkFile`) and never followed.
 */
async function clearSideFiles(target: string): Promise<void> {
  for (const side of ['-wal', '-journal']) {
    if ((await checkFile(`${target}${side}`)) !== undefined) await fs.rm(`${target}${side}`);
  }
}
