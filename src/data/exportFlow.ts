/**
 * Export Data…: where to (a save dialog; the file name's ending picks CSV, JSON Lines or JSON),
 * then the streamed export (`exportRows.ts`) under a progress notification with rows/total and
 * Cancel, then "Open" and "Reveal in Explorer". A job that the service or the network stopped
 * keeps its temporary file and offers Resume, which continues from the last offset.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { copyRequestId } from '../platform/errors';
import { composeErrorText } from '../platform/errorText';
import type { DataDeps, TaskRef } from './dataDeps';
import { TaskExport, type ExportResult } from './exportRows';
import { count, fileLabel, inform, isCancel, jobSignal, openAction, revealAction, withAdvice } from './feedback';
import { FORMAT_EXTENSIONS, formatOfPath, safeFileName, type DataFormat } from './rowFormats';

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
  };
}

async function pickFormat(deps: DataDeps, file: string): Promise<DataFormat | undefined> {
  const items: (vscode.QuickPickItem & { format: DataFormat })[] = [
    { label: 'CSV', description: t('UTF-8 with BOM, opens in spreadsheets'), format: 'csv' }, // l10n-exempt: a format's name
    { label: 'JSON Lines', description: t('one JSON object per line'), format: 'jsonl' }, // l10n-exempt: a format's name
    { label: 'JSON', description: t('one array of objects'), format: 'json' }, // l10n-exempt: a format's name
  ];
  const picked = await deps.ui.showQuickPick(items, { title: t('Which format for {0}?', file), placeHolder: t('The file name does not say (.csv, .jsonl or .json)') });
  return picked?.format;
}

export async function exportData(task: TaskRef, deps: DataDeps): Promise<ExportReply> {
  const { ui } = deps;
  if (deps.account.getClient() === undefined) {
    void ui.showInformationMessage(t('Sign in to Scrapedeck to export the data of “{0}”.', task.taskName));
    return { outcome: 'signed-out' };
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const target = await ui.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(folder, `${safeFileName(task.taskName)}.csv`),
    filters: filters(),
    saveLabel: t('Export'),
    title: t('Export the Data of “{0}”', task.taskName),
  });
  if (target === undefined) return { outcome: 'declined' };
  if (target.scheme !== 'file') {
    void ui.showErrorMessage(t('Scrapedeck can export the data of “{0}” only to a file on this machine, not to {1}.', task.taskName, target.toString(true)));
    return { outcome: 'unsupported' };
  }
  const format = formatOfPath(target.fsPath) ?? (await pickFormat(deps, fileLabel(target)));
  if (format === undefined) return { outcome: 'declined' };

  // The client of the account signed in now; a sign-out or switch cancels the job (jobSignal).
  const client = deps.account.getClient();
  if (client === undefined) return { outcome: 'signed-out' };
  const job = new TaskExport(client, { taskId: task.taskId, target: target.fsPath, format });
  return runExport(job, task, target, deps);
}

/** One run of the job under a progress notification; again after Resume. */
async function runExport(job: TaskExport, task: TaskRef, target: vscode.Uri, deps: DataDeps): Promise<ExportReply> {
  const title = t('Exporting the data of “{0}”', task.taskName);
  try {
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const scope = jobSignal(token, deps.account.onDidChange);
      let shown = 0;
      try {
        return await job.run({
          signal: scope.signal,
          onProgress: (p) => {
            const percent = p.total > 0 ? Math.min(100, (p.rows / p.total) * 100) : 0;
            const message = p.phase === 'widening' ? t('adding the columns found late to the earlier rows…') : t('{0} of {1} rows', count(p.rows), count(p.total));
            progress.report({ message, increment: percent - shown });
            shown = percent;
          },
        });
      } finally {
        scope.dispose();
      }
    });
    return done(result, task, target, deps);
  } catch (error) {
    return failed(error, job, task, target, deps);
  }
}

function done(result: ExportResult, task: TaskRef, target: vscode.Uri, deps: DataDeps): ExportReply {
  if (result.rows === 0) {
    void deps.ui.showInformationMessage(t('“{0}” has no rows to export; no file was written.', task.taskName));
    return { outcome: 'empty', rows: 0 };
  }
  deps.log.info(`Exported ${result.rows} rows of task ${task.taskId} to ${target.fsPath}${result.widened ? ' (columns found late: earlier rows padded)' : ''}`);
  const done = result.rows === 1 ? t('Exported 1 row of “{0}” to {1}.', task.taskName, fileLabel(target)) : t('Exported {0} rows of “{1}” to {2}.', count(result.rows), task.taskName, fileLabel(target));
  inform(done, [openAction(target), revealAction(target)], deps.ui.showInformationMessage);
  return { outcome: 'exported', file: target, rows: result.rows };
}

function failed(error: unknown, job: TaskExport, task: TaskRef, target: vscode.Uri, deps: DataDeps): ExportReply {
  if (isCancel(error)) {
    // Cancelled (or the account changed): the temporary file is gone and the chosen name untouched.
    vscode.window.setStatusBarMessage(t('Export of “{0}” cancelled; nothing was written.', task.taskName), 5000);
    return { outcome: 'cancelled', rows: job.rowsWritten };
  }
  if (job.resumable) {
    void offerResume(error, job, task, target, deps);
    return { outcome: 'failed', rows: job.rowsWritten };
  }
  void deps.reporter.report(withAdvice(error, t('Nothing was written to {0}.', fileLabel(target))), 'exportData', task.taskName);
  return { outcome: 'failed', rows: job.rowsWritten };
}

/**
 * The service or the network stopped the export after the reader's own resumes: say how far it
 * got, and let the user continue from there or drop the partial temporary file.
 */
async function offerResume(error: unknown, job: TaskExport, task: TaskRef, target: vscode.Uri, deps: DataDeps): Promise<void> {
  const { text: reason, requestId } = composeErrorText(error, 'exportData', task.taskName, t);
  deps.log.error(`Exporting task ${task.taskId} stopped after ${job.rowsWritten} rows: ${reason}${requestId ? ` (request ID ${requestId})` : ''}`);
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
