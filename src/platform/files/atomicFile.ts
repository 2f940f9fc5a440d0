/**
 * A file written under a temporary name next to its target and renamed onto it only when
 * complete, so a cancelled or failed write never leaves a half file under the chosen name (and
 * an existing file there stays as it was until the new one is whole). No `vscode`.
 *
 * Links (`safeFiles.ts`): the target and, with a `root`, every folder down to it are checked when
 * the file is created and the target again before the rename; the temporary file is created with
 * O_EXCL, which never opens an existing name (a link planted under it included).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { checkFile, checkTarget } from './safeFiles';
import { forgetTemp, noteTemp, type TempLedger } from './tempLedger';

/** `.<name>.<random>.scrapedeck-tmp` in the target's folder: same file system, so the rename is atomic. */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.scrapedeck-tmp`);
}

export class AtomicFile {
  private handle: fs.FileHandle | undefined;
  private bytes = 0;

  private constructor(
    readonly target: string,
    readonly tempPath: string,
    handle: fs.FileHandle,
    private readonly ledger: TempLedger | undefined,
  ) {
    this.handle = handle;
  }

  /**
   * Creates the temporary file (never an existing one), after checking the target: not a link,
   * not a second name of another file, and with a `root`, no link on the way down from it.
   * With a `ledger`, the temporary file is noted there before it exists and the note goes when the
   * file does (`tempLedger.ts`: a crash's leftover is then found and removed later as our own).
   */
  static async create(target: string, root?: string, ledger?: TempLedger): Promise<AtomicFile> {
    await checkTarget(target, root, true);
    const temp = tempPathFor(target);
    if (ledger !== undefined) await noteTemp(ledger, temp);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(temp, 'wx');
    } catch (error) {
      if (ledger !== undefined) await forgetTemp(ledger, temp);
      throw error;
    }
    return new AtomicFile(target, temp, handle, ledger);
  }

  get bytesWritten(): number {
    return this.bytes;
  }

  async write(text: string): Promise<void> {
    if (text.length === 0) return;
    await this.writeBytes(Buffer.from(text, 'utf8'));
  }

  async writeBytes(data: Uint8Array): Promise<void> {
    if (data.length === 0) return;
    const handle = this.open();
    let done = 0;
    while (done < data.length) {
      const { bytesWritten } = await handle.write(data, done, data.length - done);
      done += bytesWritten;
    }
    this.bytes += data.length;
  }

  /** Flushed to disk and closed, still under the temporary name (to be read again, then discarded). */
  async finish(): Promise<void> {
    const handle = this.open();
    this.handle = undefined;
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Flushed, closed and renamed onto the target. On failure the temporary file is removed. */
  async commit(): Promise<void> {
    try {
      if (this.handle !== undefined) await this.finish();
      await checkFile(this.target); // a link that appeared meanwhile is refused, not replaced
      await fs.rename(this.tempPath, this.target);
    } catch (error) {
      await this.discard();
      throw error;
    }
    if (this.ledger !== undefined) await forgetTemp(this.ledger, this.tempPath);
    await syncFolder(path.dirname(this.target));
  }

  /** Closed and removed; the target is untouched. Safe to call more than once. */
  async discard(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
    const gone = await fs.rm(this.tempPath, { force: true }).then(
      () => true,
      () => false,
    );
    // A file that could not be removed keeps its note: a later sweep tries again.
    if (gone && this.ledger !== undefined) await forgetTemp(this.ledger, this.tempPath);
  }

  private open(): fs.FileHandle {
    if (this.handle === undefined) throw new Error(`${this.tempPath} is already closed`);
    return this.handle;
  }
}

/** The rename itself reaches the disk (POSIX); where a folder cannot be opened (Windows) this does nothing. */
export async function syncFolder(folder: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(folder, 'r');
    await handle.sync();
  } catch {
    // Best effort: the file's own data was synced before the rename.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** A whole file's bytes, by a temporary file renamed onto `target` (checked as `create` does). */
export async function writeWholeFile(
  target: string,
  data: Uint8Array,
  root?: string,
  ledger?: TempLedger,
): Promise<void> {
  const file = await AtomicFile.create(target, root, ledger);
  try {
    await file.writeBytes(data);
    await file.commit();
  } finally {
    await file.discard();
  }
}
