/**
 * Exporting every row of a task (or of one run, `source`) to a file: the streaming reader's
 * pages go through the format's writer (`exportWriters.ts`: CSV, JSON Lines, JSON, .xlsx,
 * SQLite) into a temporary file next to the target, renamed onto it when complete. No `vscode`
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
import { isApiError } from '../../api/errors/errors';
import type { ReadDataOptions } from '../../api/ops/data';
import type { DataReader, DataReadProgress } from '../../api/ops/dataReader';
import type { TempLedger } from '../../platform/files/tempLedger';
import type { DataFormat } from '../formats/rowFormats';
import { createRowWriter, type RowWriter, type WriterSummary } from './exportWriters';

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
  /** The task's name: the .xlsx sheet's and the SQLite table's name. */
  taskName?: string;
  /** Default: all rows. */
  source?: RowSource;
  /** An absolute path on this machine. */
  target: string;
  format: DataFormat;
  /** The folder the target must stay in (the workspace folder it lies in), if any. */
  root?: string;
  /** SQLite: where node-sqlite3-wasm's files are. */
  wasmDir?: string;
  /** .xlsx: data rows per sheet (tests). */
  rowsPerSheet?: number;
  /** Where the temporary files are noted (`platform/files/tempLedger.ts`). */
  ledger?: TempLedger;
  /** Reader settings (page size, resume pauses); the defaults suit the service. */
  read?: Pick<ReadDataOptions, 'pageSize' | 'maxResumes' | 'resumeDelayMs'>;
}

export interface RunOptions {
  /** Cancels the run; the temporary file is then removed. */
  signal?: AbortSignal;
  onProgress?: (p: ExportProgress) => void;
}

export interface ExportResult extends WriterSummary {
  /** 0: the task has no rows and nothing was written. */
  rows: number;
  target: string;
}

/** The reader's kinds that a later `run()` may get past (the service or the network, not the request). */
const RESUMABLE = new Set(['rate-limited', 'server', 'network', 'timeout']);

export class TaskExport {
  private nextOffset = 0;
  private file: RowWriter | undefined;
  private rows = 0;
  private total = 0;
  private resumes = 0;
  private state: 'ready' | 'running' | 'failed' | 'done' | 'discarded' = 'ready';
  private lastError: unknown;

  constructor(
    private readonly source: ExportSource,
    private readonly options: ExportOptions,
  ) {}

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
    if (this.state === 'running' || this.state === 'done' || this.state === 'discarded')
      throw new Error(`This export is ${this.state}.`);
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
    const reader = this.source.readData(taskId, {
      ...read,
      ...lot,
      signal,
      startOffset: this.nextOffset,
      onProgress: progress,
    });
    for await (const page of reader) {
      if (page.rows.length > 0) {
        const { target, format, root, taskId, wasmDir, rowsPerSheet, ledger } = this.options;
        this.file ??= await createRowWriter({
          target,
          format,
          root,
          taskId,
          wasmDir,
          rowsPerSheet,
          ledger,
          taskName: this.options.taskName ?? taskId,
          onWidening: () =>
            onProgress?.({ phase: 'widening', rows: this.rows, total: this.total, resumes: this.resumes }),
        });
        const count = page.rows.length;
        await this.file.write(page.rows); // handed over: emptied by the writer
        this.rows += count;
      }
      this.nextOffset = page.nextOffset;
    }
    const file = this.file;
    if (file === undefined) return { rows: 0, target: this.options.target };
    this.file = undefined;
    try {
      return { ...(await file.commit()), rows: this.rows, target: this.options.target };
    } finally {
      await file.discard();
    }
  }
}
