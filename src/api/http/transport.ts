/**
 * One HTTP exchange with the service, including everything around it that every operation
 * shares: the rate limiter, the per-attempt time-out, retries (429 as the server says, else
 * back-off with jitter), cancellation, and the one redacted log line per request.
 * It returns any HTTP reply as-is; turning statuses into ApiErrors is `replies.ts`'s job.
 */
import type { Dispatcher } from 'undici';
import { isServerFaultBody } from '../errors/errorCodes';
import { ApiError, errorMessage } from '../errors/errors';
import type { Release, RequestLimiter } from './limiter';
import { redact, type SecretSet } from '../errors/redact';
import { fitText, readLimited, ReplyTooLargeError } from './replyBody';
import { backoffDelay, parseRetryAfter, retryDelayFromBody, sleep, type RetryMode } from './retry';
import { undici } from './undici';

export type IncomingHttpHeaders = Dispatcher.ResponseData['headers'];

export interface TransportOptions {
  dispatcher: Dispatcher;
  limiter: RequestLimiter;
  timeoutMs: number;
  maxRetries: number;
  secrets: SecretSet;
  /** Wall clock (epoch ms), for Retry-After dates. */
  now: () => number;
  log?: (line: string) => void;
  random?: () => number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

export interface OutgoingRequest {
  method: 'GET' | 'POST';
  url: string;
  /** What the log shows: the path and only query values that are not secret. */
  logPath: string;
  /**
   * Evaluated per attempt BEFORE the limiter grants a slot: whatever it waits for (a token
   * renewal, a secret store) must not hold a slot, or every call granted during the wait would
   * fire together when it ends.
   */
  headers: () => Record<string, string> | Promise<Record<string, string>>;
  /**
   * Called right after the slot is granted, synchronously: the headers to send now (newer ones if
   * the credentials were renewed while the call was queued), or undefined when they went stale
   * and nobody has renewed yet. The slot is then given up unused, the headers are built again
   * (waiting for the renewal without a slot), and the call takes the next slot ahead of the queue,
   * since it already waited its turn. No request leaves with credentials the server would refuse.
   */
  revalidate?: (built: Record<string, string>) => Record<string, string> | undefined;
  body?: string;
  retry: RetryMode;
  signal?: AbortSignal;
  /** Jump the limiter queue (a token renewal that other calls are waiting for). */
  priority?: boolean;
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined if empty or not JSON (see `bodyError`). */
  body: unknown;
  bodyError: string | undefined;
  requestId: string | undefined;
  retries: number;
}

export interface TransportStats {
  /** Logical requests (one per call to `send`). */
  requests: number;
  /** HTTP attempts, retries included. */
  attempts: number;
  retries: number;
  /** Replies of 429 seen on the wire, retried or not. */
  rateLimited: number;
}

/** A failed attempt, with whether the request surely never reached the server. */
class AttemptFailure extends Error {
  constructor(
    readonly error: ApiError,
    readonly notSent: boolean,
  ) {
    super(error.message);
  }
}

/** How many times one attempt may give its slot up because its headers went stale in the queue. */
const MAX_REBUILDS = 3;
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The reply's request id, fit to show, log and copy (a real one is a short id; longer is cut). */
export function requestIdOf(body: unknown, headers: IncomingHttpHeaders): string | undefined {
  if (typeof body === 'object' && body !== null && 'requestId' in body) {
    const id = (body as { requestId: unknown }).requestId;
    if (typeof id === 'string' && id.trim() !== '') return fitText(id, MAX_REQUEST_ID);
  }
  const header = headers['x-request-id'];
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && value.trim() !== '' ? fitText(value, MAX_REQUEST_ID) : undefined;
}

const MAX_REQUEST_ID = 128;

export class Transport {
  readonly stats: TransportStats = { requests: 0, attempts: 0, retries: 0, rateLimited: 0 };

  constructor(private readonly options: TransportOptions) {}

  async send(req: OutgoingRequest): Promise<Reply> {
    const { limiter, maxRetries } = this.options;
    const started = performance.now();
    this.stats.requests++;
    let retries = 0;
    const cancelled = (): ApiError => new ApiError({ kind: 'cancelled', message: `${req.method} ${req.logPath} was cancelled` });
    const retryAfter = async (waitMs: number): Promise<void> => {
      retries++;
      this.stats.retries++;
      await sleep(waitMs, req.signal, cancelled);
    };
    let rebuilt = 0;
    for (;;) {
      let reply: Reply;
      try {
        const built = await req.headers();
        const release = (await limiter.acquire(req.signal, req.priority === true || rebuilt > 0)) ?? undefined;
        const headers = req.revalidate?.(built) ?? (req.revalidate === undefined || rebuilt >= MAX_REBUILDS ? built : undefined);
        if (headers === undefined) {
          release?.(); // the slot is given up unsent
          rebuilt++;
          continue;
        }
        reply = await this.attempt(req, headers, retries, release);
      } catch (caught) {
        const failure = toFailure(caught);
        if (failure.error.kind !== 'cancelled' && retries < maxRetries && mayRetry(req.retry, failure)) {
          await retryAfter(this.backoff(retries)).catch((e: unknown) => this.fail(req, started, retries, toFailure(e).error));
          continue;
        }
        return this.fail(req, started, retries, failure.error);
      }
      if (reply.status === 429) {
        this.stats.rateLimited++;
        if (req.retry !== 'never' && retries < maxRetries) {
          const wait =
            retryDelayFromBody(reply.body) ?? parseRetryAfter(reply.headers['retry-after'], this.options.now()) ?? this.backoff(retries);
          limiter.pause(wait); // everyone slows down, not just this call
          await retryAfter(wait).catch((e: unknown) => this.fail(req, started, retries, toFailure(e).error));
          continue;
        }
      } else if ((reply.status >= 500 || unreadable(reply) || isServerFaultBody(reply.body)) && req.retry === 'safe' && retries < maxRetries) {
        // A 2xx that is not JSON is a proxy's or gateway's error page, as transient as a 5xx; so is
        // a `ServerError` envelope, which the service's published examples send under HTTP 400.
        // A 503 may say when to come back (Retry-After); the server's word wins over our back-off.
        const asked = retryDelayFromBody(reply.body) ?? parseRetryAfter(reply.headers['retry-after'], this.options.now());
        await retryAfter(asked ?? this.backoff(retries)).catch((e: unknown) =>
          this.fail(req, started, retries, toFailure(e).error),
        );
        continue;
      }
      this.logLine(req, started, String(reply.status), reply.requestId, retries);
      return reply;
    }
  }

  /** `release` is called once the server has surely read the request: its reply's headers are in, or it failed. */
  private async attempt(req: OutgoingRequest, headers: Record<string, string>, retries: number, release: Release | undefined): Promise<Reply> {
    this.stats.attempts++;
    const { timeoutMs } = this.options;
    try {
      // undici's own timers (no AbortController and timer of ours per request: they cost more
      // than the rest of the client). A time-out is no headers within timeoutMs, or a body that
      // stalls for timeoutMs; connecting is bounded by the dispatcher's connect timeout.
      const res = await undici().request(req.url, {
        method: req.method,
        headers,
        body: req.body,
        signal: req.signal,
        dispatcher: this.options.dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      release?.();
      let text: string;
      try {
        text = await readLimited(res.body, undefined, res.headers['content-length']);
      } catch (e) {
        if (!(e instanceof ReplyTooLargeError)) throw e;
        throw new ApiError({ kind: 'bad-response', status: res.statusCode, message: `The reply to ${req.method} ${req.logPath}: ${e.message}` });
      }
      let body: unknown;
      let bodyError: string | undefined;
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text) as unknown;
        } catch {
          // Never quote the text (JSON.parse's message does): it could hold a key or a token.
          bodyError = `the reply body is not JSON (${text.length.toLocaleString('en-US')} characters)`;
        }
      }
      // The id is the service's text: a key in it (a broken or hostile server) must not travel on.
      const id = requestIdOf(body, res.headers);
      return { status: res.statusCode, headers: res.headers, body, bodyError, requestId: id === undefined ? undefined : redact(id, this.options.secrets), retries };
    } catch (e) {
      release?.(); // no reply, or its body failed: whatever the server read, it read by now
      if (e instanceof ApiError) throw e; // already ours (a reply over the size limit)
      if (req.signal?.aborted) {
        // Cancelled after sending began: an operation that must not run twice may have run.
        throw new ApiError({ kind: 'cancelled', message: `${req.method} ${req.logPath} was cancelled`, maybeApplied: req.retry === 'unsent', cause: e });
      }
      const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
      const notSent = code !== undefined && NOT_SENT_CODES.has(code);
      // Only an operation that must not run twice cares whether the server may have acted.
      const maybeApplied = req.retry === 'unsent' && !notSent;
      if (code !== undefined && TIMEOUT_CODES.has(code)) {
        const error = new ApiError({ kind: 'timeout', retryable: !maybeApplied, maybeApplied, code, message: `${req.method} ${req.logPath} timed out after ${timeoutMs} ms` });
        throw new AttemptFailure(error, notSent);
      }
      const detail = errorMessage(e);
      const error = new ApiError({
        kind: 'network',
        retryable: !maybeApplied,
        maybeApplied,
        code,
        message: redact(`Could not reach the service for ${req.method} ${req.logPath}: ${detail}`, this.options.secrets),
      });
      throw new AttemptFailure(error, notSent);
    }
  }

  private backoff(retry: number): number {
    return backoffDelay(retry, { baseMs: this.options.backoffBaseMs, maxMs: this.options.backoffMaxMs, random: this.options.random });
  }

  private fail(req: OutgoingRequest, started: number, retries: number, error: ApiError): never {
    this.logLine(req, started, error.kind, error.requestId, retries);
    throw error;
  }

  private logLine(req: OutgoingRequest, started: number, outcome: string, requestId: string | undefined, retries: number): void {
    const log = this.options.log;
    if (!log) return;
    const ms = Math.round(performance.now() - started);
    // The request id and the path can carry server- or user-supplied text: one length limit, no control characters.
    const line = `${req.method} ${fitText(req.logPath)} ${outcome} ${ms}ms requestId=${requestId ?? '-'} retries=${retries}`;
    try {
      log(redact(line, this.options.secrets));
    } catch {
      // A failing logger must never fail the request.
    }
  }
}

function toFailure(caught: unknown): AttemptFailure {
  if (caught instanceof AttemptFailure) return caught;
  if (caught instanceof ApiError) return new AttemptFailure(caught, false);
  const message = `Unexpected failure: ${errorMessage(caught)}`;
  return new AttemptFailure(new ApiError({ kind: 'network', message, cause: caught }), false);
}

function unreadable(reply: Reply): boolean {
  return reply.status >= 200 && reply.status < 300 && reply.bodyError !== undefined;
}

function mayRetry(mode: RetryMode, failure: AttemptFailure): boolean {
  const { kind } = failure.error;
  if (kind !== 'network' && kind !== 'timeout') return false;
  if (mode === 'safe') return true;
  return mode === 'unsent' && failure.notSent;
}
