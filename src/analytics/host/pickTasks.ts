/**
 * "Choose tasks…" for the analytics form: a multi-select quick pick over the user's tasks with
 * the current selection already ticked. `vscode` is imported for types only (tests run in Node).
 */
import type * as vscode from 'vscode';

import { ApiError } from '../../api/errors/errors';
import { ANALYTICS_LIMITS } from '../../api/schemas/schemas';
import { english, type Translate } from '../../platform/errorText';
import { plainText } from '../../platform/plainText';
import type { Ui } from '../../platform/ui';

export interface TaskListing {
  taskId: string;
  taskName: string;
  taskGroupName: string;
}

interface TaskItem extends vscode.QuickPickItem {
  taskId: string;
  taskName: string;
}

export interface PickTasksDeps {
  listTasks(signal?: AbortSignal): Promise<TaskListing[]>;
  ui: Pick<Ui, 'showQuickPick'>;
  /** vscode.l10n.t in the extension; English in tests. */
  t?: Translate;
}

/** The chosen tasks (none chosen = all tasks), or undefined when the user dismissed the pick. */
export async function pickTasks(
  deps: PickTasksDeps,
  selected: readonly string[],
  signal?: AbortSignal,
): Promise<{ taskIds: string[]; taskLabels: string[] } | undefined> {
  const t = deps.t ?? english;
  const items = buildItems(await deps.listTasks(signal), selected, t);
  // The Ui seam types the single-pick overload; with canPickMany VS Code resolves to an array.
  const answer: unknown = await deps.ui.showQuickPick(items, {
    canPickMany: true,
    title: t('Tasks to Chart'),
    placeHolder: t('Pick up to {0} tasks, or none for all your tasks', ANALYTICS_LIMITS.maxTaskIds),
    matchOnDescription: true,
  });
  if (answer === undefined) return undefined;
  const picked = (Array.isArray(answer) ? answer : [answer]).filter((p): p is TaskItem =>
    items.includes(p as TaskItem),
  );
  if (picked.length > ANALYTICS_LIMITS.maxTaskIds) {
    throw new ApiError({
      kind: 'invalid-request',
      field: 'taskIds',
      message: t('A query takes at most {0} tasks; {1} were picked.', ANALYTICS_LIMITS.maxTaskIds, picked.length),
    });
  }
  return { taskIds: picked.map((p) => p.taskId), taskLabels: picked.map((p) => p.taskName) };
}

/** One item per task, ticked when selected; selected ids missing from the list stay visible (and ticked). */
export function buildItems(
  tasks: readonly TaskListing[],
  selected: readonly string[],
  t: Translate = english,
): TaskItem[] {
  const chosen = new Set(selected);
  const seen = new Set<string>();
  const items: TaskItem[] = [];
  for (const task of tasks) {
    if (seen.has(task.taskId)) continue;
    seen.add(task.taskId);
    items.push({
      label: plainText(task.taskName || task.taskId),
      description: plainText(task.taskGroupName),
      picked: chosen.has(task.taskId),
      taskId: task.taskId,
      taskName: task.taskName || task.taskId,
    });
  }
  for (const taskId of selected) {
    if (seen.has(taskId)) continue;
    seen.add(taskId);
    items.push({ label: taskId, description: t('not in your task list'), picked: true, taskId, taskName: taskId });
  }
  return items;
}
