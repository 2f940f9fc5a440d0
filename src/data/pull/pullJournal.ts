/**
 * The record of the batch a pull has in flight, so that any interruption is completed exactly
 * once (issue 29). No `vscode`.
 *
 * A batch is what one not-exported request handed out. Before its first byte is written, the pull
 * records how many rows it holds and a hash of them (and, for a file, the file's length before
 * it); the record is dropped once the batch is marked exported. A record still there at the next
 * pull means the batch may be wholly, partly or not at all in the file, and marked or not: the
 * next pull asks for exactly that many rows, and only if they hash the same are they the same
 * batch handed out again (`pullRows.ts`).
 *
 * Where (issue 44 item 1): a CSV or JSON Lines file's record lives in the extension's own storage
 * (`records`: a folder of globalStorageUri, one per account), named by a hash of the file's real
 * path, never beside the file: a repository cannot ship one. Each record is also bound to the file
 * it was written for (device and inode, and a hash of the bytes just before its offset); a record
 * that does not bind to the file it is read for is dropped, never acted on. A record beside the
 * file (`.<name>.scrapedeck-pull`, what versions before 0.15 wrote) is never read
 * (`pullLeftovers.ts`). SQLite keeps its record in a table of the database (`sqliteSink.ts`).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import * as z from 'zod';

import type { DataRow } from '../../api/schemas/dataSchemas';
import { syncFolder } from '../../platform/files/atomicFile';
import { checkFile } from '../../platform/files/safeFiles';
import { jsonLine } from '../formats/rowFormats';
import { readRange } from './tailBytes';

/** A batch handed out and not known to be marked: its size and the hash of its rows. */
export interface PendingBatch {
  rows: number;
  hash: string;
}

/** sha256 of the rows as JSON Lines (keys in the order the service sent them): equal rows, equal hash. */
export function batchHash(rows: readonly DataRow[]): string {
  const hash = createHash('sha256');
  for (const row of rows) hash.update(`${jsonLine(row)}\n`, 'utf8');
  return hash.digest('hex');
}

/** How many bytes before a record's offset its `before` hash covers (the whole file when shorter). */
export const BOUND_BYTES = 64 * 1024;

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const fileJournalSchema = z.object({
  version: z.literal(2),
  /** The file's path when recorded (the record's name is a hash of it). */
  file: z.string().min(1).max(4096),
  taskId: z.string().min(1).max(128),
  taskName: z.string().max(300),
  /** The file's length in bytes before the batch (0: the batch starts the file, a CSV header included). */
  offset: count,
  rows: z.number().int().min(1).max(1000),
  hash: hex64,
  /** The file it was written for: device, inode, and sha256 of the BOUND_BYTES before `offset`. */
  dev: count,
  ino: count,
  before: hex64,
});
export type FileJournal = z.infer<typeof fileJournalSchema>;

/** A record that cannot be read: the flows say which file to look at. */
export class DamagedJournalError extends Error {
  override readonly name = 'DamagedJournalError';
  constructor(readonly journal: string) {
    super(`${journal} is not a record Scrapedeck can read`);
  }
}

/** The file's real path (its folder resolved; the file itself may not exist yet). */
export async function realFilePath(file: string): Promise<string> {
  const folder = await fs.realpath(path.dirname(file)).catch(() => path.resolve(path.dirname(file)));
  return path.join(folder, path.basename(file));
}

/** Where the record of `file` is kept in the store `records`. */
export async function journalPathFor(records: string, file: string): Promise<string> {
  const key = createHash('sha256')
    .update(await realFilePath(file), 'utf8')
    .digest('hex');
  return path.join(records, `${key}.pull.json`);
}

/** sha256 of the `BOUND_BYTES` of `file` before `offset`. */
export async function boundHash(file: string, offset: number): Promise<string> {
  const from = Math.max(0, offset - BOUND_BYTES);
  return createHash('sha256')
    .update(await readRange(file, from, offset - from))
    .digest('hex');
}

/** What binds a record at `offset` to `file` now (the file must exist). */
export async function bindingOf(file: string, offset: number): Promise<Pick<FileJournal, 'dev' | 'ino' | 'before'>> {
  const s = await checkFile(file);
  if (s === undefined) throw new Error(`${file} is gone`);
  return { dev: s.dev, ino: s.ino, before: await boundHash(file, offset) };
}

/** Whether `journal` was written for this very file as it is now: same file (device, inode), at least as long, the same bytes before the offset. */
export async function bindsTo(journal: FileJournal, file: string): Promise<boolean> {
  const s = await checkFile(file).catch(() => undefined);
  if (s === undefined || s.dev !== journal.dev || s.ino !== journal.ino || s.size < journal.offset) return false;
  return (await boundHash(file, journal.offset)) === journal.before;
}

/**
 * The record of `file` in `records`, or undefined: none, or one that does not bind to the file
 * as it is (then it is removed: the file was replaced or changed, and the record says nothing
 * about it any more). A record that cannot be read is `DamagedJournalError`.
 */
export async function readFileJournal(records: string, file: string): Promise<FileJournal | undefined> {
  const at = await journalPathFor(records, file);
  const s = await checkFile(at).catch(() => {
    throw new DamagedJournalError(at);
  });
  if (s === undefined) return undefined;
  if (s.size > 8192) throw new DamagedJournalError(at);
  let parsed: unknown;
  try {
    parsed = JSON.parse((await fs.readFile(at)).toString('utf8'));
  } catch {
    throw new DamagedJournalError(at);
  }
  const journal = fileJournalSchema.safeParse(parsed);
  if (!journal.success) throw new DamagedJournalError(at);
  if (journal.data.file !== (await realFilePath(file)) || !(await bindsTo(journal.data, file))) {
    await fs.rm(at, { force: true });
    return undefined;
  }
  return journal.data;
}

/** Written whole and flushed before it counts (the rename is the commit); the store is made if missing. */
export async function writeFileJournal(records: string, journal: FileJournal): Promise<void> {
  await fs.mkdir(records, { recursive: true });
  const at = await journalPathFor(records, journal.file);
  const temp = `${at}.${process.pid}.tmp`;
  // A temporary file a killed pull of this process id left is ours (the store is the extension's): replaced, never followed.
  await fs.rm(temp, { force: true });
  const handle = await fs.open(temp, 'wx');
  try {
    await handle.writeFile(`${JSON.stringify(journal)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, at);
  await syncFolder(records);
}

export async function removeFileJournal(records: string, file: string): Promise<void> {
  await fs.rm(await journalPathFor(records, file), { force: true });
}
