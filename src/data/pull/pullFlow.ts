/**
 * Pull New Rows: the task's not-yet-exported rows written to a workspace file (CSV or JSON Lines,
 * appended) or database (SQLite, the task's table), remembered per account and task, then marked
 * exported; exactly once, whatever interrupts it (`pullRows.ts`). One pull per task at a time.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/commandIds';
import type { ErrorContext } from '../../platform/errorText';
import { UnusableFileError } from './unusableFile';
import type { TaskRef } from '../../api/taskRef';
import type { DataFlowDeps } from '../common/dataDeps';
import { browseAction, count, fileLabel, inform, isCancel, jobSignal, openAction, revealAction, withAdvice } from '../common/feedback';
import { pullAdvice } from '../common/failureText';
import { OtherTaskPendingError } from './fileSink';
import { DamagedJournalError } from './pullJournal';
import { PullFailure, pullNewRows, type PullResult, type PullSink } from './pullRows';
import { destinationLabel, openTargetSink } from './targetSink';
import { appendFormatOf, chooseAppendTarget, targetProblem, type AppendTarget } from './targetPicker';
import { accountKey, type PullTargets } from './rememberedTargets';
import { refusalText } from './refusals';
import { exists, isMade, markMade, mayWriteUntrusted } from './ownFiles';
import { UnsafeFileError } from '../../platform/files/safeFiles';
import { errorMessage } from '../../api/errors/errors';
import { plainText } from '../../platform/plainText';
import type { PgConnectionStore } from '../postgres/connectionStore';
import { pgFailureText } from '../postgres/pgFailureText';
import { serverMessage } from '../postgres/pgConnection';
import { pgConnectionOf, pgTargetItems, pgTargetLabel } from './postgresTarget';
import { refusedInRestrictedMode } from '../postgres/restrictedMode';

const t = vscode.l10n.t;

export type PullOutcome = 'pulled' | 'nothing-new' | 'declined' | 'signed-out' | 'no-folder' | 'busy' | 'unusable' | 'cancelled' | 'failed';

export interface PullReply {
  outcome: PullOutcome;
  file?: vscode.Uri;
  rows?: number;
  /** Rows of an interrupted pull found already written and marked without writing them again. */
  recovered?: number;
}

export interface PullDeps extends DataFlowDeps {
  targets: PullTargets;
  /** The folder, in the extension's storage, keeping this account's pull records (`pullJournal.ts`). */
  records: (accountKey: string) => string;
  /** Pulls under way, by account key and task id, and by file. */
  busy: Set<string>;
  /** The user's PostgreSQL connections, offered as destinations. */
  pgStore?: PgConnectionStore;
}

export async function pullData(task: TaskRef, deps: PullDeps, choose = false): Promise<PullReply> {
  const { ui } = deps;
  const account = deps.account.account;
  const client = deps.account.getClient();
  if (account === undefined || client === undefined) {
    void ui.showInformationMessage(t('Sign in to Scrapedeck to pull the new rows of “{0}”.', plainText(task.taskName)));
    return { outcome: 'signed-out' };
  }
  if (!vscode.workspace.workspaceFolders?.some((f) => f.uri.scheme === 'file')) {
    const open = t('Open Folder…');
    void ui.showInformationMessage(t('Open a folder first: Pull New Rows writes the new rows of “{0}” to a file in your workspace.', plainText(task.taskName)), open).then((c) => c === open && vscode.commands.executeCommand('workbench.action.files.openFolder'));
    return { outcome: 'no-folder' };
  }
  const key = accountKey(account);
  const busyKey = `${key}\n${task.taskId}`;
  if (deps.busy.has(busyKey)) {
    void ui.showInformationMessage(t('The new rows of “{0}” are being pulled already.', plainText(task.taskName)));
    return { outcome: 'busy' };
  }

  const records = deps.records(key);
  // Restricted Mode: only a new file, or one a pull made, never a file the workspace came with,
  // and never a server (a workspace must not make Scrapedeck connect anywhere).
  const trusted = ui.isWorkspaceTrusted();
  let remembered = choose ? undefined : rememberedTarget(deps.targets.get(key, task.taskId), deps);
  if (remembered !== undefined && remembered.format !== 'postgres' && !trusted && !(await mayWriteUntrusted(records, remembered.uri.fsPath))) remembered = undefined;
  let target = remembered;
  if (target === undefined) {
    const fields = await taskFields(task, deps);
    // No rows at all: no file to ask for (none could be said to fit), and nothing to pull.
    if (fields === 'no-rows') {
      void ui.showInformationMessage(t('“{0}” holds no data at the service, so there is nothing to pull. Pull again after a run has collected rows.', plainText(task.taskName)));
      return { outcome: 'nothing-new', rows: 0 };
    }
    target = await chooseAppendTarget(task, deps.ui, fields, { trusted, records, namesakes: deps.namesakes?.(task) ?? false }, trusted ? pgTargetItems(deps.pgStore) : []);
  }
  if (target === undefined) return { outcome: 'declined' };
  // A remembered server too: an untrusted workspace never makes Scrapedeck connect anywhere.
  if (target.format === 'postgres' && refusedInRestrictedMode(ui)) return { outcome: 'declined', file: target.uri };
  // Checked again after the choice: the account may have changed while the picker was open.
  if (deps.account.account === undefined || accountKey(deps.account.account) !== key) return { outcome: 'signed-out' };

  // One pull per file too: two tasks' batches must not interleave in one file or database.
  const fileKey = `file\n${target.uri.fsPath}`;
  if (deps.busy.has(fileKey)) {
    void ui.showInformationMessage(t('Another pull is writing to {0}; pull the new rows of “{1}” when it is done.', targetLabel(target.uri, deps), plainText(task.taskName)));
    return { outcome: 'busy', file: target.uri };
  }
  const server = pgConnectionOf(target.uri, deps.pgStore);
  if (server === undefined && !trusted && !(await mayWriteUntrusted(records, target.uri.fsPath))) {
    deps.log.warn(`Refused ${target.uri.fsPath} for the new rows of task ${task.taskId}: the workspace is in Restricted Mode and the file was not made by a pull`);
    const other = t('Choose Another File…');
    void deps.ui
      .showErrorMessage(t('Scrapedeck cannot write the new rows of “{0}” to {1}: this folder is in Restricted Mode, where a pull writes only to a new file, never to one the folder came with. Nothing was pulled or changed.', plainText(task.taskName), fileLabel(target.uri)), other)
      .then((c) => c === other && vscode.commands.executeCommand(COMMANDS.dataPullNewRows, task, { chooseFile: true }));
    return { outcome: 'unusable', file: target.uri };
  }
  const isNew = server === undefined && !(await exists(target.uri.fsPath));
  const ours = server === undefined && (isNew || (await isMade(records, target.uri.fsPath)));
  deps.busy.add(busyKey);
  deps.busy.add(fileKey);
  try {
    let sink: PullSink;
    try {
      // Every pull checks the file again: a remembered file may have become a link since.
      sink = await openTargetSink(target, task, isNew, { pgStore: deps.pgStore, records, trusted, sqliteDir: deps.sqliteDir, sqliteLogDir: deps.sqliteLogDir });
    } catch (error) {
      return unusable(error, task, target.uri, deps);
    }
    try {
      await deps.targets.set(key, task.taskId, target.uri.toString());
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: t('Pulling the new rows of “{0}” into {1}', plainText(task.taskName), targetLabel(target.uri, deps)), cancellable: true },
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
      await sink.close();
      // A CSV that gained a column was rewritten (a new inode): still the file the pull made.
      if (ours) await markMade(records, target.uri.fsPath).catch(() => undefined);
    }
  } catch (error) {
    return failed(error, task, target.uri, deps);
  } finally {
    deps.busy.delete(busyKey);
    deps.busy.delete(fileKey);
  }
}

/** The task's fields, from its first row (one read that marks nothing), for the file picker; 'no-rows' when the service holds none, undefined when they cannot be read. */
export async function taskFields(task: TaskRef, deps: Pick<PullDeps, 'account' | 'log'>): Promise<string[] | 'no-rows' | undefined> {
  try {
    const page = (await deps.account.getClient()?.getData(task.taskId, { offset: 0, size: 1 }))?.data;
    if (page === undefined) return undefined;
    const first = page.data[0];
    if (first === undefined) return page.total === 0 ? 'no-rows' : undefined;
    return Object.keys(first);
  } catch (error) {
    deps.log.warn(`Could not read the fields of task ${task.taskId} for the file picker: ${errorMessage(error)}`);
    return undefined;
  }
}

/** The remembered file, if it is still a CSV, JSON Lines or SQLite file inside an open workspace folder; or a PostgreSQL connection the user still has. */
function rememberedTarget(stored: string | undefined, deps: PullDeps): AppendTarget | undefined {
  if (stored === undefined) return undefined;
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(stored, true);
  } catch {
    return undefined;
  }
  if (pgConnectionOf(uri, deps.pgStore) !== undefined) return { uri, format: 'postgres' };
  const format = appendFormatOf(uri);
  return targetProblem(uri) === undefined && format !== undefined ? { uri, format } : undefined;
}

/** A file by its path in the workspace; a PostgreSQL connection by its user, server, database and schema. */
function targetLabel(uri: vscode.Uri, deps: PullDeps): string {
  return destinationLabel(uri, deps.pgStore);
}

function pulled(result: PullResult, task: TaskRef, uri: vscode.Uri, deps: PullDeps): PullReply {
  const file = targetLabel(uri, deps);
  const server = pgConnectionOf(uri, deps.pgStore) !== undefined;
  const change = { label: t('Change File…'), run: () => vscode.commands.executeCommand(COMMANDS.dataPullNewRows, task, { chooseFile: true }) };
  // A database is opened by an SQLite client (VS Code shows it as binary): Reveal, not Open.
  const database = server || appendFormatOf(uri) === 'sqlite';
  // A server's table has nothing to open or reveal here.
  const show = server ? undefined : database ? revealAction(uri) : openAction(uri);
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
    const base = result.completed ? t('No new rows for “{0}”.', plainText(task.taskName)) : t('No new rows for “{0}”; {1} is unchanged.', plainText(task.taskName), file);
    inform(base + extra, [show, change], deps.ui.showInformationMessage);
    return { outcome: 'nothing-new', file: uri, rows: 0, recovered: result.recovered };
  }
  deps.log.info(`Pulled ${result.rows} new rows of task ${task.taskId} into ${uri.fsPath} in ${result.batches} batches, marked exported (request IDs ${result.requestIds.join(', ')})`);
  const done = database ? t('Wrote {0} new rows of “{1}” to {2}.', count(result.rows), plainText(task.taskName), file) : t('Appended {0} new rows of “{1}” to {2}.', count(result.rows), plainText(task.taskName), file);
  inform(done + extra, [show, browseAction(uri, { taskId: task.taskId }), change], deps.ui.showInformationMessage);
  return { outcome: 'pulled', file: uri, rows: result.rows, recovered: result.recovered };
}

function unusable(error: unknown, task: TaskRef, uri: vscode.Uri, deps: PullDeps): PullReply {
  const server = pgConnectionOf(uri, deps.pgStore);
  if (server !== undefined) {
    // The server's own words go to the log; the user gets one sentence (never a password: pg does not echo it).
    deps.log.warn(`Could not open ${pgTargetLabel(server)} for the new rows of task ${task.taskId}: ${serverMessage(error)}`);
    const sentence = error instanceof Error && error.name === 'MissingPasswordError' ? error.message : pgFailureText(error, server, t);
    void deps.ui.showErrorMessage(`${sentence} ${t('Nothing was pulled from the service or written to {0}.', pgTargetLabel(server))}`);
    return { outcome: 'unusable', file: uri };
  }
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
  const file = targetLabel(uri, deps);
  if (isCancel(cause)) {
    const before = failure.rowsDone > 0 ? ` ${t('{0} rows were written and marked exported before this.', count(failure.rowsDone))}` : '';
    vscode.window.setStatusBarMessage(t('Pulling the new rows of “{0}” stopped.', plainText(task.taskName)) + before, 5000);
    return { outcome: 'cancelled', file: uri, rows: failure.rowsDone };
  }
  if (cause instanceof UnusableFileError || cause instanceof UnsafeFileError) return unusable(cause, task, uri, deps);
  const what: ErrorContext = failure.stage === 'fetch' ? 'pullNewRows' : failure.stage === 'write' ? 'writeNewRows' : 'markExported';
  const advice = pullAdvice(failure.stage, { rowsDone: failure.rowsDone, batchRows: failure.batchRows, file }, t, count);
  void deps.reporter.report(withAdvice(cause, advice), what, task.taskName);
  return { outcome: 'failed', file: uri, rows: failure.rowsDone };
}
