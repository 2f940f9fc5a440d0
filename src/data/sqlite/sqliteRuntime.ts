/**
 * SQLite for the data writers: node-sqlite3-wasm (SQLite compiled to WebAssembly, reading and
 * writing the database file itself through Node's `fs`, a page cache of a few MB: memory does not
 * grow with the table). No native module, so one .vsix runs on every platform; see
 * docs/contracts/data.md for why not `node:sqlite`. No `vscode`. Runs only inside the SQLite
 * worker (`sqliteWorker.ts`): a query cannot be interrupted, so it must never run on the
 * extension host's thread.
 *
 * The library's JavaScript is run here with its own `fs` (`sqliteFiles.ts`) instead of Node's.
 * `dir` is the folder holding `node-sqlite3-wasm.js` and `.wasm`: `dist/` in the extension
 * (esbuild.mjs copies them), the package's own `dist/` in tests.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { allow, disallow, shim, type SideFiles, sideFilesBeside } from './sqliteFiles';
import type { CompiledWasm } from './sqliteWasm';

/** The subset of node-sqlite3-wasm's API the writers use. */
export interface WasmStatement {
  run(values?: unknown): { changes: number; lastInsertRowid: number | bigint };
  all(values?: unknown): Record<string, unknown>[];
  get(values?: unknown): Record<string, unknown> | undefined;
  iterate(values?: unknown): IterableIterator<Record<string, unknown>>;
  finalize(): void;
}
export interface WasmDatabase {
  exec(sql: string): void;
  run(sql: string, values?: unknown): { changes: number; lastInsertRowid: number | bigint };
  all(sql: string, values?: unknown): Record<string, unknown>[];
  get(sql: string, values?: unknown): Record<string, unknown> | undefined;
  prepare(sql: string): WasmStatement;
  /** A function of ours that SQL may call (the read session's kinds and keys). */
  function(name: string, func: (...args: never[]) => unknown, options?: { deterministic?: boolean }): unknown;
  close(): void;
  readonly inTransaction: boolean;
  readonly isOpen: boolean;
}
interface WasmModule {
  Database: new (file: string, options?: { fileMustExist?: boolean; readOnly?: boolean }) => WasmDatabase;
}

/**
 * SQLite's own C calls and the WebAssembly memory, for reading a whole column a cell at a time
 * without an object a row (`sqliteRawRows.ts`); undefined when the library is not as expected.
 */
export interface WasmCalls {
  step(stmt: number): number;
  columnType(stmt: number, i: number): number;
  columnDouble(stmt: number, i: number): number;
  columnText(stmt: number, i: number): number;
  columnBytes(stmt: number, i: number): number;
  /** The module's memory: its `buffer` is replaced when it grows. */
  memory: { readonly buffer: ArrayBuffer };
}

let loaded: { dir: string; module: WasmModule } | undefined;

/** Where the library compiles its WebAssembly (one compile per thread, most of its ~0.4 CPU-s start). */
const OWN_COMPILE = 'module=new WebAssembly.Module(binary)';
let handed: CompiledWasm | undefined;

/**
 * The library's WebAssembly as the host thread compiled it (`sqliteWasm.ts`), handed to a worker
 * before its first database: the library instantiates it instead of compiling its file again.
 */
export function useCompiledSqlite(module: CompiledWasm): void {
  handed = module;
}

function load(dir: string): WasmModule {
  if (loaded !== undefined) {
    if (loaded.dir !== dir) throw new Error(`SQLite is already loaded from ${loaded.dir}`);
    return loaded.module;
  }
  const file = path.join(dir, 'node-sqlite3-wasm.js');
  const source = fs.readFileSync(file, 'utf8');
  const modules: Record<string, unknown> = {
    'node:fs': shim,
    fs: shim,
    'node:path': path,
    path,
    'node:crypto': crypto,
    crypto,
  };
  const requireShim = (name: string): unknown => {
    if (name in modules) return modules[name];
    throw new Error(`node-sqlite3-wasm asked for ${name}`);
  };
  const module = { exports: {} as unknown };
  // The library's code, as Node would run it, with the shim as its `fs`; its memory is kept
  // beside its exports, so a column's cells can be read where SQLite holds them, and a handed
  // module is instantiated where it would compile its own (a version whose insides differ loads
  // as before: compiled here, read through its row objects).
  new Function(
    'exports',
    'require',
    'module',
    '__filename',
    '__dirname',
    'sdCompiled',
    `${source.replace(OWN_COMPILE, 'module=sdCompiled??new WebAssembly.Module(binary)')}\n;try { Module.sdMemory = wasmMemory; } catch {}`,
  )(module.exports, requireShim, module, file, dir, handed);
  loaded = { dir, module: module.exports as WasmModule };
  return loaded.module;
}

/** The loaded library's C calls (see WasmCalls), or undefined when any is missing. */
export function wasmCalls(): WasmCalls | undefined {
  const m = loaded?.module as unknown as Record<string, unknown> | undefined;
  const fn = (name: string): ((...args: number[]) => number) | undefined => {
    const f = m?.[`_sqlite3_${name}`];
    return typeof f === 'function' ? (f as (...args: number[]) => number) : undefined;
  };
  const [step, columnType, columnDouble, columnText, columnBytes] = [
    'step',
    'column_type',
    'column_double',
    'column_text',
    'column_bytes',
  ].map(fn);
  const memory = m?.sdMemory as { buffer?: unknown } | undefined;
  if (!step || !columnType || !columnDouble || !columnText || !columnBytes) return undefined;
  if (typeof memory !== 'object' || memory === null || !(memory.buffer instanceof ArrayBuffer)) return undefined;
  return { step, columnType, columnDouble, columnText, columnBytes, memory: memory as { buffer: ArrayBuffer } };
}

/**
 * How a database is written:
 * - `rollback`: a rollback journal (`-journal`), kept (truncated) between transactions and deleted
 *   at close; four syncs a commit. For a file nothing else depends on until it is complete (an export).
 * - `wal`: a write-ahead log (`-wal`): a commit appends the changed pages to the log and syncs it
 *   once (`synchronous=FULL`: a committed transaction survives a power loss). The log is copied
 *   into the database by `checkpoint()` when the caller has time for it, and at close, which
 *   deletes it. With the lock held for the whole session (`locking_mode=EXCLUSIVE`), SQLite keeps
 *   the log's index in its own memory: no `-shm` file, which the library could not share anyway.
 *   A log left by a killed process is read back by the next open (its committed transactions
 *   kept, a half-written one ignored), as any SQLite program does; a pull's log is in its side
 *   folder (`sqliteFiles.ts`), so only a log a pull of ours wrote is ever read back.
 */
export type JournalKind = 'rollback' | 'wal';

/** An open database file; only it (and its journal or log) may be opened by the library meanwhile. */
export class SqliteDb {
  readonly db: WasmDatabase;

  private constructor(
    readonly file: string,
    db: WasmDatabase,
    readonly journal: JournalKind,
    private readonly side: SideFiles,
  ) {
    this.db = db;
  }

  /**
   * `dir`: where node-sqlite3-wasm's files are. The caller has checked `file` (safeFiles.ts).
   * `side`: where its journal, log and lock are (`sqliteFiles.ts`); `ownFolder`: that is
   * Scrapedeck's own folder (a stale lock there may be taken over). `vet` reads the database
   * before anything is written to it (the journal mode included), and may refuse it by throwing.
   */
  static open(
    dir: string,
    file: string,
    journal: JournalKind,
    side: SideFiles,
    ownFolder: boolean,
    vet?: (db: WasmDatabase) => void,
  ): SqliteDb {
    const { Database } = load(dir);
    const name = path.resolve(file);
    allow(name, side, ownFolder);
    let db: WasmDatabase | undefined;
    try {
      db = new Database(name);
      // The lock is held until close (one lock folder per session, not one per transaction), and
      // must be before the log is first touched for WAL without shared memory.
      db.exec('PRAGMA locking_mode=EXCLUSIVE');
      vet?.(db);
      const mode = db.get(`PRAGMA journal_mode=${journal === 'wal' ? 'WAL' : 'TRUNCATE'}`)?.journal_mode;
      if (mode !== (journal === 'wal' ? 'wal' : 'truncate'))
        throw new Error(`SQLite could not use the ${journal} journal of ${name} (${String(mode)})`);
      // Temporary tables and sorts in memory: no other file. Checkpoints only when asked.
      db.exec(
        'PRAGMA synchronous=FULL; PRAGMA temp_store=MEMORY; PRAGMA foreign_keys=OFF; PRAGMA wal_autocheckpoint=0',
      );
      return new SqliteDb(name, db, journal, side);
    } catch (error) {
      try {
        if (db?.isOpen) db.close();
      } finally {
        disallow(name);
      }
      throw error;
    }
  }

  /** Bytes in the write-ahead log (0 in rollback mode, or when it is empty). */
  logBytes(): number {
    if (this.journal !== 'wal') return 0;
    return fs.statSync(this.side.wal, { throwIfNoEntry: false })?.size ?? 0;
  }

  /** Copies the log's committed pages into the database (the next commit starts the log again). */
  checkpoint(): void {
    if (this.journal === 'wal') this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  }

  private closed = false;

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.db.isOpen) {
        // Back to SQLite's defaults: the log is copied into the database and deleted (or the
        // journal deleted), so other programs find a plain database file and nothing beside it.
        try {
          this.db.exec('PRAGMA journal_mode=DELETE; PRAGMA locking_mode=NORMAL');
        } finally {
          this.db.close();
        }
      }
    } finally {
      disallow(this.file);
    }
  }
}

/**
 * A database opened only to be read (the data browser's): SQLITE_OPEN_READONLY, and the file
 * system lets the library open the database itself for reading and nothing else (no journal,
 * log or lock made beside it, `sqliteFiles.ts`). Views and triggers never run: only tables are
 * read, and nothing is written. `trusted_schema=OFF` keeps functions with side effects out of
 * whatever the schema holds; temporary tables (a sorted view's row ids) stay in memory.
 */
export function openReadOnly(dir: string, file: string): { db: WasmDatabase; close: () => void } {
  const { Database } = load(dir);
  const name = path.resolve(file);
  allow(name, sideFilesBeside(name), false, true);
  let db: WasmDatabase | undefined;
  const close = (): void => {
    try {
      if (db?.isOpen) db.close();
    } finally {
      disallow(name);
    }
  };
  try {
    db = new Database(name, { readOnly: true });
    db.exec('PRAGMA trusted_schema=OFF; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-8000');
    return { db, close };
  } catch (error) {
    close();
    throw error;
  }
}
