/**
 * Commands of the Tasks view: refresh, filter, paging and copy id. The view itself is
 * `views/tasks`; these only act on it.
 */
import * as vscode from 'vscode';
import type { CommandDeps, Handlers } from './deps';
import { groupArgSchema, taskArgSchema } from './treeArgs';

const t = vscode.l10n.t;

export function taskCommands(deps: Pick<CommandDeps, 'views' | 'ui'>): Handlers<'tasksRefresh' | 'tasksFilter' | 'tasksClearFilter' | 'tasksLoadMore' | 'tasksCopyId'> {
  const tasks = deps.views.tasks;
  return {
    tasksRefresh: () => tasks.provider.refresh(),

    tasksFilter: async () => {
      const text = await deps.ui.showInputBox({
        title: t('Filter Tasks by Name'),
        prompt: t('Shows the tasks and groups whose name contains this text (case does not matter). Empty clears the filter.'),
        placeHolder: t('e.g. amazon'),
        value: tasks.provider.model.filter,
      });
      if (text === undefined) return; // Escape keeps the current filter
      tasks.setFilter(text);
    },

    tasksClearFilter: () => tasks.setFilter(''),

    tasksLoadMore: (arg) => {
      const group = groupArgSchema.safeParse(arg);
      if (group.success) tasks.provider.loadMore(group.data.taskGroupId);
    },

    tasksCopyId: async (arg) => {
      const task = taskArgSchema.safeParse(arg);
      if (!task.success) return;
      await vscode.env.clipboard.writeText(task.data.taskId);
      vscode.window.setStatusBarMessage(`$(copy) ${t('Copied the ID of “{0}”', task.data.taskName)}`, 3000);
    },
  };
}
