/**
 * What an interrupted pull of ours may leave, and its removal by the next pull (issue 48 item 1:
 * nothing of Scrapedeck's own stays in the user's folders, however the last pull ended). No `vscode`.
 *
 * - A temporary file (the rewrite of a CSV that gains a column) is noted in the pull's store
 *   (`<records>/temps/`, `platform/files/tempLedger.ts`) before it is created; the next pull removes
 *   each noted file whose process is gone. A note is ours, so what it names is ours: nothing is
 *   removed by its name alone.
 * - A record an older version kept beside the file (`.<name>.scrapedeck-pull`) and its temporary
 *   files (`..<name>.scrapedeck-pull.<hex>.scrapedeck-tmp`) are never read: a repository can ship
 *   them. In a trusted workspace they are removed when they are small regular files of one name
 *   (and the record parses as one); in Restricted Mode nothing the workspace holds is touched.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import * as z from 'zod';

import { sweepTemps, type TempLedger as FileLedger } from '../../platform/files/tempLedger';

export interface TempLedger {
  /** The pull's store (`pullJournal.ts`); the notes are in its `temps` folder. */
  records: string;
}

const legacyRecordSchema = z.object({
  version: z.literal(1),
  taskId: z.string(),
  offset: z.number(),
  rows: z.number(),
  hash: z.string(),
});

/** The pull's notes of its temporary files (`tempLedger.ts`), in its store's `temps` folder. */
export const tempsOf = (ledger: TempLedger): FileLedger => ({ folder: path.join(ledger.records, 'temps') });

/** A small regular file with one name (never a link or a folder), or undefined. */
async function ownShaped(file: string, limit: number): Promise<boolean> {
  const s = await fs.lstat(file).catch(() => undefined);
  return s !== undefined && s.isFile() && s.nlink === 1 && s.size <= limit;
}

/** An older version's record beside `file` and its temporary files, removed in a trusted workspace. */
async function removeLegacy(file: string): Promise<string[]> {
  const folder = path.dirname(file);
  const record = `.${path.basename(file)}.scrapedeck-pull`;
  const removed: string[] = [];
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const at = path.join(folder, name);
    if (name === record) {
      if (!(await ownShaped(at, 4096))) continue;
      const parsed = legacyRecordSchema.safeParse(
        await fs
          .readFile(at, 'utf8')
          .then((t) => JSON.parse(t) as unknown)
          .catch(() => undefined),
      );
      if (!parsed.success) continue;
    } else if (!(
      name.startsWith(`.${record}.`) &&
      /^\.[0-9a-f]{12}\.scrapedeck-tmp$/.test(name.slice(record.length + 1)) &&
      (await ownShaped(at, 4096))
    )) {
      continue;
    }
    await fs.rm(at, { force: true });
    removed.push(at);
  }
  return removed;
}

/** Before a pull into `file`: our leftovers removed (the ones beside it only when `trusted`). Resolves to what was removed. */
export async function cleanLeftovers(file: string, ledger: TempLedger, trusted: boolean): Promise<string[]> {
  const removed = await sweepTemps(tempsOf(ledger));
  if (trusted) removed.push(...(await removeLegacy(file)));
  return removed;
}
