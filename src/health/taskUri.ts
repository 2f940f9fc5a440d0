/**
 * The resource URIs of the Tasks view's nodes (`scrapedeck-task:`), which FileDecorationProviders
 * decorate: `scrapedeck-task://task/<taskId>` and `scrapedeck-task://group/<taskGroupId>`. A task
 * listed twice (its group and "Needs attention") has one URI, so one decoration.
 */
import * as vscode from 'vscode';

export const TASK_URI_SCHEME = 'scrapedeck-task';

export function taskResourceUri(taskId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: TASK_URI_SCHEME, authority: 'task', path: `/${encodeURIComponent(taskId)}` });
}

export function groupResourceUri(taskGroupId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: TASK_URI_SCHEME, authority: 'group', path: `/${encodeURIComponent(taskGroupId)}` });
}

/** What a `scrapedeck-task:` URI names, or undefined for any other URI. */
export function parseTaskResourceUri(uri: vscode.Uri): { kind: 'task' | 'group'; id: string } | undefined {
  if (uri.scheme !== TASK_URI_SCHEME || (uri.authority !== 'task' && uri.authority !== 'group')) return undefined;
  try {
    const id = decodeURIComponent(uri.path.slice(1));
    return id === '' ? undefined : { kind: uri.authority, id };
  } catch {
    return undefined;
  }
}
