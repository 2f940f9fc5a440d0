/**
 * The file rule of every writer in `src/data` (and the analytics export): write only to the file
 * itself, never through a symbolic link, and only inside the folder it names. No `vscode`.
 *
 * - The last component is looked at with lstat and opened with O_NOFOLLOW (where the platform has
 *   it): a link is refused, so is anything that is not a regular file (a folder, a pipe) and a
 *   file with other names (hard links: writing to it would change those files too).
 * - With a `root` (the workspace folder a pull target or an export lies in), every folder between
 *   the root and the file must be a real folder: the parent's real path must be the root's real
 *   path plus the same names. A missing folder is created one level at a time, each checked.
 * - What is opened is checked again (fstat): the same file that was looked at, regular, one name.
 *
 * A link planted while a write is already under way (a race by a local process) is outside what
 * this guards against; a repository or archive that ships links is what it stops.
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';

export type UnsafeReason = 'link' | 'outside' | 'hard-link' | 'not-file';

/** Why a file may not be written: `reason` is worded for the user by the flows (l10n). */
export class UnsafeFileError extends Error {
  override readonly name = 'UnsafeFileError';
  constructor(
    readonly reason: UnsafeReason,
    /** The path that broke the rule (the file, or a folder on the way to it). */
    readonly at: string,
  ) {
    super(`${at}: ${describe(reason)}`);
  }
}

function describe(reason: UnsafeReason): string {
  switch (reason) {
    case 'link':
      return 'it is a symbolic link';
    case 'outside':
      return 'a folder on the way to it is a symbolic link (its real place is outside the folder)';
    case 'hard-link':
      return 'it has other names (hard links)';
    case 'not-file':
      return 'it is not a regular file';
  }
}

/** 0 where the platform has no such flag (Windows): the lstat checks then stand alone. */
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';

function samePath(a: string, b: string): boolean {
  return CASE_INSENSITIVE ? a.toLowerCase() === b.toLowerCase() : a === b;
}

async function lstatOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The file as lstat sees it, refused when it is a link, not a regular file, or has other names; undefined when missing. */
export async function checkFile(file: string): Promise<Stats | undefined> {
  const s = await lstatOrUndefined(file);
  if (s === undefined) return undefined;
  if (s.isSymbolicLink()) throw new UnsafeFileError('link', file);
  if (!s.isFile()) throw new UnsafeFileError('not-file', file);
  if (s.nlink > 1) throw new UnsafeFileError('hard-link', file);
  return s;
}

/**
 * Checks the folders from `root` down to `file`'s folder (created when missing with `create`)
 * and that the folder's real path is where its name says. Without a root (a place the user chose
 * outside any workspace folder) the folders are only created.
 */
export async function checkFolders(file: string, root: string | undefined, create: boolean): Promise<void> {
  if (root === undefined) {
    if (create) await fs.mkdir(path.dirname(file), { recursive: true });
    return;
  }
  const rel = path.relative(root, path.dirname(file));
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new UnsafeFileError('outside', file);
  let at = root;
  for (const part of rel === '' ? [] : rel.split(path.sep)) {
    at = path.join(at, part);
    const s = await lstatOrUndefined(at);
    if (s === undefined) {
      if (!create) return; // nothing below a missing folder exists: nothing to write through
      await fs.mkdir(at);
      continue;
    }
    if (s.isSymbolicLink()) throw new UnsafeFileError('outside', at);
    if (!s.isDirectory()) throw new UnsafeFileError('not-file', at);
  }
  const real = await fs.realpath(path.dirname(file));
  if (!samePath(real, path.join(await fs.realpath(root), rel)))
    throw new UnsafeFileError('outside', path.dirname(file));
}

/** Both checks: the folders (created when missing with `create`), then the file. */
export async function checkTarget(file: string, root: string | undefined, create = false): Promise<Stats | undefined> {
  await checkFolders(file, root, create);
  return checkFile(file);
}

export type OpenMode = 'read' | 'append' | 'create-append' | 'read-write';

const FLAGS: Record<OpenMode, number> = {
  read: constants.O_RDONLY | O_NOFOLLOW,
  append: constants.O_WRONLY | constants.O_APPEND | O_NOFOLLOW,
  // O_EXCL never opens an existing name, a link included.
  'create-append': constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL,
  'read-write': constants.O_RDWR | O_NOFOLLOW,
};

/**
 * Opens without following a link; the opened file must be a regular file with one name and, if
 * `expected` is given, the very file that was checked.
 */
export async function openChecked(file: string, mode: OpenMode, expected?: Stats): Promise<fs.FileHandle> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, FLAGS[mode], 0o666);
  } catch (error) {
    // ELOOP: the last component is a link (O_NOFOLLOW); EEXIST: something appeared under a new name.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new UnsafeFileError('link', file);
    throw error;
  }
  try {
    const s = await handle.stat();
    if (!s.isFile()) throw new UnsafeFileError('not-file', file);
    if (s.nlink > 1) throw new UnsafeFileError('hard-link', file);
    if (expected !== undefined && (s.ino !== expected.ino || s.dev !== expected.dev))
      throw new UnsafeFileError('link', file);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** The first `bytes` of a checked file (or fewer, if it is shorter). */
export async function readStart(file: string, bytes: number): Promise<Buffer> {
  const handle = await openChecked(file, 'read');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
