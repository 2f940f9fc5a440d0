/**
 * The extension side of the analytics protocol: parses each page message and answers it.
 * Imports `vscode` for types only — every effect (client, prompts, clipboard, files, posting)
 * is injected — so the routing is unit-tested in plain Node.
 *
 * Every request's reply carries its id. Each in-flight request has its own AbortController:
 * `cancel` aborts one, `dispose` (the panel closed) aborts them all.
 */
import type * as vscode from 'vscode';
import type { ScrapedeckClient } from '../api/client';
import { ApiError } from '../api/errors';
import { fitText } from '../api/replyBody';
import type { AnalyticsQuery, AnalyticsRecord } from '../api/schemas';
import type { Ui } from '../platform/ui';
import {
  pageMessageSchema,
  parseMessage,
  type HostMessage,
  type PageMessage,
  type PageState,
  type Preset,
} from '../webview/protocol';
import type { ExportFormat } from './exportFormat';
import { pickTasks, type TaskListing } from './pickTasks';
import { ResultStore } from './results';
import { CANCELLED_BY_USER, toWireError } from './wireError';

/** How much of one page log message reaches the Scrapedeck log. */
const PAGE_LOG_MAX = 500;

/** The two client operations the panel uses (a narrow seam: tests pass a fake). */
export type AnalyticsClient = Pick<ScrapedeckClient, 'queryTaskAnalytics' | 'queryAllTaskAnalytics'>;

export type AnalyticsLog = Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;

export interface MessageRouterDeps {
  getClient(): AnalyticsClient | undefined;
  listTasks(signal?: AbortSignal): Promise<TaskListing[]>;
  ui: Pick<Ui, 'showQuickPick'>;
  /** Saves an export; the path written, or undefined when the user dismissed the dialog. */
  exportRecords(format: ExportFormat, query: AnalyticsQuery, records: readonly AnalyticsRecord[]): Promise<string | undefined>;
  writeClipboard(text: string): Thenable<void>;
  log: AnalyticsLog;
  post(message: HostMessage): void;
  today(): string;
  /** What `init` carries: the panel's preset and the state to restore. */
  initial(): { preset: Preset | undefined; state: PageState | undefined };
  /** The page saved its state (the panel keeps the latest for the next `init`). */
  onState(state: PageState): void;
  isSignedIn(): boolean;
}

/** The messages that ask for something and get a reply under their id. */
type RequestMessage = Exclude<Extract<PageMessage, { id: string }>, { type: 'cancel' }>;

export class MessageRouter {
  private readonly inFlight = new Map<string, AbortController>();
  /** The results shown on the page, by id: exports name one instead of sending its rows back. */
  private readonly results = new ResultStore();
  private disposed = false;

  constructor(private readonly deps: MessageRouterDeps) {}

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
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
  }

  /** Number of requests still running (for tests and the log). */
  get pending(): number {
    return this.inFlight.size;
  }

  private async route(message: PageMessage): Promise<void> {
    switch (message.type) {
      case 'ready': {
        const { preset, state } = this.deps.initial();
        this.post({ type: 'init', today: this.deps.today(), preset, state });
        this.post({ type: 'signedIn', signedIn: this.deps.isSignedIn() });
        return;
      }
      case 'state':
        this.deps.onState(message.state);
        return;
      case 'cancel':
        this.inFlight.get(message.id)?.abort();
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
    this.inFlight.get(id)?.abort(); // an id reused before its reply: the newer request wins
    const controller = new AbortController();
    this.inFlight.set(id, controller);
    // A newer request under the same id owns the id now: the older one's answer is dropped.
    const superseded = (): boolean => this.inFlight.get(id) !== controller;
    try {
      const reply = await this.answer(message, controller.signal);
      if (superseded()) return;
      // Cancelled after the answer arrived: the page stopped waiting, so settle it as cancelled.
      this.post(controller.signal.aborted ? { type: 'error', id, error: CANCELLED_BY_USER } : reply);
    } catch (error) {
      if (superseded()) return;
      const wire = toWireError(error);
      if (wire.kind !== 'cancelled') this.deps.log.warn(`analytics: '${message.type}' (${id}) failed: ${wire.message}`);
      this.post({ type: 'error', id, error: wire });
    } finally {
      if (this.inFlight.get(id) === controller) this.inFlight.delete(id);
    }
  }

  private async answer(message: RequestMessage, signal: AbortSignal): Promise<HostMessage> {
    const { id } = message;
    switch (message.type) {
      case 'query': {
        const client = this.requireClient();
        const result = await client.queryTaskAnalytics(message.query, { signal });
        const requestIds = result.requestId === undefined ? [] : [result.requestId];
        const resultId = this.results.add({ query: message.query, total: result.data.total, records: result.data.data, requestIds });
        return { type: 'queryResult', id, resultId, query: message.query, page: result.data, requestId: result.requestId };
      }
      case 'fetchAll': {
        const client = this.requireClient();
        const result = await client.queryAllTaskAnalytics(message.query, {
          signal,
          onProgress: (p) => this.post({ type: 'fetchAllProgress', id, fetched: p.fetched, total: p.total }),
        });
        const resultId = this.results.add({ query: message.query, ...result });
        return { type: 'fetchAllResult', id, resultId, query: message.query, ...result };
      }
      case 'pickTasks': {
        const picked = await pickTasks(this.deps, message.selected, signal);
        if (picked === undefined) return { type: 'error', id, error: CANCELLED_BY_USER };
        return { type: 'tasksPicked', id, ...picked };
      }
      case 'export': {
        const { query, records } = this.results.require(message.resultId);
        const path = await this.deps.exportRecords(message.format, query, records);
        if (path === undefined) return { type: 'error', id, error: CANCELLED_BY_USER };
        this.deps.log.info(`analytics: exported ${records.length} rows as ${message.format.toUpperCase()} to ${path}`);
        return { type: 'exportDone', id, path };
      }
    }
  }

  private requireClient(): AnalyticsClient {
    const client = this.deps.getClient();
    if (!client) throw signedOutError();
    return client;
  }

  private post(message: HostMessage): void {
    if (!this.disposed) this.deps.post(message);
  }
}

/** The same kind as the client's own 'auth' errors, so the page explains both alike. */
function signedOutError(): ApiError {
  return new ApiError({ kind: 'auth', message: 'Sign in to Scrapedeck to query task analytics.' });
}
