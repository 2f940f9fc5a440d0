/**
 * The words and buttons the data flows share: counts, a failure with advice added, the actions
 * after a file is written (Open, Reveal), and cancelling a job when the account changes.
 */
import * as vscode from 'vscode';

import { isApiError } from '../../api/errors/errors';
import type { Event } from '../../platform/emitter';
import { plainText } from '../../platform/plainText';
import { adviseFailure } from './failureText';

const t = vscode.l10n.t;

/** 12,345 in the display language (English digits if the language is unknown to Intl). */
export function count(n: number): string {
  try {
    return n.toLocaleString(vscode.env.language);
  } catch {
    return n.toLocaleString('en');
  }
}

/** The file's name for messages (the full path is in the log): a workspace's file names are outside text. */
export function fileLabel(uri: vscode.Uri): string {
  return plainText(vscode.workspace.asRelativePath(uri, false), 200);
}

/**
 * The same failure, its message ending with what to do: the reporter then says it, with the
 * request id. The request's method and path stay in the log (the transport's line), not in the
 * message (`failureText.ts`).
 */
export function withAdvice(error: unknown, advice: string): unknown {
  return adviseFailure(error, advice, t);
}

export function isCancel(error: unknown): boolean {
  return isApiError(error) && error.kind === 'cancelled';
}

/** Opens the file in an editor. */
export function openAction(uri: vscode.Uri): { label: string; run: () => Thenable<unknown> } {
  return { label: t('Open'), run: () => vscode.commands.executeCommand('vscode.open', uri) };
}

/** Which table of a database the browser shows first: the one just written, or the task's. */
export interface BrowseHint {
  table?: string;
  taskId?: string;
}

/** Hints left by "Open in Data Browser" for the editor it opens (vscode.openWith carries no arguments), by path. */
const browseHints = new Map<string, BrowseHint>();

/** The hint for a file, once (src/data/browse/host/customEditor.ts). */
export function takeBrowseHint(fsPath: string): BrowseHint | undefined {
  const hint = browseHints.get(fsPath);
  browseHints.delete(fsPath);
  return hint;
}

/** "Open in Data Browser", for a file the browser opens (CSV, JSON Lines, JSON, SQLite on this machine); none for others. */
export function browseAction(
  uri: vscode.Uri,
  hint?: BrowseHint,
): { label: string; run: () => Thenable<unknown> } | undefined {
  if (uri.scheme !== 'file' || !/\.(csv|jsonl|ndjson|json|sqlite|sqlite3|db)$/i.test(uri.path)) return undefined;
  return {
    label: t('Open in Data Browser'),
    run: () => {
      if (hint !== undefined) browseHints.set(uri.fsPath, hint);
      return vscode.commands.executeCommand('vscode.openWith', uri, 'scrapedeck.dataBrowser');
    },
  };
}

/**
 * "Reveal in Explorer": the operating system's file manager where VS Code runs on this machine's
 * desktop; in a browser (code-server, vscode.dev) or a remote window there is none to open, so
 * the file is revealed in the Explorer view if it is in the workspace. Otherwise no button.
 */
export function revealAction(uri: vscode.Uri): { label: string; run: () => Thenable<unknown> } | undefined {
  const label = t('Reveal in Explorer');
  if (vscode.env.uiKind === vscode.UIKind.Desktop && vscode.env.remoteName === undefined) {
    return { label, run: () => vscode.commands.executeCommand('revealFileInOS', uri) };
  }
  if (vscode.workspace.getWorkspaceFolder(uri) !== undefined) {
    return { label, run: () => vscode.commands.executeCommand('revealInExplorer', uri) };
  }
  return undefined;
}

/** An information message with actions; not awaited by the flows (it resolves only when dismissed). */
export function inform(
  message: string,
  actions: readonly ({ label: string; run: () => Thenable<unknown> } | undefined)[],
  show: (m: string, ...items: string[]) => Thenable<string | undefined>,
): void {
  const present = actions.filter((a): a is { label: string; run: () => Thenable<unknown> } => a !== undefined);
  void show(message, ...present.map((a) => a.label)).then((choice) => present.find((a) => a.label === choice)?.run());
}

/**
 * An AbortSignal for one job: aborted by the job's own cancel (the progress notification's
 * button) or when the account changes, so nothing of account A goes on under account B.
 */
export function jobSignal(
  token: vscode.CancellationToken,
  onDidChangeAccount: Event<unknown>,
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const subscriptions = [
    token.onCancellationRequested(() => controller.abort()),
    onDidChangeAccount(() => controller.abort()),
  ];
  return { signal: controller.signal, dispose: () => subscriptions.forEach((s) => s.dispose()) };
}
