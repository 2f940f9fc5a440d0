/**
 * The sandbox service: a real HTTP server (node:http, no framework) implementing the spec on seeded
 * data. `startSandbox` is the seam in docs/contracts/sandbox.md. Imports nothing from vscode.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { todayUtc } from '../api/schemas/dates';
import { FaultInjector, faultReply } from './http/faults';
import { RateLimiter } from './http/rateLimit';
import { errorReply, type Reply, retryAfter } from './http/respond';
import { dotSegmentsRefused, hasDotSegments, isJson, MAX_BODY_BYTES, parseTarget, readBody } from './incoming';
import { DEFAULTS, type RunningSandbox, type SandboxOptions } from './options';
import { DATAHUB_PREFIX, matchRoute } from './routes/router';
import { buildDailyRecords, cloudHistories, type CloudHistory } from './seed/records';
import { buildWorld, publicAccount } from './seed/seed';
import { TaskIndex } from './seed/taskIndex';
import { type RecordPage, type RecordQuery, recordQuery, type RecordStore } from './state/analytics';
import { TokenStore } from './state/auth';
import { LoopStore } from './state/loops';
import { keepState } from './state/persist';
import { RunBook } from './state/runBook';
import { newStats, type RouteRequest, type SandboxState } from './state/state';

export { DEFAULTS, type RunningSandbox, type SandboxOptions } from './options';
export type { SandboxAccount, SandboxInfo } from './seed/info';
export type { SandboxStats } from './state/state';

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const seed = options.seed ?? DEFAULTS.seed;
  const now = options.now ?? (() => Date.now());
  const host = options.host ?? DEFAULTS.host;
  const log = options.log;
  const bigTaskRows = Math.max(0, Math.floor(options.bigTaskRows ?? 0));
  const world = buildWorld(seed, {
    bigTaskRows,
    extraTasks: Math.max(0, Math.floor(options.extraTasks ?? 0)),
    extraTasksOneMethod: options.extraTasksOneMethod === true,
    extraTasksOnly: options.extraTasksOnly === true,
  });
  // Precomputed once per UTC day (again only if the sandbox outlives midnight): queries only
  // filter, bucket and page. Built at the first query or run history, not at start: it is most of
  // a start's CPU (~150 ms), and most sandboxes a test starts never ask for either.
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
        clockByTask: options.clockByTask,
        queueSeconds: options.queueSeconds ?? DEFAULTS.queueSeconds,
        bigTaskRows,
        history: (taskId) => currentEngine().cloud.get(taskId),
      }),
      loops: new LoopStore(seed),
    },
    behaviour: { subtaskSpelling: options.subtaskSpelling ?? 'both', neverRun: options.neverRun ?? 'omit' },
  };

  // A saved state, read before the first request (a file of another world is set aside, not used).
  const kept = keepState(
    state,
    options.statePath,
    {
      seed,
      bigTaskRows,
      extraTasks: Math.max(0, Math.floor(options.extraTasks ?? 0)),
      extraTasksOneMethod: options.extraTasksOneMethod === true,
      extraTasksOnly: options.extraTasksOnly === true,
    },
    log,
    (options.tokenTtlSeconds ?? DEFAULTS.tokenTtlSeconds) * 1000,
  );

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
    const headers: Record<string, string> = {
      'x-request-id': requestId,
      'cache-control': 'no-store',
      ...reply.headers,
    };
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
      if (!reply && body.tooLarge)
        reply = errorReply(iface, 'bad-request', `body: larger than ${MAX_BODY_BYTES} bytes`);
      if (!reply && method === 'POST' && body.text !== '' && !isJson(req.headers['content-type'])) {
        reply = errorReply(
          iface,
          'unsupported-media-type',
          'The request body must be JSON (Content-Type: application/json).',
        );
      }
      if (!reply && match.kind === 'error') reply = match.reply;
      if (!reply && match.kind === 'route') {
        const routeReq: RouteRequest = { method, url, headers: req.headers, body: body.text, params: match.params };
        const key = match.route.rateKey?.(routeReq, state, req.socket.remoteAddress);
        const decision = key === undefined ? { ok: true as const } : limiter.take(key, arrivedAt);
        reply = decision.ok
          ? match.route.handle(routeReq, state)
          : retryAfter(
              iface,
              'rate-limited',
              `Too many requests: slow down (${perSecond} requests per second per credential).`,
              decision.retryAfterMs,
            );
        // Written before the answer leaves: a client that saw it done finds it done after a restart.
        if (decision.ok && match.route.mutates === true && reply.status < 400) kept.save();
      }
      const final = reply ?? errorReply(iface, 'internal', 'No reply');
      status = String(final.status);
      if (!res.destroyed) send(res, final, requestId);
    } catch (err) {
      status = '500';
      if (!res.headersSent && !res.destroyed) {
        send(
          res,
          errorReply(match.kind === 'route' ? match.route.iface : match.iface, 'internal', 'Internal server error.'),
          requestId,
        );
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
  // Longer than the client keeps an idle connection (undici: at most 60 s, less its 2 s margin),
  // so the client, not the server, closes one. At 5 s a connection idle for about as long (a test
  // waiting on a PostgreSQL restart) could be reused as the server closed it, on a starved machine:
  // the request then failed with ECONNRESET.
  server.keepAliveTimeout = 65_000;
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
