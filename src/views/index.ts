/**
 * The two sidebar views, built by extension.ts and handed to the commands:
 *
 *   const tasks = createTaskViews(context, deps);   // provider, view, listTasks, setFilter, progress
 *   const apps  = createAppViews(context, deps);    // provider, store, view
 *
 * Views register no commands and import nothing from `commands/`. Every registration goes into
 * `context.subscriptions`.
 */
import * as vscode from 'vscode';
import type { ClientHolder } from '../account/clientHolder';
import { appScopeOf } from '../apps/appScope';
import { AppStore, APP_STORE_KEY } from '../apps/appStore';
import type { HealthView } from '../health/healthBoard';
import type { Configuration } from '../platform/configuration';
import type { Reporter } from '../platform/errors';
import type { Registrar } from '../platform/registrar';
import type { RunsForViews } from '../runs';
import { AppsTreeProvider } from './apps/appsProvider';
import { AttentionGroupNode } from './tasks/attentionNodes';
import { clientTaskSource } from './tasks/clientSource';
import { TasksDragAndDrop } from './tasks/taskDragAndDrop';
import { TaskGroupNode } from './tasks/taskNodes';
import { TasksModel, type TaskRow } from './tasks/tasksModel';
import { TasksTreeProvider } from './tasks/tasksProvider';

export interface ViewDeps {
  account: Pick<ClientHolder, 'account' | 'getClient' | 'onDidChange'>;
  reporter: Pick<Reporter, 'report'>;
  configuration: Pick<Configuration, 'settings' | 'onDidChange'>;
  /** The activation shell's registrar: it created the TreeViews, these hand them their providers. */
  registrar: Pick<Registrar, 'createTreeView'>;
  /** Task health, shown on the Tasks view's nodes (optional: the view works without it). */
  health?: HealthView;
  /** Run state on task rows, live statuses, subtasks and drag-and-drop moves (src/runs). */
  runs?: RunsForViews;
}

export interface TaskViews {
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
  /** Filters the tree, and shows the filter on the view and in `scrapedeck.tasksFiltered`. */
  setFilter(text: string): void;
  /** Runs `work` with the spinner on the Tasks view. */
  progress<T>(work: () => Promise<T>): Thenable<T>;
}

export interface AppViews {
  readonly provider: AppsTreeProvider;
  readonly store: AppStore;
  readonly view: vscode.TreeView<unknown>;
}

export const TASKS_VIEW_ID = 'scrapedeck.tasks';
export const APPS_VIEW_ID = 'scrapedeck.apps';

export function createTaskViews(context: vscode.ExtensionContext, deps: ViewDeps): TaskViews {
  const { account, reporter, runs } = deps;
  const progress = <T>(work: () => Promise<T>) => vscode.window.withProgress({ location: { viewId: TASKS_VIEW_ID } }, work);

  const model = new TasksModel(clientTaskSource(() => account.getClient()), undefined, vscode.l10n.t);
  const provider = new TasksTreeProvider(model, {
    signedIn: () => account.account !== undefined,
    report: (error, context, subject) => void reporter.report(error, context, subject),
    progress,
    health: deps.health,
    runs,
    // The Tasks view's welcome area says what the plan allows (package.json, viewsWelcome).
    onPlanLimited: (limited) => void vscode.commands.executeCommand('setContext', 'scrapedeck.planLimited', limited),
  });
  const dragAndDrop = runs && new TasksDragAndDrop({
    move: (tasks, target) => runs.moveTasks(tasks, target),
    moved: (tasks, target) => provider.moved(tasks.map(({ taskId, taskName }) => ({ taskId, taskName })), target),
  });
  const view = deps.registrar.createTreeView(TASKS_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true, dragAndDropController: dragAndDrop });
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
  return {
    provider,
    view,
    dragAndDrop,
    listTasks: (signal) => model.listAllTasks(signal),
    listEveryTask: (signal) => model.listEveryTask(signal),
    taskNames: (taskIds) => model.knownTaskNames(taskIds),
    setFilter: (text) => {
      provider.setFilter(text);
      showFilter(model.filter);
    },
    progress,
  };
}

export function createAppViews(context: vscode.ExtensionContext, deps: ViewDeps): AppViews {
  const { account, configuration } = deps;
  // Tracked apps may follow the user to other machines: they are references, not secrets.
  context.globalState.setKeysForSync([APP_STORE_KEY]);
  const store = new AppStore(context.globalState);
  const scope = () => appScopeOf(account.account);
  const provider = new AppsTreeProvider({ scope, store, settingsApps: () => configuration.settings.trackedApps });
  const view = deps.registrar.createTreeView(APPS_VIEW_ID, { treeDataProvider: provider });

  const update = () => {
    // The first account to open a hub takes over the lists kept before they were per account.
    const now = scope();
    if (now !== undefined) void store.adoptLegacy(now).catch(() => undefined);
    provider.refresh();
    void vscode.commands.executeCommand('setContext', 'scrapedeck.hasTrackedApps', provider.tracked().length > 0);
  };
  update();
  const unsubscribe = store.onDidChange(update);
  context.subscriptions.push(
    provider,
    view,
    { dispose: unsubscribe },
    account.onDidChange(update),
    configuration.onDidChange((c) => c.changed.includes('trackedApps') && update()),
  );
  return { provider, store, view };
}
