/**
 * The Tasks view capability: groups, tasks, Needs attention, run state and health on the rows,
 * drag-and-drop moves, and the view's commands. Built by main.ts:
 *
 *   const tasks = createTasks(context, deps);   // provider, view, listTasks, setFilter, progress
 *
 * Every registration goes into `context.subscriptions`.
 */
import * as vscode from 'vscode';

import type { ClientHolder } from '../account/clientHolder';
import type { SyncView } from '../data/sync/syncBoard';
import type { HealthView } from '../health/healthBoard';
import { type CommandSet, registerHandlers } from '../platform/commandHandlers';
import type { Configuration } from '../platform/configuration';
import type { Registrar } from '../platform/registrar';
import type { Reporter } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import { TASKS_VIEW_ID, withTasksViewProgress } from '../platform/viewIds';
import type { RunsForViews } from '../runs';
import type { GroupRef, MovingTask } from '../runs/organise';
import { AttentionGroupNode } from './attentionNodes';
import { clientTaskSource } from './clientSource';
import { taskCommands } from './commands';
import { moveToGroup } from './moveToGroup';
import { TasksDragAndDrop } from './taskDragAndDrop';
import { TaskGroupNode } from './taskNodes';
import { pickTask } from './taskPicker';
import type { TaskRow } from './taskReads';
import { TasksModel } from './tasksModel';
import { TasksTreeProvider } from './tasksProvider';

export interface TasksDeps {
  account: Pick<ClientHolder, 'account' | 'getClient' | 'onDidChange'>;
  reporter: Pick<Reporter, 'report'>;
  configuration: Pick<Configuration, 'settings' | 'onDidChange'>;
  ui: Pick<Ui, 'showInputBox' | 'showQuickPick' | 'showInformationMessage'>;
  /** The activation shell's registrar: it created the TreeViews, these hand them their providers. */
  registrar: Pick<Registrar, 'createTreeView' | 'registerCommand'>;
  /** Task health, shown on the Tasks view's nodes (optional: the view works without it). */
  health?: HealthView;
  /** Run state on task rows, live statuses, subtasks and drag-and-drop moves (src/runs). */
  runs?: RunsForViews;
  /** Where each task syncs to (Keep in Sync), shown on its row (optional). */
  sync?: SyncView;
}

export interface TasksCapability {
  readonly provider: TasksTreeProvider;
  readonly view: vscode.TreeView<unknown>;
  /** Moves dropped tasks (present when runs are wired). */
  readonly dragAndDrop: TasksDragAndDrop | undefined;
  /** Every task of every group, e.g. for the analytics panel's task picker. */
  listTasks(signal?: AbortSignal): Promise<TaskRow[]>;
  /** The same, and whether it is every task of the account (no group failed). */
  listEveryTask(signal?: AbortSignal): Promise<{ rows: TaskRow[]; complete: boolean }>;
  /** The names of these tasks in the tree's cache (no request; a task not loaded is left out). */
  taskNames(taskIds: readonly string[]): Map<string, string>;
  /** The loaded tasks of this name, with their group's name when known. */
  tasksNamed(name: string): { taskId: string; groupName?: string }[];
  /** Filters the tree, and shows the filter on the view and in `scrapedeck.tasksFiltered`. */
  setFilter(text: string): void;
  /** Runs `work` with the spinner on the Tasks view. */
  progress<T>(work: () => Promise<T>): Thenable<T>;
  /** Asks which task, for a command run from the palette (paletteTask.ts). */
  askTask(title: string): Promise<TaskRow | undefined>;
  readonly commands: CommandSet<keyof ReturnType<typeof taskCommands>>;
}

export { askingForTask, type AskTask } from './paletteTask';

export function createTasks(context: vscode.ExtensionContext, deps: TasksDeps): TasksCapability {
  const { account, reporter, runs } = deps;
  const progress = withTasksViewProgress;

  const model = new TasksModel(
    clientTaskSource(() => account.getClient()),
    undefined,
    vscode.l10n.t,
  );
  const provider = new TasksTreeProvider(model, {
    signedIn: () => account.account !== undefined,
    report: (error, context, subject) => void reporter.report(error, context, subject),
    progress,
    health: deps.health,
    runs,
    sync: deps.sync,
    // The Tasks view's welcome area says what the plan allows (package.json, viewsWelcome).
    onPlanLimited: (limited) => void vscode.commands.executeCommand('setContext', 'scrapedeck.planLimited', limited),
  });
  const movedInTree = (tasks: readonly MovingTask[], target: GroupRef): void =>
    provider.moved(
      tasks.map(({ taskId, taskName }) => ({ taskId, taskName })),
      target,
    );
  const dragAndDrop =
    runs &&
    new TasksDragAndDrop({
      move: (tasks, target) => runs.moveTasks(tasks, target),
      moved: movedInTree,
    });
  const view = deps.registrar.createTreeView(TASKS_VIEW_ID, {
    treeDataProvider: provider,
    showCollapseAll: true,
    canSelectMany: true,
    dragAndDropController: dragAndDrop,
  });
  // Runs poll only what is on screen: the view's visibility and which groups are open.
  runs?.setViewVisible(view.visible);

  const showFilter = (filter: string) => {
    view.description = filter === '' ? undefined : vscode.l10n.t('Filter: “{0}”', filter);
    void vscode.commands.executeCommand('setContext', 'scrapedeck.tasksFiltered', filter !== '');
  };
  showFilter(model.filter);

  context.subscriptions.push(
    provider,
    view,
    // Sign-in, sign-out, another account or another address: nothing of the old tree may remain.
    account.onDidChange(() => provider.reset()),
    view.onDidChangeVisibility((e) => runs?.setViewVisible(e.visible)),
    view.onDidExpandElement((e) => {
      if (e.element instanceof TaskGroupNode) provider.groupExpanded(e.element.group.taskGroupId);
      else if (e.element instanceof AttentionGroupNode) provider.attentionExpanded(true);
    }),
    view.onDidCollapseElement((e) => {
      if (e.element instanceof TaskGroupNode) provider.groupCollapsed(e.element.group.taskGroupId);
      else if (e.element instanceof AttentionGroupNode) provider.attentionExpanded(false);
    }),
  );
  const setFilter = (text: string): void => {
    provider.setFilter(text);
    showFilter(model.filter);
  };
  const commands = registerHandlers(
    context,
    deps.registrar,
    taskCommands({
      tasks: { provider, setFilter },
      ui: deps.ui,
      duplicate: runs && ((task) => runs.duplicate(task)),
      selection: () => view.selection,
      moveToGroup:
        runs &&
        ((arg, selection) =>
          moveToGroup(arg, selection, {
            ui: deps.ui,
            reporter,
            signedIn: () => account.account !== undefined,
            listTasks: () => model.listAllTasks(),
            groups: () => model.allGroups(),
            move: (tasks, target) => runs.moveTasks(tasks, target),
            moved: movedInTree,
          })),
    }),
  );
  return {
    provider,
    view,
    dragAndDrop,
    listTasks: (signal) => model.listAllTasks(signal),
    askTask: (title) =>
      pickTask(
        { ui: deps.ui, reporter, listTasks: () => model.listAllTasks() },
        { title, placeHolder: vscode.l10n.t('The task (its group is beside it)') },
      ),
    listEveryTask: (signal) => model.listEveryTask(signal),
    taskNames: (taskIds) => model.knownTaskNames(taskIds),
    tasksNamed: (name) => model.tasksNamed(name),
    setFilter,
    progress,
    commands,
  };
}
