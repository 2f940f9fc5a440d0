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
 * For CSV and JSON Lines files the record is a small file beside the target,
 * `.<name>.scrapedeck-pull`, written whole (temporary file, flushed, renamed) and removed when
 * the batch is marked. SQLite keeps it in a table of the database, written in the batch's own
 * transaction (`sqliteSink.ts`).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import type { DataRow } from '../../api/dataSchemas';
import { AtomicFile } from '../../platform/files/atomicFile';
import { jsonLine } from '../formats/rowFormats';
import { checkFile, readStart } from '../../platform/files/safeFiles';

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

export const fileJournalSchema = z.object({
  version: z.literal(1),
  taskId: z.string().min(1).max(128),
  taskName: z.string().max(300),
  /** The file's length in bytes before the batch (0: the batch starts the file, a CSV header included). */
  offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  rows: z.number().int().min(1).max(1000),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type FileJournal = z.infer<typeof fileJournalSchema>;

/** A record that cannot be read: the flows say which file to look at. */
export class DamagedJournalError extends Error {
  override readonly name = 'DamagedJournalError';
  constructor(readonly journal: string) {
    super(`${journal} is not a record Scrapedeck can read`);
  }
}

export function journalPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.scrapedeck-pull`);
}

/** The record beside `file`, or undefined. A link or anything not a small regular file is refused. */
export async function readFileJournal(file: string): Promise<FileJournal | undefined> {
  const at = journalPathFor(file);
  const s = await checkFile(at);
  if (s === undefined) return undefined;
  if (s.size > 4096) throw new DamagedJournalError(at);
  let parsed: unknown;
  try {
    parsed = JSON.parse((await readStart(at, 4096)).toString('utf8'));
  } catch {
    throw new DamagedJournalError(at);
  }
  const journal = fileJournalSchema.safeParse(parsed);
  if (!journal.success) throw new DamagedJournalError(at);
  return journal.data;
}

/** Written whole and flushed before it counts (the rename is the commit). */
export async function writeFileJournal(file: string, journal: FileJournal, root?: string): Promise<void> {
  const record = await AtomicFile.create(journalPathFor(file), root);
  try {
    await record.write(`${JSON.stringify(journal)}\n`);
    await record.commit();
  } finally {
    await record.discard();
  }
}

export async function removeFileJournal(file: string): Promise<void> {
  await fs.rm(journalPathFor(file), { force: true });
}
