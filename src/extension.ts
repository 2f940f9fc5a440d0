/**
 * activate(): builds the services and registers the views and commands. Nothing else lives here.
 */
import './platform/zodJitless'; // must stay first: see the file
import * as vscode from 'vscode';
import { AccountService } from './account/accountService';
import { registerAuthProvider } from './account/authProvider';
import { trackAccountContextKeys } from './account/contextKeys';
import { SandboxHost } from './account/sandboxHost';
import { createAccountStatusBar } from './account/statusBar';
import { registerAnalytics, type AnalyticsRegistry } from './analytics/register';
import { chooseSignIn, registerAccountCommands } from './commands/account';
import { registerAuthCommands, restoreSandbox, signOut } from './commands/auth';
import { Configuration } from './platform/configuration';
import { createLog } from './platform/log';
import { createUi, type ScrapedeckApi } from './platform/ui';
import { registerAppViews, registerTaskViews } from './views';
import type { AppsTreeProvider } from './views/apps/appsProvider';
import type { TasksTreeProvider } from './views/tasks/tasksProvider';

/** What integration tests may look at. Read-only by convention; only `ui` answers are replaced. */
export interface ScrapedeckTestApi extends ScrapedeckApi {
  readonly account: AccountService;
  readonly configuration: Configuration;
  /** A copy of every line written to the "Scrapedeck" log channel. */
  readonly logLines: readonly string[];
  readonly views: { readonly tasks: TasksTreeProvider; readonly apps: AppsTreeProvider };
  readonly analytics: AnalyticsRegistry;
}

/**
 * Other extensions see what activate() returns. Installed as users install it, Scrapedeck returns
 * nothing: the test seam (the account and its stored credentials, the UI prompts a test answers,
 * the log, the sandbox override) exists only when VS Code runs Scrapedeck's own tests, a mode a
 * user's installation cannot switch on.
 */
export function activate(context: vscode.ExtensionContext): ScrapedeckTestApi | undefined {
  const ui = createUi();
  const log = createLog('Scrapedeck');
  context.subscriptions.push(log);
  const configuration = new Configuration(ui, log.channel);
  const account = new AccountService({
    secrets: context.secrets,
    globalState: context.globalState,
    configuration,
    log: log.channel,
    ui,
  });
  const sandbox = new SandboxHost(account, context.globalState, log.channel);
  context.subscriptions.push(configuration, account, sandbox, trackAccountContextKeys(account), createAccountStatusBar(account));

  const authDeps = { account, sandbox, configuration, ui, log: log.channel };
  registerAuthCommands(context, authDeps);
  registerAccountCommands(context, { account, ui, log: log.channel });
  context.subscriptions.push(
    registerAuthProvider({
      current: () => account.account,
      onDidChange: account.onDidChange,
      signIn: () => chooseSignIn(ui),
      signOut: () => signOut(authDeps),
    }),
  );

  const tasks = registerTaskViews(context, { account, ui, log: log.channel });
  const apps = registerAppViews(context, { account, ui, log: log.channel, configuration });
  const analytics = registerAnalytics(context, {
    getClient: () => account.getClient(),
    listTasks: (signal) => tasks.listTasks(signal),
    log: log.channel,
    ui,
    onDidChangeAccount: account.onDidChange,
  });

  // A sandbox chosen before the last reload comes back in the background.
  void restoreSandbox(authDeps);

  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return { ui, account, configuration, logLines: log.lines, views: { tasks: tasks.provider, apps: apps.provider }, analytics };
}

export function deactivate(): void {
  // Everything, the embedded sandbox included, is disposed through context.subscriptions.
}
