/**
 * SQLite for the data writers: node-sqlite3-wasm (SQLite compiled to WebAssembly, reading and
 * writing the database file itself through Node's `fs`, a page cache of a few MB: memory does not
 * grow with the table). No native module, so one .vsix runs on every platform; see
 * docs/contracts/data.md for why not `node:sqlite`. No `vscode`.
 *
 * The library's JavaScript is run here with its own `fs` (the shim below) instead of Node's:
 * - it may open only the files a `SqliteDb` named (the database, its rollback journal and its
 *   write-ahead log), never through a link (O_NOFOLLOW), and only regular files with one name;
 * - a file it creates has its folder synced too (the library does not): a write-ahead log holds
 *   committed transactions, and a power loss must not take the file's name away with them;
 * - its lock (a `<db>.lock` folder) carries the owner's process id, so a lock left by a process
 *   that was killed mid-transaction is taken over instead of blocking the file for ever (SQLite
 *   then rolls the interrupted transaction back from its journal).
 * `dir` is the folder holding `node-sqlite3-wasm.js` and `.wasm`: `dist/` in the extension
 * (esbuild.mjs copies them), the package's own `dist/` in tests.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The subset of node-sqlite3-wasm's API the writers use. */
export interface WasmStatement {
  run(values?: unknown): { changes: number; lastInsertRowid: number | bigint };
  all(values?: unknown): Record<string, unknown>[];
  get(values?: unknown): Record<string, unknown> | undefined;
  finalize(): void;
}
export interface WasmDatabase {
  exec(sql: string): void;
  run(sql: string, values?: unknown): { changes: number; lastInsertRowid: number | bigint };
  all(sql: string, values?: unknown): Record<string, unknown>[];
  get(sql: string, values?: unknown): Record<string, unknown> | undefined;
  prepare(sql: string): WasmStatement;
  close(): void;
  readonly inTransaction: boolean;
  readonly isOpen: boolean;
}
interface WasmModule {
  Database: new (file: string, options?: { fileMustExist?: boolean; readOnly?: boolean }) => WasmDatabase;
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const HOST = os.hostname();

/** Files the library may open now, by absolute path (how many SqliteDb have each open). */
const opened = new Map<string, number>();
const allowed = { has: (file: string): boolean => opened.has(file) };

function denied(file: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`Scrapedeck's SQLite may not open ${file}`);
  error.code = 'EACCES';
  return error;
}

/** The database a file of SQLite's belongs to: itself, or the one whose journal or log it is. */
function owner(file: string): string {
  return file.replace(/-(journal|wal)$/, '');
}

/** A folder's entries reach the disk (POSIX); where a folder cannot be opened (Windows) this does nothing. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(folder, fs.constants.O_RDONLY);
    fs.fsyncSync(fd);
  } catch {
    // Best effort, as for every rename of ours (atomicFile.ts).
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function isLock(file: string): boolean {
  return file.endsWith('.lock') && allowed.has(file.slice(0, -'.lock'.length));
}

/** A lock whose owner was a process of this machine that is gone. */
function stale(lock: string): boolean {
  let owner: { pid?: unknown; host?: unknown };
  try {
    owner = JSON.parse(fs.readFileSync(path.join(lock, 'owner'), 'utf8')) as typeof owner;
  } catch {
    // No owner written (killed between the two steps): stale once it is a minute old.
    try {
      return Date.now() - fs.lstatSync(lock).mtimeMs > 60_000;
    } catch {
      return false;
    }
  }
  if (owner.host !== HOST || typeof owner.pid !== 'number') return false;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function removeLock(lock: string): void {
  fs.rmSync(path.join(lock, 'owner'), { force: true });
  fs.rmdirSync(lock);
}

const shim = {
  ...fs,
  openSync(file: fs.PathLike, flags: number, mode?: fs.Mode): number {
    const name = path.resolve(String(file));
    if (!allowed.has(owner(name))) throw denied(name);
    const created = (flags & fs.constants.O_CREAT) !== 0 && fs.lstatSync(name, { throwIfNoEntry: false }) === undefined;
    const fd = fs.openSync(name, flags | O_NOFOLLOW, mode);
    const s = fs.fstatSync(fd);
    if (!s.isFile() || s.nlink > 1) {
      fs.closeSync(fd);
      throw denied(name);
    }
    if (created) syncFolder(path.dirname(name));
    return fd;
  },
  unlinkSync(file: fs.PathLike): void {
    const name = path.resolve(String(file));
    if (!allowed.has(owner(name))) throw denied(name);
    fs.unlinkSync(name);
  },
  // Looked up when called (not copied from Node's fs when this module loads).
  fsyncSync(fd: number): void {
    fs.fsyncSync(fd);
  },
  mkdirSync(dir: fs.PathLike, options?: fs.MakeDirectoryOptions): string | undefined {
    const name = path.resolve(String(dir));
    if (!isLock(name)) throw denied(name);
    try {
      fs.mkdirSync(name, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !stale(name)) throw error;
      removeLock(name);
      fs.mkdirSync(name, options);
    }
    fs.writeFileSync(path.join(name, 'owner'), JSON.stringify({ pid: process.pid, host: HOST }), { flag: 'wx' });
    return undefined;
  },
  rmdirSync(dir: fs.PathLike): void {
    const name = path.resolve(String(dir));
    if (!isLock(name)) throw denied(name);
    removeLock(name);
  },
  accessSync(file: fs.PathLike, mode?: number): void {
    const name = path.resolve(String(file));
    // The reserved-lock check: a stale lock is no lock (so a hot journal is rolled back).
    if (isLock(name) && fs.existsSync(name) && stale(name)) removeLock(name);
    fs.accessSync(name, mode);
  },
};

function release(file: string): void {
  const n = (opened.get(file) ?? 1) - 1;
  if (n <= 0) opened.delete(file);
  else opened.set(file, n);
}

let loaded: { dir: string; module: WasmModule } | undefined;

function load(dir: string): WasmModule {
  if (loaded !== undefined) {
    if (loaded.dir !== dir) throw new Error(`SQLite is already loaded from ${loaded.dir}`);
    return loaded.module;
  }
  const file = path.join(dir, 'node-sqlite3-wasm.js');
  const source = fs.readFileSync(file, 'utf8');
  const modules: Record<string, unknown> = { 'node:fs': shim, fs: shim, 'node:path': path, path, 'node:crypto': crypto, crypto };
  const requireShim = (name: string): unknown => {
    if (name in modules) return modules[name];
    throw new Error(`node-sqlite3-wasm asked for ${name}`);
  };
  const module = { exports: {} as unknown };
  // The library's code, as Node would run it, with the shim as its `fs`.
  new Function('exports', 'require', 'module', '__filename', '__dirname', source)(module.exports, requireShim, module, file, dir);
  loaded = { dir, module: module.exports as WasmModule };
  return loaded.module;
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
 *   kept, a half-written one ignored), as any SQLite program does.
 */
export type JournalKind = 'rollback' | 'wal';

/** An open database file; only it (and its journal or log) may be opened by the library meanwhile. */
export class SqliteDb {
  readonly db: WasmDatabase;

  private constructor(
    readonly file: string,
    db: WasmDatabase,
    readonly journal: JournalKind,
  ) {
    this.db = db;
  }

  /** `dir`: where node-sqlite3-wasm's files are. The caller has checked `file` (safeFiles.ts). */
  static open(dir: string, file: string, journal: JournalKind = 'rollback'): SqliteDb {
    const { Database } = load(dir);
    const name = path.resolve(file);
    opened.set(name, (opened.get(name) ?? 0) + 1);
    let db: WasmDatabase | undefined;
    try {
      db = new Database(name);
      // The lock is held until close (one lock folder per session, not one per transaction), and
      // must be before the log is first touched for WAL without shared memory.
      db.exec('PRAGMA locking_mode=EXCLUSIVE');
      const mode = db.get(`PRAGMA journal_mode=${journal === 'wal' ? 'WAL' : 'TRUNCATE'}`)?.journal_mode;
      if (mode !== (journal === 'wal' ? 'wal' : 'truncate')) throw new Error(`SQLite could not use the ${journal} journal of ${name} (${String(mode)})`);
      // Temporary tables and sorts in memory: no other file. Checkpoints only when asked.
      db.exec('PRAGMA synchronous=FULL; PRAGMA temp_store=MEMORY; PRAGMA foreign_keys=OFF; PRAGMA wal_autocheckpoint=0');
      return new SqliteDb(name, db, journal);
    } catch (error) {
      try {
        if (db?.isOpen) db.close();
      } finally {
        release(name);
      }
      throw error;
    }
  }

  /** Bytes in the write-ahead log (0 in rollback mode, or when it is empty). */
  logBytes(): number {
    if (this.journal !== 'wal') return 0;
    return fs.statSync(`${this.file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
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
      release(this.file);
    }
  }
}

/**
 * A database opened read-only (the data browser): nothing written, its journal mode left as it
 * is; a write-ahead log or hot journal beside it (another program's unfinished work) is refused,
 * never replayed. The library's lock folder is still taken while a read is under way.
 */
export function openReadOnlyDatabase(dir: string, file: string): { db: WasmDatabase; close(): void } {
  const name = path.resolve(file);
  for (const kind of ['wal', 'journal']) {
    if ((fs.lstatSync(`${name}-${kind}`, { throwIfNoEntry: false })?.size ?? 0) > 0) throw new Error(`${path.basename(name)} has a -${kind} file beside it: another program is writing it.`);
  }
  const { Database } = load(dir);
  opened.set(name, (opened.get(name) ?? 0) + 1);
  let db: WasmDatabase | undefined;
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    try {
      if (db?.isOpen) db.close();
    } finally {
      release(name);
    }
  };
  try {
    db = new Database(name, { fileMustExist: true, readOnly: true });
    // No shared memory in this build: a database in WAL mode is read through the heap instead.
    db.exec('PRAGMA locking_mode=EXCLUSIVE; PRAGMA query_only=1; PRAGMA temp_store=MEMORY');
    return { db, close };
  } catch (error) {
    close();
    throw error;
  }
}
