/**
 * Streams a task's rows: `/data/all` (or one run's `/data/lotno/all`) paged by the offset each
 * reply returns, until `restTotal` is 0. An async iterator of pages: only the page being consumed
 * and the `READ_AHEAD` being fetched are held, so memory stays flat however many rows there are.
 *
 * The next page is asked while the caller writes this one; and while the service's offsets move by
 * whole pages (the reply's `offset` is the asked one plus the page size), the page after it too,
 * within what `restTotal` says remains. A page's reply decides: the guess is used only when the
 * page before it ends where the guess starts; otherwise it is dropped and no more guesses are made
 * (one wasted request at most). One page at a time was bound by the round trip (sandbox, JSON,
 * schema), about 55 ms for 1,000 rows here, above the rate limit's 50 ms a request.
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

/** Pages on their way at once: the next one and, while offsets move by whole pages, the one after (docs/contracts/api-operations.md). */
const READ_AHEAD = 2;

interface Ahead {
  offset: number;
  page: Promise<DataBatch>;
  drop(): void;
}

function dropAll(ahead: Ahead[]): void {
  for (const a of ahead.splice(0)) {
    a.drop();
    a.page.catch(() => undefined);
  }
}

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
    const ahead: Ahead[] = [];
    let guessing = true;
    try {
      if (this.done) return;
      ahead.push(this.ask(this.nextOffset, own.signal));
      for (;;) {
        const page = await (ahead[0] as Ahead).page;
        ahead.shift();
        // Cancelled while the caller held the last page: no further page, even one already here.
        if (own.signal.aborted) throw cancelledError();
        this.nextOffset = page.nextOffset;
        this.done = page.restTotal === 0;
        this.rows += page.rows.length;
        this.pages++;
        this.report(page);
        if (!this.done) {
          if (ahead.length > 0 && (ahead[0] as Ahead).offset !== page.nextOffset) {
            // The offsets do not move by whole pages here: the guesses are dropped, and no more made.
            guessing = false;
            dropAll(ahead);
          }
          if (ahead.length === 0) ahead.push(this.ask(page.nextOffset, own.signal));
          const end = page.nextOffset + page.restTotal;
          while (guessing && ahead.length < READ_AHEAD) {
            const from = (ahead[ahead.length - 1] as Ahead).offset + this.pageSize;
            if (from >= end) break;
            ahead.push(this.ask(from, own.signal));
          }
        }
        yield page;
        if (this.done) return;
      }
    } finally {
      outer?.removeEventListener('abort', abort);
      // The caller stopped early (break, throw, cancel): the pages in flight are not wanted.
      dropAll(ahead);
    }
  }

  /** A page asked on its way; it can be dropped alone (a wrong guess) or with the reader. */
  private ask(offset: number, readerSignal: AbortSignal): Ahead {
    const own = new AbortController();
    const stop = (): void => own.abort();
    readerSignal.addEventListener('abort', stop, { once: true });
    const page = this.pageWithResume(offset, own.signal).finally(() => readerSignal.removeEventListener('abort', stop));
    // Awaited later (or dropped): a failure meanwhile is not an unhandled rejection.
    page.catch(() => undefined);
    return { offset, page, drop: stop };
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
