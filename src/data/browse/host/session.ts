/**
 * One browser's extension side: the row store, the load under way, and the router of the page's
 * messages (each parsed with the protocol's schemas). Imports `vscode` for nothing: every effect
 * (posting, the clipboard, a link, an export) is injected, so it is unit-tested in plain Node.
 */
import type { DataRow } from '../../../api/schemas/dataSchemas';
import { english, type Translate } from '../../../platform/errorText';
import {
  type BrowseRow,
  type BrowseStatus,
  type BrowseView,
  CUT_CHARS,
  type HostMessage,
  LIMITS,
  type PageMessage,
  pageMessageSchema,
  parseMessage,
} from '../protocol';
import type { BrowseStore } from '../store/browseStore';
import { type Cell, cellText } from '../store/cells';
import type { ViewSpec } from '../store/rowStore';

export interface SessionDeps {
  title: string;
  post(message: HostMessage): void;
  writeClipboard(text: string): Thenable<void> | Promise<void>;
  /** Says where a link goes and opens it only if the user agrees. */
  openLink(url: string): Promise<void>;
  /** Asks for a file and writes the rows the view shows to it. */
  exportView(rows: () => AsyncIterable<DataRow[]>, columns: readonly string[]): Promise<void>;
  log(level: 'info' | 'warn' | 'error', message: string): void;
  /** vscode.l10n.t in the extension; English in tests. */
  t?: Translate;
  /** Stops the load under way (undefined: nothing to stop). */
  stop?: () => void;
}

/** Rows a copy may hold (a selection larger than this is cut, and the user told). */
export const MAX_COPY_ROWS = 100_000;

const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';

export class BrowserSession {
  private status: BrowseStatus = { state: 'loading', loaded: 0, shown: 0, problems: 0 };
  private lastStatusAt = 0;
  private statusTimer: ReturnType<typeof setTimeout> | undefined;
  private view: BrowseView = {};
  private ready = false;
  private disposed = false;
  /** Called once the page's first window was answered (or the session closed). */
  private readonly windowWaiters: Array<() => void> = [];
  private windowed = false;

  constructor(
    readonly store: BrowseStore,
    private readonly deps: SessionDeps,
  ) {}

  /** Progress of the load: posted at most four times a second (and always the last). */
  progress(update: Partial<BrowseStatus>): void {
    this.status = {
      ...this.status,
      ...update,
      loaded: update.loaded ?? this.store.loaded,
      problems: this.store.problems,
    };
    this.status.shown = this.store.shown;
    const final = this.status.state !== 'loading';
    if (final && this.store.stale) void this.applyView(this.view);
    if (!this.ready) return;
    const now = Date.now();
    if (final || now - this.lastStatusAt >= 250) this.flushStatus();
    else this.statusTimer ??= setTimeout(() => this.flushStatus(), 250 - (now - this.lastStatusAt));
  }

  /**
   * Resolves once the page's first window of rows was answered, or after `ms` at most (a page
   * that never asks: a hidden tab). A load waits for it after its first rows, so the page's first
   * paint does not wait behind the rest of the load.
   */
  firstWindowAnswered(ms: number): Promise<void> {
    if (this.windowed || this.disposed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.windowWaiters.push(done);
    });
  }

  private answeredWindow(): void {
    this.windowed = true;
    this.windowWaiters.splice(0).forEach((done) => done());
  }

  /** The file was changed on disk after it was opened. */
  changed(): void {
    this.progress({ changed: true });
  }

  private flushStatus(): void {
    clearTimeout(this.statusTimer);
    this.statusTimer = undefined;
    this.lastStatusAt = Date.now();
    if (!this.disposed) this.deps.post({ type: 'columns', columns: this.store.columns.slice(0, LIMITS.columns) });
    if (!this.disposed) this.deps.post({ type: 'status', status: { ...this.status, shown: this.store.shown } });
  }

  async receive(raw: unknown): Promise<void> {
    const parsed = parseMessage(pageMessageSchema, raw);
    if (!parsed.ok) {
      this.deps.log('warn', `The data browser's page sent a message that does not parse: ${parsed.issue}`);
      return;
    }
    try {
      await this.handle(parsed.message);
    } catch (error) {
      if (isAbort(error)) return;
      const id = 'id' in parsed.message ? parsed.message.id : undefined;
      this.deps.log('error', `Data browser: ${error instanceof Error ? error.message : String(error)}`);
      const t = this.deps.t ?? english;
      this.deps.post({ type: 'error', id, message: t('The rows could not be read: see the Scrapedeck log.') });
    }
  }

  private async handle(m: PageMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.deps.post({
          type: 'init',
          title: this.deps.title,
          columns: this.store.columns.slice(0, LIMITS.columns),
          status: { ...this.status, shown: this.store.shown },
          canStop: this.deps.stop !== undefined,
        });
        return;
      case 'window': {
        const rows = await this.store.window(m.from, m.count);
        this.deps.post({ type: 'rows', id: m.id, from: m.from, rows: rows.map(toPageRow) });
        if (!this.windowed) this.answeredWindow();
        return;
      }
      case 'cell': {
        const value = cellText(await this.store.cell(m.row, m.column));
        this.deps.post({ type: 'cell', id: m.id, value: value.slice(0, LIMITS.text), cut: value.length > LIMITS.text });
        return;
      }
      case 'view':
        return this.applyView(m.view);
      case 'profile': {
        const p = await this.store.profile(m.column);
        const cut = (s: string | undefined): string | undefined => s?.slice(0, LIMITS.cell);
        this.deps.post({
          type: 'profile',
          id: m.id,
          profile: {
            ...p,
            column: p.column.slice(0, LIMITS.name),
            min: cut(p.min),
            max: cut(p.max),
            common: p.common.map((c) => ({ value: c.value.slice(0, LIMITS.cell), count: c.count })),
          },
        });
        return;
      }
      case 'copy': {
        const to = Math.min(m.to, m.from + MAX_COPY_ROWS - 1, this.store.shown - 1);
        if (to < m.from) return;
        await this.deps.writeClipboard(
          await this.store.copyText(m.from, to, m.firstColumn, Math.min(m.lastColumn, this.store.columns.length - 1)),
        );
        return;
      }
      case 'export':
        return this.deps.exportView(() => this.store.viewRows(), this.store.columns);
      case 'openLink': {
        const url = linkOf(await this.store.cell(m.row, m.column));
        const t = this.deps.t ?? english;
        if (url === undefined) this.deps.post({ type: 'error', message: t('This cell does not hold a web address.') });
        else await this.deps.openLink(url);
        return;
      }
      case 'stop':
        this.deps.stop?.();
        return;
      case 'log':
        this.deps.log(m.level, `Data browser page: ${m.message.slice(0, 500)}`);
        return;
    }
  }

  private async applyView(view: BrowseView): Promise<void> {
    this.view = view;
    const spec: ViewSpec = {
      sort: view.sort,
      filter: { search: view.search, conditions: view.conditions },
    };
    this.deps.post({ type: 'status', status: { ...this.status, shown: this.store.shown, busy: true } });
    try {
      const shown = await this.store.setView(spec);
      this.deps.post({ type: 'view', view, shown });
    } finally {
      if (!this.disposed)
        this.deps.post({ type: 'status', status: { ...this.status, shown: this.store.shown, busy: false } });
    }
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.statusTimer);
    this.answeredWindow();
  }
}

/** A row as the page gets it: long text cut (the page asks for the rest), the number 1-based. */
export function toPageRow(row: { n: number; cells: readonly Cell[]; problem?: string }): BrowseRow {
  const cut: number[] = [];
  const cells = row.cells.slice(0, LIMITS.columns).map((cell, i) => {
    if (typeof cell !== 'string' || cell.length <= CUT_CHARS) return cell;
    cut.push(i);
    return cell.slice(0, CUT_CHARS);
  });
  return {
    n: row.n + 1,
    cells,
    ...(cut.length > 0 ? { cut } : {}),
    ...(row.problem !== undefined ? { problem: row.problem.slice(0, LIMITS.name) } : {}),
  };
}

/** An http(s) address a cell holds, whole and alone; anything else is no link. */
export function linkOf(cell: Cell | undefined): string | undefined {
  const text = cellText(cell).trim();
  if (!/^https?:\/\/\S+$/i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}
