/**
 * A workspace file that pulled rows are appended to, CSV or JSON Lines, each batch written and
 * flushed (fsync) before `write` resolves. No `vscode`. The pull's bookkeeping is `fileSink.ts`;
 * this is the file.
 *
 * - A new (or empty) CSV file gets the BOM and a header of the first batch's fields. An existing
 *   one keeps its header; a field it lacks becomes a new column at the end: the file is rewritten
 *   once with the wider header and every earlier row padded (temporary file, renamed), then the
 *   batch is appended.
 * - A write that fails is cut back to where it began.
 * - `pendingOffset` (from a pull's record of the batch in flight): the file is read as if it ended
 *   there, and the bytes after it are only matched against what the batch would write
 *   (`matchTail`) or, when the batch was marked, kept as the file's with a partial last row cut
 *   back (`acceptTail`). Nothing after it is trusted as a header or a row otherwise.
 * - Links and folders: `safeFiles.ts`, checked at open and at every write; opened without
 *   following links.
 * - A file that is not UTF-8 text, or a CSV without a header line, is refused before anything is
 *   written.
 */
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';

import type { DataRow } from '../../api/schemas/dataSchemas';
import { UTF8_BOM } from '../../platform/csvCell';
import { AtomicFile } from '../../platform/files/atomicFile';
import { checkFile, checkFolders, checkTarget, openChecked, readStart } from '../../platform/files/safeFiles';
import { CsvRecordPadder, readFirstRecord } from '../formats/csvRecords';
import { CsvEncoder, jsonLine } from '../formats/rowFormats';
import { type TempLedger, tempsOf } from './pullLeftovers';
import { lastLineEnd, lastRecordEnd, longestCommonPrefix, readRange } from './tailBytes';
import { UnusableFileError } from './unusableFile';

export type AppendFormat = 'csv' | 'jsonl';

/** The header is looked for in the file's first megabyte. */
const HEADER_LIMIT = 1 << 20;

interface FileState {
  /** Where the next batch begins (the file's length, or a pending batch's offset). */
  size: number;
  bom: boolean;
  endsWithNewline: boolean;
}

export interface AppendOptions {
  /** The folder the file must stay in (its workspace folder): no link on the way down. */
  root?: string;
  /** A batch in flight began here (the pull's record): the bytes after it are matched, not trusted. */
  pendingOffset?: number;
  /** Test seam: runs when half of a batch's bytes are written and none is flushed (a kill point). */
  midWrite?: () => void | Promise<void>;
  /** Notes the temporary file of a CSV rewrite, so a crash's leftover is removed by the next pull. */
  ledger?: TempLedger;
  /** Test seam: runs after the file was checked and before it is opened for a write (where a link could be swapped in). */
  beforeOpen?: () => void | Promise<void>;
}

export class AppendFile {
  private csv: CsvEncoder | undefined;
  private state: FileState = { size: 0, bom: false, endsWithNewline: true };
  /** The file's real length (more than `state.size` while a pending batch's bytes are after it). */
  private actual = 0;
  private checked: Stats | undefined;

  private constructor(
    readonly path: string,
    readonly format: AppendFormat,
    private readonly options: AppendOptions,
  ) {}

  /** Looks at the file (it may not exist yet) and refuses one that cannot be appended to. */
  static async open(file: string, format: AppendFormat, options: AppendOptions = {}): Promise<AppendFile> {
    if ((await lstat(file).catch(() => undefined))?.isDirectory())
      throw new UnusableFileError('folder', 'it is a folder');
    const opened = new AppendFile(file, format, options);
    opened.checked = await checkTarget(file, options.root);
    opened.actual = opened.checked?.size ?? 0;
    const view = options.pendingOffset ?? opened.actual;
    if (view > opened.actual)
      throw new UnusableFileError(
        'changed',
        `it is shorter (${opened.actual} bytes) than when the interrupted pull began writing (${view})`,
      );
    await opened.load(view);
    return opened;
  }

  /** CSV: the file's columns (after the last write). */
  get columns(): readonly string[] | undefined {
    return this.csv?.columns;
  }

  /** Where the next batch begins. */
  get size(): number {
    return this.state.size;
  }

  /**
   * A batch's text in pieces: what goes before its rows (a line break, or the CSV BOM and header),
   * then one piece per row. A CSV field the header lacks widens the file first; never while bytes
   * of a pending batch follow (the batch's fields were in the header when it was recorded).
   */
  async pieces(rows: readonly DataRow[]): Promise<string[]> {
    const csv = this.csv;
    if (csv === undefined) return [this.lead('\n'), ...rows.map((r) => `${jsonLine(r)}\n`)];
    if (this.state.size === 0) return [csv.start(rows), ...rows.map((r) => csv.rows([r]))];
    csv.learn(rows);
    if (csv.widened) {
      if (this.actual !== this.state.size)
        throw new UnusableFileError('changed', 'the interrupted batch has fields its header lacks');
      await this.widen(csv);
    }
    return [this.lead('\r\n'), ...rows.map((r) => csv.rows([r]))];
  }

  /**
   * Appends the pieces' text from byte `from` of it (0: all), at `size + from`, and flushes. On
   * failure the file is cut back to where this write began.
   */
  async write(pieces: readonly string[], from = 0): Promise<void> {
    const data = Buffer.from(pieces.join(''), 'utf8').subarray(from);
    if (data.length === 0) {
      // The whole batch was in place already (bytes after it, if any, are the file's own).
      if (this.actual !== this.state.size) this.state = await inspect(this.path, this.actual);
      return;
    }
    const start = this.state.size + from;
    if (start !== this.actual)
      throw new UnusableFileError('changed', `expected ${start} bytes before the write, found ${this.actual}`);
    await checkFolders(this.path, this.options.root, true);
    const existing = await checkFile(this.path);
    await this.options.beforeOpen?.();
    const handle = await openChecked(this.path, existing === undefined ? 'create-append' : 'append', existing);
    try {
      const half = this.options.midWrite === undefined ? data.length : data.length >> 1;
      await writeAll(handle, data.subarray(0, half));
      if (half < data.length) {
        await this.options.midWrite?.();
        await writeAll(handle, data.subarray(half));
      }
      await handle.sync();
    } catch (error) {
      await handle.truncate(start).catch(() => undefined);
      throw error;
    } finally {
      await handle.close();
    }
    this.actual = start + data.length;
    this.state = { ...this.state, size: this.actual, endsWithNewline: data[data.length - 1] === 0x0a };
  }

  /**
   * How much of a pending batch (its pieces, as `pieces()` gives them at `size`) the bytes after
   * `size` already hold: the whole pieces found and the bytes they take. What follows the bytes
   * that match is cut when it holds no line break (a partial row, or zeros a crash left); whole
   * lines there are kept after the whole batch, and inside it mean the file changed since (refused,
   * nothing cut).
   */
  async matchTail(pieces: readonly string[]): Promise<{ pieces: number; bytes: number }> {
    const expected = Buffer.from(pieces.join(''), 'utf8');
    const tail = this.actual - this.state.size;
    const seen = await readRange(this.path, this.state.size, Math.min(tail, expected.length));
    const common = longestCommonPrefix(seen, expected);
    let whole = 0;
    let bytes = 0;
    for (const piece of pieces) {
      const next = bytes + Buffer.byteLength(piece, 'utf8');
      if (next > common) break;
      bytes = next;
      whole++;
    }
    // Past what matched: our bytes cut short, or what a crash left (zeros), hold no line break of
    // their own: a partial row, cut. Whole lines there are someone else's: after the whole batch
    // they are kept, inside it they mean the file changed since.
    const rest = await readRange(this.path, this.state.size + common, Math.min(tail - common, 1 << 20));
    const partial = tail - common <= rest.length && !rest.includes(0x0a);
    if (!partial) {
      if (whole === pieces.length) return { pieces: whole, bytes };
      throw new UnusableFileError('changed', 'lines after the interrupted batch are not the rows it wrote');
    }
    if (this.state.size + bytes !== this.actual) await this.truncate(this.state.size + bytes);
    return { pieces: whole, bytes };
  }

  /**
   * The bytes after `size` are the file's (the batch was marked): kept, but a trailing piece with
   * no line break (a partial row) is cut back; never a line. Resolves to the bytes cut. A CSV
   * whose bytes after `size` end inside a quoted cell (a crash inside a cell with a line break)
   * is refused, nothing cut: only a person can tell where that row ends.
   */
  async acceptTail(): Promise<number> {
    const tail = this.actual - this.state.size;
    if (tail === 0) return 0;
    const lineEnd = await lastLineEnd(this.path, this.state.size, this.actual);
    if (this.format === 'csv' && (await lastRecordEnd(this.path, this.state.size, lineEnd, true)) !== lineEnd) {
      throw new UnusableFileError('changed', 'the rows after the interrupted batch end inside a quoted cell');
    }
    const cut = this.actual - lineEnd;
    if (cut > 0) await this.truncate(lineEnd);
    await this.load(lineEnd);
    return cut;
  }

  /** Creates the file, empty, if it does not exist yet (checked as a write is); true when it did. */
  async create(): Promise<boolean> {
    if (this.actual > 0 || (await checkFile(this.path)) !== undefined) return false;
    await checkFolders(this.path, this.options.root, true);
    await (await openChecked(this.path, 'create-append')).close();
    this.checked = await checkFile(this.path);
    return true;
  }

  private lead(newline: string): string {
    return this.state.size > 0 && !this.state.endsWithNewline ? newline : '';
  }

  private async truncate(length: number): Promise<void> {
    const handle = await openChecked(this.path, 'read-write', this.checked);
    try {
      await handle.truncate(length);
      await handle.sync();
    } finally {
      await handle.close();
    }
    this.actual = length;
  }

  /** Reads the file as if it were `view` bytes long: BOM, last byte, CSV header. */
  private async load(view: number): Promise<void> {
    this.state = await inspect(this.path, view);
    let header: string[] = [];
    if (this.format === 'csv' && view > 0) {
      const first = readFirstRecord(decode(await readStart(this.path, Math.min(view, HEADER_LIMIT))));
      if (first === undefined || first.cells.every((c) => c === '')) {
        throw new UnusableFileError('no-header', 'it does not start with a CSV header line');
      }
      header = first.cells;
    }
    this.csv = this.format === 'csv' ? new CsvEncoder(header) : undefined;
  }

  /** Rewrites the file with the wider header and every row padded to it. */
  private async widen(csv: CsvEncoder): Promise<void> {
    const ledger = this.options.ledger;
    const wide = await AtomicFile.create(this.path, this.options.root, ledger && tempsOf(ledger));
    try {
      await wide.write((this.state.bom ? UTF8_BOM : '') + csv.headerLine());
      const padder = new CsvRecordPadder(csv.columns.length, true);
      const source = await openChecked(this.path, 'read', this.checked);
      try {
        for await (const chunk of source.createReadStream({
          encoding: 'utf8',
          highWaterMark: 1 << 20,
          autoClose: false,
        }))
          await wide.write(padder.push(chunk as string));
      } finally {
        await source.close();
      }
      await wide.write(padder.end());
      await wide.commit();
    } finally {
      await wide.discard();
    }
    csv.headerWritten();
    this.checked = await checkFile(this.path);
    this.actual = this.checked?.size ?? 0;
    this.state = await inspect(this.path, this.actual);
  }
}

async function writeAll(handle: import('node:fs').promises.FileHandle, data: Buffer): Promise<void> {
  let done = 0;
  while (done < data.length) done += (await handle.write(data, done, data.length - done)).bytesWritten;
}

async function inspect(file: string, size: number): Promise<FileState> {
  if (size === 0) return { size, bom: false, endsWithNewline: true };
  const head = decode(await readStart(file, Math.min(size, 3)));
  const last = await readRange(file, size - 1, 1);
  return { size, bom: head.startsWith(UTF8_BOM), endsWithNewline: last[0] === 0x0a };
}

/** UTF-8 text; a file that is not UTF-8 is refused (a cut last character is fine). */
function decode(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream: true });
  } catch {
    throw new UnusableFileError('not-text', 'it is not UTF-8 text');
  }
}
