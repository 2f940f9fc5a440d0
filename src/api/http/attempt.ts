/**
 * One HTTP attempt at the service: the request sent through undici with its time-outs, the body
 * read within its size limit and parsed, and a failure typed as an ApiError that says whether the
 * request surely never reached the server (what decides a retry of a call that must not run twice).
 */
import { ApiError, errorMessage } from '../errors/errors';
import { redact } from '../errors/redact';
import type { Release } from './limiter';
import { fitText, readLimited, ReplyTooLargeError } from './replyBody';
import type { IncomingHttpHeaders, OutgoingRequest, Reply, TransportOptions } from './transportTypes';
import { undici } from './undici';

/** A failed attempt, with whether the request surely never reached the server. */
export class AttemptFailure extends Error {
  constructor(
    readonly error: ApiError,
    readonly notSent: boolean,
  ) {
    super(error.message);
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

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

/** `release` is called once the server has surely read the request: its reply's headers are in, or it failed. */
export async function attempt(
  options: TransportOptions,
  req: OutgoingRequest,
  headers: Record<string, string>,
  retries: number,
  release: Release | undefined,
): Promise<Reply> {
  const { timeoutMs } = options;
  try {
    // undici's own timers (no AbortController and timer of ours per request: they cost more
    // than the rest of the client). A time-out is no headers within timeoutMs, or a body that
    // stalls for timeoutMs; connecting is bounded by the dispatcher's connect timeout.
    const res = await undici().request(req.url, {
      method: req.method,
      headers,
      body: req.body,
      signal: req.signal,
      dispatcher: options.dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    release?.();
    let text: string;
    try {
      text = await readLimited(res.body, undefined, res.headers['content-length']);
    } catch (e) {
      if (!(e instanceof ReplyTooLargeError)) throw e;
      throw new ApiError({
        kind: 'bad-response',
        status: res.statusCode,
        message: `The reply to ${req.method} ${req.logPath}: ${e.message}`,
      });
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
    return {
      status: res.statusCode,
      headers: res.headers,
      body,
      bodyError,
      requestId: id === undefined ? undefined : redact(id, options.secrets),
      retries,
    };
  } catch (e) {
    release?.(); // no reply, or its body failed: whatever the server read, it read by now
    if (e instanceof ApiError) throw e; // already ours (a reply over the size limit)
    if (req.signal?.aborted) {
      // Cancelled after sending began: an operation that must not run twice may have run.
      throw new ApiError({
        kind: 'cancelled',
        message: `${req.method} ${req.logPath} was cancelled`,
        maybeApplied: req.retry === 'unsent',
        cause: e,
      });
    }
    const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
    const notSent = code !== undefined && NOT_SENT_CODES.has(code);
    // Only an operation that must not run twice cares whether the server may have acted.
    const maybeApplied = req.retry === 'unsent' && !notSent;
    if (code !== undefined && TIMEOUT_CODES.has(code)) {
      const error = new ApiError({
        kind: 'timeout',
        retryable: !maybeApplied,
        maybeApplied,
        code,
        message: `${req.method} ${req.logPath} timed out after ${timeoutMs} ms`,
      });
      throw new AttemptFailure(error, notSent);
    }
    const detail = errorMessage(e);
    const error = new ApiError({
      kind: 'network',
      retryable: !maybeApplied,
      maybeApplied,
      code,
      message: redact(`Could not reach the service for ${req.method} ${req.logPath}: ${detail}`, options.secrets),
    });
    throw new AttemptFailure(error, notSent);
  }
}

export function toFailure(caught: unknown): AttemptFailure {
  if (caught instanceof AttemptFailure) return caught;
  if (caught instanceof ApiError) return new AttemptFailure(caught, false);
  const message = `Unexpected failure: ${errorMessage(caught)}`;
  return new AttemptFailure(new ApiError({ kind: 'network', message, cause: caught }), false);
}
