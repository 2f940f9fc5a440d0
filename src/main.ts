/**
 * start(): builds the account, the views and the panels, then registers the commands. Nothing
 * else lives here. It runs when the activation shell (extension.ts) first needs it, and registers
 * with VS Code only through the shell's registrar (platform/registrar.ts), whose proxies are
 * already in place.
 */
import './platform/zodJitless'; // must stay first: see the file
import type * as vscode from 'vscode';
import { createAccount } from './account/createAccount';
import { registerAnalytics } from './analytics/register';
import { registerCommands } from './commands';
import { Configuration } from './platform/configuration';
import { createReporter } from './platform/errors';
import { createLog } from './platform/log';
import type { Registrar } from './platform/registrar';
import { createUi } from './platform/ui';
import { SandboxHost } from './sandboxHost/sandboxHost';
import { testSeam, type ScrapedeckTestApi } from './testSeam';
import { createAppViews, createTaskViews } from './views';

/**
 * Installed as users install it, Scrapedeck returns nothing from here: the test seam
 * (`testSeam.ts`) exists only when VS Code runs Scrapedeck's own tests, and activate() hands it on.
 */
export function start(context: vscode.ExtensionContext, registrar: Registrar): ScrapedeckTestApi | undefined {
  const ui = createUi();
  const log = createLog('Scrapedeck');
  const configuration = new Configuration(ui, log.channel);
  context.subscriptions.push(log, configuration);

  const account = createAccount(context, { configuration, log: log.channel });
  const { holder } = account;
  const sandbox = new SandboxHost(holder, context.globalState, log.channel);
  const reporter = createReporter({ ui, log: log.channel, lastSignIn: () => holder.account });
  context.subscriptions.push(sandbox);

  const viewDeps = { account: holder, reporter, configuration, registrar };
  const views = { tasks: createTaskViews(context, viewDeps), apps: createAppViews(context, viewDeps) };
  const analytics = registerAnalytics(context, {
    getClient: () => holder.getClient(),
    listTasks: (signal) => views.tasks.listTasks(signal),
    log: log.channel,
    ui,
    onDidChangeAccount: holder.onDidChange,
    registrar,
  });

  registerCommands(context, { account: holder, sandbox, configuration, ui, log: log.channel, reporter, views, analytics, registrar });

  return testSeam(context.extensionMode, { ui, account, configuration, reporter, logLines: log.lines, views, analytics });
}
