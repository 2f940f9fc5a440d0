/**
 * The temporary files we create beside a user's file, noted in the extension's own storage, so
 * that what a killed process left behind is found and removed later as provably ours (issue 48:
 * nothing of Scrapedeck's own stays in the user's folders, however the last write ended). No
 * `vscode`.
 *
 * - A note is written before its file is created and removed when the file is gone (renamed onto
 *   its target or discarded). A note is ours, so what it names is ours: nothing beside a user's
 *   file is removed by its name alone (a workspace may ship a file of that name).
 * - A note is acted on only when the process that wrote it is gone (another window's extension
 *   host may be writing it now), and what it names is removed only when it is still a regular file
 *   with one name (never a link or a folder), in the same real folder as when it was noted (a
 *   folder on the way replaced by a link is never followed).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import * as z from 'zod';

/** SQLite's rollback journal (a file) and its lock (a folder holding one `owner` file). */
const SIDES = ['-journal', '.lock'] as const;
export type TempSide = (typeof SIDES)[number];

export interface TempLedger {
  /** A folder of the extension's own storage (never a workspace's) holding one note per file. */
  readonly folder: string;
}

const noteSchema = z.object({
  path: z.string().min(1).max(4096),
  pid: z.number().int().min(0),
  /** The real path of the file's folder when noted (older notes lack it). */
  dir: z.string().min(1).max(4096).optional(),
  /** Named `<path><suffix>`, what the file's writer may have made beside it (SQLite's journal and lock folder). */
  sides: z.array(z.enum(SIDES)).optional(),
});

const noteName = (temp: string): string =>
  `${createHash('sha256').update(temp, 'utf8').digest('hex').slice(0, 32)}.json`;

/** Noted before the file is created (no flush: a killed process's writes survive it). */
export async function noteTemp(ledger: TempLedger, temp: string, sides?: readonly TempSide[]): Promise<void> {
  await fs.mkdir(ledger.folder, { recursive: true });
  const dir = await fs.realpath(path.dirname(temp));
  const note = { path: temp, pid: process.pid, dir, ...(sides === undefined ? {} : { sides: [...sides] }) };
  await fs.writeFile(path.join(ledger.folder, noteName(temp)), JSON.stringify(note));
}

/** The file is gone (renamed or removed): its note goes too. Never fails. */
export async function forgetTemp(ledger: TempLedger, temp: string): Promise<void> {
  await fs.rm(path.join(ledger.folder, noteName(temp)), { force: true }).catch(() => undefined);
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A regular file with one name (never a link or a folder) whose folder is still `dir` (really). */
async function ownShaped(file: string, dir: string | undefined): Promise<boolean> {
  const s = await fs.lstat(file).catch(() => undefined);
  if (s === undefined || !s.isFile() || s.nlink !== 1) return false;
  const real = await fs.realpath(path.dirname(file)).catch(() => undefined);
  return real !== undefined && real === (dir ?? path.dirname(file));
}

/** A lock folder holding nothing but its `owner` file (ours, as `ownShaped`), emptied and removed. */
async function removeLockFolder(lock: string, dir: string | undefined): Promise<boolean> {
  const s = await fs.lstat(lock).catch(() => undefined);
  if (s === undefined || !s.isDirectory()) return false;
  const real = await fs.realpath(path.dirname(lock)).catch(() => undefined);
  if (real === undefined || real !== (dir ?? path.dirname(lock))) return false;
  const names = await fs.readdir(lock).catch(() => ['?', '?']);
  if (names.some((n) => n !== 'owner')) return false;
  const owner = path.join(lock, 'owner');
  if (names.length === 1 && !(await ownShaped(owner, await fs.realpath(lock).catch(() => undefined)))) return false;
  await fs.rm(owner, { force: true });
  // Removes only an empty folder, never through a link.
  return fs.rmdir(lock).then(
    () => true,
    () => false,
  );
}

/** Removes the noted files of processes that are gone, and their notes. Resolves to what was removed. */
export async function sweepTemps(ledger: TempLedger): Promise<string[]> {
  const removed: string[] = [];
  const names = await fs.readdir(ledger.folder).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const at = path.join(ledger.folder, name);
    let note: z.infer<typeof noteSchema> | undefined;
    try {
      note = noteSchema.parse(JSON.parse(await fs.readFile(at, 'utf8')));
    } catch {
      note = undefined; // a note cut short by a crash: what it named cannot be known, so nothing is removed
    }
    if (note !== undefined && alive(note.pid)) continue;
    if (note !== undefined) {
      const { path: file, dir, sides = [] } = note;
      for (const each of [file, ...sides.filter((side) => side !== '.lock').map((side) => file + side)]) {
        if (!(await ownShaped(each, dir))) continue;
        await fs.rm(each, { force: true });
        removed.push(each);
      }
      if (sides.includes('.lock') && (await removeLockFolder(`${file}.lock`, dir))) removed.push(`${file}.lock`);
    }
    await fs.rm(at, { force: true });
  }
  return removed;
}
