/**
 * Exporting every row of a task to a file: the streaming reader's pages go through the format's
 * encoder into a temporary file next to the target, renamed onto it when complete. No `vscode`
 * (the bench runs exactly this code in Node).
 *
 * - Memory: the page being written and the one the reader fetches ahead; nothing grows with rows.
 * - A 429 storm or a fault mid-export: the reader asks the failed page again from the same offset
 *   (its `maxResumes`). If it gives up, `run()` rejects and the job keeps its temporary file and
 *   offset: `run()` again continues from the last offset instead of starting over; `discard()`
 *   removes the temporary file. A failed write is not resumable (the file's state is unknown).
 * - CSV with a field first seen after the header was written: one more pass pads the earlier rows
 *   (`rowFormats.ts`), into a second temporary file that replaces the target.
 */
import { createReadStream } from 'node:fs';
import type { DataReader, DataReadProgress } from '../api/dataReader';
import { isApiError } from '../api/errors';
import type { ReadDataOptions } from '../api/ops/data';
import { UTF8_BOM } from '../platform/csvCell';
import { AtomicFile } from './atomicFile';
import { CsvRecordPadder } from './csvRecords';
import { CsvEncoder, encoderFor, type DataFormat, type RowEncoder } from './rowFormats';

export interface ExportSource {
  readData(taskId: string, o?: ReadDataOptions): DataReader;
}

export interface ExportProgress {
  phase: 'rows' | 'widening';
  rows: number;
  /** Rows the task has, as the latest page said (0 until the first page). */
  total: number;
  /** Pages asked again after a failure (a 429 storm, a 5xx). */
  resumes: number;
}

/** Which rows: all of the task's (`/data/all`), or one run's by its lot (`/data/lotno/all`). */
export type RowSource = { kind: 'all' } | { kind: 'lot'; lotNo: string };

export interface ExportOptions {
  taskId: string;
  /** Default: all rows. */
  source?: RowSource;
  /** An absolute path on this machine. */
  target: string;
  format: DataFormat;
  /** Reader settings (page size, resume pauses); the defaults suit the service. */
  read?: Pick<ReadDataOptions, 'pageSize' | 'maxResumes' | 'resumeDelayMs'>;
}

export interface RunOptions {
  /** Cancels the run; the temporary file is then removed. */
  signal?: AbortSignal;
  onProgress?: (p: ExportProgress) => void;
}

export interface ExportResult {
  /** 0: the task has no rows and nothing was written. */
  rows: number;
  target: string;
  /** CSV: the header's columns. */
  columns: readonly string[] | undefined;
  /** CSV: a field appeared after the header was written, and the rows before it were padded. */
  widened: boolean;
}

/** The reader's kinds that a later `run()` may get past (the service or the network, not the request). */
const RESUMABLE = new Set(['rate-limited', 'server', 'network', 'timeout']);

export class TaskExport {
  private nextOffset = 0;
  private file: AtomicFile | undefined;
  private readonly encoder: RowEncoder;
  private rows = 0;
  private total = 0;
  private resumes = 0;
  private state: 'ready' | 'running' | 'failed' | 'done' | 'discarded' = 'ready';
  private lastError: unknown;

  constructor(
    private readonly source: ExportSource,
    private readonly options: ExportOptions,
  ) {
    this.encoder = encoderFor(options.format);
  }

  /** Rows written so far (the next `run()` continues after them). */
  get rowsWritten(): number {
    return this.rows;
  }

  get rowsTotal(): number {
    return this.total;
  }

  /** True when the last failure came from the service or the network and `run()` may continue. */
  get resumable(): boolean {
    return this.state === 'failed' && isApiError(this.lastError) && RESUMABLE.has(this.lastError.kind);
  }

  /**
   * Reads and writes until the last row, then renames the file onto the target. After a
   * resumable failure, calling it again continues from the last offset; after any other failure
   * (or a cancel) the temporary file is already gone.
   */
  async run(o: RunOptions = {}): Promise<ExportResult> {
    if (this.state === 'running' || this.state === 'done' || this.state === 'discarded') throw new Error(`This export is ${this.state}.`);
    if (this.state === 'failed' && !this.resumable) throw new Error('This export cannot be resumed.');
    this.state = 'running';
    try {
      const result = await this.pump(o);
      this.state = 'done';
      return result;
    } catch (error) {
      this.lastError = error;
      this.state = 'failed';
      if (!this.resumable) await this.discard();
      throw error;
    }
  }

  /** Removes the temporary file; the target is untouched. */
  async discard(): Promise<void> {
    if (this.state !== 'done') this.state = 'discarded';
    const file = this.file;
    this.file = undefined;
    await file?.discard();
  }

  private async pump({ signal, onProgress }: RunOptions): Promise<ExportResult> {
    const { taskId, read } = this.options;
    const before = { rows: this.rows, resumes: this.resumes };
    const progress = (p: DataReadProgress): void => {
      this.total = p.total;
      this.resumes = before.resumes + p.resumes;
      onProgress?.({ phase: 'rows', rows: before.rows + p.rows, total: p.total, resumes: this.resumes });
    };
    // Each run reads from the offset after the last page written: a resumed export never starts over.
    const lot = this.options.source?.kind === 'lot' ? { lotNo: this.options.source.lotNo } : {};
    const reader = this.source.readData(taskId, { ...read, ...lot, signal, startOffset: this.nextOffset, onProgress: progress });
    for await (const page of reader) {
      if (page.rows.length > 0) {
        if (this.file === undefined) {
          this.file = await AtomicFile.create(this.options.target);
          await this.file.write(this.encoder.start(page.rows));
        }
        await this.file.write(this.encoder.rows(page.rows));
        this.rows += page.rows.length;
      }
      this.nextOffset = page.nextOffset;
    }
    const file = this.file;
    if (file === undefined) return { rows: 0, target: this.options.target, columns: undefined, widened: false };
    await file.write(this.encoder.end());
    const csv = this.encoder instanceof CsvEncoder ? this.encoder : undefined;
    if (csv?.widened) {
      await file.finish();
      onProgress?.({ phase: 'widening', rows: this.rows, total: this.total, resumes: this.resumes });
      await widenCsv(file, csv);
      this.file = undefined;
    } else {
      await file.commit();
      this.file = undefined;
    }
    return { rows: this.rows, target: this.options.target, columns: csv?.columns, widened: csv?.widened ?? false };
  }
}

/** Rewrites a finished CSV with the final header, padding the rows written before a column was added. */
async function widenCsv(narrow: AtomicFile, csv: CsvEncoder): Promise<void> {
  const wide = await AtomicFile.create(narrow.target);
  try {
    await wide.write(UTF8_BOM + csv.headerLine());
    const padder = new CsvRecordPadder(csv.columns.length, true);
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
