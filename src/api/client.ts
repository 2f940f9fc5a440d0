/**
 * ScrapedeckClient: one method per operation of the spec, on top of the shared transport.
 * Requests are checked before sending (a bad query or app reference never leaves the machine),
 * replies are parsed with the shared schemas, and every failure is an ApiError.
 */
import type { Dispatcher } from 'undici';
import { checkAnalyticsQuery } from './analyticsQuery';
import { SessionKeeper, type AuthHeaders, type CredentialsStore } from './auth';
import { headerValueProblem } from './headerValues';
import { todayUtc } from './dates';
import { ApiError } from './errors';
import { fetchAllPages, type FetchAllOptions, type FetchAllResult } from './fetchAll';
import { RateLimiter, type RequestLimiter } from './limiter';
import { createDispatcher, proxyConfig, type Env } from './proxy';
import { SecretSet, redact } from './redact';
import { parseReply, type ReplyContext, type Surface } from './replies';
import type { RetryMode } from './retry';
import {
  analyticsResponseSchema,
  deprecateResponseSchema,
  passwordGrantRequestSchema,
  refreshGrantRequestSchema,
  taskGroupListResponseSchema,
  taskSearchResponseSchema,
  tokenResponseSchema,
  type AnalyticsPage,
  type AnalyticsQuery,
  type DeprecatedApp,
  type Task,
  type TaskGroup,
  type TokenData,
} from './schemas';
import { Transport, type TransportStats } from './transport';
import { appRefPath, checkBaseUrl } from './urls';

export interface ClientOptions {
  baseUrl: string;
  datahubUrl?: string;
  credentials: CredentialsStore;
  /** Default and maximum 20 (the service's limit); clamped to [1, 20]. */
  requestsPerSecond?: number;
  externalUserId?: string;
  /** An explicit proxy; otherwise HTTPS_PROXY / HTTP_PROXY / NO_PROXY from `env`. */
  proxyUrl?: string;
  /** Per-attempt time-out (ms). Default 30 000. */
  timeoutMs?: number;
  /** Retry budget per request (429s, 5xx, dropped connections, time-outs together). Default 3. */
  maxRetries?: number;
  /** Renew the session this long before it expires (ms). Default 60 000. */
  refreshMarginMs?: number;
  /** One redacted line per request. */
  log?: (line: string) => void;
  /** Wall clock, epoch ms. */
  now?: () => number;
  /** Renewal impossible: sign-in needed. Called once per failed renewal. */
  onSessionExpired?: () => void;
  // ---- additions beyond the contract (all optional) ----
  /** The environment proxies are read from (default process.env). */
  env?: Env;
  /** Share a limiter between clients, or inject one (benchmarks against a server with its limit off). */
  limiter?: RequestLimiter;
  /** Use this dispatcher instead of creating one; the client then does not close it. */
  dispatcher?: Dispatcher;
  /** Jitter source for back-off (tests). */
  random?: () => number;
  /** First back-off step (ms), doubled per retry. Default 200. */
  backoffBaseMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ApiResult<T> {
  data: T;
  requestId: string | undefined;
}

export type { FetchAllProgress, FetchAllResult } from './fetchAll';

export const MAX_REQUESTS_PER_SECOND = 20;

export class ScrapedeckClient {
  private readonly baseUrl: string;
  private readonly datahubUrl: string | undefined;
  private readonly transport: Transport;
  private readonly auth: SessionKeeper;
  private readonly secrets = new SecretSet();
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = checkBaseUrl(options.baseUrl, 'baseUrl');
    this.datahubUrl = options.datahubUrl !== undefined && options.datahubUrl !== '' ? checkBaseUrl(options.datahubUrl, 'datahubUrl') : undefined;
    this.now = options.now ?? Date.now;
    const proxy = proxyConfig(options.proxyUrl, options.env ?? process.env);
    for (const url of [proxy?.httpProxy, proxy?.httpsProxy]) {
      if (url !== undefined) this.secrets.add(proxyPassword(url)); // proxy credentials are secrets too
    }
    this.ownsDispatcher = options.dispatcher === undefined;
    const timeoutMs = options.timeoutMs ?? 30_000;
    this.dispatcher = options.dispatcher ?? createDispatcher(proxy, { connectTimeoutMs: Math.min(timeoutMs, 10_000) });
    const rps = Math.min(MAX_REQUESTS_PER_SECOND, Math.max(1, Math.floor(options.requestsPerSecond ?? MAX_REQUESTS_PER_SECOND)));
    this.transport = new Transport({
      dispatcher: this.dispatcher,
      limiter: options.limiter ?? new RateLimiter({ perSecond: rps }),
      timeoutMs,
      maxRetries: Math.max(0, options.maxRetries ?? 3),
      secrets: this.secrets,
      now: this.now,
      log: options.log,
      random: options.random,
      backoffBaseMs: options.backoffBaseMs,
    });
    this.auth = new SessionKeeper({
      store: options.credentials,
      now: this.now,
      refreshMarginMs: options.refreshMarginMs ?? 60_000,
      refresh: async (refreshToken) => (await this.grant({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'refresh', {}, true)).data,
      onSessionExpired: options.onSessionExpired,
      onStoreError: (e) => options.log?.(redact(`could not store the renewed session (it stays in use): ${e instanceof Error ? e.message : String(e)}`, this.secrets)),
      secrets: this.secrets,
    });
  }

  /** Counters of the shared transport (requests, attempts, retries, 429s seen). */
  get stats(): Readonly<TransportStats> {
    return this.transport.stats;
  }

  obtainToken(username: string, password: string, o: CallOptions = {}): Promise<ApiResult<TokenData>> {
    this.secrets.add(password);
    return this.grant({ username, password, grant_type: 'password' }, 'never', o);
  }

  refreshToken(refreshToken: string, o: CallOptions = {}): Promise<ApiResult<TokenData>> {
    this.secrets.add(refreshToken);
    return this.grant({ refresh_token: refreshToken, grant_type: 'refresh_token' }, 'refresh', o);
  }

  async listTaskGroups(o: CallOptions = {}): Promise<ApiResult<TaskGroup[]>> {
    const ctx = this.ctx('main', 'get task group information');
    return this.main('GET', '/taskGroup', '/taskGroup', undefined, o, (r) => parseReply(r, taskGroupListResponseSchema, ctx));
  }

  async searchTasks(taskGroupId: string, o: CallOptions = {}): Promise<ApiResult<Task[]>> {
    if (taskGroupId.trim() === '') {
      throw new ApiError({ kind: 'invalid-request', field: 'taskGroupId', message: 'A task group id is needed to search tasks' });
    }
    // A task group id is not a secret, so the log may show the query.
    const path = `/task/search?taskGroupId=${encodeURIComponent(taskGroupId)}`;
    const ctx = this.ctx('main', 'search tasks');
    return this.main('GET', path, path, undefined, o, (r) => parseReply(r, taskSearchResponseSchema, ctx));
  }

  async queryTaskAnalytics(query: AnalyticsQuery, o: CallOptions = {}): Promise<ApiResult<AnalyticsPage>> {
    const check = checkAnalyticsQuery(query, todayUtc(new Date(this.now())));
    if (!check.ok) {
      const first = check.issues[0];
      throw new ApiError({
        kind: 'invalid-request',
        field: first?.field,
        message: `Invalid analytics query: ${check.issues.map((i) => i.message).join('; ')}`,
      });
    }
    const ctx = this.ctx('main', 'query task analytics');
    const path = '/taskanalytics/queries';
    return this.main('POST', path, path, JSON.stringify(check.query), o, (r) => parseReply(r, analyticsResponseSchema, ctx));
  }

  /** Every page of a query: page 1 at the maximum page size, then the rest concurrently, in order. */
  queryAllTaskAnalytics(query: AnalyticsQuery, o: FetchAllOptions = {}): Promise<FetchAllResult> {
    return fetchAllPages((q, signal) => this.queryTaskAnalytics(q, { signal }), query, o);
  }

  async deprecateApp(appRef: string, o: CallOptions = {}): Promise<ApiResult<DeprecatedApp>> {
    this.assertOpen();
    const ref = appRefPath(appRef);
    if (this.datahubUrl === undefined) {
      throw new ApiError({ kind: 'invalid-request', field: 'datahubUrl', message: 'The data-app hub URL is not configured (datahubUrl).' });
    }
    const path = `/v1/data-apps/${ref}/deprecate`;
    const ctx: ReplyContext = { ...this.ctx('hub', `deprecate ${appRef.trim()}`), notFound: `App ${appRef.trim()} was not found, or you are not its author` };
    const reply = await this.transport.send({
      method: 'POST',
      url: `${this.datahubUrl}${path}`,
      logPath: `{datahub}${path}`,
      headers: async () => ({ accept: 'application/json', ...(await this.auth.hubHeaders()).headers }),
      retry: 'safe', // deprecation is idempotent
      signal: o.signal,
    });
    const parsed = parseReply(reply, deprecateResponseSchema, ctx);
    return { data: parsed.data, requestId: reply.requestId };
  }

  /** Closes the connection pool. Calls after close fail with 'cancelled'. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  // ---- internals ----------------------------------------------------------------------------

  private ctx(surface: Surface, operation: string): ReplyContext {
    return { surface, operation, secrets: this.secrets };
  }

  /** A call to the main interface with credentials; a 401 on a session renews it once and retries. */
  private async main<T>(
    method: 'GET' | 'POST',
    path: string,
    logPath: string,
    body: string | undefined,
    o: CallOptions,
    parse: (reply: Awaited<ReturnType<Transport['send']>>) => { data: T; requestId: string },
  ): Promise<ApiResult<T>> {
    this.assertOpen();
    for (let renewed = false; ; renewed = true) {
      let used: AuthHeaders | undefined;
      const reply = await this.transport.send({
        method,
        url: `${this.baseUrl}${path}`,
        logPath,
        headers: async () => {
          used = await this.auth.mainHeaders(o.signal);
          return { ...this.baseHeaders(body !== undefined), ...used.headers };
        },
        revalidate: (built) => {
          if (used === undefined) return built;
          const now = this.auth.current(used);
          if (now === undefined) return undefined;
          used = now;
          return { ...built, ...now.headers };
        },
        body,
        retry: 'safe',
        signal: o.signal,
      });
      if (reply.status === 401 && !renewed && used?.accessToken !== undefined) {
        await this.auth.renewAfter401(used.accessToken, o.signal);
        continue;
      }
      const parsed = parse(reply);
      return { data: parsed.data, requestId: reply.requestId ?? parsed.requestId };
    }
  }

  private async grant(
    body: { grant_type: 'password'; username: string; password: string } | { grant_type: 'refresh_token'; refresh_token: string },
    retry: RetryMode,
    o: CallOptions,
    priority = false,
  ): Promise<ApiResult<TokenData>> {
    this.assertOpen();
    const schema = body.grant_type === 'password' ? passwordGrantRequestSchema : refreshGrantRequestSchema;
    const check = schema.safeParse(body);
    if (!check.success) {
      const issue = check.error.issues[0];
      throw new ApiError({ kind: 'invalid-request', field: issue?.path.map(String).join('.'), message: `Invalid token request: ${issue?.message ?? 'bad body'}` });
    }
    const operation = body.grant_type === 'password' ? 'obtain a token' : 'refresh the token';
    const reply = await this.transport.send({
      method: 'POST',
      url: `${this.baseUrl}/token`,
      logPath: `/token (${body.grant_type})`,
      headers: () => ({ accept: 'application/json', 'content-type': 'application/json' }), // token calls carry no credentials
      body: JSON.stringify(body),
      retry,
      signal: o.signal,
      priority,
    });
    const parsed = parseReply(reply, tokenResponseSchema, this.ctx('token', operation));
    this.secrets.add(parsed.data.access_token, parsed.data.refresh_token);
    return { data: parsed.data, requestId: reply.requestId ?? parsed.requestId };
  }

  private baseHeaders(hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (hasBody) headers['content-type'] = 'application/json';
    const userId = this.options.externalUserId;
    if (userId) {
      const problem = headerValueProblem(userId, 'The external user id (scrapedeck.externalUserId)');
      if (problem !== undefined) throw new ApiError({ kind: 'invalid-request', field: 'externalUserId', message: problem });
      headers['x-external-user-id'] = userId;
    }
    return headers;
  }

  private assertOpen(): void {
    if (this.closed) throw new ApiError({ kind: 'cancelled', message: 'The client is closed' });
  }
}

/** A proxy URL's password, decoded (checkBaseUrl refused any that does not decode). */
function proxyPassword(url: string): string {
  return decodeURIComponent(new URL(url).password);
}
