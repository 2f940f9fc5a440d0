/**
 * The data apps capability: the Data Apps view (apps this account added or the trackedApps setting
 * names, with what the hub told this account about each), its store kept per account, and the
 * add, remove, copy and deprecate commands. Built by main.ts:
 *
 *   const apps = createApps(context, deps);   // provider, store, view
 */
import * as vscode from 'vscode';

import type { ClientHolder } from '../account/clientHolder';
import { type CommandSet, registerHandlers } from '../platform/commandHandlers';
import type { Configuration } from '../platform/configuration';
import type { Registrar } from '../platform/registrar';
import type { Reporter } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import { APPS_VIEW_ID } from '../platform/viewIds';
import { appScopeOf } from './appScope';
import { AppsTreeProvider } from './appsProvider';
import { APP_STORE_KEY, AppStore } from './appStore';
import { appCommands } from './commands';

export interface AppsDeps {
  account: ClientHolder;
  configuration: Pick<Configuration, 'settings' | 'onDidChange'>;
  ui: Ui;
  log: vscode.LogOutputChannel;
  reporter: Pick<Reporter, 'report'>;
  /** The activation shell's registrar: it created the TreeView, this hands it its provider. */
  registrar: Pick<Registrar, 'createTreeView' | 'registerCommand'>;
}

export interface AppsCapability {
  readonly provider: AppsTreeProvider;
  readonly store: AppStore;
  readonly view: vscode.TreeView<unknown>;
  readonly commands: CommandSet<keyof ReturnType<typeof appCommands>>;
}

export function createApps(context: vscode.ExtensionContext, deps: AppsDeps): AppsCapability {
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
  const commands = registerHandlers(
    context,
    deps.registrar,
    appCommands({ account, apps: { provider, store }, ui: deps.ui, log: deps.log, reporter: deps.reporter }),
  );
  return { provider, store, view, commands };
}
