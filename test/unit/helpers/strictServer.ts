/**
 * An independent strict server for the client's rate tests, written from the spec and run in a
 * worker thread of its own, so its arrival times are not skewed by the client's event loop. It
 * records every request's arrival, issues short-lived tokens, consumes refresh tokens once, and
 * injects the faults a run asks for: slow or failing renewals, 429s (Retry-After or
 * retryGuidance), 5xx replies and dropped connections, decided by a seeded generator.
 */
import { Worker } from 'node:worker_threads';

export interface StrictServerOptions {
  seed: number;
  tokenTtlSeconds: number;
  refreshDelayMs: number;
  /** Chance that a refresh grant answers 503 (the refresh token stays unused). */
  refreshFailRate: number;
  rate429: number;
  rate5xx: number;
  rateDrop: number;
  /** Like the service: a request beyond this many in the trailing second gets 429. */
  limitPerSecond?: number;
}

export interface Arrival {
  /** ms since the server started (its own clock). */
  at: number;
  path: string;
  grant?: string;
}

export interface StrictServerReport {
  arrivals: Arrival[];
  /** Successful refresh grants. */
  renewals: number;
  /** When each successful refresh grant arrived (same clock as `arrivals`). */
  renewalTimes: number[];
  /** Refresh grants that presented a refresh token already consumed (a double renewal). */
  replays: number;
  /** Calls refused because their access token had expired (the client sent a stale token). */
  expiredTokenCalls: number;
  /** 429s answered because the trailing second already held `limitPerSecond` requests. */
  overLimit: number;
}

export interface StrictServer {
  baseUrl: string;
  report(): Promise<StrictServerReport>;
  close(): Promise<void>;
}

// Plain JavaScript so the worker needs no compilation step.
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const o = workerData;
const stream = (seed) => {
  let state = seed >>> 0 || 1;
  return () => { state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0; return state / 4294967296; };
};
// Two streams: how the k-th refresh grant fares must not depend on how many calls arrived before
// it (their order moves with the machine's load), or a seed would fail by chance.
const random = stream(o.seed);
const refreshRandom = stream(o.seed * 7919 + 1);
const arrivals = [];
let renewals = 0, replays = 0, expiredTokenCalls = 0, overLimit = 0, serial = 0;
const renewalTimes = [];
const access = new Map();      // token -> expiresAt (Date.now ms)
const refresh = new Set();     // unconsumed refresh tokens
const consumed = new Set();
const reqId = () => 'r-' + (++serial);
const send = (res, status, body, headers = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const issue = () => {
  const a = 'acc-' + (++serial), r = 'ref-' + (++serial);
  access.set(a, Date.now() + o.tokenTtlSeconds * 1000);
  refresh.add(r);
  return { access_token: a, refresh_token: r, token_type: 'Bearer', expires_in: o.tokenTtlSeconds };
};
const server = http.createServer((req, res) => {
  const at = performance.now();
  let raw = '';
  req.on('data', (c) => { raw += c; });
  req.on('end', () => {
    const path = (req.url || '').split('?')[0];
    let body = {};
    try { body = raw ? JSON.parse(raw) : {}; } catch { body = {}; }
    arrivals.push({ at, path, grant: path === '/token' ? body.grant_type : undefined });
    if (o.limitPerSecond) {
      let inWindow = 0;
      for (let i = arrivals.length - 1; i >= 0 && at - arrivals[i].at < 1000; i--) inWindow++;
      if (inWindow > o.limitPerSecond) {
        overLimit++;
        return send(res, 429, { error: { code: 42900, message: 'Too many requests' }, requestId: reqId() }, { 'retry-after': '1' });
      }
    }
    if (path === '/token') {
      if (body.grant_type === 'password') return send(res, 200, { data: issue(), requestId: reqId() });
      const token = body.refresh_token;
      const answer = () => {
        if (consumed.has(token)) { replays++; return send(res, 400, { error: { code: 'Invalid.Grant', message: 'The refresh token has already been used.' }, requestId: reqId() }); }
        if (!refresh.has(token)) return send(res, 400, { error: { code: 'Invalid.Grant', message: 'Unknown refresh token.' }, requestId: reqId() });
        if (refreshRandom() < o.refreshFailRate) return send(res, 503, { error: { code: 'ServerError', message: 'Try again.' }, requestId: reqId() });
        refresh.delete(token); consumed.add(token); renewals++; renewalTimes.push(at);
        return send(res, 200, { data: issue(), requestId: reqId() });
      };
      return o.refreshDelayMs > 0 ? setTimeout(answer, o.refreshDelayMs) : answer();
    }
    const roll = random();
    if (roll < o.rateDrop) return req.socket.destroy();
    if (roll < o.rateDrop + o.rate429) {
      return random() < 0.8
        ? send(res, 429, { error: { code: 42900, message: 'Too many requests' }, retryGuidance: { retryAfterMs: 50 + Math.floor(random() * 150) }, requestId: reqId() })
        : send(res, 429, { error: { code: 42900, message: 'Too many requests' }, requestId: reqId() }, { 'retry-after': '1' });
    }
    if (roll < o.rateDrop + o.rate429 + o.rate5xx) return send(res, 502, { error: { code: 50200, message: 'Bad gateway' }, requestId: reqId() });
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization || '');
    const expiresAt = auth ? access.get(auth[1]) : undefined;
    if (expiresAt === undefined || Date.now() >= expiresAt) {
      if (expiresAt !== undefined) expiredTokenCalls++;
      return send(res, 401, { error: { code: 40102, message: 'The access token has expired.' }, requestId: reqId() });
    }
    return send(res, 200, { data: [{ taskGroupId: 1, taskGroupName: 'Group' }], requestId: reqId() });
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'report') parentPort.postMessage({ report: { arrivals, renewals, renewalTimes, replays, expiredTokenCalls, overLimit } });
  if (m === 'close') server.close(() => parentPort.postMessage({ closed: true }));
  if (m === 'close') server.closeAllConnections();
});
`;

export async function startStrictServer(options: StrictServerOptions): Promise<StrictServer> {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: options });
  const next = <T>(pick: (m: Record<string, unknown>) => T | undefined): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: Record<string, unknown>): void => {
        const value = pick(m);
        if (value === undefined) return;
        worker.off('message', onMessage);
        resolve(value);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  const port = await next((m) => (typeof m.port === 'number' ? m.port : undefined));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    report: () => {
      const reply = next((m) => m.report as StrictServerReport | undefined);
      worker.postMessage('report');
      return reply;
    },
    close: async () => {
      const closed = next((m) => (m.closed === true ? true : undefined));
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  };
}

/** The most arrivals in any window of `windowMs` (sliding over the sorted arrival times). */
export function worstWindow(arrivals: readonly Arrival[], windowMs: number): number {
  const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
  let worst = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while ((times[end] as number) - (times[start] as number) >= windowMs) start++;
    worst = Math.max(worst, end - start + 1);
  }
  return worst;
}
