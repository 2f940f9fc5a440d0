/**
 * Pull New Rows into a CSV or JSON Lines file, exactly once: the file (`appendFile.ts`) and the
 * record of the batch in flight, kept in the extension's storage and bound to the file
 * (`pullJournal.ts`). No `vscode`.
 *
 * write:   record { offset: file length, rows, hash, the file's binding } (flushed, renamed) →
 *          append the batch (flushed)
 * marked:  remove the record
 * resume:  the batch handed out again → the bytes after `offset` are matched against the batch's
 *          text; whole rows found are not written again, a partial row is cut back, the rest is
 *          appended
 * release: the batch was marked → the bytes after `offset` are the file's, a partial last record
 *          cut back
 *
 * One record per file: a file another task left a record in is refused until that task is pulled
 * again (`OtherTaskPendingError`), so two tasks' batches never interleave in it.
 */
import type { DataRow } from '../../api/schemas/dataSchemas';
import { letGo } from '../common/handOver';
import { AppendFile, type AppendFormat } from './appendFile';
import {
  batchHash,
  bindingOf,
  type FileJournal,
  type PendingBatch,
  readFileJournal,
  realFilePath,
  removeFileJournal,
  writeFileJournal,
} from './pullJournal';
import { cleanLeftovers, type TempLedger } from './pullLeftovers';
import type { PullSink } from './pullRows';

export class OtherTaskPendingError extends Error {
  override readonly name = 'OtherTaskPendingError';
  constructor(readonly taskName: string) {
    super(`an interrupted pull of another task (“${taskName}”) is still to be completed in this file`);
  }
}

export interface FileSinkOptions {
  taskId: string;
  taskName: string;
  /** The workspace folder the file must stay in. */
  root?: string;
  /** The folder (in the extension's storage, never the workspace) that keeps the pull's records. */
  records: string;
  /**
   * The workspace is trusted: leftovers of Scrapedeck's own beside the file (a record of an older
   * version, its temporary files) are removed. In Restricted Mode nothing beside the file is touched.
   */
  trusted?: boolean;
  /** The pull made the file (it did not exist): Restricted Mode may write to it again (`ownFiles.ts`). */
  onCreate?: (file: string) => Promise<void>;
  /** Test seams (kill points): after the record is written, and halfway through a batch's bytes. */
  afterRecord?: () => void | Promise<void>;
  midWrite?: () => void | Promise<void>;
}

export class FilePullSink implements PullSink {
  private constructor(
    private readonly file: AppendFile,
    private journal: FileJournal | undefined,
    private readonly options: FileSinkOptions,
  ) {}

  static async open(path: string, format: AppendFormat, options: FileSinkOptions): Promise<FilePullSink> {
    const ledger: TempLedger = { records: options.records };
    await cleanLeftovers(path, ledger, options.trusted === true);
    const journal = await readFileJournal(options.records, path);
    if (journal !== undefined && journal.taskId !== options.taskId) throw new OtherTaskPendingError(journal.taskName);
    const file = await AppendFile.open(path, format, {
      root: options.root,
      pendingOffset: journal?.offset,
      midWrite: options.midWrite,
      ledger,
    });
    return new FilePullSink(file, journal, options);
  }

  get path(): string {
    return this.file.path;
  }

  get pending(): PendingBatch | undefined {
    return this.journal && { rows: this.journal.rows, hash: this.journal.hash };
  }

  async write(rows: DataRow[]): Promise<void> {
    const pieces = await this.file.pieces(rows);
    const count = rows.length;
    const hash = batchHash(rows);
    letGo(rows); // the pieces hold the text now
    // The file exists before it is recorded, so the record can name it by device and inode.
    if (await this.file.create()) await this.options.onCreate?.(this.file.path);
    const offset = this.file.size;
    this.journal = {
      version: 2,
      file: await realFilePath(this.file.path),
      taskId: this.options.taskId,
      taskName: this.options.taskName,
      offset,
      rows: count,
      hash,
      ...(await bindingOf(this.file.path, offset)),
    };
    await writeFileJournal(this.options.records, this.journal);
    await this.options.afterRecord?.();
    await this.file.write(pieces);
  }

  async resume(rows: DataRow[]): Promise<number> {
    const pieces = await this.file.pieces(rows);
    const count = rows.length;
    letGo(rows);
    const found = await this.file.matchTail(pieces);
    await this.file.write(pieces, found.bytes);
    // pieces[0] is what goes before the rows (a line break, a header): not a row.
    return count - Math.max(0, found.pieces - 1);
  }

  async marked(): Promise<void> {
    this.journal = undefined;
    await removeFileJournal(this.options.records, this.file.path);
  }

  close(): void {
    // Nothing held open between batches.
  }

  async release(): Promise<number> {
    const cut = await this.file.acceptTail();
    this.journal = undefined;
    await removeFileJournal(this.options.records, this.file.path);
    return cut;
  }
}
