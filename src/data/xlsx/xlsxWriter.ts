/**
 * Export Data… to .xlsx, streamed: memory does not grow with the rows. No `vscode`.
 *
 * Rows are turned into sheet XML and deflated as they come, into a temporary file of sheet
 * bodies beside the target. At the end the workbook is put together in a second temporary file
 * (renamed onto the target): the small parts, then each sheet as its start and header row (the
 * fields known by then, so a field first seen late still gets its header), its body copied as
 * deflated, and its end, each a deflate segment of its own, one after the other (a valid deflate
 * stream; the CRCs are joined, `zipParts.ts`).
 *
 * A sheet holds 1,048,576 rows (its header and 1,048,575 data rows); the rows go on in the next
 * sheet, "<task> (2)", and so on.
 */
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import type { Writable } from 'node:stream';
import * as zlib from 'node:zlib';

import type { DataRow } from '../../api/schemas/dataSchemas';
import { AtomicFile, tempPathFor } from '../../platform/files/atomicFile';
import { checkTarget } from '../../platform/files/safeFiles';
import { forgetTemp, noteTemp, type TempLedger } from '../../platform/files/tempLedger';
import {
  cellXml,
  columnName,
  contentTypesXml,
  headerRow,
  MAX_SHEET_COLUMNS,
  MAX_SHEET_ROWS,
  ROOT_RELS_XML,
  SHEET_END,
  sheetName,
  sheetStart,
  STYLES_XML,
  workbookRelsXml,
  workbookXml,
} from './xlsxParts';
import { centralDirectory, crc32, crc32Combine, localHeader, type ZipEntry } from './zipParts';

export class TooManyFieldsError extends Error {
  override readonly name = 'TooManyFieldsError';
  constructor(readonly fields: number) {
    super(`the rows have ${fields} fields; an .xlsx sheet holds at most ${MAX_SHEET_COLUMNS} columns`);
  }
}

export interface XlsxOptions {
  target: string;
  /** The folder the target must stay in, when it is in a workspace folder. */
  root?: string;
  taskName: string;
  /** Data rows per sheet (tests use a few); default 1,048,575. */
  rowsPerSheet?: number;
  /** Where the temporary files are noted (`tempLedger.ts`). */
  ledger?: TempLedger;
}

interface SheetBody {
  offset: number;
  compressed: number;
  size: number;
  crc: number;
  rows: number;
}

export class XlsxWriter {
  private readonly fields: string[] = [];
  private readonly index = new Map<string, number>();
  /** Column letters by index, so a cell's reference is one concatenation. */
  private readonly letters: string[] = [];
  private readonly sheets: SheetBody[] = [];
  private sheet: SheetBody | undefined;
  private deflate: zlib.DeflateRaw | undefined;
  private bodyBytes = 0;
  private failure: unknown;
  private cut = 0;

  private constructor(
    private readonly options: XlsxOptions,
    readonly bodiesPath: string,
    private readonly bodies: Writable,
  ) {
    bodies.on('error', (e) => (this.failure ??= e));
  }

  static async create(options: XlsxOptions): Promise<XlsxWriter> {
    await checkTarget(options.target, options.root, true);
    const bodiesPath = tempPathFor(options.target);
    if (options.ledger !== undefined) await noteTemp(options.ledger, bodiesPath);
    const handle = await fs.open(bodiesPath, 'wx').catch(async (error: unknown) => {
      if (options.ledger !== undefined) await forgetTemp(options.ledger, bodiesPath); // not ours: never swept
      throw error;
    });
    return new XlsxWriter(options, bodiesPath, handle.createWriteStream());
  }

  /** Text cells cut at Excel's 32,767 characters so far. */
  get cutCells(): number {
    return this.cut;
  }

  get columns(): readonly string[] {
    return this.fields;
  }

  async write(rows: readonly DataRow[]): Promise<void> {
    const perSheet = this.options.rowsPerSheet ?? MAX_SHEET_ROWS - 1;
    let xml = '';
    for (const row of rows) {
      if (this.sheet === undefined || this.sheet.rows >= perSheet) {
        await this.raw(xml);
        xml = '';
        await this.endSheet();
        this.startSheet();
      }
      const sheet = this.sheet as SheetBody;
      const r = sheet.rows + 2;
      let cells = '';
      for (const key in row) {
        const cell = cellXml((this.letters[this.column(key)] as string) + r, row[key]);
        cells += cell.xml;
        if (cell.cut) this.cut++;
      }
      xml += `<row r="${r}">${cells}</row>`;
      sheet.rows++;
      // Small pieces (tens of KB): a page's XML in one string would be a large object, kept
      // until a full collection; these die young.
      if (sheet.rows % 64 === 0) {
        await this.raw(xml);
        xml = '';
      }
    }
    await this.raw(xml);
  }

  /** Puts the workbook together and renames it onto the target. */
  async commit(): Promise<void> {
    await this.endSheet();
    this.bodies.end();
    await once(this.bodies, 'close');
    this.check();
    const out = await AtomicFile.create(this.options.target, this.options.root, this.options.ledger);
    const source = await fs.open(this.bodiesPath, 'r');
    try {
      const date = new Date();
      const entries: ZipEntry[] = [];
      const put = async (
        name: string,
        parts: { raw: Buffer; crc: number; size: number; deflated: Buffer[] } | Buffer,
        body?: SheetBody,
      ): Promise<void> => {
        const p = Buffer.isBuffer(parts)
          ? { raw: parts, crc: crc32(parts), size: parts.length, deflated: [zlib.deflateRawSync(parts)] }
          : parts;
        const compressed = p.deflated.reduce((n, b) => n + b.length, 0) + (body?.compressed ?? 0);
        const entry: ZipEntry = { name, crc: p.crc, compressed, size: p.size, offset: out.bytesWritten };
        await out.writeBytes(localHeader(entry, date));
        await out.writeBytes(p.deflated[0] as Buffer);
        if (body !== undefined) await copyRange(source, body.offset, body.compressed, out);
        for (const rest of p.deflated.slice(1)) await out.writeBytes(rest);
        entries.push(entry);
      };
      const names = this.sheets.map((_, i) => sheetName(this.options.taskName, i));
      await put('[Content_Types].xml', Buffer.from(contentTypesXml(names.length)));
      await put('_rels/.rels', Buffer.from(ROOT_RELS_XML));
      await put('xl/workbook.xml', Buffer.from(workbookXml(names)));
      await put('xl/_rels/workbook.xml.rels', Buffer.from(workbookRelsXml(names.length)));
      await put('xl/styles.xml', Buffer.from(STYLES_XML));
      for (const [i, body] of this.sheets.entries()) {
        const start = Buffer.from(sheetStart(this.fields.length, body.rows + 1) + headerRow(this.fields));
        const end = Buffer.from(SHEET_END);
        const crc = crc32Combine(crc32Combine(crc32(start), body.crc, body.size), crc32(end), end.length);
        const deflated = [
          zlib.deflateRawSync(start, { finishFlush: zlib.constants.Z_SYNC_FLUSH }),
          zlib.deflateRawSync(end),
        ];
        await put(
          `xl/worksheets/sheet${i + 1}.xml`,
          { raw: start, crc, size: start.length + body.size + end.length, deflated },
          body,
        );
      }
      await out.writeBytes(centralDirectory(entries, out.bytesWritten, date));
      await out.commit();
    } finally {
      await source.close();
      await out.discard();
      await fs.rm(this.bodiesPath, { force: true });
      await this.forgetBodies();
    }
  }

  /** Removes the temporary files; the target is untouched. */
  async discard(): Promise<void> {
    this.deflate?.destroy();
    this.bodies.destroy();
    await fs.rm(this.bodiesPath, { force: true }).then(
      () => this.forgetBodies(),
      () => undefined,
    );
  }

  private async forgetBodies(): Promise<void> {
    if (this.options.ledger !== undefined) await forgetTemp(this.options.ledger, this.bodiesPath);
  }

  private column(key: string): number {
    let at = this.index.get(key);
    if (at === undefined) {
      at = this.fields.length;
      if (at >= MAX_SHEET_COLUMNS) throw new TooManyFieldsError(at + 1);
      this.index.set(key, at);
      this.fields.push(key);
      this.letters.push(columnName(at));
    }
    return at;
  }

  private startSheet(): void {
    const sheet: SheetBody = { offset: this.bodyBytes, compressed: 0, size: 0, crc: 0, rows: 0 };
    // Sync-flushed at its end, not finished: the sheet's end is a segment of its own.
    const deflate = zlib.createDeflateRaw({ level: 6, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    deflate.on('data', (chunk: Buffer) => {
      sheet.compressed += chunk.length;
      this.bodyBytes += chunk.length;
    });
    deflate.on('error', (e) => (this.failure ??= e));
    deflate.pipe(this.bodies, { end: false });
    this.sheet = sheet;
    this.deflate = deflate;
    this.sheets.push(sheet);
  }

  private async endSheet(): Promise<void> {
    const deflate = this.deflate;
    if (deflate === undefined) return;
    this.deflate = undefined;
    deflate.end();
    await once(deflate, 'end');
    deflate.unpipe(this.bodies);
    this.check();
  }

  private async raw(xml: string): Promise<void> {
    if (xml === '' || this.sheet === undefined || this.deflate === undefined) return;
    const data = Buffer.from(xml, 'utf8');
    this.sheet.crc = crc32(data, this.sheet.crc);
    this.sheet.size += data.length;
    if (!this.deflate.write(data)) await once(this.deflate, 'drain');
    this.check();
  }

  private check(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}

async function copyRange(source: fs.FileHandle, offset: number, length: number, out: AtomicFile): Promise<void> {
  const buffer = Buffer.alloc(Math.min(length, 1 << 20));
  for (let done = 0; done < length;) {
    const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, length - done), offset + done);
    if (bytesRead === 0) throw new Error('the sheet bodies file is shorter than written');
    await out.writeBytes(buffer.subarray(0, bytesRead));
    done += bytesRead;
  }
}
