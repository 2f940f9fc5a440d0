/**
 * ScrapedeckClient: one method per operation of the service, on top of the shared transport.
 * Requests are checked before sending (a bad query, id or app reference never leaves the
 * machine), replies are parsed with the shared schemas, and every failure is an ApiError. The
 * operations live in `ops/` by area; this class builds the shared parts and hands each call on.
 */
import type { Dispatcher } from 'undici';

import type { CredentialsStore } from './auth/auth';
import { SessionKeeper } from './auth/sessionKeeper';
import { ApiError, errorMessage } from './errors/errors';
import { redact, SecretSet } from './errors/redact';
import type { BatchedResult } from './http/batches';
import type { FetchAllOptions, FetchAllResult } from './http/fetchAll';
import { RateLimiter, type RequestLimiter } from './http/limiter';
import { type ApiResult, type CallOptions, MainCaller } from './http/mainCaller';
import { createDispatcher, type Env, proxyConfig } from './http/proxy';
import { Transport } from './http/transport';
import type { TransportStats } from './http/transportTypes';
import { checkBaseUrl } from './http/urls';
import { AnalyticsOps } from './ops/analytics';
import { DataOps, type DataPageRequest, type ReadDataOptions } from './ops/data';
import type { DataReader } from './ops/dataReader';
import { HubOps } from './ops/hub';
import { RunOps, type StatusesResult } from './ops/runs';
import { ServiceRoutes } from './ops/serviceRoutes';
import { TaskOps } from './ops/tasks';
import { TokenOps } from './ops/tokens';
import type { DataPage, NotExportedPage } from './schemas/dataSchemas';
import type { StartedRun, SubtaskPage, SubtaskStatus } from './schemas/runSchemas';
import type { AnalyticsPage, AnalyticsQuery, DeprecatedApp, Task, TaskGroup, TokenData } from './schemas/schemas';
import type {
  ActionProperties,
  CopiedTask,
  MoveResult,
  TaskActions,
  UpdateLoopItems,
  UpdateResult,
} from './schemas/taskOpsSchemas';

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
  /** What service addresses showed of uncertain routes (subtask spelling); share one between clients. Default: this client's own. */
  routes?: ServiceRoutes;
}

export type { FetchAllProgress, FetchAllResult } from './http/fetchAll';
export type { ApiResult, CallOptions } from './http/mainCaller';

export const MAX_REQUESTS_PER_SECOND = 20;

export class ScrapedeckClient {
  private readonly transport: Transport;
  private readonly secrets = new SecretSet();
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly tokens: TokenOps;
  private readonly hub: HubOps;
  private readonly tasks: TaskOps;
  private readonly analytics: AnalyticsOps;
  private readonly runs: RunOps;
  private readonly data: DataOps;
  private closed = false;

  constructor(options: ClientOptions) {
    const baseUrl = checkBaseUrl(options.baseUrl, 'baseUrl');
    const datahubUrl =
      options.datahubUrl !== undefined && options.datahubUrl !== ''
        ? checkBaseUrl(options.datahubUrl, 'datahubUrl')
        : undefined;
    const now = options.now ?? Date.now;
    const proxy = proxyConfig(options.proxyUrl, options.env ?? process.env);
    for (const url of [proxy?.httpProxy, proxy?.httpsProxy]) {
      if (url !== undefined) this.secrets.add(proxyPassword(url)); // proxy credentials are secrets too
    }
    this.ownsDispatcher = options.dispatcher === undefined;
    const timeoutMs = options.timeoutMs ?? 30_000;
    this.dispatcher = options.dispatcher ?? createDispatcher(proxy, { connectTimeoutMs: Math.min(timeoutMs, 10_000) });
    const rps = Math.min(
      MAX_REQUESTS_PER_SECOND,
      Math.max(1, Math.floor(options.requestsPerSecond ?? MAX_REQUESTS_PER_SECOND)),
    );
    this.transport = new Transport({
      dispatcher: this.dispatcher,
      limiter: options.limiter ?? new RateLimiter({ perSecond: rps }),
      timeoutMs,
      maxRetries: Math.max(0, options.maxRetries ?? 3),
      secrets: this.secrets,
      now,
      log: options.log,
      random: options.random,
      backoffBaseMs: options.backoffBaseMs,
    });
    const assertOpen = (): void => {
      if (this.closed) throw new ApiError({ kind: 'cancelled', message: 'The client is closed' });
    };
    this.tokens = new TokenOps(baseUrl, this.transport, this.secrets, assertOpen);
    const auth = new SessionKeeper({
      store: options.credentials,
      now,
      refreshMarginMs: options.refreshMarginMs ?? 60_000,
      refresh: async (refreshToken) => (await this.tokens.refreshToken(refreshToken, {}, true)).data,
      onSessionExpired: options.onSessionExpired,
      onStoreError: (e) =>
        options.log?.(
          redact(`could not store the renewed session (it stays in use): ${errorMessage(e)}`, this.secrets),
        ),
      secrets: this.secrets,
    });
    const caller = new MainCaller({
      baseUrl,
      transport: this.transport,
      auth,
      secrets: this.secrets,
      externalUserId: options.externalUserId,
      assertOpen,
    });
    this.hub = new HubOps(datahubUrl, this.transport, auth, this.secrets, assertOpen);
    this.tasks = new TaskOps(caller);
    this.analytics = new AnalyticsOps(caller, now);
    this.runs = new RunOps(caller, now, options.routes ?? new ServiceRoutes());
    this.data = new DataOps(caller);
  }

  /** Counters of the shared transport (requests, attempts, retries, 429s seen). */
  get stats(): Readonly<TransportStats> {
    return this.transport.stats;
  }

  // ---- tokens (ops/tokens.ts) -----------------------------------------------------------------
  obtainToken(username: string, password: string, o: CallOptions = {}): Promise<ApiResult<TokenData>> {
    return this.tokens.obtainToken(username, password, o);
  }
  refreshToken(refreshToken: string, o: CallOptions = {}): Promise<ApiResult<TokenData>> {
    return this.tokens.refreshToken(refreshToken, o);
  }

  // ---- task groups, tasks, parameters, organisation (ops/tasks.ts) ----------------------------
  listTaskGroups(o: CallOptions = {}): Promise<ApiResult<TaskGroup[]>> {
    return this.tasks.listTaskGroups(o);
  }
  searchTasks(taskGroupId: string, o: CallOptions = {}): Promise<ApiResult<Task[]>> {
    return this.tasks.searchTasks(taskGroupId, o);
  }
  getActions(
    taskIds: readonly string[],
    actionTypes?: readonly string[],
    o: CallOptions = {},
  ): Promise<BatchedResult<TaskActions>> {
    return this.tasks.getActions(taskIds, actionTypes, o);
  }
  updateLoopItems(input: UpdateLoopItems, o: CallOptions = {}): Promise<ApiResult<UpdateResult>> {
    return this.tasks.updateLoopItems(input, o);
  }
  updateActionProperties(
    taskId: string,
    actions: readonly ActionProperties[],
    o: CallOptions = {},
  ): Promise<ApiResult<UpdateResult>> {
    return this.tasks.updateActionProperties(taskId, actions, o);
  }
  copyTask(taskId: string, taskGroupId?: string, o: CallOptions = {}): Promise<ApiResult<CopiedTask>> {
    return this.tasks.copyTask(taskId, taskGroupId, o);
  }
  moveTask(taskId: string, taskGroupId: string, o: CallOptions = {}): Promise<ApiResult<MoveResult>> {
    return this.tasks.moveTask(taskId, taskGroupId, o);
  }

  // ---- analytics (ops/analytics.ts) -------------------------------------------------------------
  queryTaskAnalytics(query: AnalyticsQuery, o: CallOptions = {}): Promise<ApiResult<AnalyticsPage>> {
    return this.analytics.queryTaskAnalytics(query, o);
  }
  /** Every page of a query: page 1 at the maximum page size, then the rest concurrently, in order. */
  queryAllTaskAnalytics(query: AnalyticsQuery, o: FetchAllOptions = {}): Promise<FetchAllResult> {
    return this.analytics.queryAllTaskAnalytics(query, o);
  }

  // ---- cloud extraction (ops/runs.ts) -----------------------------------------------------------
  /** Statuses in batches of 100 (v2, v1 when v2 is refused); `source` says which answered (v2 leaves out never-run tasks). */
  getTaskStatuses(taskIds: readonly string[], o: CallOptions = {}): Promise<StatusesResult> {
    return this.runs.statuses(taskIds, o);
  }
  /** The run's lot (`data.lotNo`) and status when the service sends them; `data: null` when it does not. */
  startTask(taskId: string, o: CallOptions = {}): Promise<ApiResult<StartedRun | null>> {
    return this.runs.start(taskId, o);
  }
  stopTask(taskId: string, o: CallOptions = {}): Promise<ApiResult<null>> {
    return this.runs.stop(taskId, o);
  }
  getSubtaskStatuses(taskId: string, page: SubtaskPage, o: CallOptions = {}): Promise<ApiResult<SubtaskStatus[]>> {
    return this.runs.subtaskStatuses(taskId, page, o);
  }
  startSubtasks(taskId: string, subTaskIds: readonly string[], o: CallOptions = {}): Promise<ApiResult<null>> {
    return this.runs.startSubtasks(taskId, subTaskIds, o);
  }
  stopSubtasks(taskId: string, subTaskIds: readonly string[], o: CallOptions = {}): Promise<ApiResult<null>> {
    return this.runs.stopSubtasks(taskId, subTaskIds, o);
  }

  // ---- data (ops/data.ts) -----------------------------------------------------------------------
  getData(taskId: string, page: DataPageRequest, o: CallOptions = {}): Promise<ApiResult<DataPage>> {
    return this.data.getData(taskId, page, o);
  }
  getLotData(taskId: string, lotNo: string, page: DataPageRequest, o: CallOptions = {}): Promise<ApiResult<DataPage>> {
    return this.data.getLotData(taskId, lotNo, page, o);
  }
  /** Every row, streamed page by page (`for await (const page of client.readData(id))`). */
  readData(taskId: string, o: ReadDataOptions = {}): DataReader {
    return this.data.readData(taskId, o);
  }
  getNotExportedData(taskId: string, size: number, o: CallOptions = {}): Promise<ApiResult<NotExportedPage>> {
    return this.data.getNotExportedData(taskId, size, o);
  }
  markExported(taskId: string, o: CallOptions = {}): Promise<ApiResult<null>> {
    return this.data.markExported(taskId, o);
  }
  removeData(taskId: string, o: CallOptions = {}): Promise<ApiResult<null>> {
    return this.data.removeData(taskId, o);
  }

  // ---- data-app hub (ops/hub.ts) ----------------------------------------------------------------
  deprecateApp(appRef: string, o: CallOptions = {}): Promise<ApiResult<DeprecatedApp>> {
    return this.hub.deprecateApp(appRef, o);
  }

  /** Closes the connection pool. Calls after close fail with 'cancelled'. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
}

/** A proxy URL's password, decoded (checkBaseUrl refused any that does not decode). */
function proxyPassword(url: string): string {
  return decodeURIComponent(new URL(url).password);
}
