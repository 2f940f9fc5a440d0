/**
 * The read-only preview documents (`scrapedeck-data:` URIs): their Markdown is set by the
 * Preview Data command and only read here, so opening, restoring or re-rendering a preview never
 * sends a request by itself. Account boundary: every preview is forgotten when the account
 * changes, and its document then says so instead of showing the other account's rows; the tabs
 * showing them are closed, since their names are the other account's tasks.
 */
import * as vscode from 'vscode';
import { safeFileName } from '../formats/rowFormats';
import type { TaskRef } from '../../api/taskRef';

const t = vscode.l10n.t;

export const PREVIEW_SCHEME = 'scrapedeck-data';
/** Previews kept in memory (each is at most 1,000 rows of Markdown). */
const KEEP = 20;

export class PreviewDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly texts = new Map<string, string>();
  /** The tabs that show a preview (the Markdown preview's), by the preview's address. */
  private readonly tabs = new Map<string, vscode.Tab>();

  /** One document per account and task; the name is the task's, for the tab. */
  uriFor(accountKey: string, task: TaskRef): vscode.Uri {
    return vscode.Uri.from({ scheme: PREVIEW_SCHEME, authority: accountKey, path: `/${encodeURIComponent(task.taskId)}/${safeFileName(task.taskName)}.md` });
  }

  set(uri: vscode.Uri, markdown: string): void {
    const key = uri.toString();
    this.texts.delete(key);
    this.texts.set(key, markdown);
    while (this.texts.size > KEEP) this.texts.delete(this.texts.keys().next().value as string);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? `# ${t('Preview closed')}\n\n${t('This preview is no longer loaded (the window reloaded, the account changed, or the data was removed). Run Preview Data on the task again.')}\n`;
  }

  /** The tab a preview is shown in, found as it opens; closed with the account's previews. */
  async track(uri: vscode.Uri): Promise<void> {
    const tab = await shownIn(uri);
    if (tab !== undefined) this.tabs.set(uri.toString(), tab);
  }

  /** Drops every preview (sign-out, another account) and closes the tabs showing them. */
  clear(): void {
    const uris = [...this.texts.keys()];
    this.texts.clear();
    for (const u of uris) this.changed.fire(vscode.Uri.parse(u));
    const open = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    const ours = open.filter((tab) => [...this.tabs.values()].includes(tab) || (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === PREVIEW_SCHEME));
    this.tabs.clear();
    if (ours.length > 0) void Promise.resolve(vscode.window.tabGroups.close(ours)).catch(() => undefined);
  }

  /** Drops the previews of one task (its data was removed). */
  forgetTask(taskId: string): void {
    const segment = `/${encodeURIComponent(taskId)}/`;
    for (const key of [...this.texts.keys()]) {
      const uri = vscode.Uri.parse(key);
      if (uri.path.startsWith(segment)) {
        this.texts.delete(key);
        this.changed.fire(uri);
      }
    }
  }

  dispose(): void {
    this.texts.clear();
    this.tabs.clear();
    this.changed.dispose();
  }
}

/**
 * The tab now showing `uri`: its source, or the Markdown preview of it (a webview whose label ends
 * with the file's name). VS Code tells the extension of a new tab a moment after the command that
 * opened it returns, so the active tab is looked at until it is that one, for up to two seconds.
 */
async function shownIn(uri: vscode.Uri): Promise<vscode.Tab | undefined> {
  const name = uri.path.split('/').pop() ?? '';
  const match = (): vscode.Tab | undefined => {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    if (tab?.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString()) return tab;
    if (tab?.input instanceof vscode.TabInputWebview && /markdown\.preview/i.test(tab.input.viewType) && tab.label.endsWith(name)) return tab;
    return undefined;
  };
  const now = match();
  if (now !== undefined) return now;
  return new Promise((resolve) => {
    const done = (tab: vscode.Tab | undefined): void => {
      clearTimeout(timer);
      listener.dispose();
      resolve(tab);
    };
    const listener = vscode.window.tabGroups.onDidChangeTabs(() => {
      const tab = match();
      if (tab !== undefined) done(tab);
    });
    const timer = setTimeout(() => done(undefined), 2000);
  });
}
