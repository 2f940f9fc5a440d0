/**
 * Task health in the window: builds the controller on the account, the Tasks view and the
 * settings, registers the decorations, keeps the view's badge and tells the user what they need
 * to hear, and registers `scrapedeck.health.refresh`. Every registration goes into
 * `context.subscriptions`.
 *
 *   const health = createHealth(context, { board, tasks, account, reporter, ui, log, registrar });
 */
import * as vscode from 'vscode';

import { accountsMenuSession } from '../account/accountSession';
import type { Account } from '../account/clientHolder';
import type { ScrapedeckClient } from '../api/client';
import { realTimers } from '../api/http/limiter';
import { type CommandSet, registerHandlers } from '../platform/commandHandlers';
import type { Event } from '../platform/emitter';
import type { Registrar } from '../platform/registrar';
import type { Reporter } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import { AttentionSeen } from './attentionSeen';
import { HealthDecorations } from './decorations';
import type { HealthBoard } from './healthBoard';
import { HealthCache } from './healthCache';
import { HealthConfig } from './healthConfig';
import { HealthController, type HealthTaskListing } from './healthController';
import { healthNotifier } from './notifier';

export interface HealthDeps {
  board: HealthBoard;
  /** The Tasks view: its visibility, its badge, its task list and its spinner. */
  tasks: {
    readonly view: Pick<vscode.TreeView<unknown>, 'visible' | 'onDidChangeVisibility' | 'badge'>;
    listEveryTask(signal?: AbortSignal): Promise<HealthTaskListing>;
    progress<T>(work: () => Promise<T>): Thenable<T>;
  };
  account: {
    readonly account: Account | undefined;
    getClient(): ScrapedeckClient | undefined;
    onDidChange: Event<Account | undefined>;
  };
  reporter: Pick<Reporter, 'report'>;
  ui: Ui;
  log: vscode.LogOutputChannel;
  registrar: Pick<Registrar, 'registerFileDecorationProvider' | 'registerCommand'>;
}

export interface HealthCapability {
  readonly board: HealthBoard;
  readonly controller: HealthController;
  readonly decorations: HealthDecorations;
  readonly config: HealthConfig;
  /** What `scrapedeck.health.refresh` does: refresh now, with the spinner on the Tasks view. */
  refresh(): Promise<void>;
  readonly commands: CommandSet<'healthRefresh'>;
}

const t = vscode.l10n.t;

export function createHealth(context: vscode.ExtensionContext, deps: HealthDeps): HealthCapability {
  const { board, tasks, account, log, registrar } = deps;
  const config = new HealthConfig(deps.ui, log);
  const decorations = new HealthDecorations(board);
  const controller = new HealthController({
    board,
    cache: new HealthCache(context.globalState, log),
    getClient: () => account.getClient(),
    listTasks: (signal) => tasks.listEveryTask(signal),
    timers: realTimers,
    clock: Date.now,
    settings: () => config.settings,
    notifier: healthNotifier({ ui: deps.ui, reporter: deps.reporter, config, log }),
    seen: new AttentionSeen(context.globalState),
  });

  const updateBadge = (): void => {
    const n = board.attention().length;
    tasks.view.badge =
      n === 0
        ? undefined
        : { value: n, tooltip: n === 1 ? t('1 task needs attention') : t('{0} tasks need attention', n) };
  };
  const follow = (a: Account | undefined): void =>
    controller.setAccount(a === undefined ? undefined : accountsMenuSession(a).id);

  context.subscriptions.push(
    config,
    decorations,
    registrar.registerFileDecorationProvider(decorations),
    { dispose: () => controller.dispose() },
    board.onDidChange(updateBadge),
    account.onDidChange(follow),
    tasks.view.onDidChangeVisibility((e) => controller.setVisible(e.visible)),
    config.onDidChange((changed) => controller.settingsChanged(changed)),
  );
  follow(account.account);
  controller.setVisible(tasks.view.visible);
  updateBadge();

  const refresh = async (): Promise<void> => {
    if (account.account === undefined) return;
    await tasks.progress(() => controller.refresh());
  };
  const commands = registerHandlers(context, registrar, { healthRefresh: () => refresh() });
  return { board, controller, decorations, config, refresh, commands };
}
