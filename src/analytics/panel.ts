/**
 * One analytics panel: the `scrapedeck.analytics` webview, its HTML shell and its message
 * routing. The page keeps its own state (getState/setState); this side keeps only the latest
 * copy the page sent, for the next `init` after the page is re-created.
 */
import * as vscode from 'vscode';
import { todayUtc } from '../api/dates';
import type { Ui } from '../platform/ui';
import { encodeForPage } from '../webview/protocol/hostMessage';
import type { HostMessage, PageState, Preset } from '../webview/protocol';
import { exportAnalytics } from './export';
import { renderAnalyticsHtml } from './html';
import { MessageRouter, type AnalyticsClient, type AnalyticsLog } from './messages';
import type { TaskListing } from './pickTasks';
import { panelTitle } from './preset';

export const ANALYTICS_VIEW_TYPE = 'scrapedeck.analytics';

export interface AnalyticsPanelDeps {
  extensionUri: vscode.Uri;
  getClient(): AnalyticsClient | undefined;
  listTasks(signal?: AbortSignal): Promise<TaskListing[]>;
  ui: Ui;
  log: AnalyticsLog;
  /** `scrapedeck.analytics.autoFetchRows`, read when a query starts. */
  autoFetchRows(): number;
}

/** Scripts on; files only from the page bundle and the media folder. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export class AnalyticsPanel implements vscode.Disposable {
  /** A new panel beside nothing in particular: the active editor column. */
  static create(deps: AnalyticsPanelDeps, preset: Preset | undefined): AnalyticsPanel {
    const webviewPanel = vscode.window.createWebviewPanel(
      ANALYTICS_VIEW_TYPE,
      panelTitle(preset),
      vscode.ViewColumn.Active,
      // Deliberately no retainContextWhenHidden: the page restores itself from getState.
      webviewOptions(deps.extensionUri),
    );
    return new AnalyticsPanel(webviewPanel, deps, preset, undefined);
  }

  /** A panel VS Code re-created after a reload, with the state its page last saved. */
  static restore(webviewPanel: vscode.WebviewPanel, deps: AnalyticsPanelDeps, state: PageState | undefined): AnalyticsPanel {
    webviewPanel.webview.options = webviewOptions(deps.extensionUri);
    return new AnalyticsPanel(webviewPanel, deps, state?.preset, state);
  }

  private readonly router: MessageRouter;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly posted = new vscode.EventEmitter<HostMessage>();
  private readonly disposedEmitter = new vscode.EventEmitter<void>();
  private latestState: PageState | undefined;
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
    readonly preset: Preset | undefined,
    restoredState: PageState | undefined,
  ) {
    this.latestState = restoredState;
    webviewPanel.title = panelTitle(preset);
    webviewPanel.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'scrapedeck.svg');
    this.router = new MessageRouter({
      getClient: () => deps.getClient(),
      listTasks: (signal) => deps.listTasks(signal),
      ui: deps.ui,
      exportRecords: (format, result) => exportAnalytics(deps.ui, format, result),
      writeClipboard: (text) => vscode.env.clipboard.writeText(text),
      log: deps.log,
      post: (message) => this.post(message),
      today: () => todayUtc(),
      initial: () => ({ preset: this.preset, state: this.latestState }),
      onState: (state) => {
        this.latestState = state;
      },
      isSignedIn: () => deps.getClient() !== undefined,
      autoFetchRows: () => deps.autoFetchRows(),
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
    this.router.stopQueries('The account changed. Run the query again.');
    this.post({ type: 'signedIn', signedIn: this.deps.getClient() !== undefined });
  }

  reveal(): void {
    this.webviewPanel.reveal();
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
    return renderAnalyticsHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'webview', 'analytics.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', 'analytics.css')).toString(),
      title: panelTitle(this.preset),
    });
  }
}

function isReady(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ready';
}
