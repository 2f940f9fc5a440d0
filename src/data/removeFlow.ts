/**
 * Remove Data…: deletes every row the service holds for a task, which cannot be undone. Asked
 * twice: a modal, then the task's name typed exactly (Enter alone never confirms). Nothing is
 * sent unless both answers are right.
 */
import * as vscode from 'vscode';
import type { DataDeps, TaskRef } from './dataDeps';
import type { PreviewDocs } from './previewDocs';

const t = vscode.l10n.t;

export type RemoveOutcome = 'removed' | 'declined' | 'mismatch' | 'signed-out' | 'failed';

export async function removeData(task: TaskRef, deps: DataDeps, docs: PreviewDocs): Promise<RemoveOutcome> {
  const { ui } = deps;
  if (deps.account.getClient() === undefined) {
    void ui.showInformationMessage(t('Sign in to Scrapedeck to remove the data of “{0}”.', task.taskName));
    return 'signed-out';
  }
  const button = t('Remove Data…');
  const answer = await ui.showModalWarning(
    t('Remove all data of “{0}”?', task.taskName),
    t('Every row the service holds for this task is deleted. This cannot be undone: export the data first if you may need it. You will be asked to type the task name.'),
    button,
  );
  if (answer !== button) return 'declined';

  const typed = await ui.showInputBox({
    title: t('Remove All Data of “{0}”', task.taskName),
    prompt: t('Type the task name, {0}, to remove its data for good.', task.taskName),
    placeHolder: task.taskName,
    ignoreFocusOut: true,
    validateInput: (value) => (value === task.taskName ? undefined : t('Type “{0}” exactly (it cannot be undone).', task.taskName)),
  });
  if (typed === undefined) return 'declined';
  if (typed !== task.taskName) {
    void ui.showWarningMessage(t('Nothing was removed: the name typed is not “{0}”.', task.taskName));
    return 'mismatch';
  }

  // The client now: the account may have changed while the questions were open.
  const client = deps.account.getClient();
  if (client === undefined) return 'signed-out';
  try {
    // Not cancellable: once sent, a cancel could not say whether the rows are gone.
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Removing the data of “{0}”…', task.taskName) }, () => client.removeData(task.taskId));
    deps.log.info(`Removed the data of task ${task.taskId}${r.requestId ? ` (request ID ${r.requestId})` : ''}`);
    docs.forgetTask(task.taskId);
    deps.onDataRemoved?.(task.taskId);
    void ui.showInformationMessage(t('Removed all data of “{0}”.', task.taskName));
    return 'removed';
  } catch (error) {
    // A maybeApplied error's message already says to check before trying again (e.g. Preview Data).
    void deps.reporter.report(error, 'removeData', task.taskName);
    return 'failed';
  }
}
