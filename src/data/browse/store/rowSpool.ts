/**
 * Rows that come from elsewhere (the service, a SQLite table), written as they come to a private
 * JSON Lines file and indexed as they are written, so they are browsed like a file: memory holds
 * the index, the rows stay on disk. The file is created new (never an existing one, mode 0600)
 * and removed on close. No `vscode`.
 */
import { randomBytes } from 'node:crypto';
import { type FileHandle, lstat, mkdir, open, readdir, rm } from 'node:fs/promises';
import * as path from 'node:path';

import type { DataRow } from '../../../api/schemas/dataSchemas';
import { RecordFile } from './recordFile';

export class RowSpool {
  private line = 1;
  private closed = false;

  private constructor(
    readonly file: RecordFile,
    private readonly out: FileHandle,
  ) {}

  /** A new spool file in `dir` (created if missing). */
  static async create(dir: string): Promise<RowSpool> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const name = path.join(dir, `rows-${randomBytes(8).toString('hex')}.jsonl`);
    const out = await open(name, 'wx', 0o600);
    try {
      return new RowSpool(await RecordFile.open(name, 'jsonl'), out);
    } catch (error) {
      await out.close();
      await rm(name, { force: true });
      throw error;
    }
  }

  get count(): number {
    return this.file.count;
  }

  /** Appends rows; they can be read as soon as this resolves. */
  async append(rows: readonly DataRow[]): Promise<void> {
    if (this.closed || rows.length === 0) return;
    const parts: string[] = [];
    const starts: number[] = [];
    let at = this.file.index.end;
    for (const row of rows) {
      for (const key of Object.keys(row)) this.file.column(key);
      const text = `${JSON.stringify(row)}\n`;
      starts.push(at);
      at += Buffer.byteLength(text);
      parts.push(text);
    }
    await this.out.write(parts.join(''), this.file.index.end);
    // Indexed only once on disk, so a window never asks for bytes not yet written.
    for (const start of starts) this.file.index.add(start, this.line++);
    this.file.index.end = at;
  }

  /** Closes and removes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.out.close().catch(() => undefined);
    await this.file.close();
    await rm(this.file.path, { force: true });
  }
}

/**
 * Spool files a window left behind (it was killed), removed when a browser first opens. Only
 * those untouched for a day: another window's open browser writes its own spool here too.
 */
export async function removeOldSpools(dir: string, now = Date.now()): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => /^rows-[0-9a-f]{16}\.jsonl$/.test(n))) {
    const file = path.join(dir, name);
    const s = await lstat(file).catch(() => undefined);
    if (s?.isFile() && now - s.mtimeMs > 86_400_000) await rm(file, { force: true });
  }
}
