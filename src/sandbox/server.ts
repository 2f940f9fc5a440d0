/**
 * The sandbox service: a real HTTP server (node:http, no framework) implementing the spec on seeded
 * data. `startSandbox` is the seam in docs/contracts/sandbox.md. Imports nothing from vscode.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { todayUtc } from '../api/schemas/dates';
import type { SubtaskSpelling } from '../api/schemas/runSchemas';
import { recordQuery, type RecordPage, type RecordQuery, type RecordStore } from './state/analytics';
import { TokenStore } from './state/auth';
import { FaultInjector, faultReply } from './http/faults';
import type { SandboxInfo } from './seed/info';
import { RateLimiter } from './http/rateLimit';
import { buildDailyRecords, cloudHistories, type CloudHistory } from './seed/records';
import { errorReply, retryAfter, type Reply } from './http/respond';
import { DATAHUB_PREFIX, matchRoute } from './routes/router';
import { LoopStore } from './state/loops';
import { keepState, type StateNote } from './state/persist';
import { DEFAULT_QUEUE_SECONDS, DEFAULT_RUN_SECONDS, RunBook } from './state/runBook';
import { buildWorld, publicAccount } from './seed/seed';
import { TaskIndex } from './seed/taskIndex';
import { newStats, type RouteRequest, type SandboxState, type SandboxStats } from './state/state';

export type { SandboxInfo, SandboxAccount } from './seed/info';
export type { SandboxStats } from './state/state';

export interface SandboxOptions {
  port?: number;
  host?: string;
  tokenTtlSeconds?: number;
  /** Requests per second per credential; 0 turns the limit off. */
  rateLimit?: number;
  /** Fraction (0..1) of responses that fail like real networks do. */
  faults?: number;
  seed?: number;
  /** One line per request (method, path, status, duration, requestId); never a secret. */
  log?: (line: string) => void;
  /** The clock (epoch ms) for "today", token expiry, the rate limit and runs. */
  now?: () => number;
  /** How long a started run takes, in seconds (default 30). */
  runSeconds?: number;
  /** Adds a "Big export" task with this many rows (generated on the fly) to the demo account. */
  bigTaskRows?: number;
  /** Adds this many tasks to the demo account's Benchmarks group. */
  extraTasks?: number;
  /** Those tasks each run by one collection method (the health benchmark's second case). */
  extraTasksOneMethod?: boolean;
  /** Those tasks are the demo account's only ones (an account of exactly that many tasks). */
  extraTasksOnly?: boolean;
  /** Which spellings of start/stop subtasks the sandbox answers (default both). */
  subtaskSpelling?: SubtaskSpelling | 'both';
  /** How long a started run waits for a cloud node (`Waiting`) before it extracts, in seconds (default 5; 0: at once). */
  queueSeconds?: number;
  /** Tasks that never ran in the cloud: left out of statuses v2 (`omit`, default, as published) or answered `Stopped` with 0 runs. */
  neverRun?: 'omit' | 'stopped';
  /**
   * Keep what users change (marks, runs, loop items, copies and moves, deprecations, tokens) in
   * this file across restarts: read at start, written after each request that changed something.
   */
  statePath?: string;
}

export interface RunningSandbox {
  info: SandboxInfo;
  stats: SandboxStats;
  /** With `statePath`: whether a saved state was applied, started fresh, or one was set aside (and why). */
  state?: StateNote;
  close(): Promise<void>;
}

export const DEFAULTS = { port: 0, host: '127.0.0.1', tokenTtlSeconds: 7200, rateLimit: 20, faults: 0, seed: 1, runSeconds: DEFAULT_RUN_SECONDS, queueSeconds: DEFAULT_QUEUE_SECONDS } as const;
const MAX_BODY_BYTES = 1_000_000;

function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES }));
    req.on('error', reject);
  });
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const seed = options.seed ?? DEFAULTS.seed;
  const now = options.now ?? (() => Date.now());
  const host = options.host ?? DEFAULTS.host;
  const log = options.log;
  const bigTaskRows = Math.max(0, Math.floor(options.bigTaskRows ?? 0));
  const world = buildWorld(seed, { bigTaskRows, extraTasks: Math.max(0, Math.floor(options.extraTasks ?? 0)), extraTasksOneMethod: options.extraTasksOneMethod === true, extraTasksOnly: options.extraTasksOnly === true });
  // Precomputed once per UTC day (again only if the sandbox outlives midnight): queries only
  // filter, bucket and page.
  type Engine = { today: string; query: (q: RecordQuery) => RecordPage; cloud: Map<string, CloudHistory> };
  let engine: Engine | undefined;
  const currentEngine = (): Engine => {
    const today = todayUtc(new Date(now()));
    if (engine?.today !== today) {
      const records: RecordStore = new Map(world.accounts.map((a) => [a.userId, buildDailyRecords(seed, a, today)]));
      // The run history of each task follows what its records say of its cloud runs.
      const cloud = new Map([...records.values()].flatMap((list) => [...cloudHistories(list)]));
      engine = { today, query: recordQuery(records), cloud };
    }
    return engine;
  };
  currentEngine();
  const queryRecords = (q: RecordQuery): RecordPage => currentEngine().query(q);
  const stats = newStats();
  const perSecond = options.rateLimit ?? DEFAULTS.rateLimit;
  const limiter = new RateLimiter(perSecond, now);
  const faults = new FaultInjector(options.faults ?? DEFAULTS.faults, seed);
  const timers = new Set<NodeJS.Timeout>();
  const state: SandboxState = {
    world,
    queryRecords,
    tokens: new TokenStore(options.tokenTtlSeconds ?? DEFAULTS.tokenTtlSeconds, now),
    deprecated: new Set(),
    stats,
    now,
    info: { baseUrl: '', datahubUrl: '', accounts: world.accounts.map(publicAccount) },
    ops: {
      tasks: new TaskIndex(world),
      runs: new RunBook({
        seed,
        bornAt: now(),
        runSeconds: options.runSeconds ?? DEFAULTS.runSeconds,
        queueSeconds: options.queueSeconds ?? DEFAULTS.queueSeconds,
        bigTaskRows,
        history: (taskId) => currentEngine().cloud.get(taskId),
      }),
      loops: new LoopStore(seed),
    },
    behaviour: { subtaskSpelling: options.subtaskSpelling ?? 'both', neverRun: options.neverRun ?? 'omit' },
  };

  // A saved state, read before the first request (a file of another world is set aside, not used).
  const kept = keepState(state, options.statePath, { seed, bigTaskRows, extraTasks: Math.max(0, Math.floor(options.extraTasks ?? 0)), extraTasksOneMethod: options.extraTasksOneMethod === true, extraTasksOnly: options.extraTasksOnly === true }, log, (options.tokenTtlSeconds ?? DEFAULTS.tokenTtlSeconds) * 1000);

  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  function send(res: ServerResponse, reply: Reply, requestId: string): void {
    stats.byStatus[String(reply.status)] = (stats.byStatus[String(reply.status)] ?? 0) + 1;
    if (reply.status === 429) stats.status429++;
    const headers: Record<string, string> = { 'x-request-id': requestId, 'cache-control': 'no-store', ...reply.headers };
    if (reply.text) {
      res.writeHead(reply.status, { ...headers, 'content-type': reply.text.contentType });
      res.end(reply.text.content);
      return;
    }
    res.writeHead(reply.status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ ...reply.body, requestId }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const arrivedAt = now();
    // Unique across restarts too (a seeded id would repeat run after run and confuse support logs).
    const requestId = randomUUID();
    const method = req.method ?? 'GET';
    const url = parseTarget(req.url);
    if (url === undefined) {
      // A request target no URL parser accepts ("//", "http://["): answer it, never crash the server.
      stats.requests++;
      send(res, errorReply('main', 'bad-request', 'The request target is not a valid URL path.'), requestId);
      log?.(`${method} (invalid target) 400 ${Math.round(performance.now() - started)}ms ${requestId}`);
      return;
    }
    // The real service does not resolve `..` in a path: `/datahub/../token` is not `/token` there.
    const match = hasDotSegments(req.url) ? dotSegmentsRefused(url.pathname) : matchRoute(method, url.pathname);
    const routeId = match.kind === 'route' ? match.route.id : match.id;
    stats.requests++;
    stats.byRoute[routeId] = (stats.byRoute[routeId] ?? 0) + 1;
    let note = '';
    let status = 'drop';
    try {
      const body = await readBody(req);
      const iface = match.kind === 'route' ? match.route.iface : match.iface;
      // Faults first, before any work: a failed refresh must not consume the refresh token.
      const fault = match.kind === 'route' && match.route.meta ? undefined : faults.next();
      let reply: Reply | undefined;
      if (fault) {
        stats.faultsInjected++;
        note = ` fault=${fault.kind}`;
        if (fault.kind === 'drop') {
          stats.droppedConnections++;
          req.socket.destroy();
          return;
        }
        if (fault.kind === 'slow') await delay(fault.delayMs);
        else reply = faultReply(fault, iface);
      }
      if (!reply && body.tooLarge) reply = errorReply(iface, 'bad-request', `body: larger than ${MAX_BODY_BYTES} bytes`);
      if (!reply && method === 'POST' && body.text !== '' && !isJson(req.headers['content-type'])) {
        reply = errorReply(iface, 'unsupported-media-type', 'The request body must be JSON (Content-Type: application/json).');
      }
      if (!reply && match.kind === 'error') reply = match.reply;
      if (!reply && match.kind === 'route') {
        const routeReq: RouteRequest = { method, url, headers: req.headers, body: body.text, params: match.params };
        const key = match.route.rateKey?.(routeReq, state, req.socket.remoteAddress);
        const decision = key === undefined ? { ok: true as const } : limiter.take(key, arrivedAt);
        reply = decision.ok
          ? match.route.handle(routeReq, state)
          : retryAfter(iface, 'rate-limited', `Too many requests: slow down (${perSecond} requests per second per credential).`, decision.retryAfterMs);
        // Written before the answer leaves: a client that saw it done finds it done after a restart.
        if (decision.ok && match.route.mutates === true && reply.status < 400) kept.save();
      }
      const final = reply ?? errorReply(iface, 'internal', 'No reply');
      status = String(final.status);
      if (!res.destroyed) send(res, final, requestId);
    } catch (err) {
      status = '500';
      if (!res.headersSent && !res.destroyed) {
        send(res, errorReply(match.kind === 'route' ? match.route.iface : match.iface, 'internal', 'Internal server error.'), requestId);
      }
      // The error's message, not the request: it could carry a secret.
      note += ` error=${err instanceof Error ? err.name : 'unknown'}`;
    } finally {
      log?.(`${method} ${url.pathname} ${status} ${Math.round(performance.now() - started)}ms ${requestId}${note}`);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // handle() answers its own errors; this is the backstop that keeps one request from ending the process.
      log?.(`${req.method ?? '?'} (unhandled) ${err instanceof Error ? err.name : 'unknown'}`);
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULTS.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  state.info.baseUrl = baseUrl;
  state.info.datahubUrl = `${baseUrl}${DATAHUB_PREFIX}`;

  let closing: Promise<void> | undefined;
  return {
    info: state.info,
    stats,
    ...(kept.note === undefined ? {} : { state: kept.note }),
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Whether the raw target's path has a `.` or `..` segment, plain or percent-encoded. */
function hasDotSegments(target: string | undefined): boolean {
  const path = (target ?? '/').split(/[?#]/, 1)[0] ?? '';
  return path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

function dotSegmentsRefused(pathname: string): ReturnType<typeof matchRoute> {
  return { kind: 'error', id: 'unknown', iface: 'main', reply: errorReply('main', 'not-found', `No route for a path with . or .. segments (${pathname})`) };
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType ?? '');
}

/** The request target as a URL, or undefined when it is not one. */
function parseTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://sandbox.invalid');
  } catch {
    return undefined;
  }
}
