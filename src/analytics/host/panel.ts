/**
 * One analytics panel: the `scrapedeck.analytics` webview, its HTML shell and its message
 * routing. The page keeps its own state (getState/setState); this side keeps only the latest
 * copy the page sent, for the next `init` after the page is re-created.
 */
import * as vscode from 'vscode';

import { todayUtc } from '../../api/schemas/dates';
import type { Ui } from '../../platform/ui';
import { renderPageHtml } from '../../platform/webview/pageHtml';
import { forAccount, forgetAccount, type HostMessage, type PageState, type Preset } from '../protocol';
import { encodeForPage } from '../protocol/hostMessage';
import type { KnownTaskNames } from './chipNames';
import { exportAnalytics } from './export';
import { MessageRouter } from './messages';
import type { TaskListing } from './pickTasks';
import { panelTitle } from './preset';
import type { AnalyticsClient, AnalyticsLog } from './routerDeps';
import { translatedPageStrings } from './translatePage';

export const ANALYTICS_VIEW_TYPE = 'scrapedeck.analytics';

export interface AnalyticsPanelDeps {
  extensionUri: vscode.Uri;
  getClient(): AnalyticsClient | undefined;
  listTasks(signal?: AbortSignal): Promise<TaskListing[]>;
  ui: Ui;
  log: AnalyticsLog;
  /** `scrapedeck.analytics.autoFetchRows`, read when a query starts. */
  autoFetchRows(): number;
  /** The signed-in account's tag (`accountKey`), undefined signed out: what the panel's content belongs to. */
  accountKey(): string | undefined;
  /** Task names in the tree's cache of the signed-in account (absent: chips show ids until a pick). */
  knownTaskNames?: KnownTaskNames;
}

/** Scripts on; files only from the page bundle and the media folder. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
      vscode.Uri.joinPath(extensionUri, 'media'),
    ],
  };
}

export class AnalyticsPanel implements vscode.Disposable {
  /** A new panel beside nothing in particular: the active editor column. */
  static create(deps: AnalyticsPanelDeps, preset: Preset | undefined): AnalyticsPanel {
    const webviewPanel = vscode.window.createWebviewPanel(
      ANALYTICS_VIEW_TYPE,
      panelTitle(preset, vscode.l10n.t),
      vscode.ViewColumn.Active,
      // Deliberately no retainContextWhenHidden: the page restores itself from getState.
      webviewOptions(deps.extensionUri),
    );
    return new AnalyticsPanel(webviewPanel, deps, preset, undefined);
  }

  /** A panel VS Code re-created after a reload, with the state its page last saved. */
  static restore(
    webviewPanel: vscode.WebviewPanel,
    deps: AnalyticsPanelDeps,
    state: PageState | undefined,
  ): AnalyticsPanel {
    webviewPanel.webview.options = webviewOptions(deps.extensionUri);
    // Another account's (or a signed-out window's) saved results, tasks and preset never come back.
    const account = deps.accountKey();
    const kept = state ? forAccount(state, account) : undefined;
    if (kept?.cleared)
      deps.log.info(
        'analytics: a restored panel belonged to another account; its results, tasks and preset were dropped',
      );
    return new AnalyticsPanel(webviewPanel, deps, kept?.state.preset, kept?.state, kept?.cleared ?? false);
  }

  private readonly router: MessageRouter;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly posted = new vscode.EventEmitter<HostMessage>();
  private readonly disposedEmitter = new vscode.EventEmitter<void>();
  private latestState: PageState | undefined;
  /** The account the panel's content belongs to. */
  private owner: string | undefined;
  /** The content was dropped for an account change the page has not seen yet (it was hidden). */
  private clearedUnseen: boolean;
  private currentPreset: Preset | undefined;
  private disposed = false;
  private markPageReady: () => void = () => undefined;

  /** Resolves when the page itself (not a test hook) first says `ready`: its script loaded under the CSP. */
  readonly pageReady = new Promise<void>((resolve) => {
    this.markPageReady = resolve;
  });

  /** Every message posted to the page (a test hook: observe the replies). */
  readonly onDidPost = this.posted.event;
  readonly onDidDispose = this.disposedEmitter.event;

  private constructor(
    private readonly webviewPanel: vscode.WebviewPanel,
    private readonly deps: AnalyticsPanelDeps,
    preset: Preset | undefined,
    restoredState: PageState | undefined,
    cleared = false,
  ) {
    this.currentPreset = preset;
    this.latestState = restoredState;
    this.owner = deps.accountKey();
    this.clearedUnseen = cleared;
    webviewPanel.title = panelTitle(preset, vscode.l10n.t);
    webviewPanel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'scrapedeck.svg');
    this.router = new MessageRouter({
      getClient: () => deps.getClient(),
      listTasks: (signal) => deps.listTasks(signal),
      ui: deps.ui,
      t: vscode.l10n.t,
      exportRecords: (format, result, stillHeld) => exportAnalytics(deps.ui, format, result, stillHeld),
      writeClipboard: (text) => vscode.env.clipboard.writeText(text),
      log: deps.log,
      post: (message) => this.post(message),
      today: () => todayUtc(),
      initial: () => {
        const cleared = this.clearedUnseen;
        this.clearedUnseen = false;
        return { preset: this.preset, state: this.latestState, account: this.owner, cleared };
      },
      onState: (state) => {
        // A page still showing another account's content (it missed the change) is not kept.
        if (state.account !== this.owner) {
          deps.log.warn('analytics: ignored a page state of another account');
          return;
        }
        this.latestState = state;
      },
      isSignedIn: () => deps.getClient() !== undefined,
      autoFetchRows: () => deps.autoFetchRows(),
      knownTaskNames: deps.knownTaskNames,
      setTitle: (title) => {
        if (!this.disposed) webviewPanel.title = title;
      },
    });
    this.disposables.push(
      webviewPanel.webview.onDidReceiveMessage((raw: unknown) => {
        if (isReady(raw)) this.markPageReady();
        void this.router.handle(raw);
      }),
      webviewPanel.onDidDispose(() => this.dispose()),
      this.posted,
      this.disposedEmitter,
    );
    webviewPanel.webview.html = this.html();
  }

  /** The preset the panel was opened with (undefined once an account change dropped it). */
  get preset(): Preset | undefined {
    return this.currentPreset;
  }

  /** The same path a page message takes (a test hook: drive the panel without the page). */
  handleMessage(raw: unknown): Promise<void> {
    return this.router.handle(raw);
  }

  /**
   * The account changed (sign-in, sign-out, another account or address): queries and fetches of
   * the old client stop, each answered as cancelled with the reason, and the page is told whether
   * a client is available now.
   */
  notifySignedIn(): void {
    this.router.stopQueries(vscode.l10n.t('The account changed. Run the query again.'));
    const account = this.deps.accountKey();
    const cleared = account !== this.owner;
    if (cleared) this.forgetAccount(account);
    this.post({
      type: 'signedIn',
      signedIn: this.deps.getClient() !== undefined,
      ...(account === undefined ? {} : { account }),
      ...(cleared ? { cleared } : {}),
    });
  }

  /**
   * Another account (or nobody) is signed in: nothing of the previous one stays in this panel —
   * its held results (so no export), its preset and title, and its saved page state. A hidden page
   * (destroyed, no retainContextWhenHidden) misses the message: its next `init` says `cleared`.
   */
  private forgetAccount(account: string | undefined): void {
    this.router.forgetResults();
    this.latestState = this.latestState ? forgetAccount(this.latestState, account) : undefined;
    this.currentPreset = undefined;
    this.owner = account;
    this.clearedUnseen = !this.webviewPanel.visible;
    this.webviewPanel.title = panelTitle(undefined, vscode.l10n.t);
    this.deps.log.info(
      "analytics: the account changed; the panel dropped the previous account's results, tasks and preset",
    );
  }

  reveal(): void {
    this.webviewPanel.reveal();
  }

  /** The tab's title now: the page names the query on screen through it, in its own words. */
  get title(): string {
    return this.webviewPanel.title;
  }

  get visible(): boolean {
    return !this.disposed && this.webviewPanel.visible;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.router.dispose(); // aborts every request still in flight
    this.disposedEmitter.fire();
    this.webviewPanel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private post(message: HostMessage): void {
    if (this.disposed) return;
    this.posted.fire(message);
    this.webviewPanel.webview.postMessage(encodeForPage(message)).then(undefined, (error: unknown) => {
      this.deps.log.warn(`analytics: could not post '${message.type}' to the page: ${String(error)}`);
    });
  }

  private html(): string {
    const { webview } = this.webviewPanel;
    const root = this.deps.extensionUri;
    return renderPageHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'webview', 'analytics.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', 'analytics.css')).toString(),
      title: panelTitle(this.preset, vscode.l10n.t),
      lang: vscode.env.language,
      strings: translatedPageStrings(),
    });
  }
}

function isReady(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ready';
}
