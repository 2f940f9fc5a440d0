/**
 * Pull New Rows: the task's not-yet-exported rows appended to a workspace file (CSV or JSON
 * Lines, by its ending), remembered per account and task, then marked exported only once the
 * file is flushed (`pullRows.ts` says why). One pull per task at a time.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../platform/commandIds';
import type { ErrorContext } from '../platform/errorText';
import { AppendFile, UnusableFileError, type AppendFormat } from './appendFile';
import type { DataDeps, TaskRef } from './dataDeps';
import { count, fileLabel, inform, isCancel, jobSignal, openAction, withAdvice } from './feedback';
import { appendFormatOf, chooseAppendTarget, targetProblem } from './pullTarget';
import { PullFailure, pullNewRows, type PullResult } from './pullRows';
import { accountKey, type PullTargets } from './pullTargets';

const t = vscode.l10n.t;

export type PullOutcome = 'pulled' | 'nothing-new' | 'declined' | 'signed-out' | 'no-folder' | 'busy' | 'unusable' | 'cancelled' | 'failed';

export interface PullReply {
  outcome: PullOutcome;
  file?: vscode.Uri;
  rows?: number;
}

export interface PullDeps extends DataDeps {
  targets: PullTargets;
  /** Pulls under way, by account key and task id. */
  busy: Set<string>;
}

export async function pullData(task: TaskRef, deps: PullDeps, choose = false): Promise<PullReply> {
  const { ui } = deps;
  const account = deps.account.account;
  const client = deps.account.getClient();
  if (account === undefined || client === undefined) {
    void ui.showInformationMessage(t('Sign in to Scrapedeck to pull the new rows of “{0}”.', task.taskName));
    return { outcome: 'signed-out' };
  }
  if (!vscode.workspace.workspaceFolders?.some((f) => f.uri.scheme === 'file')) {
    const open = t('Open Folder…');
    void ui.showInformationMessage(t('Open a folder first: Pull New Rows appends the new rows of “{0}” to a file in your workspace.', task.taskName), open).then((c) => c === open && vscode.commands.executeCommand('workbench.action.files.openFolder'));
    return { outcome: 'no-folder' };
  }
  const key = accountKey(account);
  const busyKey = `${key}\n${task.taskId}`;
  if (deps.busy.has(busyKey)) {
    void ui.showInformationMessage(t('The new rows of “{0}” are being pulled already.', task.taskName));
    return { outcome: 'busy' };
  }

  const remembered = choose ? undefined : rememberedTarget(deps.targets.get(key, task.taskId));
  const target = remembered ?? (await chooseAppendTarget(task, deps.ui));
  if (target === undefined) return { outcome: 'declined' };
  // Checked again after the choice: the account may have changed while the picker was open.
  if (deps.account.account === undefined || accountKey(deps.account.account) !== key) return { outcome: 'signed-out' };

  deps.busy.add(busyKey);
  try {
    let file: AppendFile;
    try {
      file = await AppendFile.open(target.uri.fsPath, target.format);
    } catch (error) {
      return unusable(error, task, target.uri, deps);
    }
    await deps.targets.set(key, task.taskId, target.uri.toString());
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Pulling the new rows of “{0}” into {1}', task.taskName, fileLabel(target.uri)), cancellable: true },
      async (progress, token) => {
        const scope = jobSignal(token, deps.account.onDidChange);
        try {
          return await pullNewRows(client, {
            taskId: task.taskId,
            sink: file,
            signal: scope.signal,
            onProgress: (p) => progress.report({ message: t('{0} of {1} rows', count(p.rows), count(p.total)) }),
          });
        } finally {
          scope.dispose();
        }
      },
    );
    return pulled(result, task, target.uri, deps);
  } catch (error) {
    return failed(error, task, target.uri, deps);
  } finally {
    deps.busy.delete(busyKey);
  }
}

/** The remembered file, if it is still a CSV or JSON Lines file inside an open workspace folder. */
function rememberedTarget(stored: string | undefined): { uri: vscode.Uri; format: AppendFormat } | undefined {
  if (stored === undefined) return undefined;
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(stored, true);
  } catch {
    return undefined;
  }
  const format = appendFormatOf(uri);
  return targetProblem(uri) === undefined && format !== undefined ? { uri, format } : undefined;
}

function pulled(result: PullResult, task: TaskRef, uri: vscode.Uri, deps: PullDeps): PullReply {
  const change = { label: t('Change File…'), run: () => vscode.commands.executeCommand(COMMANDS.dataPullNewRows, task, { chooseFile: true }) };
  if (result.rows === 0) {
    inform(t('No new rows for “{0}”; {1} is unchanged.', task.taskName, fileLabel(uri)), [openAction(uri), change], deps.ui.showInformationMessage);
    return { outcome: 'nothing-new', file: uri, rows: 0 };
  }
  deps.log.info(`Pulled ${result.rows} new rows of task ${task.taskId} into ${uri.fsPath} in ${result.batches} batches, marked exported (request IDs ${result.requestIds.join(', ')})`);
  const more = result.more ? ` ${t('More rows arrived meanwhile: pull again for them.')}` : '';
  inform(t('Appended {0} new rows of “{1}” to {2}.', count(result.rows), task.taskName, fileLabel(uri)) + more, [openAction(uri), change], deps.ui.showInformationMessage);
  return { outcome: 'pulled', file: uri, rows: result.rows };
}

function unusable(error: unknown, task: TaskRef, uri: vscode.Uri, deps: PullDeps): PullReply {
  if (!(error instanceof UnusableFileError)) {
    void deps.reporter.report(withAdvice(error, t('Nothing was pulled from the service or written to {0}.', fileLabel(uri))), 'openPullFile', task.taskName);
    return { outcome: 'unusable', file: uri };
  }
  const other = t('Choose Another File…');
  void deps.ui
    .showErrorMessage(t('Scrapedeck cannot append the new rows of “{0}” to {1}: {2}. Nothing was pulled or changed.', task.taskName, fileLabel(uri), error.message), other)
    .then((c) => c === other && vscode.commands.executeCommand(COMMANDS.dataPullNewRows, task, { chooseFile: true }));
  return { outcome: 'unusable', file: uri };
}

/** Each stage says what became of the rows: none is lost, some may come twice. */
function failed(error: unknown, task: TaskRef, uri: vscode.Uri, deps: PullDeps): PullReply {
  const failure = error instanceof PullFailure ? error : new PullFailure('fetch', 0, 0, error);
  const cause = failure.error;
  const file = fileLabel(uri);
  const before = failure.rowsDone > 0 ? ` ${t('({0} rows were appended and marked before this.)', count(failure.rowsDone))}` : '';
  if (isCancel(cause)) {
    vscode.window.setStatusBarMessage(t('Pulling the new rows of “{0}” stopped.', task.taskName) + before, 5000);
    return { outcome: 'cancelled', file: uri, rows: failure.rowsDone };
  }
  let advice: string;
  let what: ErrorContext;
  switch (failure.stage) {
    case 'fetch':
      what = 'pullNewRows';
      advice = t('Rows the service handed out and were not written come again with the next pull; none are lost.');
      break;
    case 'write':
      what = 'writeNewRows';
      advice = t('{0} is as it was and nothing was marked exported: the rows come again with the next pull.', file);
      break;
    case 'mark':
      what = 'markExported';
      advice = t('The {0} rows are in {1}, but may not be marked exported: the next pull may add them again (none are lost).', count(failure.batchRows), file);
      break;
  }
  void deps.reporter.report(withAdvice(cause, advice + before), what, task.taskName);
  return { outcome: 'failed', file: uri, rows: failure.rowsDone };
}
