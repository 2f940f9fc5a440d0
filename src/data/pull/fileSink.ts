/**
 * Pull New Rows into a CSV or JSON Lines file, exactly once: the file (`appendFile.ts`) and the
 * record of the batch in flight beside it (`pullJournal.ts`). No `vscode`.
 *
 * write:   record { offset: file length, rows, hash } (flushed, renamed) → append the batch (flushed)
 * marked:  remove the record
 * resume:  the batch handed out again → the bytes after `offset` are matched against the batch's
 *          text; whole rows found are not written again, a partial row is cut back, the rest is
 *          appended
 * release: the batch was marked → the bytes after `offset` are the file's, a partial row cut back
 *
 * One record per file: a file another task left a record in is refused until that task is pulled
 * again (`OtherTaskPendingError`), so two tasks' batches never interleave in it.
 */
import type { DataRow } from '../../api/dataSchemas';
import { AppendFile, type AppendFormat } from './appendFile';
import { batchHash, readFileJournal, removeFileJournal, writeFileJournal, type FileJournal, type PendingBatch } from './pullJournal';
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
    const journal = await readFileJournal(path);
    if (journal !== undefined && journal.taskId !== options.taskId) throw new OtherTaskPendingError(journal.taskName);
    const file = await AppendFile.open(path, format, { root: options.root, pendingOffset: journal?.offset, midWrite: options.midWrite });
    return new FilePullSink(file, journal, options);
  }

  get path(): string {
    return this.file.path;
  }

  get pending(): PendingBatch | undefined {
    return this.journal && { rows: this.journal.rows, hash: this.journal.hash };
  }

  async write(rows: readonly DataRow[]): Promise<void> {
    const pieces = await this.file.pieces(rows);
    this.journal = { version: 1, taskId: this.options.taskId, taskName: this.options.taskName, offset: this.file.size, rows: rows.length, hash: batchHash(rows) };
    await writeFileJournal(this.file.path, this.journal, this.options.root);
    await this.options.afterRecord?.();
    await this.file.write(pieces);
  }

  async resume(rows: readonly DataRow[]): Promise<number> {
    const pieces = await this.file.pieces(rows);
    const found = await this.file.matchTail(pieces);
    await this.file.write(pieces, found.bytes);
    // pieces[0] is what goes before the rows (a line break, a header): not a row.
    return rows.length - Math.max(0, found.pieces - 1);
  }

  async marked(): Promise<void> {
    this.journal = undefined;
    await removeFileJournal(this.file.path);
  }

  close(): void {
    // Nothing held open between batches.
  }

  async release(): Promise<number> {
    const cut = await this.file.acceptTail();
    this.journal = undefined;
    await removeFileJournal(this.file.path);
    return cut;
  }
}
