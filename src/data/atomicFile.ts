/**
 * A file written under a temporary name next to its target and renamed onto it only when
 * complete, so a cancelled or failed write never leaves a half file under the chosen name (and
 * an existing file there stays as it was until the new one is whole). No `vscode`.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

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
  ) {
    this.handle = handle;
  }

  /** Creates the temporary file (never an existing one). */
  static async create(target: string): Promise<AtomicFile> {
    const temp = tempPathFor(target);
    const handle = await fs.open(temp, 'wx');
    return new AtomicFile(target, temp, handle);
  }

  get bytesWritten(): number {
    return this.bytes;
  }

  async write(text: string): Promise<void> {
    if (text.length === 0) return;
    const handle = this.open();
    const data = Buffer.from(text, 'utf8');
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
      await fs.rename(this.tempPath, this.target);
    } catch (error) {
      await this.discard();
      throw error;
    }
    await syncFolder(path.dirname(this.target));
  }

  /** Closed and removed; the target is untouched. Safe to call more than once. */
  async discard(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
    await fs.rm(this.tempPath, { force: true }).catch(() => undefined);
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
