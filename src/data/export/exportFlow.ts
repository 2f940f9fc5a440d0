/**
 * Export Data…: where to (a save dialog; the file name's ending picks CSV, JSON Lines, JSON,
 * Excel or SQLite), then the streamed export (`exportRows.ts`) under a progress notification with
 * rows/total and Cancel, then "Open" and "Reveal in Explorer". A job that the service or the
 * network stopped keeps its temporary file and offers Resume, which continues from the last
 * offset.
 *
 * The rows exported are a task's by default; a `RowSource` names another (one run's rows, by lot
 * number), so other commands reuse this flow as it is.
 */
import { lstat } from 'node:fs/promises';
import * as os from 'node:os';

import * as vscode from 'vscode';

import type { TaskRef } from '../../api/taskRef';
import { composeErrorText } from '../../platform/errorText';
import { UnsafeFileError } from '../../platform/files/safeFiles';
import { plainText } from '../../platform/plainText';
import { copyRequestId } from '../../platform/reporter';
import type { DataFlowDeps } from '../common/dataDeps';
import {
  browseAction,
  count,
  fileLabel,
  inform,
  isCancel,
  jobSignal,
  openAction,
  revealAction,
  withAdvice,
} from '../common/feedback';
import { type DataFormat, FORMAT_EXTENSIONS, formatOfPath, suggestedFileName } from '../formats/rowFormats';
import { exportRefusalText } from '../pull/refusals';
import { type ExportResult, type RowSource, TaskExport } from './exportRows';
import { chooseExportDestination, exportToPostgres, type PgExportDeps } from './pgExportFlow';

const t = vscode.l10n.t;

export type ExportOutcome = 'exported' | 'empty' | 'declined' | 'signed-out' | 'unsupported' | 'cancelled' | 'failed';

export interface ExportReply {
  outcome: ExportOutcome;
  file?: vscode.Uri;
  rows?: number;
}

function filters(): Record<string, string[]> {
  return {
    [t('CSV (comma-separated values)')]: [...FORMAT_EXTENSIONS.csv],
    [t('JSON Lines')]: [...FORMAT_EXTENSIONS.jsonl],
    [t('JSON')]: [...FORMAT_EXTENSIONS.json],
    [t('Excel workbook')]: [...FORMAT_EXTENSIONS.xlsx],
    [t('SQLite database')]: [...FORMAT_EXTENSIONS.sqlite],
  };
}

async function pickFormat(deps: DataFlowDeps, file: string): Promise<DataFormat | undefined> {
  const items: (vscode.QuickPickItem & { format: DataFormat })[] = [
    { label: 'CSV', description: t('UTF-8 with BOM, opens in spreadsheets'), format: 'csv' }, // l10n-exempt: a format's name
    { label: 'JSON Lines', description: t('one JSON object per line'), format: 'jsonl' }, // l10n-exempt: a format's name
    { label: 'JSON', description: t('one array of objects'), format: 'json' }, // l10n-exempt: a format's name
    {
      // l10n-exempt: a format's name
      label: 'Excel (.xlsx)',
      description: t('a workbook; more than 1,048,575 rows continue on the next sheet'),
      format: 'xlsx',
    }, // l10n-exempt: a format's name
    { label: 'SQLite', description: t('a database with one table of the rows'), format: 'sqlite' }, // l10n-exempt: a format's name
  ];
  const picked = await deps.ui.showQuickPick(items, {
    title: t('Which format for {0}?', plainText(file)),
    placeHolder: t('The file name does not say (.csv, .jsonl, .json, .xlsx or .sqlite)'),
  });
  return picked?.format;
}

/** `source`: one run's rows by its lot (Export This Run's Data), or all rows (the default). */
export async function exportData(
  task: TaskRef,
  deps: PgExportDeps,
  source: RowSource = { kind: 'all' },
): Promise<ExportReply> {
  const { ui } = deps;
  if (deps.account.getClient() === undefined) {
    void ui.showInformationMessage(t('Sign in to Scrapedeck to export the data of “{0}”.', plainText(task.taskName)));
    return { outcome: 'signed-out' };
  }
  // The user's PostgreSQL connections, if any, beside the files (`pgExportFlow.ts`).
  const server = await chooseExportDestination(task, deps);
  if (server === 'declined') return { outcome: 'declined' };
  if (server !== undefined) return exportToPostgres(task, server, deps, source);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const lot = source.kind === 'lot' ? source.lotNo : undefined;
  const target = await ui.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(
      folder,
      `${suggestedFileName(task, deps.namesakes?.(task), lot === undefined ? '' : ` run ${lot}`)}.csv`,
    ),
    filters: filters(),
    saveLabel: t('Export'),
    title:
      lot === undefined
        ? t('Export the Data of “{0}”', plainText(task.taskName))
        : t('Export the Data of Run {0} of “{1}”', lot, plainText(task.taskName)),
  });
  if (target === undefined) return { outcome: 'declined' };
  if (target.scheme !== 'file') {
    void ui.showErrorMessage(
      t(
        'Scrapedeck can export the data of “{0}” only to a file on this machine, not to {1}.',
        plainText(task.taskName),
        target.toString(true),
      ),
    );
    return { outcome: 'unsupported' };
  }
  // Restricted Mode: an export makes a new file; it never replaces one the folder came with.
  if (
    !vscode.workspace.isTrusted &&
    (await lstat(target.fsPath).then(
      () => true,
      () => false,
    ))
  ) {
    void ui.showErrorMessage(
      t(
        'Scrapedeck cannot export the data of “{0}” to {1}: this folder is in Restricted Mode, where an export makes only a new file and never replaces one. Nothing was written.',
        plainText(task.taskName),
        fileLabel(target),
      ),
    );
    return { outcome: 'declined' };
  }
  const format = formatOfPath(target.fsPath) ?? (await pickFormat(deps, fileLabel(target)));
  if (format === undefined) return { outcome: 'declined' };

  // The client of the account signed in now; a sign-out or switch cancels the job (jobSignal).
  const client = deps.account.getClient();
  if (client === undefined) return { outcome: 'signed-out' };
  const job = new TaskExport(client, {
    taskId: task.taskId,
    taskName: task.taskName,
    target: target.fsPath,
    format,
    source,
    // Inside a workspace folder, no folder on the way down from it may be a link.
    root: vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath,
    wasmDir: deps.sqliteDir,
    ledger: deps.tempLedger,
  });
  return runExport(job, task, target, deps);
}

/** One run of the job under a progress notification; again after Resume. */
async function runExport(job: TaskExport, task: TaskRef, target: vscode.Uri, deps: DataFlowDeps): Promise<ExportReply> {
  const title = t('Exporting the data of “{0}”', plainText(task.taskName));
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        const scope = jobSignal(token, deps.account.onDidChange);
        let shown = 0;
        try {
          return await job.run({
            signal: scope.signal,
            onProgress: (p) => {
              const percent = p.total > 0 ? Math.min(100, (p.rows / p.total) * 100) : 0;
              const message =
                p.phase === 'widening'
                  ? t('adding the columns found late to the earlier rows…')
                  : t('{0} of {1} rows', count(p.rows), count(p.total));
              progress.report({ message, increment: percent - shown });
              shown = percent;
            },
          });
        } finally {
          scope.dispose();
        }
      },
    );
    return done(result, task, target, deps);
  } catch (error) {
    return failed(error, job, task, target, deps);
  }
}

function done(result: ExportResult, task: TaskRef, target: vscode.Uri, deps: DataFlowDeps): ExportReply {
  if (result.rows === 0) {
    void deps.ui.showInformationMessage(
      t('“{0}” has no rows to export; no file was written.', plainText(task.taskName)),
    );
    return { outcome: 'empty', rows: 0 };
  }
  deps.log.info(
    `Exported ${result.rows} rows of task ${task.taskId} to ${target.fsPath}${result.widened ? ' (columns found late: earlier rows padded)' : ''}${result.table ? ` (table "${result.table}")` : ''}${result.cutCells ? ` (${result.cutCells} cells cut at 32,767 characters)` : ''}`,
  );
  const notes = [
    result.table === undefined ? '' : ` ${t('The rows are in its table “{0}”.', result.table)}`,
    result.cutCells
      ? ` ${t('{0} cells held more text than Excel keeps in a cell (32,767 characters) and were cut there; CSV or JSON keeps all of it.', count(result.cutCells))}`
      : '',
  ].join('');
  // An SQLite file is opened by other programs (VS Code shows it as binary): Reveal, not Open.
  // Every file an export writes but Excel's opens in the data browser too (a database at its new table).
  const browse = browseAction(target, result.table === undefined ? undefined : { table: result.table });
  const actions =
    result.table === undefined ? [openAction(target), revealAction(target), browse] : [revealAction(target), browse];
  const done =
    result.rows === 1
      ? t('Exported 1 row of “{0}” to {1}.', plainText(task.taskName), fileLabel(target))
      : t('Exported {0} rows of “{1}” to {2}.', count(result.rows), plainText(task.taskName), fileLabel(target));
  inform(done + notes, actions, deps.ui.showInformationMessage);
  return { outcome: 'exported', file: target, rows: result.rows };
}

function failed(error: unknown, job: TaskExport, task: TaskRef, target: vscode.Uri, deps: DataFlowDeps): ExportReply {
  if (isCancel(error)) {
    // Cancelled (or the account changed): the temporary file is gone and the chosen name untouched.
    vscode.window.setStatusBarMessage(
      t('Export of “{0}” cancelled; nothing was written.', plainText(task.taskName)),
      5000,
    );
    return { outcome: 'cancelled', rows: job.rowsWritten };
  }
  if (job.resumable) {
    void offerResume(error, job, task, target, deps);
    return { outcome: 'failed', rows: job.rowsWritten };
  }
  if (error instanceof UnsafeFileError) {
    deps.log.warn(`Refused to export task ${task.taskId} to ${target.fsPath}: ${error.message}`);
    void deps.ui.showErrorMessage(plainText(exportRefusalText(error, task.taskName, fileLabel(target))));
    return { outcome: 'failed', rows: 0 };
  }
  void deps.reporter.report(
    withAdvice(error, t('Nothing was written to {0}.', fileLabel(target))),
    'exportData',
    task.taskName,
  );
  return { outcome: 'failed', rows: job.rowsWritten };
}

/**
 * The service or the network stopped the export after the reader's own resumes: say how far it
 * got, and let the user continue from there or drop the partial temporary file.
 */
async function offerResume(
  error: unknown,
  job: TaskExport,
  task: TaskRef,
  target: vscode.Uri,
  deps: DataFlowDeps,
): Promise<void> {
  const { text: reason, requestId } = composeErrorText(error, 'exportData', task.taskName, t);
  deps.log.error(
    `Exporting task ${task.taskId} stopped after ${job.rowsWritten} rows: ${reason}${requestId ? ` (request ID ${requestId})` : ''}`,
  );
  const resume = t('Resume');
  const discard = t('Discard');
  const copy = t('Copy Request ID');
  const text = `${reason} ${t('It stopped after {0} of {1} rows. Resume continues from there; nothing was written to {2} yet.', count(job.rowsWritten), count(job.rowsTotal), fileLabel(target))}`;
  deps.openJobs?.add(job);
  for (;;) {
    const choice = await deps.ui.showErrorMessage(text, ...[resume, discard, ...(requestId ? [copy] : [])]);
    if (choice === copy && requestId) {
      await copyRequestId(requestId);
      continue; // copying is not an answer: ask again
    }
    deps.openJobs?.delete(job);
    if (choice === resume) await runExport(job, task, target, deps);
    else await job.discard();
    return;
  }
}
