/**
 * Commands of the Tasks view: refresh, filter, paging, copy id, Duplicate Task and Move to Group…
 * (the copy and the move are made by runs; the tree is drawn again here). These only act on the view (index.ts).
 */
import * as vscode from 'vscode';

import type { TaskRef } from '../api/taskRef';
import { defineHandlers } from '../platform/commandHandlers';
import { COMMANDS } from '../platform/commandIds';
import { plainText } from '../platform/plainText';
import { groupArgSchema, taskArgSchema } from '../platform/treeArgs';
import type { Ui } from '../platform/ui';
import type { TasksTreeProvider } from './tasksProvider';

const t = vscode.l10n.t;

export interface TaskCommandDeps {
  tasks: { provider: Pick<TasksTreeProvider, 'refresh' | 'loadMore' | 'model'>; setFilter(text: string): void };
  ui: Pick<Ui, 'showInputBox'>;
  /** Copies a task (runs/organise.ts); undefined when nothing was copied. */
  duplicate?: (task: TaskRef) => Promise<unknown>;
  /** The rows selected in the Tasks view. */
  selection?: () => readonly unknown[];
  /** Move to Group… (moveToGroup.ts); absent when runs are not wired. */
  moveToGroup?: (arg: unknown, selection: unknown) => Promise<unknown>;
}

export function taskCommands(deps: TaskCommandDeps) {
  const { tasks, duplicate } = deps;
  return defineHandlers({
    tasksRefresh: () => tasks.provider.refresh(),

    tasksFilter: async () => {
      const text = await deps.ui.showInputBox({
        title: t('Filter Tasks by Name'),
        prompt: t(
          'Shows the tasks and groups whose name contains this text (case does not matter). Empty clears the filter.',
        ),
        placeHolder: t('e.g. amazon'),
        value: tasks.provider.model.filter,
      });
      if (text === undefined) return; // Escape keeps the current filter
      tasks.setFilter(text);
    },

    tasksClearFilter: () => tasks.setFilter(''),

    // Enter in the Tasks view (a click only selects, so several rows can be picked): a task opens
    // its analytics; any other row does what Enter does in a list (open a group, load more).
    tasksOpenSelected: async (arg) => {
      const picked = taskArgSchema.safeParse(arg);
      const selection = deps.selection?.() ?? [];
      const only = selection.length === 1 ? taskArgSchema.safeParse(selection[0]) : undefined;
      const task = picked.success ? picked.data : only?.success === true ? only.data : undefined;
      if (task === undefined) return vscode.commands.executeCommand('list.select');
      return vscode.commands.executeCommand(COMMANDS.analyticsOpenForTask, {
        task: { taskId: task.taskId, taskName: task.taskName },
      });
    },

    tasksLoadMore: (arg) => {
      const group = groupArgSchema.safeParse(arg);
      if (group.success) tasks.provider.loadMore(group.data.taskGroupId);
    },

    tasksCopyId: async (arg) => {
      const task = taskArgSchema.safeParse(arg);
      if (!task.success) return;
      await vscode.env.clipboard.writeText(task.data.taskId);
      vscode.window.setStatusBarMessage(`$(copy) ${t('Copied the ID of “{0}”', plainText(task.data.taskName))}`, 3000);
    },

    tasksMoveToGroup: (arg, selection) => deps.moveToGroup?.(arg, selection),

    tasksDuplicate: async (arg) => {
      const task = taskArgSchema.safeParse(arg);
      if (!task.success || duplicate === undefined) return undefined;
      const copy = await duplicate(task.data);
      if (copy !== undefined) tasks.provider.refresh();
      return copy;
    },
  });
}
