/**
 * Remove Data…: deletes every row the service holds for a task, which cannot be undone. The task
 * is named as the service names its id in this account (not as the caller passed it), and asked
 * about twice (`platform/confirm.ts`): a modal, then the name typed exactly (Enter alone never
 * confirms). Nothing is sent unless both answers are right and the account is still the one asked
 * for.
 */
import * as vscode from 'vscode';

import { isApiError } from '../api/errors/errors';
import { serviceTaskNames } from '../api/taskNames';
import type { TaskRef } from '../api/taskRef';
import { confirmDestructive } from '../platform/confirm';
import { plainText } from '../platform/plainText';
import type { DataFlowDeps } from './common/dataDeps';

const t = vscode.l10n.t;

export type RemoveOutcome = 'removed' | 'declined' | 'mismatch' | 'signed-out' | 'unknown-task' | 'failed';

/** A typed name longer than this is cut (with "…", which is then typed too): names are rarely near it. */
const TYPED_NAME_MAX = 200;

/** `closeBrowsers`: closes the task's data browsers (their rows are gone). */
export async function removeData(
  task: TaskRef,
  deps: DataFlowDeps,
  closeBrowsers: (taskId: string) => void,
): Promise<RemoveOutcome> {
  const { ui } = deps;
  const client = deps.account.getClient();
  if (client === undefined) {
    void ui.showInformationMessage(t('Sign in to Scrapedeck to remove the data of “{0}”.', plainText(task.taskName)));
    return 'signed-out';
  }
  let serviceName: string | undefined;
  try {
    serviceName = (await serviceTaskNames(client, [task.taskId], deps.knownTaskNames)).get(task.taskId);
  } catch (error) {
    if (isApiError(error) && error.kind === 'cancelled') return 'failed';
    void deps.reporter.report(error, 'removeData', plainText(task.taskName));
    return 'failed';
  }
  if (serviceName === undefined) {
    void ui.showWarningMessage(
      t('This account has no task with the id {0}, so nothing was removed.', plainText(task.taskId, 80)),
    );
    return 'unknown-task';
  }
  const name = plainText(serviceName, TYPED_NAME_MAX);
  const answer = await confirmDestructive(ui, {
    message: t('Remove all data of “{0}”?', plainText(serviceName)),
    detail: t(
      'Every row the service holds for this task is deleted. This cannot be undone: export the data first if you may need it. You will be asked to type the task name.',
    ),
    action: t('Remove Data…'),
    keep: t('Keep the Data'),
    typed: {
      title: t('Remove All Data of “{0}” (2/2)', plainText(serviceName)),
      prompt: t('Type the task name, {0}, to remove its data for good.', name),
      expected: name,
      mismatch: t('Type “{0}” exactly (it cannot be undone).', name),
    },
  });
  if (answer === 'declined') return 'declined';
  if (answer === 'mismatch') {
    void ui.showWarningMessage(t('Nothing was removed: the name typed is not “{0}”.', name));
    return 'mismatch';
  }

  // The same client, or nothing: another account (or a changed address) was not the one asked for.
  if (deps.account.getClient() !== client) {
    void ui.showWarningMessage(
      t(
        'The Scrapedeck account changed while you were asked, so the data of “{0}” was not removed.',
        plainText(serviceName),
      ),
    );
    return 'signed-out';
  }
  try {
    // Not cancellable: once sent, a cancel could not say whether the rows are gone.
    const r = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: t('Removing the data of “{0}”…', plainText(serviceName)),
      },
      () => client.removeData(task.taskId),
    );
    deps.log.info(`Removed the data of task ${task.taskId}${r.requestId ? ` (request ID ${r.requestId})` : ''}`);
    closeBrowsers(task.taskId);
    deps.onDataRemoved?.(task.taskId);
    void ui.showInformationMessage(t('Removed all data of “{0}”.', plainText(serviceName)));
    return 'removed';
  } catch (error) {
    // A maybeApplied error's message already says to check before trying again (e.g. Browse Data).
    void deps.reporter.report(error, 'removeData', plainText(serviceName));
    return 'failed';
  }
}
