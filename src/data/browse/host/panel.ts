/**
 * A data browser in a webview: the page (dist/webview/browse.js) under the shell's policy, the
 * session that answers it, the load that fills it, and a watch on the file it shows (a change on
 * disk is said on the page). Used by the custom editor (a file) and by the panels of a task's rows.
 */
import { type Stats, unwatchFile, watchFile } from 'node:fs';

import * as vscode from 'vscode';

import { plainText } from '../../../platform/plainText';
import { renderPageHtml } from '../../../platform/webview/pageHtml';
import { exportBrowsedRows } from './exportView';
import { BrowserSession } from './session';
import type { OpenSource } from './sources';
import { browsePageStrings } from './translateBrowseStrings';

const t = vscode.l10n.t;

export interface BrowserDeps {
  extensionUri: vscode.Uri;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;
  /** Where node-sqlite3-wasm's files are (an export to SQLite). */
  wasmDir: string;
}

export function browserWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
      vscode.Uri.joinPath(extensionUri, 'media'),
    ],
  };
}

/** Says where a link goes, in a modal, and opens it only on the user's word. */
async function openLink(url: string): Promise<void> {
  const open = t('Open');
  const choice = await vscode.window.showWarningMessage(
    t('Open this address from the scraped data in your browser?'),
    { modal: true, detail: plainText(url, 500) },
    open,
  );
  if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(url, true));
}

/** Shows `source` in `panel` until either is closed; the returned disposable closes both. */
export function attachBrowser(
  panel: vscode.WebviewPanel,
  source: OpenSource,
  o: { title: string; deps: BrowserDeps; watchFile?: string },
): vscode.Disposable {
  const { deps } = o;
  const webview = panel.webview;
  webview.options = browserWebviewOptions(deps.extensionUri);
  webview.html = renderPageHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webview', 'browse.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'media', 'browse.css')).toString(),
    title: o.title,
    lang: vscode.env.language,
    strings: browsePageStrings(),
  });
  const session = new BrowserSession(source.store, {
    title: o.title,
    post: (m) => void webview.postMessage(m),
    writeClipboard: (text) => vscode.env.clipboard.writeText(text),
    openLink,
    exportView: (rows, columns) =>
      exportBrowsedRows(rows, columns, { title: o.title, wasmDir: deps.wasmDir, log: deps.log }),
    log: (level, message) => deps.log[level](message),
    stop: () => source.stop(),
    t: vscode.l10n.t,
  });
  const subscriptions: vscode.Disposable[] = [webview.onDidReceiveMessage((m: unknown) => void session.receive(m))];
  if (o.watchFile !== undefined) {
    const file = o.watchFile;
    const listener = (now: Stats, before: Stats): void => {
      if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) session.changed();
    };
    watchFile(file, { interval: 1000, persistent: false }, listener);
    subscriptions.push({ dispose: () => unwatchFile(file, listener) });
  }
  void source.load(session);
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    session.dispose();
    subscriptions.forEach((s) => s.dispose());
    void source.close();
  };
  subscriptions.push(panel.onDidDispose(close));
  return { dispose: () => (close(), panel.dispose()) };
}
