/**
 * One writer per export format, behind one shape: `write(rows)` page by page, `commit()` onto
 * the target, `discard()`. Text formats (CSV, JSON Lines, JSON) go through their encoder into a
 * temporary file; .xlsx and SQLite have writers of their own. No `vscode`.
 */
import { createReadStream } from 'node:fs';

import type { DataRow } from '../../api/schemas/dataSchemas';
import { UTF8_BOM } from '../../platform/csvCell';
import { AtomicFile } from '../../platform/files/atomicFile';
import { sweepTemps, type TempLedger } from '../../platform/files/tempLedger';
import { letGo } from '../common/handOver';
import { CsvRecordPadder } from '../formats/csvRecords';
import { CsvEncoder, type DataFormat, encoderFor, type RowEncoder, type TextFormat } from '../formats/rowFormats';
import { SqliteExportWriter } from '../sqlite/sqliteExport';
import { XlsxWriter } from '../xlsx/xlsxWriter';

export interface RowWriter {
  /** One page, handed over: the writer may empty it once it has what it writes (`letGo`); read its length first. */
  write(rows: DataRow[]): Promise<void>;
  /** Completes the file and renames it onto the target. */
  commit(): Promise<WriterSummary>;
  /** Removes what was written; the target is untouched. */
  discard(): Promise<void>;
}

export interface WriterSummary {
  /** CSV: the header's columns; .xlsx: the fields. */
  columns?: readonly string[];
  /** CSV: a field appeared after the header was written, and the rows before it were padded. */
  widened?: boolean;
  /** .xlsx: text cells cut at 32,767 characters. */
  cutCells?: number;
  /** SQLite: the table the rows are in. */
  table?: string;
}

export interface WriterOptions {
  target: string;
  format: DataFormat;
  /** The folder the target must stay in, when it lies in a workspace folder. */
  root?: string;
  taskId: string;
  taskName: string;
  /** SQLite: where node-sqlite3-wasm's files are. */
  wasmDir?: string;
  /** .xlsx: data rows per sheet (tests). */
  rowsPerSheet?: number;
  /** Called before the CSV widening pass (a progress phase). */
  onWidening?: () => void;
  /**
   * Where the temporary files are noted (`tempLedger.ts`, in the extension's storage); those a
   * stopped process left are removed before this export writes.
   */
  ledger?: TempLedger;
}

export async function createRowWriter(o: WriterOptions): Promise<RowWriter> {
  if (o.ledger !== undefined) await sweepTemps(o.ledger);
  switch (o.format) {
    case 'xlsx': {
      const xlsx = await XlsxWriter.create({
        target: o.target,
        root: o.root,
        taskName: o.taskName,
        rowsPerSheet: o.rowsPerSheet,
        ledger: o.ledger,
      });
      return {
        write: (rows) => xlsx.write(rows),
        commit: async () => (await xlsx.commit(), { columns: xlsx.columns, cutCells: xlsx.cutCells }),
        discard: () => xlsx.discard(),
      };
    }
    case 'sqlite': {
      if (o.wasmDir === undefined) throw new Error('SQLite export needs the folder of its WebAssembly files');
      const sqlite = await SqliteExportWriter.create({
        target: o.target,
        root: o.root,
        taskId: o.taskId,
        taskName: o.taskName,
        wasmDir: o.wasmDir,
        ledger: o.ledger,
      });
      return {
        write: (rows) => sqlite.write(rows),
        commit: async () => (await sqlite.commit(), { table: sqlite.tableName }),
        discard: () => sqlite.discard(),
      };
    }
    default:
      return TextWriter.create(o, o.format);
  }
}

class TextWriter implements RowWriter {
  private started = false;

  private constructor(
    private readonly file: AtomicFile,
    private readonly encoder: RowEncoder,
    private readonly options: WriterOptions,
  ) {}

  static async create(o: WriterOptions, format: TextFormat): Promise<TextWriter> {
    return new TextWriter(await AtomicFile.create(o.target, o.root, o.ledger), encoderFor(format), o);
  }

  async write(rows: DataRow[]): Promise<void> {
    const start = this.started ? '' : this.encoder.start(rows);
    this.started = true;
    const text = start + this.encoder.rows(rows);
    letGo(rows); // the text holds them now
    await this.file.write(text);
  }

  async commit(): Promise<WriterSummary> {
    await this.file.write(this.encoder.end());
    const csv = this.encoder instanceof CsvEncoder ? this.encoder : undefined;
    if (csv?.widened) {
      await this.file.finish();
      this.options.onWidening?.();
      await widenCsv(this.file, csv, this.options);
    } else {
      await this.file.commit();
    }
    return { columns: csv?.columns, widened: csv?.widened ?? false };
  }

  async discard(): Promise<void> {
    await this.file.discard();
  }
}

/** Rewrites a finished CSV with the final header, padding the rows written before a column was added. */
async function widenCsv(narrow: AtomicFile, csv: CsvEncoder, o: WriterOptions): Promise<void> {
  const wide = await AtomicFile.create(narrow.target, o.root, o.ledger);
  try {
    await wide.write(UTF8_BOM + csv.headerLine());
    const padder = new CsvRecordPadder(csv.columns.length, true);
    // Our own temporary file (created with O_EXCL), read back.
    for await (const chunk of createReadStream(narrow.tempPath, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      await wide.write(padder.push(chunk as string));
    }
    await wide.write(padder.end());
    await wide.commit();
  } finally {
    await wide.discard();
    await narrow.discard();
  }
}
