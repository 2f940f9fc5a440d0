/**
 * Streams a task's rows: `/data/all` (or one run's `/data/lotno/all`) paged by the offset each
 * reply returns, until `restTotal` is 0. An async iterator of pages: only the page being consumed
 * and the one being fetched are held, so memory stays flat however many rows there are.
 *
 * A page that fails after the transport's own retries (a 429 storm, 5xx, a dropped connection, a
 * time-out) is asked again from the same offset after a pause, up to `maxResumes` times in a
 * row; rows already yielded are never fetched again. `nextOffset` is where a later reader
 * (`startOffset`) picks up after a failure the reader gave up on.
 */
import { ApiError, isApiError } from '../errors/errors';
import type { ApiResult } from '../http/mainCaller';
import { sleep } from '../http/retry';
import type { DataPage, DataRow } from '../schemas/dataSchemas';
import { OPS_LIMITS } from '../schemas/opsSchemas';

export interface DataBatch {
  rows: DataRow[];
  /** The offset this page was asked from. */
  offset: number;
  /** Where the next page starts (the service's `offset`). */
  nextOffset: number;
  total: number;
  restTotal: number;
  requestId: string | undefined;
}

export interface DataReadProgress {
  /** Rows yielded so far by this reader. */
  rows: number;
  /** The task's row count as the latest reply said. */
  total: number;
  restTotal: number;
  nextOffset: number;
  pages: number;
  /** Pages asked again after a failure. */
  resumes: number;
}

export interface DataReaderOptions {
  signal?: AbortSignal;
  /** Rows per request, 1 to 1000 (default 1000: the fewest requests). */
  pageSize?: number;
  /** Resume from an offset a previous reader reached (default 0, the first row). */
  startOffset?: number;
  onProgress?: (p: DataReadProgress) => void;
  /** Consecutive failed pages asked again before giving up (default 5). */
  maxResumes?: number;
  /** The first pause before asking a failed page again, doubled each time, capped at 30 s (default 1000). */
  resumeDelayMs?: number;
}

export type FetchDataPage = (offset: number, size: number, signal: AbortSignal) => Promise<ApiResult<DataPage>>;

const RESUMABLE = new Set(['rate-limited', 'server', 'network', 'timeout']);
const MAX_RESUME_DELAY_MS = 30_000;

export class DataReader implements AsyncIterable<DataBatch> {
  /** Where the next page starts: after a failure, a new reader with `startOffset` continues from here. */
  nextOffset: number;
  /** True once a page said `restTotal` 0. */
  done = false;
  private rows = 0;
  private pages = 0;
  private resumes = 0;
  private readonly pageSize: number;

  constructor(
    private readonly fetchPage: FetchDataPage,
    private readonly options: DataReaderOptions = {},
  ) {
    this.pageSize = options.pageSize ?? OPS_LIMITS.dataPageMax;
    this.nextOffset = options.startOffset ?? 0;
    if (!Number.isInteger(this.pageSize) || this.pageSize < 1 || this.pageSize > OPS_LIMITS.dataPageMax) {
      throw new ApiError({
        kind: 'invalid-request',
        field: 'size',
        message: `Invalid request to read data: size is 1 to ${OPS_LIMITS.dataPageMax}`,
      });
    }
    if (!Number.isInteger(this.nextOffset) || this.nextOffset < 0) {
      throw new ApiError({
        kind: 'invalid-request',
        field: 'offset',
        message: 'Invalid request to read data: offset starts at 0',
      });
    }
  }

  /** Iterating again after a failure continues from `nextOffset`. */
  [Symbol.asyncIterator](): AsyncIterator<DataBatch> {
    return this.read();
  }

  private async *read(): AsyncGenerator<DataBatch, void, undefined> {
    const outer = this.options.signal;
    const own = new AbortController();
    const abort = (): void => own.abort();
    outer?.addEventListener('abort', abort, { once: true });
    // One page ahead: the next request is on its way while the caller writes this page.
    let ahead: Promise<DataBatch> | undefined;
    try {
      if (this.done) return;
      let next: Promise<DataBatch> = this.pageWithResume(this.nextOffset, own.signal);
      for (;;) {
        ahead = next;
        const page = await next;
        ahead = undefined;
        // Cancelled while the caller held the last page: no further page, even one already here.
        if (own.signal.aborted) throw cancelledError();
        this.nextOffset = page.nextOffset;
        this.done = page.restTotal === 0;
        this.rows += page.rows.length;
        this.pages++;
        this.report(page);
        if (!this.done) ahead = next = this.pageWithResume(page.nextOffset, own.signal);
        yield page;
        if (this.done) return;
      }
    } finally {
      outer?.removeEventListener('abort', abort);
      if (ahead !== undefined) {
        // The caller stopped early (break, throw, cancel): the page in flight is not wanted.
        own.abort();
        ahead.catch(() => undefined);
      }
    }
  }

  private async pageWithResume(offset: number, signal: AbortSignal): Promise<DataBatch> {
    const cancelled = cancelledError;
    for (let failures = 0; ; failures++) {
      if (signal.aborted) throw cancelled();
      try {
        const r = await this.fetchPage(offset, this.pageSize, signal);
        return checkProgress(offset, r);
      } catch (e) {
        if (signal.aborted) throw cancelled();
        const maxResumes = this.options.maxResumes ?? 5;
        if (!isApiError(e) || !RESUMABLE.has(e.kind) || failures >= maxResumes) throw e;
        this.resumes++;
        const base = this.options.resumeDelayMs ?? 1000;
        await sleep(Math.min(MAX_RESUME_DELAY_MS, base * 2 ** failures), signal, cancelled);
      }
    }
  }

  private report(page: DataBatch): void {
    try {
      this.options.onProgress?.({
        rows: this.rows,
        total: page.total,
        restTotal: page.restTotal,
        nextOffset: page.nextOffset,
        pages: this.pages,
        resumes: this.resumes,
      });
    } catch {
      // A failing progress callback must not stop the export.
    }
  }
}

function cancelledError(): ApiError {
  return new ApiError({ kind: 'cancelled', message: 'Reading the data was cancelled' });
}

/** A reply that would make the reader ask the same offset forever is refused. */
function checkProgress(offset: number, r: ApiResult<DataPage>): DataBatch {
  const { data } = r;
  if (data.restTotal > 0 && data.offset <= offset) {
    throw new ApiError({
      kind: 'bad-response',
      requestId: r.requestId,
      field: 'data.offset',
      message: `The data reply does not move on: offset ${data.offset} after asking from ${offset}, ${data.restTotal} rows said to remain`,
    });
  }
  return {
    rows: data.data,
    offset,
    nextOffset: data.offset,
    total: data.total,
    restTotal: data.restTotal,
    requestId: r.requestId,
  };
}
