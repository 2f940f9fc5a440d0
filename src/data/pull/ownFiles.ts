/**
 * The files Scrapedeck's pulls made, so that Restricted Mode can tell them from the files the
 * workspace came with (issue 44 item 5): in an untrusted workspace a pull writes only to a new
 * file or one a pull of this account made (same device, inode and birth time), never to
 * a file the folder shipped. Kept in the pull's store (`pullJournal.ts`), out of the workspace.
 * No `vscode`.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import * as z from 'zod';

import { realFilePath } from './pullJournal';

// `born`: the birth time where the file system keeps one (0 where not): a file put in the place of
// a removed one may get its inode again, never its birth time.
const madeSchema = z.object({ file: z.string(), dev: z.number(), ino: z.number(), born: z.number() });

async function markerPath(records: string, file: string): Promise<string> {
  const key = createHash('sha256')
    .update(await realFilePath(file), 'utf8')
    .digest('hex');
  return path.join(records, 'made', `${key}.json`);
}

/** Whether a file exists at `file` (a link or anything else counts: it is there). */
export async function exists(file: string): Promise<boolean> {
  return (await fs.lstat(file).catch(() => undefined)) !== undefined;
}

/** Remembers `file` as it is now (a regular file) as one a pull made. */
export async function markMade(records: string, file: string): Promise<void> {
  const s = await fs.lstat(file).catch(() => undefined);
  if (s === undefined || !s.isFile()) return;
  const at = await markerPath(records, file);
  await fs.mkdir(path.dirname(at), { recursive: true });
  await fs.writeFile(
    at,
    JSON.stringify({ file: await realFilePath(file), dev: s.dev, ino: s.ino, born: s.birthtimeMs }),
  );
}

/** Whether `file` is the very file a pull made (not a link, same device and inode). */
export async function isMade(records: string, file: string): Promise<boolean> {
  const s = await fs.lstat(file).catch(() => undefined);
  if (s === undefined || !s.isFile()) return false;
  try {
    const made = madeSchema.parse(JSON.parse(await fs.readFile(await markerPath(records, file), 'utf8')));
    return (
      made.file === (await realFilePath(file)) &&
      made.dev === s.dev &&
      made.ino === s.ino &&
      made.born === s.birthtimeMs
    );
  } catch {
    return false;
  }
}

/** Restricted Mode's rule: a new file, or one a pull made. */
export async function mayWriteUntrusted(records: string, file: string): Promise<boolean> {
  return !(await exists(file)) || (await isMade(records, file));
}
