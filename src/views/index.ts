/**
 * Wiring of the two sidebar views, called from extension.ts:
 *
 *   const tasks = registerTaskViews(context, { account, ui, log });
 *   const apps  = registerAppViews(context, { account, ui, log, configuration });
 *
 * `tasks.listTasks` fits `AnalyticsDeps.listTasks`; `tasks.provider` and `apps.provider` are what
 * `ScrapedeckApi.views` exposes to integration tests (read-only). Every registration goes into
 * `context.subscriptions`.
 */
import * as vscode from 'vscode';
import type { AccountService } from '../account/accountService';
import { AppStore, APP_STORE_KEY } from '../apps/appStore';
import { parseSettingsApps } from '../apps/trackedApps';
import { registerAppCommands } from '../commands/apps';
import { registerTaskCommands } from '../commands/tasks';
import type { Configuration } from '../platform/configuration';
import { reportError } from '../platform/errors';
import type { Ui } from '../platform/ui';
import { AppsTreeProvider } from './apps/appsProvider';
import { clientTaskSource } from './tasks/clientSource';
import { TasksModel, type TaskRow } from './tasks/tasksModel';
import { TasksTreeProvider } from './tasks/tasksProvider';

export interface ViewDeps {
  account: AccountService;
  ui: Ui;
  log: vscode.LogOutputChannel;
  /**
   * The validated settings. When given, tracked apps from settings come from it (it already warns
   * once about bad entries); without it the view reads and validates the setting itself.
   */
  configuration?: Configuration;
}

export interface TaskViews {
  readonly provider: TasksTreeProvider;
  readonly view: vscode.TreeView<unknown>;
  /** Every task of every group, e.g. for the analytics panel's task picker. */
  listTasks(signal?: AbortSignal): Promise<TaskRow[]>;
}

export interface AppViews {
  readonly provider: AppsTreeProvider;
  readonly store: AppStore;
  readonly view: vscode.TreeView<unknown>;
}

export const TASKS_VIEW_ID = 'scrapedeck.tasks';
export const APPS_VIEW_ID = 'scrapedeck.apps';

export function registerTaskViews(context: vscode.ExtensionContext, deps: ViewDeps): TaskViews {
  const { account, ui, log } = deps;
  const report = (error: unknown, what: string) => reportError(error, what, { ui, log, account });
  const progress = <T>(work: () => Promise<T>) => vscode.window.withProgress({ location: { viewId: TASKS_VIEW_ID } }, work);

  const model = new TasksModel(clientTaskSource(() => account.getClient()));
  const provider = new TasksTreeProvider(model, {
    signedIn: () => account.account !== undefined,
    report: (error, what) => void report(error, what),
    progress,
  });
  const view = vscode.window.createTreeView(TASKS_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });

  const onFilterChanged = (filter: string) => {
    view.description = filter === '' ? undefined : `Filter: “${filter}”`;
    void vscode.commands.executeCommand('setContext', 'scrapedeck.tasksFiltered', filter !== '');
  };
  onFilterChanged(model.filter);

  context.subscriptions.push(
    provider,
    view,
    // Sign-in, sign-out, another account or another address: nothing of the old tree may remain.
    account.onDidChange(() => provider.reset()),
  );
  registerTaskCommands(context, { provider, onFilterChanged, ui, report, progress });
  return { provider, view, listTasks: (signal) => model.listAllTasks(signal) };
}

export function registerAppViews(context: vscode.ExtensionContext, deps: ViewDeps): AppViews {
  const { account, ui, log, configuration } = deps;
  const report = (error: unknown, what: string) => reportError(error, what, { ui, log, account });
  // Tracked apps may follow the user to other machines: they are references, not secrets.
  context.globalState.setKeysForSync([APP_STORE_KEY]);
  const store = new AppStore(context.globalState);
  const settingsApps = configuration ? () => configuration.settings.trackedApps : ownSettingsReader(ui, log);

  const provider = new AppsTreeProvider({
    hubUrl: () => account.account?.datahubUrl,
    store,
    settingsApps,
  });
  const view = vscode.window.createTreeView(APPS_VIEW_ID, { treeDataProvider: provider });

  const update = () => {
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
    configuration
      ? configuration.onDidChange((c) => c.changed.includes('trackedApps') && update())
      : vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('scrapedeck.trackedApps') && update()),
  );
  registerAppCommands(context, { provider, store, ui, log, account, report });
  return { provider, store, view };
}

/** Without the shared Configuration: read and validate the setting here, one warning per bad list. */
function ownSettingsReader(ui: Ui, log: vscode.LogOutputChannel): () => readonly string[] {
  let warned = '';
  let cached: { raw: string; refs: readonly string[] } | undefined;
  const read = () => {
    const raw = vscode.workspace.getConfiguration('scrapedeck').get<unknown>('trackedApps');
    const key = JSON.stringify(raw ?? null);
    if (cached?.raw === key) return cached.refs;
    const { refs, invalid } = parseSettingsApps(raw);
    cached = { raw: key, refs };
    const signature = invalid.join('\n');
    if (invalid.length > 0 && signature !== warned) {
      const text = `Ignoring ${invalid.length === 1 ? 'an entry' : 'entries'} of scrapedeck.trackedApps that ${invalid.length === 1 ? 'is' : 'are'} not namespace/name: ${invalid.join(', ')}`;
      log.warn(text);
      void ui.showWarningMessage(text);
    }
    warned = signature;
    return refs;
  };
  return read;
}
