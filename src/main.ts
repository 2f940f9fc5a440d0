/**
 * start(): the capabilities, in order, each built by its `createX(context, deps)` with the
 * registrar in its deps (platform/registrar.ts: the activation shell's proxies, already in place),
 * each registering its own commands. Nothing else lives here. It runs when the activation shell
 * (extension.ts) first needs it.
 */
import './platform/zodJitless'; // must stay first: see the file

import type * as vscode from 'vscode';

import { createAccount } from './account';
import { createAgents } from './agents';
import { createAnalytics } from './analytics/host';
import { createApps } from './apps';
import { createData } from './data';
import { namesakeAmong } from './data/formats/rowFormats';
import { createSync } from './data/sync';
import { SyncBoard } from './data/sync/syncBoard';
import { createHealth } from './health';
import { HealthBoard } from './health/healthBoard';
import { everyCommand } from './platform/commandHandlers';
import { Configuration } from './platform/configuration';
import { createLog } from './platform/log';
import type { Registrar } from './platform/registrar';
import { withOrderedGlobalState } from './platform/state/orderedMemento';
import { createUi } from './platform/ui';
import { createRuns } from './runs';
import type { ShellTimings } from './shell/shell';
import { askingForTask, type AskTask, createTasks } from './tasks';
import { type ScrapedeckTestApi, testSeam } from './testSeam';

/**
 * Installed as users install it, Scrapedeck returns nothing from here: the test seam
 * (`testSeam.ts`) exists only when VS Code runs Scrapedeck's own tests, and activate() hands it on.
 */
export function start(
  shellContext: vscode.ExtensionContext,
  registrar: Registrar,
  timings?: ShellTimings,
): ScrapedeckTestApi | undefined {
  const started = performance.now();
  // Every capability writes globalState through this context: one write at a time (see the file).
  const context = withOrderedGlobalState(shellContext);
  const ui = createUi();
  const log = createLog('Scrapedeck');
  const configuration = new Configuration(ui, log.channel);
  context.subscriptions.push(log, configuration);
  // A task command run from the palette asks which task, from the Tasks view's list (made below).
  let askTask: AskTask = () => Promise.resolve(undefined);
  let signedIn = (): boolean => false;
  const base = {
    ui,
    log: log.channel,
    registrar: askingForTask(
      registrar,
      (title) => askTask(title),
      () => signedIn(),
    ),
  };

  const account = createAccount(context, { ...base, configuration });
  const { holder, reporter } = account;
  const runs = createRuns(context, { ...base, account: holder, reporter });
  // Health is drawn on the Tasks view's rows, and refreshes from the Tasks view's listing.
  const healthBoard = new HealthBoard();
  // Where each task syncs to is drawn on the Tasks view's rows too; Keep in Sync fills it.
  const syncBoard = new SyncBoard();
  context.subscriptions.push(healthBoard, syncBoard);
  const tasks = createTasks(context, {
    ...base,
    account: holder,
    reporter,
    configuration,
    health: healthBoard,
    runs,
    sync: syncBoard,
  });
  askTask = (title) => tasks.askTask(title);
  signedIn = () => holder.account !== undefined;
  const health = createHealth(context, { ...base, board: healthBoard, tasks, account: holder, reporter });
  const apps = createApps(context, { ...base, account: holder, reporter, configuration });
  const analytics = createAnalytics(context, {
    ...base,
    reporter,
    getClient: () => holder.getClient(),
    listTasks: (signal) => tasks.listTasks(signal),
    groupTasks: (groupId) => tasks.progress(() => tasks.provider.model.allTasksOf(groupId)),
    taskNames: (taskIds) => tasks.taskNames(taskIds),
    onDidChangeAccount: holder.onDidChange,
    account: holder,
  });
  const data = createData(context, {
    ...base,
    account: holder,
    reporter,
    knownTaskNames: (ids) => tasks.taskNames(ids),
    namesakes: (task) => namesakeAmong(task.taskId, tasks.tasksNamed(task.taskName)),
    // After Remove Data the task's row counts are asked again, so the row does not keep the old ones.
    onDataRemoved: (taskId) => runs.refreshTasks([taskId]),
    lastRunLot: (taskId) => runs.store.lotOf(taskId)?.lotNo,
  });
  // Keep in Sync follows the runs' ends (the finish notice's event) and pulls through data's pull.
  const sync = createSync(context, {
    ...base,
    account: holder,
    board: syncBoard,
    onRunsEnded: runs.store.onDidEnd,
    data: data.syncParts,
  });
  const agents = createAgents(context, {
    ...base,
    holder,
    readStoredCredentials: async () => (await account.vault.read(holder.endpoints.baseUrl))?.credentials,
    requestsPerSecond: () => configuration.settings.requestsPerSecond,
    apps: apps.store,
    runs,
  });

  // Does not compile while a command id of platform/commandIds.ts has no handler in a capability.
  const complete: true = everyCommand(
    account.commands,
    runs.commands,
    tasks.commands,
    health.commands,
    apps.commands,
    analytics.commands,
    data.commands,
    sync.commands,
  );
  void complete;

  // Scrapedeck's own share of activation, next to what VS Code records (docs/contracts/shell.md).
  if (timings !== undefined) {
    const ms = (n: number) => n.toFixed(1);
    log.channel.info(
      `Activation shell: activate() ${ms(timings.activateMs)} ms; main loaded ${ms(timings.idleMs)} ms later by ${timings.firstCall}, started in ${ms(performance.now() - started)} ms`,
    );
  }

  const views = { tasks, apps };
  return testSeam(context.extensionMode, {
    ui,
    account,
    configuration,
    reporter,
    logLines: log.lines,
    views,
    analytics,
    health,
    agents,
    runs,
    data,
    sync,
  });
}
