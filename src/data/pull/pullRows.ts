/**
 * Pull New Rows, the protocol: ask the service for rows not yet exported, write them and flush,
 * and only then mark them exported; repeat until none are left. Exactly once, whatever stops it.
 * No `vscode`.
 *
 * The service hands the same rows out again until they are marked. So each batch is recorded
 * (its size and a hash of its rows, `pullJournal.ts`) before its first byte is written, and the
 * record is dropped once the batch is marked. A pull that finds a record left by an interrupted
 * one (the host or machine stopped while writing, between the write and the mark, or during the
 * mark; a request failed) asks for exactly that many rows:
 * - the same rows (same count, same hash) are that batch handed out again: the sink writes only
 *   what of it is not in place yet (`resume`), and it is marked;
 * - other rows (or none) mean the batch was marked: its record is dropped (`release`) and the
 *   rows are a new batch.
 * Rows are recognised only by matching what was written, never guessed.
 */
import { ApiError, errorMessage } from '../../api/errors/errors';
import type { ApiResult, CallOptions } from '../../api/http/mainCaller';
import type { DataRow, NotExportedPage } from '../../api/schemas/dataSchemas';
import { batchHash, type PendingBatch } from './pullJournal';

export interface PullSource {
  getNotExportedData(taskId: string, size: number, o?: CallOptions): Promise<ApiResult<NotExportedPage>>;
  markExported(taskId: string, o?: CallOptions): Promise<ApiResult<null>>;
}

/** Where rows go, with the record of the batch in flight. */
export interface PullSink {
  /** The batch an earlier pull recorded and did not see marked, if any. */
  readonly pending: PendingBatch | undefined;
  /**
   * A batch handed out for the first time: recorded, then written; resolves once both are flushed.
   * `rows` is handed over: the sink may empty it once it has what it writes (`letGo`).
   */
  write(rows: DataRow[]): Promise<void>;
  /** The pending batch handed out again: only what of it is not in place yet is written; resolves to the rows written. `rows` is handed over, as for `write`. */
  resume(rows: DataRow[]): Promise<number>;
  /** The batch just written or resumed is marked exported: its record is dropped. */
  marked(): Promise<void>;
  /** The pending batch was not handed out again (it was marked): its record is dropped, a partial row cut back; resolves to the bytes cut. */
  release(): Promise<number>;
  /** Lets go of the destination (an open database: its log folded in; a server connection, which the caller awaits); never fails. */
  close(): void | Promise<void>;
}

export interface PullProgress {
  /** Rows of this pull safely in the destination (written and flushed; their mark may follow). */
  rows: number;
  /** Rows not yet exported when the pull began (more may arrive while a run goes on). */
  total: number;
}

export interface PullOptions {
  taskId: string;
  sink: PullSink;
  /** Stops between batches, or while rows are being asked for; never between a write and its mark. */
  signal?: AbortSignal;
  /** Rows per request, 1 to 1000. */
  batchSize?: number;
  onProgress?: (p: PullProgress) => void;
  /** Runs after a batch is on disk and before it is marked: the gap a crash would fall into (tests inject failures here). */
  afterWrite?: (batch: number) => void | Promise<void>;
  /** Runs after a batch's mark was answered and before its record is dropped (a kill point for tests). */
  afterMark?: (batch: number) => void | Promise<void>;
}

export interface PullResult {
  /** Rows written. */
  rows: number;
  /** Rows of an interrupted batch found already written and marked without writing them again. */
  recovered: number;
  /** An interrupted pull's batch was handed out again and completed (`recovered` may be 0: none of it was written yet). */
  completed: boolean;
  /** Bytes of a partial row cut back from a batch that had been marked meanwhile (0 normally). */
  cutBytes: number;
  batches: number;
  /** The request ids of the marks, in order (for the log). */
  requestIds: string[];
  /** True when rows were still arriving after as many batches as the task had rows at the start: the next pull gets the rest. */
  more: boolean;
}

/** Where a pull stopped, with what was done by then; `error` is the cause (an ApiError for the service's). */
export class PullFailure extends Error {
  override readonly name = 'PullFailure';
  constructor(
    /** fetch: asking for rows; write: appending them; mark: marking them exported (they are in the file). */
    readonly stage: 'fetch' | 'write' | 'mark',
    /** Rows written and marked before this failure. */
    readonly rowsDone: number,
    /** Rows of the failed batch (0 for a fetch). */
    readonly batchRows: number,
    readonly error: unknown,
  ) {
    super(errorMessage(error));
  }
}

export async function pullNewRows(source: PullSource, o: PullOptions): Promise<PullResult> {
  // The last batch's record is dropped while the next batch is asked for (the request is the
  // longer wait); it is awaited before anything is written, released or returned.
  const dropping: { last: Promise<void> } = { last: Promise.resolve() };
  try {
    return await pullBatches(source, o, dropping);
  } finally {
    await dropping.last;
  }
}

async function pullBatches(source: PullSource, o: PullOptions, dropping: { last: Promise<void> }): Promise<PullResult> {
  const size = o.batchSize ?? 1000;
  const { sink } = o;
  const result: PullResult = {
    rows: 0,
    recovered: 0,
    completed: false,
    cutBytes: 0,
    batches: 0,
    requestIds: [],
    more: false,
  };
  let pending = sink.pending;
  let cap: number | undefined;
  let total = 0;
  for (;;) {
    if (o.signal?.aborted)
      throw new PullFailure(
        'fetch',
        result.rows,
        0,
        // l10n-exempt: a cancelled request is never shown (reportError says nothing for it)
        new ApiError({ kind: 'cancelled', message: 'Pulling new rows was cancelled' }),
      );
    let page: NotExportedPage;
    try {
      // An interrupted batch is asked for by its own size: handed out again, it comes whole and alone.
      page = (await source.getNotExportedData(o.taskId, pending?.rows ?? size, { signal: o.signal })).data;
    } catch (error) {
      throw new PullFailure('fetch', result.rows, 0, error);
    }
    // The reply's own array, handed to the sink below, which may empty it: only its count is read after.
    const rows = page.data;
    const count = rows.length;
    // A record dropped after the write below would be this batch's: the drop ends first.
    await dropping.last;
    // Rows keep arriving while a task runs: stop after as many batches as there were rows at the start.
    if (cap === undefined) {
      total = page.total;
      cap = 1 + Math.ceil(Math.max(0, page.total - count) / size);
      o.onProgress?.({ rows: 0, total });
    }
    let resumed = false;
    if (pending !== undefined) {
      resumed = count === pending.rows && batchHash(rows) === pending.hash;
      pending = undefined;
      if (!resumed) {
        try {
          result.cutBytes += await sink.release();
        } catch (error) {
          throw new PullFailure('write', result.rows, count, error);
        }
      }
    }
    if (count === 0) return result;
    let written = count;
    try {
      if (resumed) written = await sink.resume(rows);
      else await sink.write(rows);
    } catch (error) {
      throw new PullFailure('write', result.rows, count, error);
    }
    // Counted as soon as the batch is on disk (flushed), not after its mark (issue 48 item 2).
    o.onProgress?.({
      rows: result.rows + result.recovered + count,
      total: Math.max(total, result.rows + result.recovered + count),
    });
    try {
      await o.afterWrite?.(result.batches + 1);
      // No signal: once the rows are on disk, marking them is the quickest way to a clean state.
      const marked = await source.markExported(o.taskId);
      if (marked.requestId !== undefined) result.requestIds.push(marked.requestId);
    } catch (error) {
      throw new PullFailure('mark', result.rows, count, error);
    }
    await o.afterMark?.(result.batches + 1);
    // Best effort: a record left behind is a batch the next pull finds marked (other rows come),
    // so the next batch may be asked for while it is dropped: a stop meanwhile leaves that case.
    dropping.last = sink.marked().catch(() => undefined);
    result.rows += written;
    if (resumed) {
      result.completed = true;
      result.recovered += count - written;
    }
    result.batches++;
    if (page.total <= page.current) return result;
    if (result.batches >= cap) return { ...result, more: true };
  }
}
