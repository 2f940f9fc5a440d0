/**
 * The destination of a pull by its format: a CSV or JSON Lines file (`fileSink.ts`) or an SQLite
 * database (`sqliteSink.ts`). No `vscode`.
 */
import type { AppendFormat } from './appendFile';
import { FilePullSink } from './fileSink';
import type { PullSink } from './pullRows';
import { SqlitePullSink } from './sqliteSink';

export type PullFormat = AppendFormat | 'sqlite';

export interface SinkOptions {
  taskId: string;
  taskName: string;
  /** The workspace folder the file must stay in. */
  root?: string;
  /** Where node-sqlite3-wasm's files are. */
  wasmDir: string;
  /** The folder in the extension's storage that keeps a file pull's records (`pullJournal.ts`). */
  records: string;
  /** The workspace is trusted: our leftovers beside the file are removed (`pullLeftovers.ts`). */
  trusted?: boolean;
  /** A file pull made its file (`ownFiles.ts`). */
  onCreate?: (file: string) => Promise<void>;
  /** SQLite: the extension's own folder for a pull's log, journal and lock. */
  logDir?: string;
  /** SQLite: how long one step may take (`sqliteThread.ts`). */
  sqliteTimeLimitMs?: number;
  /** Test seams (kill points). */
  afterRecord?: () => void | Promise<void>;
  midWrite?: () => void;
}

export async function openPullSink(file: string, format: PullFormat, o: SinkOptions): Promise<PullSink> {
  if (format === 'sqlite') {
    if (o.logDir === undefined)
      throw new Error("Pull New Rows into SQLite needs a folder of its own for the database's log");
    return SqlitePullSink.open(file, {
      taskId: o.taskId,
      taskName: o.taskName,
      root: o.root,
      wasmDir: o.wasmDir,
      logDir: o.logDir,
      timeLimitMs: o.sqliteTimeLimitMs,
      midWrite: o.midWrite,
    });
  }
  return FilePullSink.open(file, format, {
    taskId: o.taskId,
    taskName: o.taskName,
    root: o.root,
    records: o.records,
    trusted: o.trusted,
    onCreate: o.onCreate,
    afterRecord: o.afterRecord,
    midWrite: o.midWrite,
  });
}
