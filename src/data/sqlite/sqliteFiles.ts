/**
 * The file system node-sqlite3-wasm gets instead of Node's (`sqliteRuntime.ts` runs the library
 * with it, inside the SQLite worker). No `vscode`.
 *
 * - It may open only the files a `SqliteDb` named (the database, its rollback journal and its
 *   write-ahead log), never through a link (O_NOFOLLOW), and only regular files with one name.
 * - A database opened with a side folder (a pull's: the extension's own storage) has its journal,
 *   log and lock there, under a name from the database file's identity (device, inode, birth
 *   time), not beside it: so a `-wal` or `-journal` a repository ships beside a database is never
 *   read back into it (the pull refuses such a database, `sqliteSink.ts`), and the journal SQLite
 *   reads back after a killed pull is always one a pull of ours wrote.
 * - A file it creates has its folder synced too (the library does not): a write-ahead log holds
 *   committed transactions, and a power loss must not take the file's name away with them.
 * - Its lock (the library's `<db>.lock` folder) holds an `owner` file with a token of ours; a lock
 *   is removed only when its owner file holds the token this process wrote, never through a link.
 *   In a side folder (where only Scrapedeck writes) a lock whose owner process is gone is taken
 *   over, so a killed pull does not block the database for ever; anywhere else a lock that exists
 *   is someone else's.
 * - A database opened to be read (the data browser's, `sqliteReader.ts`) is opened read-only and
 *   nothing else: no journal, log or lock is opened, made or removed beside it. Its lock is not
 *   made but checked (a lock folder there is another writer's: SQLITE_BUSY), so reading never
 *   writes a byte into someone's folder.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const HOST = os.hostname();

/** Where a database's journal, log and lock are. */
export interface SideFiles {
  wal: string;
  journal: string;
  lock: string;
}

/** The side files of `file` in `sideDir` (a pull's), named from the file's identity; the file exists. */
export function sideFilesIn(sideDir: string, file: string): SideFiles {
  const s = fs.statSync(file, { bigint: true });
  const key = createHash('sha256').update(`${s.dev}:${s.ino}:${s.birthtimeNs}`).digest('hex').slice(0, 32);
  const base = path.join(sideDir, key);
  return { wal: `${base}-wal`, journal: `${base}-journal`, lock: `${base}.lock` };
}

/** The side files SQLite itself would use: beside the database (an export's new file). */
export function sideFilesBeside(file: string): SideFiles {
  return { wal: `${file}-wal`, journal: `${file}-journal`, lock: `${file}.lock` };
}

interface Opened {
  count: number;
  side: SideFiles;
  /** Stale locks may be taken over (the side folder is Scrapedeck's own). */
  ownFolder: boolean;
  /** Only read: the database itself, read-only; its lock checked, never made. */
  readOnly?: boolean;
}

/** Databases the library may open now, by absolute path. */
const opened = new Map<string, Opened>();
/** Lock folders this process made, with the token in their owner file. */
const mine = new Map<string, string>();

export function allow(file: string, side: SideFiles, ownFolder: boolean, readOnly = false): void {
  const known = opened.get(file);
  if (known !== undefined && known.readOnly !== readOnly) throw denied(file);
  opened.set(file, { count: (known?.count ?? 0) + 1, side, ownFolder, readOnly });
}

/** The database a name is (or is the journal, log or lock of) when it was opened only to be read. */
function readOnlyOwner(file: string): boolean {
  const name = path.resolve(file);
  for (const [db, entry] of opened) {
    if (
      entry.readOnly === true &&
      (name === db || name === entry.side.wal || name === entry.side.journal || name === entry.side.lock)
    )
      return true;
  }
  return false;
}

/** Descriptors of databases opened only to be read. */
const readFds = new Set<number>();

const WRITE_FLAGS =
  fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_APPEND;

export function disallow(file: string): void {
  const known = opened.get(file);
  if (known === undefined || known.count <= 1) opened.delete(file);
  else known.count--;
}

function denied(file: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`Scrapedeck's SQLite may not open ${file}`);
  error.code = 'EACCES';
  return error;
}

/** The real path of a file SQLite names (its journal or log may live in the side folder), or undefined when it may not touch it. */
function mapped(file: string): string | undefined {
  const name = path.resolve(file);
  const db = opened.get(name);
  if (db !== undefined) return name;
  for (const [suffix, pick] of [
    ['-wal', 'wal'],
    ['-journal', 'journal'],
    ['.lock', 'lock'],
  ] as const) {
    if (!name.endsWith(suffix)) continue;
    const owner = opened.get(name.slice(0, -suffix.length));
    if (owner !== undefined) return owner.side[pick];
  }
  return undefined;
}

function ownFolderLock(lock: string): boolean {
  for (const db of opened.values()) if (db.side.lock === lock) return db.ownFolder;
  return false;
}

/** A folder's entries reach the disk (POSIX); where a folder cannot be opened (Windows) this does nothing. */
export function syncFolder(folder: string): void {
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

/** The owner file of a lock folder, read without following a link; undefined when it is not one of ours. */
function readOwner(lock: string): { pid?: unknown; host?: unknown; token?: unknown } | undefined {
  const folder = fs.lstatSync(lock, { throwIfNoEntry: false });
  if (folder === undefined || !folder.isDirectory()) return undefined;
  let fd: number | undefined;
  try {
    fd = fs.openSync(path.join(lock, 'owner'), fs.constants.O_RDONLY | O_NOFOLLOW);
    const s = fs.fstatSync(fd);
    if (!s.isFile() || s.size > 1024) return undefined;
    return JSON.parse(fs.readFileSync(fd, 'utf8')) as { pid?: unknown; host?: unknown; token?: unknown };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Removes a lock folder only if its owner file holds `token` (so only one this process made). */
export function removeLockIfOwned(lock: string, token: string): boolean {
  if (readOwner(lock)?.token !== token) return false;
  fs.unlinkSync(path.join(lock, 'owner'));
  fs.rmdirSync(lock);
  return true;
}

/** A lock in Scrapedeck's own side folder whose owner was a process of this machine that is gone. */
function stale(lock: string): boolean {
  if (!ownFolderLock(lock)) return false;
  const owner = readOwner(lock);
  if (owner === undefined || owner.host !== HOST || typeof owner.pid !== 'number' || owner.pid === process.pid)
    return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function takeOver(lock: string): void {
  const owner = readOwner(lock);
  if (typeof owner?.token !== 'string') throw denied(lock);
  removeLockIfOwned(lock, owner.token);
}

/** The token this thread writes into its locks' owner files (set by the worker from the host's). */
export const lockToken = { value: randomBytes(16).toString('hex') };

export const shim = {
  ...fs,
  openSync(file: fs.PathLike, flags: number, mode?: fs.Mode): number {
    const name = mapped(String(file));
    if (name === undefined || name.endsWith('.lock')) throw denied(path.resolve(String(file)));
    // Read only: the database itself, never for writing (a hot journal is not rolled back: it fails the read).
    if (readOnlyOwner(name) && (opened.get(name)?.readOnly !== true || (flags & WRITE_FLAGS) !== 0)) throw denied(name);
    const created = (flags & fs.constants.O_CREAT) !== 0 && fs.lstatSync(name, { throwIfNoEntry: false }) === undefined;
    const fd = fs.openSync(name, flags | O_NOFOLLOW, mode);
    const s = fs.fstatSync(fd);
    if (!s.isFile() || s.nlink > 1) {
      fs.closeSync(fd);
      throw denied(name);
    }
    if (created) syncFolder(path.dirname(name));
    if (opened.get(name)?.readOnly === true) readFds.add(fd);
    return fd;
  },
  /**
   * A database read only, whose header says WAL (bytes 18 and 19 are 2), is read as SQLite reads
   * one it switches back to a rollback journal: the reader refuses one with a log beside it
   * (`sqliteReadOpen.ts`), so every committed page is in the file; read as WAL, SQLite would make a
   * -wal beside it, which a reader never does.
   */
  readSync(
    fd: number,
    buffer: NodeJS.ArrayBufferView,
    offset: number,
    length: number,
    position: number | bigint | null,
  ): number {
    const n = fs.readSync(fd, buffer, offset, length, position);
    const at = Number(position ?? -1);
    if (readFds.has(fd) && at >= 0 && at <= 18 && at + n >= 20 && buffer instanceof Uint8Array) {
      for (const i of [18, 19]) if (buffer[offset + i - at] === 2) buffer[offset + i - at] = 1;
    }
    return n;
  },
  closeSync(fd: number): void {
    readFds.delete(fd);
    fs.closeSync(fd);
  },
  unlinkSync(file: fs.PathLike): void {
    const name = mapped(String(file));
    if (name === undefined || name.endsWith('.lock') || readOnlyOwner(name)) throw denied(path.resolve(String(file)));
    fs.unlinkSync(name);
  },
  // Looked up when called (not copied from Node's fs when this module loads).
  fsyncSync(fd: number): void {
    fs.fsyncSync(fd);
  },
  mkdirSync(dir: fs.PathLike): string | undefined {
    const name = mapped(String(dir));
    if (name === undefined || !name.endsWith('.lock')) throw denied(path.resolve(String(dir)));
    if (readOnlyOwner(name)) {
      // A reader makes no lock: one that is there is a writer's (EEXIST: SQLite says busy).
      if (fs.lstatSync(name, { throwIfNoEntry: false }) !== undefined)
        throw Object.assign(new Error(`${name} exists`), { code: 'EEXIST' });
      return undefined;
    }
    try {
      // mkdir never follows a link: a link (or anything) at the name is EEXIST.
      fs.mkdirSync(name, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !stale(name)) throw error;
      takeOver(name);
      fs.mkdirSync(name, { mode: 0o700 });
    }
    // O_EXCL: never an existing file, nor through a link.
    fs.writeFileSync(
      path.join(name, 'owner'),
      JSON.stringify({ pid: process.pid, host: HOST, token: lockToken.value }),
      { flag: 'wx' },
    );
    mine.set(name, lockToken.value);
    return undefined;
  },
  rmdirSync(dir: fs.PathLike): void {
    const name = mapped(String(dir));
    if (name !== undefined && readOnlyOwner(name)) return; // the reader made none
    const token = name === undefined ? undefined : mine.get(name);
    if (name === undefined || token === undefined) throw denied(path.resolve(String(dir)));
    mine.delete(name);
    if (!removeLockIfOwned(name, token)) throw denied(name);
  },
  accessSync(file: fs.PathLike, mode?: number): void {
    const name = mapped(String(file));
    if (name === undefined) throw denied(path.resolve(String(file)));
    // The reserved-lock check: a stale lock of ours is no lock (so a hot journal is rolled back).
    if (name.endsWith('.lock') && !mine.has(name) && stale(name)) takeOver(name);
    fs.accessSync(name, mode);
  },
};
