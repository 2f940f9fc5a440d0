/**
 * Pull New Rows: the task's not-yet-exported rows written to a workspace file (CSV or JSON Lines,
 * appended) or database (SQLite, the task's table), remembered per account and task, then marked
 * exported; exactly once, whatever interrupts it (`pullRows.ts`). One pull per task at a time.
 * What the user is told afterwards is in `pullReplies.ts`.
 */
import * as vscode from 'vscode';

import { errorMessage } from '../../api/errors/errors';
import type { TaskRef } from '../../api/taskRef';
import { COMMANDS } from '../../platform/commandIds';
import { plainText } from '../../platform/plainText';
import { count, fileLabel, jobSignal } from '../common/feedback';
import { refusedInRestrictedMode } from '../postgres/restrictedMode';
import { exists, isMade, markMade, mayWriteUntrusted } from './ownFiles';
import { pgConnectionOf, pgTargetItems } from './postgresTarget';
import { failed, type PullDeps, pulled, type PullReply, targetLabel, unusable } from './pullReplies';
import { pullNewRows, type PullSink } from './pullRows';
import { accountKey } from './rememberedTargets';
import { appendFormatOf, type AppendTarget, chooseAppendTarget, targetProblem } from './targetPicker';
import { openTargetSink } from './targetSink';

const t = vscode.l10n.t;

export type { PullDeps, PullOutcome, PullReply } from './pullReplies';

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
    void ui
      .showInformationMessage(
        t(
          'Open a folder first: Pull New Rows writes the new rows of “{0}” to a file in your workspace.',
          plainText(task.taskName),
        ),
        open,
      )
      .then((c) => c === open && vscode.commands.executeCommand('workbench.action.files.openFolder'));
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
  if (
    remembered !== undefined &&
    remembered.format !== 'postgres' &&
    !trusted &&
    !(await mayWriteUntrusted(records, remembered.uri.fsPath))
  )
    remembered = undefined;
  let target = remembered;
  if (target === undefined) {
    const fields = await taskFields(task, deps);
    // No rows at all: no file to ask for (none could be said to fit), and nothing to pull.
    if (fields === 'no-rows') {
      void ui.showInformationMessage(
        t(
          '“{0}” holds no data at the service, so there is nothing to pull. Pull again after a run has collected rows.',
          plainText(task.taskName),
        ),
      );
      return { outcome: 'nothing-new', rows: 0 };
    }
    target = await chooseAppendTarget(
      task,
      deps.ui,
      fields,
      { trusted, records, namesake: deps.namesakes?.(task) },
      trusted ? pgTargetItems(deps.pgStore) : [],
    );
  }
  if (target === undefined) return { outcome: 'declined' };
  // A remembered server too: an untrusted workspace never makes Scrapedeck connect anywhere.
  if (target.format === 'postgres' && refusedInRestrictedMode(ui)) return { outcome: 'declined', file: target.uri };
  // Checked again after the choice: the account may have changed while the picker was open.
  if (deps.account.account === undefined || accountKey(deps.account.account) !== key) return { outcome: 'signed-out' };

  // One pull per file too: two tasks' batches must not interleave in one file or database.
  const fileKey = `file\n${target.uri.fsPath}`;
  if (deps.busy.has(fileKey)) {
    void ui.showInformationMessage(
      t(
        'Another pull is writing to {0}; pull the new rows of “{1}” when it is done.',
        targetLabel(target.uri, deps),
        plainText(task.taskName),
      ),
    );
    return { outcome: 'busy', file: target.uri };
  }
  const server = pgConnectionOf(target.uri, deps.pgStore);
  if (server === undefined && !trusted && !(await mayWriteUntrusted(records, target.uri.fsPath))) {
    deps.log.warn(
      `Refused ${target.uri.fsPath} for the new rows of task ${task.taskId}: the workspace is in Restricted Mode and the file was not made by a pull`,
    );
    const other = t('Choose Another File…');
    void deps.ui
      .showErrorMessage(
        t(
          'Scrapedeck cannot write the new rows of “{0}” to {1}: this folder is in Restricted Mode, where a pull writes only to a new file, never to one the folder came with. Nothing was pulled or changed.',
          plainText(task.taskName),
          fileLabel(target.uri),
        ),
        other,
      )
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
      sink = await openTargetSink(target, task, isNew, {
        pgStore: deps.pgStore,
        records,
        trusted,
        sqliteDir: deps.sqliteDir,
        sqliteLogDir: deps.sqliteLogDir,
      });
    } catch (error) {
      return unusable(error, task, target.uri, deps);
    }
    try {
      await deps.targets.set(key, task.taskId, target.uri.toString());
      const result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: t('Pulling the new rows of “{0}” into {1}', plainText(task.taskName), targetLabel(target.uri, deps)),
          cancellable: true,
        },
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
      return pulled(result, task, target.uri, deps, isNew);
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
export async function taskFields(
  task: TaskRef,
  deps: Pick<PullDeps, 'account' | 'log'>,
): Promise<string[] | 'no-rows' | undefined> {
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
