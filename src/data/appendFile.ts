/**
 * A workspace file that pulled rows are appended to, CSV or JSON Lines, each batch written and
 * flushed (fsync) before `append` resolves. No `vscode`.
 *
 * - A new (or empty) CSV file gets the BOM and a header of the first batch's fields. An existing
 *   one keeps its header; a field it lacks becomes a new column at the end: the file is rewritten
 *   once with the wider header and every earlier row padded (temporary file, renamed), then the
 *   batch is appended.
 * - A write that fails is cut back to the file's previous length, so a failed batch leaves the
 *   file as it was. (A crash of the whole machine in the middle of a write can still leave a part
 *   of a line; the batch was not marked exported, so its rows come again with the next pull.)
 * - A file that is not UTF-8 text, or a CSV without a header line, is refused before anything is
 *   written.
 */
import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DataRow } from '../api/dataSchemas';
import { UTF8_BOM } from '../platform/csvCell';
import { AtomicFile } from './atomicFile';
import { CsvRecordPadder, readFirstRecord } from './csvRecords';
import { CsvEncoder, JsonLinesEncoder } from './rowFormats';

export type AppendFormat = 'csv' | 'jsonl';

/** The header is looked for in the file's first megabyte. */
const HEADER_LIMIT = 1 << 20;

/** Why a file cannot be appended to; said to the user as it is (with the file's name). */
export class UnusableFileError extends Error {
  override readonly name = 'UnusableFileError';
  constructor(
    readonly reason: 'folder' | 'not-text' | 'no-header',
    message: string,
  ) {
    super(message);
  }
}

interface FileState {
  size: number;
  bom: boolean;
  endsWithNewline: boolean;
}

export class AppendFile {
  private constructor(
    readonly path: string,
    readonly format: AppendFormat,
    private state: FileState,
    private readonly csv: CsvEncoder | undefined,
  ) {}

  /** Looks at the file (it may not exist yet) and refuses one that cannot be appended to. */
  static async open(file: string, format: AppendFormat): Promise<AppendFile> {
    const state = await inspect(file);
    let header: string[] = [];
    if (format === 'csv' && state.size > 0) {
      const head = await readHead(file, Math.min(state.size, HEADER_LIMIT));
      const first = readFirstRecord(head);
      if (first === undefined || first.cells.every((c) => c === '')) {
        throw new UnusableFileError('no-header', 'it does not start with a CSV header line');
      }
      header = first.cells;
    }
    return new AppendFile(file, format, state, format === 'csv' ? new CsvEncoder(header) : undefined);
  }

  /** CSV: the file's columns (after the last append). */
  get columns(): readonly string[] | undefined {
    return this.csv?.columns;
  }

  /** Appends the rows; resolves once they are on disk. */
  async append(rows: readonly DataRow[]): Promise<void> {
    if (rows.length === 0) return;
    let text: string;
    if (this.csv === undefined) {
      text = new JsonLinesEncoder().rows(rows);
    } else if (this.state.size === 0) {
      text = this.csv.start(rows) + this.csv.rows(rows);
    } else {
      this.csv.learn(rows);
      if (this.csv.widened) await this.widen(this.csv);
      text = this.csv.rows(rows);
    }
    if (this.state.size === 0) await fs.mkdir(path.dirname(this.path), { recursive: true });
    if (this.state.size > 0 && !this.state.endsWithNewline) text = (this.format === 'csv' ? '\r\n' : '\n') + text;
    await appendSynced(this.path, text, this.state.size);
    this.state = { ...this.state, size: this.state.size + Buffer.byteLength(text, 'utf8'), endsWithNewline: true };
  }

  /** Rewrites the file with the wider header and every row padded to it. */
  private async widen(csv: CsvEncoder): Promise<void> {
    const wide = await AtomicFile.create(this.path);
    try {
      await wide.write((this.state.bom ? UTF8_BOM : '') + csv.headerLine());
      const padder = new CsvRecordPadder(csv.columns.length, true);
      for await (const chunk of createReadStream(this.path, { encoding: 'utf8', highWaterMark: 1 << 20 })) await wide.write(padder.push(chunk as string));
      await wide.write(padder.end());
      await wide.commit();
    } finally {
      await wide.discard();
    }
    csv.headerWritten();
    this.state = await inspect(this.path);
  }
}

async function inspect(file: string): Promise<FileState> {
  let size: number;
  try {
    const s = await fs.stat(file);
    if (s.isDirectory()) throw new UnusableFileError('folder', 'it is a folder');
    size = s.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { size: 0, bom: false, endsWithNewline: true };
    throw error;
  }
  if (size === 0) return { size, bom: false, endsWithNewline: true };
  const head = await readHead(file, Math.min(size, 3));
  const handle = await fs.open(file, 'r');
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return { size, bom: head.startsWith(UTF8_BOM), endsWithNewline: last[0] === 0x0a };
  } finally {
    await handle.close();
  }
}

/** The first `bytes` of the file as UTF-8 text; a file that is not UTF-8 is refused (a cut last character is fine). */
async function readHead(file: string, bytes: number): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buffer.subarray(0, bytesRead), { stream: true });
    } catch {
      throw new UnusableFileError('not-text', 'it is not UTF-8 text');
    }
  } finally {
    await handle.close();
  }
}

/** Appends and flushes; on failure the file is cut back to `size` (its length before). */
async function appendSynced(file: string, text: string, size: number): Promise<void> {
  const handle = await fs.open(file, 'a');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.truncate(size).catch(() => undefined);
    throw error;
  } finally {
    await handle.close();
  }
}
