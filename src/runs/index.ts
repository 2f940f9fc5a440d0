/**
 * Runs, built once by main.ts and handed to the Tasks view, data and agents:
 *
 *   const runs = createRuns(context, { account, reporter, ui, log, registrar });
 *
 * It owns the run state of the signed-in account (store), the live status poll, the subtask
 * pages, the `scrapedeck:` list documents and their diagnostics, and the flows the commands call.
 * Everything cached is dropped when the account changes (sign-out, another account), and clean
 * list editors of the previous account are closed, so nothing of one account shows under another.
 * Registers the run commands (`commands.ts`).
 */
import * as vscode from 'vscode';

import { accountsMenuSession } from '../account/accountSession';
import type { Account, ClientHolder } from '../account/clientHolder';
import { errorMessage, isApiError } from '../api/errors/errors';
import { realTimers } from '../api/http/limiter';
import type { TaskRef } from '../api/taskRef';
import { type CommandSet, registerHandlers } from '../platform/commandHandlers';
import { Emitter, type Event } from '../platform/emitter';
import type { Registrar } from '../platform/registrar';
import type { Reporter } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import { runCommands } from './commands';
import { editLoopItems } from './editLoop';
import { announceEndedRuns } from './finishNotice';
import { LoopDiagnostics } from './loopDiagnostics';
import { LoopFileSystem } from './loopFileSystem';
import { LOOP_SCHEME, LoopAddresses } from './loopUri';
import { duplicateTask, type GroupRef, type MoveOutcome, moveTasks, type MovingTask } from './organise';
import { type RunOutcome, startRuns, stopRuns } from './runActions';
import { runReporter } from './runReport';
import { onRunSettingsChange, readRunSettings, type RunSettings } from './runSettings';
import { RunStore } from './runStore';
import { noCloudRuns, presentRun, type RunPresentation, type TextOptions } from './runText';
import { type RunWatch, runWatch } from './runWatch';
import { saveActiveList } from './saveList';
import { StatusPoller } from './statusPoller';
import { SubtaskMessageNode, SubtaskNode, type SubtaskRow, SubtasksMoreNode } from './subtaskNodes';
import { SubtaskPages } from './subtasks';

const t = vscode.l10n.t;

/** The workspace-state key of the list documents' paths (src/runs/loopUri.ts). */
const LIST_ADDRESSES_KEY = 'scrapedeck.listAddresses';

export interface RunsDeps {
  account: Pick<ClientHolder, 'account' | 'getClient' | 'onDidChange'>;
  reporter: Pick<Reporter, 'report'>;
  ui: Ui;
  log: vscode.LogOutputChannel;
  /** The activation shell's registrar: the `scrapedeck:` file system's proxy is registered at activation. */
  registrar: Pick<Registrar, 'registerFileSystemProvider' | 'registerCommand'>;
}

/** What the Tasks view uses. */
export interface RunsForViews {
  /** Rows to draw again (their run state changed, or their subtasks). */
  readonly onDidChange: Event<readonly string[]>;
  present(taskId: string): RunPresentation | undefined;
  /** A group's rows are on screen (their statuses are asked if not known). */
  tasksShown(scope: string, tasks: readonly TaskRef[]): void;
  scopeHidden(scope: string): void;
  setViewVisible(visible: boolean): void;
  /** Ask every visible status now (the view's Refresh). */
  refreshAll(): void;
  /** Ask these tasks' statuses now (their data changed: a Remove Data). */
  refreshTasks(taskIds: readonly string[]): void;
  subtaskRows(taskId: string): Promise<SubtaskRow[]>;
  moveTasks(tasks: readonly MovingTask[], target: GroupRef): Promise<MoveOutcome>;
  /** Duplicate Task: the copy, or undefined when none was made. */
  duplicate(task: TaskRef): ReturnType<typeof duplicateTask>;
}

export interface RunsCapability extends RunsForViews {
  readonly store: RunStore;
  readonly poller: StatusPoller;
  readonly loops: LoopFileSystem;
  readonly diagnostics: LoopDiagnostics;
  /** What each list document's path refers to (its address holds only the list's name). */
  readonly addresses: LoopAddresses;
  settings(): RunSettings;
  start(tasks: readonly TaskRef[]): Promise<RunOutcome>;
  stop(tasks: readonly TaskRef[]): Promise<RunOutcome>;
  editLoop(task: TaskRef, progress: <T>(work: () => Promise<T>) => Thenable<T>): Promise<vscode.Uri | undefined>;
  loadMoreSubtasks(taskId: string): void;
  /** Ctrl+S in a list: lines to fix are said in one sentence, nothing is saved; otherwise VS Code saves. */
  saveList(): Promise<boolean>;
  /**
   * The way in for a run an agent starts or stops for this account (the tree's way: "Starting…",
   * the lot, followed to its end); undefined for another account than the one signed in.
   */
  watchFor(account: Account): RunWatch | undefined;
  readonly commands: CommandSet<keyof ReturnType<typeof runCommands>>;
}

export function createRuns(context: vscode.ExtensionContext, deps: RunsDeps): RunsCapability {
  const { account, ui, log } = deps;
  const report = runReporter(deps.reporter);
  let settings = readRunSettings((m) => log.warn(m));
  const accountKey = (): string | undefined =>
    account.account === undefined ? undefined : accountsMenuSession(account.account).id;
  const getClient = () => account.getClient();
  const text = (): TextOptions => ({ t, locale: vscode.env.language });
  const names = new Map<string, string>();
  const subtasks = new SubtaskPages();
  const changed = new Emitter<readonly string[]>();

  const store = new RunStore();
  const poller = new StatusPoller({
    timers: realTimers,
    fetch: async (ids, signal) => {
      const client = getClient();
      if (client === undefined) return { statuses: [], leftOutNeverRan: false };
      const r = await client.getTaskStatuses(ids, { signal });
      return { statuses: r.data, leftOutNeverRan: r.source === 'v2' };
    },
    store,
    intervalMs: () => settings.refreshSeconds * 1000,
    onError: (error, stopped, inARow) => {
      const text = isApiError(error) ? error.describe() : String(error);
      if (stopped) log.info(`Run statuses are not available to this account, so the tree shows none: ${text}`);
      if (stopped) refuseRuns();
      else log.warn(`Could not refresh run statuses (${inARow} in a row): ${text}`);
      // One message per streak of failures, not one every few seconds.
      if (!stopped && inARow === 3) void report(error, t('Could not refresh the run statuses of the visible tasks'));
    },
  });
  const addresses = new LoopAddresses({
    get: () => context.workspaceState.get(LIST_ADDRESSES_KEY),
    set: (value) => void context.workspaceState.update(LIST_ADDRESSES_KEY, value),
  });
  const diagnostics = new LoopDiagnostics(addresses, accountKey);
  const loops = new LoopFileSystem({
    getClient,
    accountKey,
    diagnostics,
    addresses,
    log,
    showConflict: (theirs, mine) =>
      void vscode.commands.executeCommand(
        'vscode.diff',
        theirs,
        mine,
        t('{0}: on the service ↔ yours (not saved)', mine.path.split('/').pop() ?? ''),
      ),
  });

  // This account's plan refuses cloud runs (a 403 on statuses, a start or a stop): the rows offer
  // neither Start Run nor Stop Run (`noCloudRuns`) instead of offering what is then refused.
  let runsRefused = false;
  function refuseRuns(): void {
    if (runsRefused) return;
    runsRefused = true;
    changed.fire([...names.keys()]);
  }

  let key = accountKey();
  const onAccount = () => {
    const next = accountKey();
    if (next === key) return;
    key = next;
    runsRefused = false;
    poller.reset();
    store.reset();
    subtasks.forget();
    names.clear();
    loops.forget();
    diagnostics.clearAll();
    void closeOtherAccountsLists(next, addresses);
  };

  context.subscriptions.push(
    changed,
    store,
    { dispose: () => poller.dispose() },
    diagnostics,
    loops,
    deps.registrar.registerFileSystemProvider(LOOP_SCHEME, loops, { isCaseSensitive: true }),
    account.onDidChange(onAccount),
    store.onDidChange((ids) => {
      for (const id of ids) if (!store.isActive(id)) subtasks.forget(id);
      changed.fire(ids);
    }),
    store.onDidEnd(
      (ended) =>
        void announceEndedRuns(ended, {
          ui,
          enabled: () => settings.notifyOnFinish,
          nameOf: (id) => names.get(id),
          text,
        }),
    ),
    onRunSettingsChange(() => (settings = readRunSettings((m) => log.warn(m)))),
  );

  // The names the Tasks view has shown for this account: the service's words, read already.
  const knownNames = (ids: readonly string[]) =>
    new Map(ids.flatMap((id) => (names.has(id) ? [[id, names.get(id) as string] as const] : [])));
  const actionDeps = { getClient, store, poller, ui, report, log, knownNames, runsRefused: refuseRuns };
  const watch = runWatch({ store, poller, named: (id, name) => names.set(id, name) });
  const organiseDeps = { getClient, ui, report, log };
  const runs: Omit<RunsCapability, 'commands'> = {
    store,
    poller,
    loops,
    diagnostics,
    addresses,
    onDidChange: changed.event,
    settings: () => settings,
    present: (taskId) => (runsRefused ? noCloudRuns(text()) : presentRun(store.get(taskId), text())),
    tasksShown: (scope, tasks) => {
      for (const task of tasks) names.set(task.taskId, task.taskName);
      poller.show(
        scope,
        tasks.map((task) => task.taskId),
      );
    },
    scopeHidden: (scope) => poller.hide(scope),
    setViewVisible: (visible) => poller.setVisible(visible),
    refreshAll: () => poller.refresh(),
    refreshTasks: (taskIds) => poller.refresh(taskIds),
    subtaskRows: (taskId) => subtaskRows(taskId),
    moveTasks: (tasks, target) => moveTasks(tasks, target, organiseDeps),
    start: (tasks) => startRuns(tasks, actionDeps),
    stop: (tasks) => stopRuns(tasks, actionDeps),
    editLoop: (task, progress) =>
      editLoopItems(task, { getClient, accountKey, fs: loops, addresses, ui, report, progress }),
    duplicate: (task) => duplicateTask(task, organiseDeps),
    loadMoreSubtasks: (taskId) => {
      subtasks.more(taskId);
      changed.fire([taskId]);
    },
    saveList: () => saveActiveList({ diagnostics, ui, addresses }),
    watchFor: (other) => (key !== undefined && accountsMenuSession(other).id === key ? watch : undefined),
  };
  return { ...runs, commands: registerHandlers(context, deps.registrar, runCommands(runs)) };

  async function subtaskRows(taskId: string): Promise<SubtaskRow[]> {
    const client = getClient();
    if (client === undefined) return [];
    try {
      const list = await subtasks.read(client, taskId, store.get(taskId)?.status?.subTaskCount ?? null);
      if (list.items.length === 0) return [new SubtaskMessageNode(taskId, t('No subtasks yet'), 'info')];
      const rows: SubtaskRow[] = list.items.map((s) => new SubtaskNode(taskId, s));
      if (list.hasMore) rows.push(new SubtasksMoreNode(taskId, list.items.length));
      return rows;
    } catch (error) {
      if (isApiError(error) && error.kind === 'cancelled') return [];
      const row = new SubtaskMessageNode(taskId, t('Could not load the subtasks'), 'warning');
      const requestId = isApiError(error) ? error.requestId : undefined;
      row.tooltip = requestId ? t('{0} (request ID {1})', errorText(error), requestId) : errorText(error);
      log.warn(
        `Could not load the subtasks of task ${taskId}: ${isApiError(error) ? error.describe() : errorText(error)}`,
      );
      return [row];
    }
  }
}

function errorText(error: unknown): string {
  return errorMessage(error);
}

/** Clean editors of lists of another account (or of any, signed out) close; unsaved ones stay, and cannot be saved there. */
async function closeOtherAccountsLists(current: string | undefined, addresses: LoopAddresses): Promise<void> {
  const stale: vscode.Tab[] = [];
  const foreign = (uri: vscode.Uri) => uri.scheme === LOOP_SCHEME && addresses.refOf(uri)?.account !== current;
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      const uris =
        input instanceof vscode.TabInputText
          ? [input.uri]
          : input instanceof vscode.TabInputTextDiff
            ? [input.original, input.modified]
            : [];
      if (!tab.isDirty && uris.some(foreign)) stale.push(tab);
    }
  }
  if (stale.length > 0) await vscode.window.tabGroups.close(stale, true);
}
