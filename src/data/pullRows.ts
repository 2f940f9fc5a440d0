/**
 * Pull New Rows, the protocol: ask the service for rows not yet exported, append them to the
 * file and flush it, and only then mark them exported; repeat until none are left. No `vscode`.
 *
 * Why this order: the service hands rows out ("being exported") and keeps handing out the same
 * ones until they are marked. So if anything stops us between the write and the mark (a crash,
 * a closed window, a failed request), the next pull gets those rows again: they may appear twice
 * in the file, but none is ever lost. Marking first could lose rows; this cannot.
 */
import type { DataRow, NotExportedPage } from '../api/dataSchemas';
import { ApiError } from '../api/errors';
import type { ApiResult, CallOptions } from '../api/mainCaller';

export interface PullSource {
  getNotExportedData(taskId: string, size: number, o?: CallOptions): Promise<ApiResult<NotExportedPage>>;
  markExported(taskId: string, o?: CallOptions): Promise<ApiResult<null>>;
}

/** Where rows go: `append` resolves once they are written and flushed to disk. */
export interface PullSink {
  append(rows: readonly DataRow[]): Promise<void>;
}

export interface PullProgress {
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
}

export interface PullResult {
  rows: number;
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
    super(error instanceof Error ? error.message : String(error));
  }
}

export async function pullNewRows(source: PullSource, o: PullOptions): Promise<PullResult> {
  const size = o.batchSize ?? 1000;
  const result: PullResult = { rows: 0, batches: 0, requestIds: [], more: false };
  let cap: number | undefined;
  let total = 0;
  for (;;) {
    if (o.signal?.aborted) throw new PullFailure('fetch', result.rows, 0, new ApiError({ kind: 'cancelled', message: 'Pulling new rows was cancelled' }));
    let page: NotExportedPage;
    try {
      page = (await source.getNotExportedData(o.taskId, size, { signal: o.signal })).data;
    } catch (error) {
      throw new PullFailure('fetch', result.rows, 0, error);
    }
    // Rows keep arriving while a task runs: stop after as many batches as there were rows at the start.
    if (cap === undefined) {
      total = page.total;
      cap = Math.max(1, Math.ceil(page.total / size));
      o.onProgress?.({ rows: 0, total });
    }
    const rows = page.data;
    if (rows.length === 0) return result;
    try {
      await o.sink.append(rows);
    } catch (error) {
      throw new PullFailure('write', result.rows, rows.length, error);
    }
    try {
      await o.afterWrite?.(result.batches + 1);
      // No signal: once the rows are on disk, marking them is the quickest way to a clean state.
      const marked = await source.markExported(o.taskId);
      if (marked.requestId !== undefined) result.requestIds.push(marked.requestId);
    } catch (error) {
      throw new PullFailure('mark', result.rows, rows.length, error);
    }
    result.rows += rows.length;
    result.batches++;
    o.onProgress?.({ rows: result.rows, total: Math.max(total, result.rows) });
    if (page.total <= page.current) return result;
    if (result.batches >= cap) return { ...result, more: true };
  }
}
