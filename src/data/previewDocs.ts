/**
 * The read-only preview documents (`scrapedeck-data:` URIs): their Markdown is set by the
 * Preview Data command and only read here, so opening, restoring or re-rendering a preview never
 * sends a request by itself. Account boundary: every preview is forgotten when the account
 * changes, and its document then says so instead of showing the other account's rows.
 */
import * as vscode from 'vscode';
import { safeFileName } from './rowFormats';

const t = vscode.l10n.t;

export const PREVIEW_SCHEME = 'scrapedeck-data';
/** Previews kept in memory (each is at most 1,000 rows of Markdown). */
const KEEP = 20;

export class PreviewDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly texts = new Map<string, string>();

  /** One document per account and task; the name is the task's, for the tab. */
  uriFor(accountKey: string, task: { taskId: string; taskName: string }): vscode.Uri {
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

  /** Drops every preview (sign-out, another account). */
  clear(): void {
    const uris = [...this.texts.keys()];
    this.texts.clear();
    for (const u of uris) this.changed.fire(vscode.Uri.parse(u));
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
    this.changed.dispose();
  }
}
