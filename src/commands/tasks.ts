/**
 * Commands of the Tasks view: refresh, filter, paging, copy id, and the two adapters from tree
 * nodes to the analytics panel's `scrapedeck.analytics.open { taskIds, label }`.
 */
import * as vscode from 'vscode';
import * as z from 'zod';
import { ANALYTICS_LIMITS } from '../api/schemas';
import type { Ui } from '../platform/ui';
import type { TasksTreeProvider } from '../views/tasks/tasksProvider';

export interface TaskCommandDeps {
  provider: TasksTreeProvider;
  /** Mirrors the filter on the view and in the `scrapedeck.tasksFiltered` context key. */
  onFilterChanged(filter: string): void;
  ui: Ui;
  report(error: unknown, what: string): Promise<void>;
  progress<T>(work: () => Promise<T>): Thenable<T>;
}

/** Command arguments come from menus, the palette or other extensions: parse, never trust. */
const groupArgSchema = z.union([
  z.object({ group: z.object({ taskGroupId: z.string(), taskGroupName: z.string() }) }).transform((n) => n.group),
  z.object({ taskGroupId: z.string(), taskGroupName: z.string() }),
]);
const taskArgSchema = z.object({ task: z.object({ taskId: z.string(), taskName: z.string() }) }).transform((n) => n.task);

export function registerTaskCommands(context: vscode.ExtensionContext, deps: TaskCommandDeps): void {
  const { provider, ui } = deps;
  const register = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, run));

  register('scrapedeck.tasks.refresh', () => provider.refresh());

  register('scrapedeck.tasks.filter', async () => {
    const text = await ui.showInputBox({
      title: 'Filter Tasks by Name',
      prompt: 'Shows the tasks and groups whose name contains this text (case does not matter). Empty clears the filter.',
      placeHolder: 'e.g. amazon',
      value: provider.model.filter,
    });
    if (text === undefined) return; // Escape keeps the current filter
    provider.setFilter(text);
    deps.onFilterChanged(provider.model.filter);
  });

  register('scrapedeck.tasks.clearFilter', () => {
    provider.setFilter('');
    deps.onFilterChanged('');
  });

  register('scrapedeck.tasks.loadMore', (arg) => {
    const group = groupArgSchema.safeParse(arg);
    if (group.success) provider.loadMore(group.data.taskGroupId);
  });

  register('scrapedeck.tasks.copyId', async (arg) => {
    const task = taskArgSchema.safeParse(arg);
    if (!task.success) return;
    await vscode.env.clipboard.writeText(task.data.taskId);
    vscode.window.setStatusBarMessage(`$(copy) Copied the ID of “${task.data.taskName}”`, 3000);
  });

  register('scrapedeck.analytics.openForTask', async (arg) => {
    const task = taskArgSchema.safeParse(arg);
    if (!task.success) return;
    await openAnalytics(deps, [task.data.taskId], task.data.taskName);
  });

  register('scrapedeck.analytics.openForGroup', async (arg) => {
    const parsed = groupArgSchema.safeParse(arg);
    if (!parsed.success) return;
    const group = parsed.data;
    const loaded = await deps.progress(() => provider.model.allTasksOf(group.taskGroupId));
    if (loaded.value === undefined) {
      if (loaded.error !== undefined) await deps.report(loaded.error, `Loading the tasks of “${group.taskGroupName}”`);
      return;
    }
    const ids = loaded.value.map((t) => t.taskId);
    if (ids.length === 0) {
      await ui.showInformationMessage(`“${group.taskGroupName}” has no tasks to chart.`);
      return;
    }
    const max = ANALYTICS_LIMITS.maxTaskIds;
    if (ids.length > max) {
      // The analytics query accepts at most 100 task ids; say so rather than drop tasks silently.
      void ui.showInformationMessage(`“${group.taskGroupName}” has ${ids.length} tasks; analytics can chart at most ${max} at once, so it shows the first ${max}.`);
    }
    await openAnalytics(deps, ids.slice(0, max), group.taskGroupName);
  });
}

async function openAnalytics(deps: TaskCommandDeps, taskIds: string[], label: string): Promise<void> {
  try {
    await vscode.commands.executeCommand('scrapedeck.analytics.open', { taskIds, label });
  } catch (error) {
    await deps.report(error, 'Opening task analytics');
  }
}
