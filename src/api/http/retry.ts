/**
 * When to try again, and how long to wait. The server's word (Retry-After, retryGuidance)
 * always wins over our own back-off: the spec says clients follow server guidance and do not
 * hard-code intervals.
 */

/**
 * Which failures an operation may repeat:
 * - 'safe': reads, the analytics query, the idempotent deprecate — 429, 5xx, dropped
 *   connections and time-outs are retried.
 * - 'unsent': operations that must not run twice — the refresh grant (the server rotates the
 *   refresh token: a replay after it was used is refused as a sign-out), start/stop a run,
 *   start/stop subtasks, append loop items, copy, move, mark exported, remove data. Retried only
 *   when the server surely did not act: a 429 (refused unprocessed) and a failure to connect at
 *   all. Never after a 5xx, a time-out, a dropped connection or an unreadable 2xx: the request may
 *   have been carried out, and the ApiError says so (`maybeApplied`).
 * - 'never': the password grant — a wrong password repeated looks like guessing, and an
 *   ambiguous failure is the user's to retry.
 */
export type RetryMode = 'safe' | 'unsent' | 'never';

export interface BackoffOptions {
  baseMs?: number;
  maxMs?: number;
  random?: () => number;
}

/** Upper bound on any server-requested wait we honour (a broken header must not hang a call). */
export const MAX_SERVER_DELAY_MS = 60_000;

/**
 * `Retry-After` as ms: delta-seconds ("2", "0.5" tolerated) or an HTTP date. Undefined if
 * absent or unreadable. Dates in the past mean "now" (0).
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return clampDelay(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined; // an HTTP date names its weekday/month; "-1" is not a date
  const when = Date.parse(text);
  if (Number.isNaN(when)) return undefined;
  return clampDelay(when - nowMs);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

/**
 * The wait a reply body asks for, in ms. Accepts the shapes a server plausibly sends:
 * `retryGuidance: { retryAfterMs }`, `{ retryAfterSeconds }`, `{ retryAfter }` (seconds),
 * `{ delayMs }`, a bare number (ms) — at the top level or inside `error` or `data`.
 */
export function retryDelayFromBody(body: unknown): number | undefined {
  if (!isRecord(body)) return undefined;
  const holders = [body, body['error'], body['data']].filter(isRecord);
  for (const holder of holders) {
    const guidance = holder['retryGuidance'];
    if (guidance === undefined) continue;
    const direct = num(guidance);
    if (direct !== undefined) return clampDelay(direct);
    if (!isRecord(guidance)) continue;
    const ms = num(guidance['retryAfterMs']) ?? num(guidance['delayMs']) ?? num(guidance['waitMs']);
    if (ms !== undefined) return clampDelay(ms);
    const s = num(guidance['retryAfterSeconds']) ?? num(guidance['retryAfter']) ?? num(guidance['seconds']);
    if (s !== undefined) return clampDelay(s * 1000);
  }
  return undefined;
}

/** Exponential back-off with full jitter: a random wait in [base·2^n / 2, base·2^n], capped. */
export function backoffDelay(retry: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? 200;
  const max = options.maxMs ?? 5_000;
  const random = options.random ?? Math.random;
  const ceiling = Math.min(max, base * 2 ** Math.max(0, retry));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function clampDelay(ms: number): number {
  return Math.min(MAX_SERVER_DELAY_MS, Math.max(0, Math.round(ms)));
}

/** Resolves after `ms`, or rejects with `onAbort()` as soon as `signal` fires. */
export function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  if (signal?.aborted) return Promise.reject(onAbort());
  return new Promise<void>((resolve, reject) => {
    const abort = (): void => {
      clearTimeout(timer);
      reject(onAbort());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
