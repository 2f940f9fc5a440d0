/**
 * Choosing the workspace file Pull New Rows writes to: a CSV, JSON Lines or SQLite file already
 * in the workspace, or a new one by its path in the workspace folder. A quick pick rather than a
 * save dialog, which would ask whether to *replace* an existing file (the rows are appended).
 *
 * Files whose columns fit the task's fields come first; files whose columns differ are listed
 * after them, saying how, and choosing one asks first (`columnFit.ts`).
 */
import { lstatSync } from 'node:fs';
import * as path from 'node:path';

import * as vscode from 'vscode';

import type { TaskRef } from '../../api/taskRef';
import { plainText } from '../../platform/plainText';
import { KEEP_BY_DEFAULT } from '../../platform/prompts/modalItems';
import type { Ui } from '../../platform/ui';
import { formatOfPath, type Namesake, suggestedFileName } from '../formats/rowFormats';
import { type Fit, fitOf } from './columnFit';
import { isMade } from './ownFiles';
import type { PullFormat } from './pullSinks';

const t = vscode.l10n.t;

export interface AppendTarget {
  uri: vscode.Uri;
  /** `postgres`: a saved connection (`postgresTarget.ts`). */
  format: PullFormat | 'postgres';
}

/** CSV, JSON Lines or SQLite by the file's ending; JSON (one array) and .xlsx cannot be appended to. */
export function appendFormatOf(uri: vscode.Uri): PullFormat | undefined {
  const format = formatOfPath(uri.path);
  return format === 'csv' || format === 'jsonl' || format === 'sqlite' ? format : undefined;
}

/** Why a file cannot take pulled rows, or undefined when it can. */
export function targetProblem(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'file') return t('it is not a file on this machine');
  if (vscode.workspace.getWorkspaceFolder(uri) === undefined) return t('it is not in an open workspace folder');
  if (appendFormatOf(uri) === undefined) return t('its name must end in .csv, .jsonl, .ndjson, .sqlite or .db');
  return undefined;
}

/** What a typed path means in the first workspace folder, or the problem with it. */
export function resolveTypedPath(folder: vscode.Uri, typed: string): { uri: vscode.Uri } | { problem: string } {
  const text = typed.trim();
  if (text === '') return { problem: t('Type a file name, e.g. data/rows.jsonl.') };
  if (path.isAbsolute(text) || /^[a-z]:/i.test(text))
    return { problem: t('Type a path inside the workspace folder, not an absolute one.') };
  const parts = text.split(/[\\/]+/);
  if (parts.some((p) => p === '..')) return { problem: t('The file must stay inside the workspace folder (no “..”).') };
  if (parts.some((p) => /[\p{Cc}]/u.test(p))) return { problem: t('The path has a control character.') };
  const uri = vscode.Uri.joinPath(folder, ...parts.filter((p) => p !== '' && p !== '.'));
  if (appendFormatOf(uri) === undefined)
    return {
      problem: t(
        'The name must end in .csv, .jsonl or .ndjson (CSV or JSON Lines), or .sqlite or .db (an SQLite database).',
      ),
    };
  return { uri };
}

function lexists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** At most this many names in a description. */
const NAMES_SHOWN = 3;

function names(list: readonly string[]): string {
  const shown = list
    .slice(0, NAMES_SHOWN)
    .map((n) => `“${n}”`)
    .join(', ');
  return list.length > NAMES_SHOWN ? t('{0} and {1} more', shown, list.length - NAMES_SHOWN) : shown;
}

/** One line saying how the file fits, for the picker. */
export function fitText(fit: Fit): string {
  switch (fit.kind) {
    case 'fits':
      return t('same columns as this task: append to this file');
    case 'empty':
      return t('empty: append to this file');
    case 'database':
      return t('SQLite: the rows go to this task’s own table');
    case 'unknown':
      return t('its columns could not be read: append to this file');
    case 'refused':
      return t(
        'not offered: Scrapedeck does not write to a symbolic link, a file of several names or anything but a regular file',
      );
    case 'unchecked':
      return t('has {0}; not compared: the fields of this task could not be read', names(fit.columns));
    case 'differs':
      if (fit.missing.length > 0 && fit.extra.length > 0)
        return t('other columns: lacks {0}; has {1}', names(fit.missing), names(fit.extra));
      if (fit.missing.length > 0) return t('other columns: lacks {0}', names(fit.missing));
      return t('other columns: has {0}, which this task lacks', names(fit.extra));
  }
}

type Item = vscode.QuickPickItem & { uri?: vscode.Uri; fit?: Fit };

export interface PickerContext {
  /** The workspace is trusted; in Restricted Mode only new files, and files a pull made, are offered. */
  trusted: boolean;
  /** The pull's store (`ownFiles.ts`). */
  records: string;
  /** Another task has this task's name: the suggested file name and the questions tell it apart. */
  namesake?: Namesake;
  /** The picker's title and placeholder when it sets up something else than one pull (Keep in Sync). */
  words?: PickerWords;
}

export interface PickerWords {
  title: string;
  placeHolder: string;
}

/**
 * `fields`: the task's fields (from its first row), or undefined when they could not be read
 * (then each file says which columns it has and that they were not compared).
 */
export async function chooseAppendTarget(
  task: TaskRef,
  ui: Ui,
  fields: readonly string[] | undefined,
  context: PickerContext,
  servers: readonly Item[] = [],
): Promise<AppendTarget | undefined> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri;
  if (folder === undefined) return undefined;
  const existing = await vscode.workspace
    .findFiles('**/*.{csv,jsonl,ndjson,sqlite,db,sqlite3}', '**/{node_modules,.git}/**', 50)
    .then(
      (files) => files.sort((a, b) => a.path.localeCompare(b.path)),
      () => [] as vscode.Uri[],
    );
  const fits: Item[] = [];
  const differs: Item[] = [];
  for (const uri of existing) {
    const format = appendFormatOf(uri);
    if (format === undefined) continue;
    if (!context.trusted && !(await isMade(context.records, uri.fsPath))) continue;
    const fit = await fitOf(uri.fsPath, format, fields);
    // What a pull would refuse is not offered (a link, a file of several names, not a regular file).
    if (fit.kind === 'refused') continue;
    const icon = format === 'sqlite' ? '$(database)' : '$(file)'; // l10n-exempt: icon names
    const item: Item = {
      label: `${icon} ${vscode.workspace.asRelativePath(uri, true)}`,
      description: fitText(fit),
      uri,
      fit,
    };
    (fit.kind === 'differs' ? differs : fits).push(item);
  }
  const items: Item[] = [
    {
      label: `$(new-file) ${t('New File…')}`,
      description: context.trusted
        ? t('in the workspace folder')
        : t('Restricted Mode: only a new file, never one this folder came with'),
    },
    ...servers,
    ...fits,
    ...(differs.length > 0
      ? [
          {
            label: t('Columns differ from “{0}”', plainText(task.taskName)),
            kind: vscode.QuickPickItemKind.Separator,
          } as Item,
          ...differs,
        ]
      : []),
  ];
  const picked = await ui.showQuickPick(
    items,
    context.words ?? {
      title: t('Pull the New Rows of “{0}” into…', plainText(task.taskName)),
      placeHolder: t('A CSV, JSON Lines or SQLite file; Scrapedeck remembers it for this task'),
    },
  );
  if (picked === undefined) return undefined;
  if (picked.uri !== undefined && servers.includes(picked)) return { uri: picked.uri, format: 'postgres' };
  if (picked.uri !== undefined) {
    const format = appendFormatOf(picked.uri);
    if (format === undefined) return undefined;
    if (picked.fit?.kind === 'differs' && !(await confirmDiffering(task, picked.uri, picked.fit, ui, context)))
      return undefined;
    return { uri: picked.uri, format };
  }
  return typedTarget(task, folder, ui, context);
}

/** The task's name in quotes, and where another task has its name, the group that tells them apart. */
function taskLabel(task: TaskRef, namesake: Namesake | undefined): string {
  const name = plainText(task.taskName);
  return namesake?.group === undefined ? t('“{0}”', name) : t('“{0}” in {1}', name, plainText(namesake.group));
}

/** Mixing two tasks' rows is the risky answer: the safe one comes first, so it is the default (Enter). */
async function confirmDiffering(
  task: TaskRef,
  uri: vscode.Uri,
  fit: Fit,
  ui: Ui,
  context: PickerContext,
): Promise<boolean> {
  const append = t('Append Anyway');
  const choice = await ui.showModalWarning(
    t(
      'The columns of {0} are not the fields of {1}.',
      vscode.workspace.asRelativePath(uri, false),
      taskLabel(task, context.namesake),
    ),
    `${fitText(fit)}. ${t('Appending adds the missing columns to the file; rows of both kinds then share it.')}`,
    append,
    t('Don’t Append'),
    KEEP_BY_DEFAULT,
  );
  return choice === append;
}

async function typedTarget(
  task: TaskRef,
  folder: vscode.Uri,
  ui: Ui,
  context: PickerContext,
): Promise<AppendTarget | undefined> {
  const validate = (value: string) => {
    const r = resolveTypedPath(folder, value);
    if ('problem' in r) return r.problem;
    // Restricted Mode: a name that is taken is refused as it is typed (the flow checks again).
    return !context.trusted && lexists(r.uri.fsPath)
      ? t('This folder is in Restricted Mode: type the name of a new file.')
      : undefined;
  };
  const typed = await ui.showInputBox({
    title: t('New File for the Rows of “{0}”', plainText(task.taskName)),
    prompt: t(
      'A path in the workspace folder ending in .jsonl (JSON Lines), .csv or .sqlite (a database). It is created if it does not exist.',
    ),
    value: `${suggestedFileName(task, context.namesake)}.jsonl`,
    ignoreFocusOut: true,
    validateInput: validate,
  });
  if (typed === undefined) return undefined;
  const resolved = resolveTypedPath(folder, typed);
  if ('problem' in resolved) {
    // The box validates as the user types, but a replaced Ui (tests, other callers) may not.
    void ui.showWarningMessage(t('Nothing was pulled for “{0}”: {1}', plainText(task.taskName), resolved.problem));
    return undefined;
  }
  const format = appendFormatOf(resolved.uri);
  return format === undefined ? undefined : { uri: resolved.uri, format };
}
