/**
 * The extension side of the analytics protocol: parses each page message and answers it.
 * Every effect (client, prompts, clipboard, files, posting) is injected through `routerDeps.ts`,
 * so the routing is unit-tested in plain Node.
 *
 * Every request's reply carries its id. Each in-flight request has its own AbortController:
 * `cancel` aborts one, `stopQueries` (the account changed) the queries and fetches, `dispose`
 * (the panel closed) them all.
 */
import { ApiError, isApiError } from '../../api/errors/errors';
import { fitText } from '../../api/http/replyBody';
import { english, type Translate } from '../../platform/errorText';
import { type HostMessage, type PageMessage, pageMessageSchema, parseMessage } from '../protocol';
import { namesFor, namesFromListing, shownTaskIds, unnamed } from './chipNames';
import { pickTasks } from './pickTasks';
import { ResultStore } from './results';
import type { AnalyticsClient, MessageRouterDeps } from './routerDeps';
import { oneLine } from './tabTitle';
import { type RowsAsk, WholeQuery } from './wholeQuery';
import { CANCELLED_BY_USER, toWireError } from './wireError';

/** How much of one page log message reaches the Scrapedeck log. */
const PAGE_LOG_MAX = 500;

/** The messages that ask for something and get a reply under their id. */
type RequestMessage = Exclude<Extract<PageMessage, { id: string }>, { type: 'cancel' }>;

export class MessageRouter {
  private readonly inFlight = new Map<string, { controller: AbortController; type: RequestMessage['type'] }>();
  /** The results shown on the page, by id: exports name one instead of sending its rows back. */
  private readonly results: ResultStore;
  private readonly rows: WholeQuery;
  /** Loading the names `init` could not give (the cache was cold); stopped with the queries. */
  private naming: AbortController | undefined;
  private disposed = false;

  constructor(private readonly deps: MessageRouterDeps) {
    const t = deps.t ?? english;
    this.results = new ResultStore(undefined, t);
    this.rows = new WholeQuery(this.results, () => deps.autoFetchRows(), t);
  }

  /** Handles one raw message from the page. Never throws; resolves when the reply is posted. */
  async handle(raw: unknown): Promise<void> {
    const parsed = parseMessage(pageMessageSchema, raw);
    if (!parsed.ok) {
      this.deps.log.warn(`analytics: ignored a malformed message from the page (${parsed.reason})`);
      return;
    }
    const message = parsed.message;
    try {
      await this.route(message);
    } catch (error) {
      // Only the fire-and-forget messages reach here (requests reply with their own errors).
      this.deps.log.error(`analytics: handling '${message.type}' failed: ${toWireError(error).message}`);
    }
  }

  /** Aborts every request in flight (the panel is closing). */
  dispose(): void {
    this.disposed = true;
    this.results.clear();
    this.naming?.abort();
    for (const { controller } of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
  }

  /**
   * Stops the queries and fetches in flight (the account changed: their client is gone, and no
   * row of the old account may arrive in a newer result). Each is answered as cancelled, saying why.
   */
  stopQueries(reason: string): void {
    this.naming?.abort(); // the names would be the old account's
    for (const { controller, type } of this.inFlight.values()) {
      if (type === 'query' || type === 'fetchAll')
        controller.abort(new ApiError({ kind: 'cancelled', message: reason }));
    }
  }

  /** Forgets every result it holds (the account changed): none can be exported or resumed any more. */
  forgetResults(): void {
    this.results.clear();
  }

  /** Number of requests still running (for tests and the log). */
  get pending(): number {
    return this.inFlight.size;
  }

  private async route(message: PageMessage): Promise<void> {
    switch (message.type) {
      case 'ready': {
        const { preset, state, account, cleared } = this.deps.initial();
        const shown = shownTaskIds(preset, state);
        const taskNames = namesFor(shown, this.deps.knownTaskNames, preset);
        this.post({
          type: 'init',
          today: this.deps.today(),
          preset,
          state,
          ...(account === undefined ? {} : { account }),
          ...(cleared ? { cleared } : {}),
          taskNames,
        });
        this.post({
          type: 'signedIn',
          signedIn: this.deps.isSignedIn(),
          ...(account === undefined ? {} : { account }),
        });
        const missing = unnamed(shown, taskNames);
        if (missing.length > 0 && this.deps.isSignedIn()) void this.nameLater(missing, account);
        return;
      }
      case 'state':
        this.deps.onState(message.state);
        return;
      case 'cancel':
        this.inFlight.get(message.id)?.controller.abort();
        return;
      case 'title':
        this.deps.setTitle?.(oneLine(message.title, this.deps.t));
        return;
      case 'copy':
        await this.deps.writeClipboard(message.text);
        return;
      case 'log':
        // The page's text on one line, without control characters or escapes, and short: it
        // cannot forge log lines or fill the log.
        this.deps.log[message.level](`analytics page: ${fitText(message.message, PAGE_LOG_MAX)}`);
        return;
      default:
        return this.request(message);
    }
  }

  /** Runs one request with its own abort signal and always answers it under its id. */
  private async request(message: RequestMessage): Promise<void> {
    const { id } = message;
    this.inFlight.get(id)?.controller.abort(); // an id reused before its reply: the newer request wins
    const controller = new AbortController();
    this.inFlight.set(id, { controller, type: message.type });
    // A newer request under the same id owns the id now: the older one's answer is dropped.
    const superseded = (): boolean => this.inFlight.get(id)?.controller !== controller;
    // Why it was stopped, when the host stopped it (an account change) rather than the page.
    const stopped = (): ApiError | undefined =>
      isApiError(controller.signal.reason) ? controller.signal.reason : undefined;
    try {
      const reply = await this.answer(message, controller.signal);
      if (superseded()) return;
      // Cancelled after the answer arrived: the page stopped waiting, so settle it as cancelled.
      if (controller.signal.aborted)
        this.post({ type: 'error', id, error: stopped() ? toWireError(stopped(), this.deps.t) : CANCELLED_BY_USER });
      else this.post(reply);
    } catch (error) {
      if (superseded()) return;
      const wire = toWireError(stopped() ?? error, this.deps.t);
      if (wire.kind !== 'cancelled') this.deps.log.warn(`analytics: '${message.type}' (${id}) failed: ${wire.message}`);
      this.post({ type: 'error', id, error: wire });
    } finally {
      if (!superseded()) this.inFlight.delete(id);
    }
  }

  private async answer(message: RequestMessage, signal: AbortSignal): Promise<HostMessage> {
    const { id } = message;
    switch (message.type) {
      case 'query': {
        const client = this.requireClient();
        const result = await client.queryTaskAnalytics(message.query, { signal });
        const requestIds = result.requestId === undefined ? [] : [result.requestId];
        const resultId = this.results.add({
          query: message.query,
          total: result.data.total,
          records: result.data.data,
          requestIds,
        });
        const page: HostMessage = {
          type: 'queryResult',
          id,
          resultId,
          query: message.query,
          page: result.data,
          requestId: result.requestId,
        };
        if (!message.rest || result.data.data.length >= result.data.total || signal.aborted) return page;
        // The first page now; the rest under the same id, from the rows just kept.
        this.post(page);
        return this.rest(client, id, { query: message.query, resultId, scope: message.rest }, signal);
      }
      case 'fetchAll':
        return this.rest(this.requireClient(), id, { ...message, scope: message.scope ?? 'all' }, signal);
      case 'pickTasks': {
        const picked = await pickTasks(this.deps, message.selected, signal);
        if (picked === undefined) return { type: 'error', id, error: CANCELLED_BY_USER };
        return { type: 'tasksPicked', id, ...picked };
      }
      case 'export': {
        const held = this.results.require(message.resultId);
        // A copy: a fetch that completes while the save dialog is open does not change what is written.
        const generation = this.results.generation;
        const path = await this.deps.exportRecords(
          message.format,
          { ...held },
          () => !this.disposed && this.results.generation === generation,
        );
        if (path === undefined) return { type: 'error', id, error: CANCELLED_BY_USER };
        this.deps.log.info(
          `analytics: exported ${held.records.length} of ${held.total} rows as ${message.format.toUpperCase()} to ${path}`,
        );
        return { type: 'exportDone', id, path };
      }
    }
  }

  /**
   * The cache could not name some chosen tasks (a panel restored before the tree loaded them): the
   * task list is loaded once (it fills the cache) and the names found are sent to the page.
   */
  private async nameLater(taskIds: readonly string[], account: string | undefined): Promise<void> {
    this.naming?.abort();
    const controller = new AbortController();
    this.naming = controller;
    try {
      const names = namesFromListing(taskIds, await this.deps.listTasks(controller.signal));
      if (!controller.signal.aborted && names.length > 0)
        this.post({ type: 'taskNames', ...(account === undefined ? {} : { account }), names });
    } catch (error) {
      if (!controller.signal.aborted)
        this.deps.log.info(`analytics: the chosen tasks keep their ids as labels (${toWireError(error).message})`);
    } finally {
      if (this.naming === controller) this.naming = undefined;
    }
  }

  /**
   * More rows of a query, with progress under `id`; the result grown (or started over) under its
   * result id. The progress carries the rows in order as they come (`at` says where they go), so the
   * answer carries only what was not sent yet: the page does not wait for one big message at the end.
   */
  private async rest(client: AnalyticsClient, id: string, ask: RowsAsk, signal: AbortSignal): Promise<HostMessage> {
    let streamed = 0;
    const { resultId, held } = await this.rows.fetch(client, ask, signal, ({ fetched, total, target, added }) => {
      if (signal.aborted) return;
      const rows = added.length > 0 ? { at: streamed, records: added } : {};
      this.post({ type: 'fetchAllProgress', id, fetched, total, ...(target < total ? { target } : {}), ...rows });
      streamed += added.length;
    });
    return {
      type: 'fetchAllResult',
      id,
      resultId,
      query: held.query,
      total: held.total,
      records: held.records.slice(streamed),
      streamed,
      requestIds: held.requestIds,
    };
  }

  private requireClient(): AnalyticsClient {
    const client = this.deps.getClient();
    if (!client) throw signedOutError(this.deps.t ?? english);
    return client;
  }

  private post(message: HostMessage): void {
    if (!this.disposed) this.deps.post(message);
  }
}

/** The same kind as the client's own 'auth' errors, so the page explains both alike. */
function signedOutError(t: Translate): ApiError {
  return new ApiError({ kind: 'auth', message: t('Sign in to Scrapedeck to query task analytics.') });
}
