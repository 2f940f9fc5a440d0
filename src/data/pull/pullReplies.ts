/**
 * What Pull New Rows tells the user once a pull has run, could not open its destination, or
 * stopped (split from `pullFlow.ts`, which picks the destination and runs the pull, to keep each
 * file small): the reply, its message and its next steps. Also the flow's reply and deps types.
 */
import * as vscode from 'vscode';

import type { TaskRef } from '../../api/taskRef';
import { COMMANDS } from '../../platform/commandIds';
import type { ErrorContext } from '../../platform/errorText';
import { UnsafeFileError } from '../../platform/files/safeFiles';
import { plainText } from '../../platform/plainText';
import type { DataFlowDeps } from '../common/dataDeps';
import { pullAdvice } from '../common/failureText';
import {
  browseAction,
  count,
  fileLabel,
  inform,
  isCancel,
  openAction,
  revealAction,
  withAdvice,
} from '../common/feedback';
import type { PgConnectionStore } from '../postgres/connectionStore';
import { serverMessage } from '../postgres/pgConnection';
import { pgFailureText } from '../postgres/pgFailureText';
import { OtherTaskPendingError } from './fileSink';
import { pgConnectionOf, pgTargetLabel } from './postgresTarget';
import { DamagedJournalError } from './pullJournal';
import { PullFailure, type PullResult } from './pullRows';
import { refusalText } from './refusals';
import type { PullTargets } from './rememberedTargets';
import { appendFormatOf } from './targetPicker';
import { destinationLabel } from './targetSink';
import { UnusableFileError } from './unusableFile';

const t = vscode.l10n.t;

export type PullOutcome =
  'pulled' | 'nothing-new' | 'declined' | 'signed-out' | 'no-folder' | 'busy' | 'unusable' | 'cancelled' | 'failed';

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

/** A file by its path in the workspace; a PostgreSQL connection by its user, server, database and schema. */
export function targetLabel(uri: vscode.Uri, deps: PullDeps): string {
  return destinationLabel(uri, deps.pgStore);
}

/** `isNew`: the pull made the file (it says "Wrote"; rows added to a file that was there say "Appended"). */
export function pulled(result: PullResult, task: TaskRef, uri: vscode.Uri, deps: PullDeps, isNew = false): PullReply {
  const file = targetLabel(uri, deps);
  const server = pgConnectionOf(uri, deps.pgStore) !== undefined;
  const change = {
    label: t('Change File…'),
    run: () => vscode.commands.executeCommand(COMMANDS.dataPullNewRows, task, { chooseFile: true }),
  };
  // A database is opened by an SQLite client (VS Code shows it as binary): Reveal, not Open.
  const database = server || appendFormatOf(uri) === 'sqlite';
  // A server's table has nothing to open or reveal here.
  const show = server ? undefined : database ? revealAction(uri) : openAction(uri);
  const notes: string[] = [];
  if (result.completed) {
    deps.log.info(
      `Completed an interrupted pull of task ${task.taskId} into ${uri.fsPath}: ${result.recovered} rows were in the file already and were marked without writing them again`,
    );
    notes.push(
      result.recovered > 0
        ? t(
            'An interrupted pull was completed: {0} of its rows were already in {1} and were not written again.',
            count(result.recovered),
            file,
          )
        : t('An interrupted pull was completed: its rows were not in {0} yet and were written now.', file),
    );
  }
  if (result.cutBytes > 0) {
    deps.log.warn(
      `Cut ${result.cutBytes} bytes of a partial row from ${uri.fsPath}: the batch had been marked exported elsewhere`,
    );
    notes.push(
      t(
        'A partial row left in {0} by an interrupted pull was removed: its batch had been marked exported meanwhile, so its rows may be missing from the file.',
        file,
      ),
    );
  }
  if (result.more) notes.push(t('More rows arrived meanwhile: pull again for them.'));
  const extra = notes.length > 0 ? ` ${notes.join(' ')}` : '';
  if (result.rows === 0) {
    const base = result.completed
      ? t('No new rows for “{0}”.', plainText(task.taskName))
      : t('No new rows for “{0}”; {1} is unchanged.', plainText(task.taskName), file);
    inform(base + extra, [show, change], deps.ui.showInformationMessage);
    return { outcome: 'nothing-new', file: uri, rows: 0, recovered: result.recovered };
  }
  deps.log.info(
    `Pulled ${result.rows} new rows of task ${task.taskId} into ${uri.fsPath} in ${result.batches} batches, marked exported (request IDs ${result.requestIds.join(', ')})`,
  );
  const done =
    server || isNew
      ? t('Wrote {0} new rows of “{1}” to {2}.', count(result.rows), plainText(task.taskName), file)
      : t('Appended {0} new rows of “{1}” to {2}.', count(result.rows), plainText(task.taskName), file);
  inform(done + extra, [show, browseAction(uri, { taskId: task.taskId }), change], deps.ui.showInformationMessage);
  return { outcome: 'pulled', file: uri, rows: result.rows, recovered: result.recovered };
}

export function unusable(error: unknown, task: TaskRef, uri: vscode.Uri, deps: PullDeps): PullReply {
  const server = pgConnectionOf(uri, deps.pgStore);
  if (server !== undefined) {
    // The server's own words go to the log; the user gets one sentence (never a password: pg does not echo it).
    deps.log.warn(
      `Could not open ${pgTargetLabel(server)} for the new rows of task ${task.taskId}: ${serverMessage(error)}`,
    );
    const sentence =
      error instanceof Error && error.name === 'MissingPasswordError' ? error.message : pgFailureText(error, server, t);
    void deps.ui.showErrorMessage(
      `${sentence} ${t('Nothing was pulled from the service or written to {0}.', pgTargetLabel(server))}`,
    );
    return { outcome: 'unusable', file: uri };
  }
  const known =
    error instanceof UnusableFileError ||
    error instanceof UnsafeFileError ||
    error instanceof DamagedJournalError ||
    error instanceof OtherTaskPendingError;
  if (!known) {
    void deps.reporter.report(
      withAdvice(error, t('Nothing was pulled from the service or written to {0}.', fileLabel(uri))),
      'openPullFile',
      task.taskName,
    );
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
export function failed(error: unknown, task: TaskRef, uri: vscode.Uri, deps: PullDeps): PullReply {
  const failure = error instanceof PullFailure ? error : new PullFailure('fetch', 0, 0, error);
  const cause = failure.error;
  const file = targetLabel(uri, deps);
  if (isCancel(cause)) {
    const before =
      failure.rowsDone > 0
        ? ` ${t('{0} rows were written and marked exported before this.', count(failure.rowsDone))}`
        : '';
    vscode.window.setStatusBarMessage(
      t('Pulling the new rows of “{0}” stopped.', plainText(task.taskName)) + before,
      5000,
    );
    return { outcome: 'cancelled', file: uri, rows: failure.rowsDone };
  }
  if (cause instanceof UnusableFileError || cause instanceof UnsafeFileError) return unusable(cause, task, uri, deps);
  const what: ErrorContext =
    failure.stage === 'fetch' ? 'pullNewRows' : failure.stage === 'write' ? 'writeNewRows' : 'markExported';
  const advice = pullAdvice(
    failure.stage,
    { rowsDone: failure.rowsDone, batchRows: failure.batchRows, file },
    t,
    count,
  );
  void deps.reporter.report(withAdvice(cause, advice), what, task.taskName);
  return { outcome: 'failed', file: uri, rows: failure.rowsDone };
}
