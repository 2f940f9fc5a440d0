/**
 * Choosing the workspace file Pull New Rows appends to: a CSV or JSON Lines file already in the
 * workspace, or a new one by its path in the workspace folder. A quick pick rather than a save
 * dialog, which would ask whether to *replace* an existing file (the rows are appended).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Ui } from '../platform/ui';
import type { AppendFormat } from './appendFile';
import type { TaskRef } from './dataDeps';
import { formatOfPath, safeFileName } from './rowFormats';

const t = vscode.l10n.t;

export interface AppendTarget {
  uri: vscode.Uri;
  format: AppendFormat;
}

/** CSV or JSON Lines by the file's ending; JSON (one array) cannot be appended to. */
export function appendFormatOf(uri: vscode.Uri): AppendFormat | undefined {
  const format = formatOfPath(uri.path);
  return format === 'csv' || format === 'jsonl' ? format : undefined;
}

/** Why a file cannot take pulled rows, or undefined when it can. */
export function targetProblem(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'file') return t('it is not a file on this machine');
  if (vscode.workspace.getWorkspaceFolder(uri) === undefined) return t('it is not in an open workspace folder');
  if (appendFormatOf(uri) === undefined) return t('its name must end in .csv, .jsonl or .ndjson');
  return undefined;
}

/** What a typed path means in the first workspace folder, or the problem with it. */
export function resolveTypedPath(folder: vscode.Uri, typed: string): { uri: vscode.Uri } | { problem: string } {
  const text = typed.trim();
  if (text === '') return { problem: t('Type a file name, e.g. data/rows.jsonl.') };
  if (path.isAbsolute(text) || /^[a-z]:/i.test(text)) return { problem: t('Type a path inside the workspace folder, not an absolute one.') };
  const parts = text.split(/[\\/]+/);
  if (parts.some((p) => p === '..')) return { problem: t('The file must stay inside the workspace folder (no “..”).') };
  if (parts.some((p) => /[\p{Cc}]/u.test(p))) return { problem: t('The path has a control character.') };
  const uri = vscode.Uri.joinPath(folder, ...parts.filter((p) => p !== '' && p !== '.'));
  if (appendFormatOf(uri) === undefined) return { problem: t('The name must end in .csv, .jsonl or .ndjson (CSV or JSON Lines).') };
  return { uri };
}

export async function chooseAppendTarget(task: TaskRef, ui: Ui): Promise<AppendTarget | undefined> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri;
  if (folder === undefined) return undefined;
  const existing = await vscode.workspace.findFiles('**/*.{csv,jsonl,ndjson}', '**/{node_modules,.git}/**', 50).then(
    (files) => files.sort((a, b) => a.path.localeCompare(b.path)),
    () => [] as vscode.Uri[],
  );
  type Item = vscode.QuickPickItem & { uri?: vscode.Uri };
  const items: Item[] = [
    { label: `$(new-file) ${t('New File…')}`, description: t('in the workspace folder') },
    ...existing.map((uri): Item => ({ label: `$(file) ${vscode.workspace.asRelativePath(uri, true)}`, description: t('append to this file'), uri })),
  ];
  const picked = await ui.showQuickPick(items, {
    title: t('Pull the New Rows of “{0}” into…', task.taskName),
    placeHolder: t('A CSV or JSON Lines file; Scrapedeck remembers it for this task'),
  });
  if (picked === undefined) return undefined;
  if (picked.uri !== undefined) {
    const format = appendFormatOf(picked.uri);
    return format === undefined ? undefined : { uri: picked.uri, format };
  }
  const validate = (value: string) => {
    const r = resolveTypedPath(folder, value);
    return 'problem' in r ? r.problem : undefined;
  };
  const typed = await ui.showInputBox({
    title: t('New File for the Rows of “{0}”', task.taskName),
    prompt: t('A path in the workspace folder ending in .jsonl (JSON Lines) or .csv. It is created if it does not exist.'),
    value: `${safeFileName(task.taskName)}.jsonl`,
    ignoreFocusOut: true,
    validateInput: validate,
  });
  if (typed === undefined) return undefined;
  const resolved = resolveTypedPath(folder, typed);
  if ('problem' in resolved) {
    // The box validates as the user types, but a replaced Ui (tests, other callers) may not.
    void ui.showWarningMessage(t('Nothing was pulled for “{0}”: {1}', task.taskName, resolved.problem));
    return undefined;
  }
  const format = appendFormatOf(resolved.uri);
  return format === undefined ? undefined : { uri: resolved.uri, format };
}
