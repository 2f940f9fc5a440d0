/**
 * One HTTP exchange with the service, including everything around it that every operation
 * shares: the rate limiter, the per-attempt time-out, retries (429 as the server says, else
 * back-off with jitter), cancellation, and the one redacted log line per request.
 * It returns any HTTP reply as-is; turning statuses into ApiErrors is `replies.ts`'s job. One
 * attempt is `attempt.ts`; the shapes are `transportTypes.ts`.
 */
import { isServerFaultBody } from '../errors/errorCodes';
import { ApiError } from '../errors/errors';
import { redact } from '../errors/redact';
import { attempt, type AttemptFailure, toFailure } from './attempt';
import { fitText } from './replyBody';
import { backoffDelay, parseRetryAfter, retryDelayFromBody, type RetryMode, sleep } from './retry';
import type { OutgoingRequest, Reply, TransportOptions, TransportStats } from './transportTypes';

/** How many times one attempt may give its slot up because its headers went stale in the queue. */
const MAX_REBUILDS = 3;

export class Transport {
  readonly stats: TransportStats = { requests: 0, attempts: 0, retries: 0, rateLimited: 0 };

  constructor(private readonly options: TransportOptions) {}

  async send(req: OutgoingRequest): Promise<Reply> {
    const { limiter, maxRetries } = this.options;
    const started = performance.now();
    this.stats.requests++;
    let retries = 0;
    const cancelled = (): ApiError =>
      new ApiError({ kind: 'cancelled', message: `${req.method} ${req.logPath} was cancelled` });
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
        const headers =
          req.revalidate?.(built) ?? (req.revalidate === undefined || rebuilt >= MAX_REBUILDS ? built : undefined);
        if (headers === undefined) {
          release?.('unsent'); // given up before sending: the server never counts it
          rebuilt++;
          continue;
        }
        this.stats.attempts++;
        reply = await attempt(this.options, req, headers, retries, release);
      } catch (caught) {
        const failure = toFailure(caught);
        if (failure.error.kind !== 'cancelled' && retries < maxRetries && mayRetry(req.retry, failure)) {
          await retryAfter(this.backoff(retries)).catch((e: unknown) =>
            this.fail(req, started, retries, toFailure(e).error),
          );
          continue;
        }
        return this.fail(req, started, retries, failure.error);
      }
      if (reply.status === 429) {
        this.stats.rateLimited++;
        if (req.retry !== 'never' && retries < maxRetries) {
          const wait =
            retryDelayFromBody(reply.body) ??
            parseRetryAfter(reply.headers['retry-after'], this.options.now()) ??
            this.backoff(retries);
          limiter.pause(wait); // everyone slows down, not just this call
          await retryAfter(wait).catch((e: unknown) => this.fail(req, started, retries, toFailure(e).error));
          continue;
        }
      } else if (
        (reply.status >= 500 || unreadable(reply) || isServerFaultBody(reply.body)) &&
        req.retry === 'safe' &&
        retries < maxRetries
      ) {
        // A 2xx that is not JSON is a proxy's or gateway's error page, as transient as a 5xx; so is
        // a `ServerError` envelope, which the service's published examples send under HTTP 400.
        // A 503 may say when to come back (Retry-After); the server's word wins over our back-off.
        const asked =
          retryDelayFromBody(reply.body) ?? parseRetryAfter(reply.headers['retry-after'], this.options.now());
        await retryAfter(asked ?? this.backoff(retries)).catch((e: unknown) =>
          this.fail(req, started, retries, toFailure(e).error),
        );
        continue;
      }
      this.logLine(req, started, String(reply.status), reply.requestId, retries);
      return reply;
    }
  }

  private backoff(retry: number): number {
    return backoffDelay(retry, {
      baseMs: this.options.backoffBaseMs,
      maxMs: this.options.backoffMaxMs,
      random: this.options.random,
    });
  }

  private fail(req: OutgoingRequest, started: number, retries: number, error: ApiError): never {
    this.logLine(req, started, error.kind, error.requestId, retries);
    throw error;
  }

  private logLine(
    req: OutgoingRequest,
    started: number,
    outcome: string,
    requestId: string | undefined,
    retries: number,
  ): void {
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

function unreadable(reply: Reply): boolean {
  return reply.status >= 200 && reply.status < 300 && reply.bodyError !== undefined;
}

function mayRetry(mode: RetryMode, failure: AttemptFailure): boolean {
  const { kind } = failure.error;
  if (kind !== 'network' && kind !== 'timeout') return false;
  if (mode === 'safe') return true;
  return mode === 'unsent' && failure.notSent;
}
