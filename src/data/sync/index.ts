/**
 * Keep in Sync, built once by main.ts after runs and data:
 *
 *   const sync = createSync(context, { ui, log, registrar, account, board, onRunsEnded, data: data.syncParts });
 *
 * A destination (a workspace file or a PostgreSQL connection) follows a task: when one of its runs
 * ends (the finish notice's event, `runs/runStore.ts` `onDidEnd`), its new rows are pulled there
 * by the exactly-once pull, quietly (`syncFollower.ts`, `syncPull.ts`). The Tasks view shows where
 * each task syncs to (`syncBoard.ts`). Everything goes into `context.subscriptions`.
 */
import * as vscode from 'vscode';

import type { TaskRef } from '../../api/taskRef';
import { type CommandSet, registerHandlers } from '../../platform/commandHandlers';
import { COMMANDS } from '../../platform/commandIds';
import type { Event } from '../../platform/emitter';
import { plainText } from '../../platform/plainText';
import type { Registrar } from '../../platform/registrar';
import type { Ui } from '../../platform/ui';
import type { Namesake } from '../formats/rowFormats';
import { PG_SCHEME } from '../pull/postgresTarget';
import { accountKey, type PullTargets } from '../pull/rememberedTargets';
import { destinationLabel } from '../pull/targetSink';
import { syncCommands } from './commands';
import type { SyncBoard, SyncRowPart } from './syncBoard';
import { SyncFollower } from './syncFollower';
import { followTarget, syncPull, type SyncPullDeps } from './syncPull';
import { type Follow, SyncTargets } from './syncTargets';

const t = vscode.l10n.t;

/** What the data capability lends Keep in Sync: its pulls under way, records, connections and remembered files. */
export interface SyncDataParts extends Omit<SyncPullDeps, 'closing' | 'log' | 'account'> {
  pullTargets: PullTargets;
  fields(task: TaskRef): Promise<string[] | 'no-rows' | undefined>;
  namesakes?: (task: TaskRef) => Namesake | undefined;
}

export interface SyncDeps {
  ui: Ui;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  registrar: Pick<Registrar, 'registerCommand'>;
  account: SyncPullDeps['account'];
  /** Drawn on the Tasks view's rows (main.ts hands the same board to the Tasks view). */
  board: SyncBoard;
  /** Runs that ended (the finish notice's event). */
  onRunsEnded: Event<readonly { taskId: string }[]>;
  data: SyncDataParts;
}

export interface SyncCapability {
  readonly follower: SyncFollower;
  readonly targets: SyncTargets;
  readonly commands: CommandSet<keyof ReturnType<typeof syncCommands>>;
}

export function createSync(context: vscode.ExtensionContext, deps: SyncDeps): SyncCapability {
  const { ui, log, account, board, data } = deps;
  const warn = (m: string) => log.warn(m);
  // A server is the user's (global state); a file is the workspace's (docs/contracts/data-sync.md).
  const targets = new SyncTargets({ user: context.globalState, workspace: context.workspaceState }, warn);
  const closing = new AbortController();
  const key = () => (account.account === undefined ? undefined : accountKey(account.account));
  const follower = new SyncFollower({
    accountKey: key,
    targets,
    trusted: () => ui.isWorkspaceTrusted(),
    pull: (task, follow) => syncPull(task, follow, { ...data, account, log, closing: closing.signal }),
    failed: (task, follow, sentence) => void notifyFailure(task, follow, sentence),
    log,
  });

  const notifyFailure = async (task: TaskRef, follow: Follow, sentence: string) => {
    const pull = t('Pull New Rows');
    const stop = t('Stop Keeping in Sync');
    const choice = await ui.showErrorMessage(
      t(
        'Keeping “{0}” in sync with {1} failed. {2}',
        plainText(task.taskName),
        labelOf(follow),
        plainText(sentence, 2000),
      ),
      pull,
      stop,
    );
    if (choice === pull) void vscode.commands.executeCommand(COMMANDS.dataPullNewRows, task);
    else if (choice === stop) void vscode.commands.executeCommand(COMMANDS.dataStopSync, task);
  };
  const labelOf = (follow: Follow): string => {
    const target = followTarget(follow, data.pgStore);
    return 'problem' in target ? t('a destination that is gone') : destinationLabel(target.uri, data.pgStore);
  };
  const shortLabel = (follow: Follow): string => {
    const target = followTarget(follow, data.pgStore);
    if ('problem' in target) return t('a destination that is gone');
    return target.uri.scheme === PG_SCHEME ? t('PostgreSQL') : plainText(target.uri.path.split('/').pop() ?? '', 80);
  };
  const redraw = () => {
    const account = key();
    const parts = new Map<string, SyncRowPart>();
    const trusted = ui.isWorkspaceTrusted();
    for (const [taskId, follow] of account === undefined ? [] : targets.all(account)) {
      parts.set(
        taskId,
        trusted
          ? {
              description: t('syncs to {0}', shortLabel(follow)),
              tooltip: t('Kept in sync: when a run ends, its new rows are pulled into {0}.', labelOf(follow)),
            }
          : {
              description: t('sync off (Restricted Mode)'),
              tooltip: t(
                'Kept in sync with {0}, but not in Restricted Mode: trust this workspace to sync it.',
                labelOf(follow),
              ),
            },
      );
    }
    board.show(parts);
  };

  context.subscriptions.push(
    deps.onRunsEnded((ended) => follower.runsEnded(ended.map((r) => r.taskId))),
    // Account boundary: the rows show the new account's follows (a pull under way is stopped by its own signal).
    account.onDidChange(redraw),
    vscode.workspace.onDidGrantWorkspaceTrust(redraw),
    { dispose: () => closing.abort() },
  );
  redraw();
  const commands = registerHandlers(
    context,
    deps.registrar,
    syncCommands({ ...data, ui, log, account, syncTargets: targets, changed: redraw }),
  );
  return { follower, targets, commands };
}
