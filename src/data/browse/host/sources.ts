/**
 * What a browser can open, each as a row store and the load that fills it: a file of rows
 * (indexed where it lies), a table of a SQLite database and a task's rows at the service (both
 * copied into a private spool). A load reports progress to the session and can be stopped.
 */
import * as path from 'node:path';

import * as vscode from 'vscode';

import type { ReadDataOptions } from '../../../api/ops/data';
import type { DataReader } from '../../../api/ops/dataReader';
import type { BrowseStore } from '../store/browseStore';
import { indexFile } from '../store/fileIndexer';
import { type FileFormat, RecordFile } from '../store/recordFile';
import { spoolPages } from '../store/rowSources';
import { removeOldSpools, RowSpool } from '../store/rowSpool';
import { RowStore } from '../store/rowStore';
import { FIRST_WINDOW_WAIT_MS, type SqliteOpenOptions, SqliteTableStore } from '../store/sqliteTableStore';
import type { BrowserSession } from './session';

/** A file of rows, or a database (read only in the SQLite worker, `data/sqlite/sqliteReader.ts`). */
export type BrowseFormat = FileFormat | 'sqlite';

export function browseFormatOf(file: string): BrowseFormat | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.json') return 'json';
  if (ext === '.sqlite' || ext === '.sqlite3' || ext === '.db') return 'sqlite';
  return undefined;
}

export interface OpenSource {
  store: BrowseStore;
  /** Fills the store, telling the session; resolves when done, stopped or failed (never rejects). */
  load(session: BrowserSession): Promise<void>;
  stop(): void;
  close(): Promise<void>;
}

const isAbort = (e: unknown): boolean =>
  e instanceof Error && (e.name === 'AbortError' || (e as { kind?: unknown }).kind === 'cancelled');
const sentence = (e: unknown): string =>
  (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').slice(0, 300);

function job(
  store: BrowseStore,
  run: (signal: AbortSignal, session: BrowserSession) => Promise<{ total?: number }>,
  cleanup: () => Promise<void>,
): OpenSource {
  const abort = new AbortController();
  return {
    store,
    async load(session) {
      try {
        const { total } = await run(abort.signal, session);
        session.progress({ state: 'done', total });
      } catch (error) {
        if (abort.signal.aborted || isAbort(error))
          session.progress({ state: 'stopped', message: vscode.l10n.t('Stopped: the rows loaded so far are shown.') });
        else session.progress({ state: 'failed', message: sentence(error) });
      }
    },
    stop: () => abort.abort(),
    close: async () => {
      abort.abort();
      await cleanup();
    },
  };
}

/** A CSV, JSON Lines or JSON file, read where it lies. */
export async function openRowFile(file: string, format: FileFormat): Promise<OpenSource> {
  const records = await RecordFile.open(file, format);
  const store = new RowStore(records);
  return job(
    store,
    async (signal, session) => {
      await indexFile(records, {
        signal,
        onProgress: (p) => session.progress({ loaded: p.rows }),
        firstRowsShown: () => session.firstWindowAnswered(FIRST_WINDOW_WAIT_MS),
      });
      return { total: records.count };
    },
    () => store.close(),
  );
}

/** A table of an SQLite database, read in the SQLite worker; undefined when no table was chosen. */
export async function openSqliteTable(
  file: string,
  o: SqliteOpenOptions,
): Promise<{ source: OpenSource; table: string } | undefined> {
  const store = await SqliteTableStore.open(file, o);
  if (store === undefined) return undefined;
  const source = job(
    store,
    async (signal, session) => {
      const total = await store.load(
        (loaded) => {
          signal.throwIfAborted();
          session.progress({ loaded });
        },
        { firstWindowWaitMs: FIRST_WINDOW_WAIT_MS },
      );
      return { total };
    },
    () => store.close(),
  );
  return { source, table: store.table };
}

export interface ServiceRows {
  readData(taskId: string, o?: ReadDataOptions): DataReader;
}

/** A task's rows (or one run's, by its lot) read from the service at its rate bound; nothing is marked exported. */
export async function openServiceRows(
  client: ServiceRows,
  o: { taskId: string; lotNo?: string; spoolDir: string },
): Promise<OpenSource> {
  await removeOldSpools(o.spoolDir);
  const spool = await RowSpool.create(o.spoolDir);
  const store = new RowStore(spool.file);
  return job(
    store,
    async (signal, session) => {
      const reader = client.readData(o.taskId, { signal, ...(o.lotNo !== undefined ? { lotNo: o.lotNo } : {}) });
      return spoolPages(spool, reader, {
        signal,
        onProgress: (p) => session.progress({ loaded: p.loaded, total: p.total }),
      });
    },
    () => spool.close(),
  );
}
