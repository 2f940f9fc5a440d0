/**
 * Pull New Rows: the task's not-yet-exported rows written to a workspace file (CSV or JSON Lines,
 * appended) or database (SQLite, the task's table), remembered per account and task, then marked
 * exported; exactly once, whatever interrupts it (`pullRows.ts`). One pull per task at a time.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/commandIds';
import type { ErrorContext } from '../../platform/errorText';
import { UnusableFileError } from './unusableFile';
import type { DataDeps, TaskRef } from '../common/dataDeps';
import { browseAction, count, fileLabel, inform, isCancel, jobSignal, openAction, revealAction, withAdvice } from '../common/feedback';
import { pullAdvice } from '../common/failureText';
import { OtherTaskPendingError } from './fileSink';
import { DamagedJournalError } from './pullJournal';
import { PullFailure, pullNewRows, type PullResult, type PullSink } from './pullRows';
import { openPullSink } from './pullSinks';
import { appendFormatOf, chooseAppendTarget, targetProblem, type AppendTarget } from './targetPicker';
import { accountKey, type PullTargets } from './rememberedTargets';
import { refusalText } from './refusals';
import { UnsafeFileError } from '../../platform/files/safeFiles';

const t = vscode.l10n.t;

export type PullOutcome = 'pulled' | 'nothing-new' | 'declined' | 'signed-out' | 'no-folder' | 'busy' | 'unusable' | 'cancelled' | 'failed';

export interface PullReply {
  outcome: PullOutcome;
  file?: vscode.Uri;
  rows?: number;
  /** Rows of an interrupted pull found already written and marked without writing them again. */
  recovered?: number;
}

export interface PullDeps extends DataDeps {
  targets: PullTargets;
  /** Pulls under way, by account key and task id, and by file. */
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
    void ui.showInformationMessage(t('Open a folder first: Pull New Rows writes the new rows of “{0}” to a file in your workspace.', task.taskName), open).then((c) => c === open && vscode.commands.executeCommand('workbench.action.files.openFolder'));
    return { outcome: 'no-folder' };
  }
  const key = accountKey(account);
  const busyKey = `${key}\n${task.taskId}`;
  if (deps.busy.has(busyKey)) {
    void ui.showInformationMessage(t('The new rows of “{0}” are being pulled already.', task.taskName));
    return { outcome: 'busy' };
  }

  const remembered = choose ? undefined : rememberedTarget(deps.targets.get(key, task.taskId));
  let target = remembered;
  if (target === undefined) {
    const fields = await taskFields(task, deps);
    // No rows at all: no file to ask for (none could be said to fit), and nothing to pull.
    if (fields === 'no-rows') {
      void ui.showInformationMessage(t('“{0}” holds no data at the service, so there is nothing to pull. Pull again after a run has collected rows.', task.taskName));
      return { outcome: 'nothing-new', rows: 0 };
    }
    target = await chooseAppendTarget(task, deps.ui, fields);
  }
  if (target === undefined) return { outcome: 'declined' };
  // Checked again after the choice: the account may have changed while the picker was open.
  if (deps.account.account === undefined || accountKey(deps.account.account) !== key) return { outcome: 'signed-out' };

  // One pull per file too: two tasks' batches must not interleave in one file or database.
  const fileKey = `file\n${target.uri.fsPath}`;
  if (deps.busy.has(fileKey)) {
    void ui.showInformationMessage(t('Another pull is writing to {0}; pull the new rows of “{1}” when it is done.', fileLabel(target.uri), task.taskName));
    return { outcome: 'busy', file: target.uri };
  }
  deps.busy.add(busyKey);
  deps.busy.add(fileKey);
  try {
    let sink: PullSink;
    try {
      // Every pull checks the file again: a remembered file may have become a link since.
      sink = await openPullSink(target.uri.fsPath, target.format, {
        taskId: task.taskId,
        taskName: task.taskName,
        root: vscode.workspace.getWorkspaceFolder(target.uri)?.uri.fsPath,
        wasmDir: deps.sqliteDir ?? '',
      });
    } catch (error) {
      return unusable(error, task, target.uri, deps);
    }
    try {
      await deps.targets.set(key, task.taskId, target.uri.toString());
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: t('Pulling the new rows of “{0}” into {1}', task.taskName, fileLabel(target.uri)), cancellable: true },
        async (progress, token) => {
          const scope = jobSignal(token, deps.account.onDidChange);
          try {
            return await pullNewRows(client, {
              taskId: task.taskId,
              sink,
              signal: scope.signal,
              onProgress: (p) => progress.report({ message: t('{0} of {1} rows', count(p.rows), count(p.total)) }),
            });
          } finally {
            scope.dispose();
          }
        },
      );
      return pulled(result, task, target.uri, deps);
    } finally {
      sink.close();
    }
  } catch (error) {
    return failed(error, task, target.uri, deps);
  } finally {
    deps.busy.delete(busyKey);
    deps.busy.delete(fileKey);
  }
}

/** The task's fields, from its first row (one read that marks nothing), for the file picker; 'no-rows' when the service holds none, undefined when they cannot be read. */
async function taskFields(task: TaskRef, deps: PullDeps): Promise<string[] | 'no-rows' | undefined> {
  try {
    const page = (await deps.account.getClient()?.getData(task.taskId, { offset: 0, size: 1 }))?.data;
    if (page === undefined) return undefined;
    const first = page.data[0];
    if (first === undefined) return page.total === 0 ? 'no-rows' : undefined;
    return Object.keys(first);
  } catch (error) {
    deps.log.warn(`Could not read the fields of task ${task.taskId} for the file picker: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** The remembered file, if it is still a CSV, JSON Lines or SQLite file inside an open workspace folder. */
function rememberedTarget(stored: string | undefined): AppendTarget | undefined {
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
  const file = fileLabel(uri);
  const change = { label: t('Change File…'), run: () => vscode.commands.executeCommand(COMMANDS.dataPullNewRows, task, { chooseFile: true }) };
  // A database is opened by an SQLite client (VS Code shows it as binary): Reveal, not Open.
  const database = appendFormatOf(uri) === 'sqlite';
  const show = database ? revealAction(uri) : openAction(uri);
  const notes: string[] = [];
  if (result.completed) {
    deps.log.info(`Completed an interrupted pull of task ${task.taskId} into ${uri.fsPath}: ${result.recovered} rows were in the file already and were marked without writing them again`);
    notes.push(result.recovered > 0
      ? t('An interrupted pull was completed: {0} of its rows were already in {1} and were not written again.', count(result.recovered), file)
      : t('An interrupted pull was completed: its rows were not in {0} yet and were written now.', file));
  }
  if (result.cutBytes > 0) {
    deps.log.warn(`Cut ${result.cutBytes} bytes of a partial row from ${uri.fsPath}: the batch had been marked exported elsewhere`);
    notes.push(t('A partial row left in {0} by an interrupted pull was removed: its batch had been marked exported meanwhile, so its rows may be missing from the file.', file));
  }
  if (result.more) notes.push(t('More rows arrived meanwhile: pull again for them.'));
  const extra = notes.length > 0 ? ` ${notes.join(' ')}` : '';
  if (result.rows === 0) {
    const base = result.completed ? t('No new rows for “{0}”.', task.taskName) : t('No new rows for “{0}”; {1} is unchanged.', task.taskName, file);
    inform(base + extra, [show, change], deps.ui.showInformationMessage);
    return { outcome: 'nothing-new', file: uri, rows: 0, recovered: result.recovered };
  }
  deps.log.info(`Pulled ${result.rows} new rows of task ${task.taskId} into ${uri.fsPath} in ${result.batches} batches, marked exported (request IDs ${result.requestIds.join(', ')})`);
  const done = database ? t('Wrote {0} new rows of “{1}” to {2}.', count(result.rows), task.taskName, file) : t('Appended {0} new rows of “{1}” to {2}.', count(result.rows), task.taskName, file);
  inform(done + extra, [show, browseAction(uri), change], deps.ui.showInformationMessage);
  return { outcome: 'pulled', file: uri, rows: result.rows, recovered: result.recovered };
}

function unusable(error: unknown, task: TaskRef, uri: vscode.Uri, deps: PullDeps): PullReply {
  const known = error instanceof UnusableFileError || error instanceof UnsafeFileError || error instanceof DamagedJournalError || error instanceof OtherTaskPendingError;
  if (!known) {
    void deps.reporter.report(withAdvice(error, t('Nothing was pulled from the service or written to {0}.', fileLabel(uri))), 'openPullFile', task.taskName);
    return { outcome: 'unusable', file: uri };
  }
  deps.log.warn(`Refused ${uri.fsPath} for the new rows of task ${task.taskId}: ${error.message}`);
  const other = t('Choose Another File…');
  void deps.ui
    .showErrorMessage(refusalText(error, task.taskName, fileLabel(uri)), other)
    .then((c) => c === other && vscode.commands.executeCommand(COMMANDS.dataPullNewRows, task, { chooseFile: true }));
  return { outcome: 'unusable', file: uri };
}

/** Each stage says what becomes of the rows: the next pull completes the job, exactly once. */
function failed(error: unknown, task: TaskRef, uri: vscode.Uri, deps: PullDeps): PullReply {
  const failure = error instanceof PullFailure ? error : new PullFailure('fetch', 0, 0, error);
  const cause = failure.error;
  const file = fileLabel(uri);
  if (isCancel(cause)) {
    const before = failure.rowsDone > 0 ? ` ${t('{0} rows were written and marked exported before this.', count(failure.rowsDone))}` : '';
    vscode.window.setStatusBarMessage(t('Pulling the new rows of “{0}” stopped.', task.taskName) + before, 5000);
    return { outcome: 'cancelled', file: uri, rows: failure.rowsDone };
  }
  if (cause instanceof UnusableFileError || cause instanceof UnsafeFileError) return unusable(cause, task, uri, deps);
  const what: ErrorContext = failure.stage === 'fetch' ? 'pullNewRows' : failure.stage === 'write' ? 'writeNewRows' : 'markExported';
  const advice = pullAdvice(failure.stage, { rowsDone: failure.rowsDone, batchRows: failure.batchRows, file }, t, count);
  void deps.reporter.report(withAdvice(cause, advice), what, task.taskName);
  return { outcome: 'failed', file: uri, rows: failure.rowsDone };
}
