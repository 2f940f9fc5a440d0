/**
 * start(): builds the account, the views and the panels, then registers the commands. Nothing
 * else lives here. It runs when the activation shell (extension.ts) first needs it, and registers
 * with VS Code only through the shell's registrar (platform/registrar.ts), whose proxies are
 * already in place.
 */
import './platform/zodJitless'; // must stay first: see the file
import type * as vscode from 'vscode';
import { createAccount } from './account/createAccount';
import { registerAgents } from './agents/register';
import { registerAnalytics } from './analytics/register';
import { registerCommands } from './commands';
import { registerData } from './data/register';
import { Configuration } from './platform/configuration';
import { HealthBoard } from './health/healthBoard';
import { registerHealth } from './health/register';
import { createReporter } from './platform/errors';
import { createLog } from './platform/log';
import type { Registrar } from './platform/registrar';
import type { ShellTimings } from './shell/shell';
import { createUi } from './platform/ui';
import { createRuns } from './runs';
import { SandboxHost } from './sandboxHost/sandboxHost';
import { testSeam, type ScrapedeckTestApi } from './testSeam';
import { createAppViews, createTaskViews } from './views';

/**
 * Installed as users install it, Scrapedeck returns nothing from here: the test seam
 * (`testSeam.ts`) exists only when VS Code runs Scrapedeck's own tests, and activate() hands it on.
 */
export function start(context: vscode.ExtensionContext, registrar: Registrar, timings?: ShellTimings): ScrapedeckTestApi | undefined {
  const started = performance.now();
  const ui = createUi();
  const log = createLog('Scrapedeck');
  const configuration = new Configuration(ui, log.channel);
  context.subscriptions.push(log, configuration);

  const account = createAccount(context, { configuration, log: log.channel });
  const { holder } = account;
  const sandbox = new SandboxHost(holder, context.globalState, log.channel);
  const reporter = createReporter({ ui, log: log.channel, lastSignIn: () => holder.account });
  context.subscriptions.push(sandbox);

  const healthBoard = new HealthBoard();
  context.subscriptions.push(healthBoard);
  const runs = createRuns(context, { account: holder, reporter, ui, log: log.channel, registrar });
  const viewDeps = { account: holder, reporter, configuration, health: healthBoard, runs, registrar };
  const views = { tasks: createTaskViews(context, viewDeps), apps: createAppViews(context, viewDeps) };
  const health = registerHealth(context, { board: healthBoard, tasks: views.tasks, account: holder, reporter, ui, log: log.channel }, registrar);
  const analytics = registerAnalytics(context, {
    getClient: () => holder.getClient(),
    listTasks: (signal) => views.tasks.listTasks(signal),
    taskNames: (taskIds) => views.tasks.taskNames(taskIds),
    log: log.channel,
    ui,
    onDidChangeAccount: holder.onDidChange,
    account: holder,
    registrar,
  });

  // After Remove Data the task's row counts are asked again, so the row does not keep the old ones.
  const data = registerData(context, {
    account: holder,
    ui,
    log: log.channel,
    reporter,
    knownTaskNames: (ids) => views.tasks.taskNames(ids),
    onDataRemoved: (taskId) => runs.refreshTasks([taskId]),
  }, registrar);

  const agents = registerAgents(context, {
    holder,
    readStoredCredentials: async () => (await account.vault.read(holder.endpoints.baseUrl))?.credentials,
    requestsPerSecond: () => configuration.settings.requestsPerSecond,
    ui,
    log: log.channel,
    apps: views.apps.store,
    registrar,
  });

  registerCommands(context, { account: holder, sandbox, configuration, ui, log: log.channel, reporter, views, analytics, data, health, runs, registrar });

  // Scrapedeck's own share of activation, next to what VS Code records (docs/contracts.md).
  if (timings !== undefined) {
    const ms = (n: number) => n.toFixed(1);
    log.channel.info(`Activation shell: activate() ${ms(timings.activateMs)} ms; main loaded ${ms(timings.idleMs)} ms later by ${timings.firstCall}, started in ${ms(performance.now() - started)} ms`);
  }

  return testSeam(context.extensionMode, { ui, account, configuration, reporter, logLines: log.lines, views, analytics, health, agents, runs });
}
