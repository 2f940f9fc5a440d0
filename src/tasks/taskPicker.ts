/**
 * The palette's first question for a command that acts on one task: which task? Every task of the
 * account, its group beside it (two tasks may share a name), names shown as plain text.
 */
import type * as vscode from 'vscode';

import { plainText } from '../platform/plainText';
import type { Reporter } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import type { TaskRow } from './taskReads';

export interface TaskPickerDeps {
  ui: Pick<Ui, 'showQuickPick'>;
  reporter: Pick<Reporter, 'report'>;
  listTasks(): Promise<readonly TaskRow[]>;
}

/** The chosen task, or undefined when the list could not be read (reported) or the user cancelled. */
export async function pickTask(
  deps: TaskPickerDeps,
  question: { title: string; placeHolder: string },
): Promise<TaskRow | undefined> {
  let rows: readonly TaskRow[];
  try {
    rows = await deps.listTasks();
  } catch (error) {
    void deps.reporter.report(error, 'loadTasks');
    return undefined;
  }
  const items: (vscode.QuickPickItem & { row: TaskRow })[] = rows.map((row) => ({
    label: plainText(row.taskName),
    description: plainText(row.taskGroupName),
    row,
  }));
  const picked = await deps.ui.showQuickPick(items, { ...question, matchOnDescription: true });
  return picked?.row;
}
