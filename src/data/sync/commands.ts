/**
 * Keep in Sync… and Stop Keeping in Sync, from a task's context menu (or `{ taskId, taskName }`).
 * Keep in Sync… offers the destinations Pull New Rows offers (a file of the workspace, a new file,
 * the user's PostgreSQL connections), remembers the choice (`syncTargets.ts`) and makes it the
 * task's Pull New Rows destination too: each row goes once to whichever pull takes it, so both
 * must write to one place. Off in Restricted Mode.
 */
import * as vscode from 'vscode';

import type { TaskRef } from '../../api/taskRef';
import { defineHandlers } from '../../platform/commandHandlers';
import { COMMANDS } from '../../platform/commandIds';
import { plainText } from '../../platform/plainText';
import type { Ui } from '../../platform/ui';
import { taskArgument } from '../common/taskArgument';
import type { Namesake } from '../formats/rowFormats';
import { pgTargetItems } from '../pull/postgresTarget';
import { accountKey, type PullTargets } from '../pull/rememberedTargets';
import { type AppendTarget, chooseAppendTarget, type PickerWords } from '../pull/targetPicker';
import { destinationLabel } from '../pull/targetSink';
import type { SyncPullDeps } from './syncPull';
import type { SyncTargets } from './syncTargets';

const t = vscode.l10n.t;

export type KeepOutcome = 'following' | 'declined' | 'restricted' | 'signed-out' | 'no-folder' | 'no-task';
export type StopOutcome = 'stopped' | 'not-following' | 'signed-out' | 'no-task';

export interface SyncCommandDeps extends Pick<SyncPullDeps, 'account' | 'records' | 'pgStore'> {
  ui: Ui;
  log: Pick<vscode.LogOutputChannel, 'warn'>;
  syncTargets: SyncTargets;
  pullTargets: PullTargets;
  /** The task's fields from its first row, for the picker (`pullFlow.ts`). */
  fields(task: TaskRef): Promise<string[] | 'no-rows' | undefined>;
  namesakes?: (task: TaskRef) => Namesake | undefined;
  /** The tree rows are drawn again. */
  changed(): void;
}

/** True (after saying so) in Restricted Mode. */
export function syncRefused(ui: Pick<Ui, 'isWorkspaceTrusted' | 'showInformationMessage'>): boolean {
  if (ui.isWorkspaceTrusted()) return false;
  void ui.showInformationMessage(
    t('Keep in Sync is off in Restricted Mode: trust this workspace first. Nothing was changed.'),
  );
  return true;
}

/** Keep in Sync's picker: it sets up where every ended run's new rows go, not one pull now. */
export function syncPickerWords(task: TaskRef): PickerWords {
  return {
    title: t('Keep “{0}” in Sync with…', plainText(task.taskName)),
    placeHolder: t('Each time a run ends, its new rows are pulled here; Pull New Rows writes here too'),
  };
}

export function syncCommands(deps: SyncCommandDeps) {
  const taskOf = (arg: unknown) => taskArgument(arg, deps, 'sync');
  const signedIn = (task: TaskRef): string | undefined => {
    const account = deps.account.account;
    if (account === undefined)
      void deps.ui.showInformationMessage(t('Sign in to Scrapedeck to keep “{0}” in sync.', plainText(task.taskName)));
    return account === undefined ? undefined : accountKey(account);
  };
  /** As Pull New Rows offers them, under words that say what is set up; with no folder open, only the connections. */
  const chooseTarget = async (task: TaskRef, key: string): Promise<AppendTarget | undefined> => {
    const servers = pgTargetItems(deps.pgStore);
    const words = syncPickerWords(task);
    if (!vscode.workspace.workspaceFolders?.some((f) => f.uri.scheme === 'file')) {
      const picked = await deps.ui.showQuickPick(servers, words);
      return picked === undefined ? undefined : { uri: picked.uri, format: 'postgres' };
    }
    const fields = await deps.fields(task);
    const context = { trusted: true, records: deps.records(key), namesake: deps.namesakes?.(task), words };
    return chooseAppendTarget(task, deps.ui, fields === 'no-rows' ? undefined : fields, context, servers);
  };
  return defineHandlers({
    dataKeepInSync: async (arg): Promise<KeepOutcome> => {
      const task = taskOf(arg);
      if (task === undefined) return 'no-task';
      if (syncRefused(deps.ui)) return 'restricted';
      const key = signedIn(task);
      if (key === undefined) return 'signed-out';
      if (
        !vscode.workspace.workspaceFolders?.some((f) => f.uri.scheme === 'file') &&
        deps.pgStore.list().length === 0
      ) {
        void deps.ui.showInformationMessage(
          t(
            'Open a folder or add a PostgreSQL connection first: Keep in Sync pulls the new rows of “{0}” into a file of your workspace or a PostgreSQL database.',
            plainText(task.taskName),
          ),
        );
        return 'no-folder';
      }
      const target = await chooseTarget(task, key);
      if (target === undefined) return 'declined';
      // The account may have changed while the picker was open.
      if (deps.account.account === undefined || accountKey(deps.account.account) !== key) return 'signed-out';
      const uri = target.uri.toString();
      await deps.syncTargets.set(
        key,
        task.taskId,
        { target: uri, taskName: task.taskName },
        target.format === 'postgres' ? 'user' : 'workspace',
      );
      await deps.pullTargets.set(key, task.taskId, uri);
      deps.changed();
      const now = t('Pull New Rows Now');
      void deps.ui
        .showInformationMessage(
          t(
            '“{0}” is kept in sync with {1}: when a run of it ends, its new rows are pulled there.',
            plainText(task.taskName),
            destinationLabel(target.uri, deps.pgStore),
          ),
          now,
        )
        .then((c) => c === now && vscode.commands.executeCommand(COMMANDS.dataPullNewRows, task));
      return 'following';
    },
    dataStopSync: async (arg): Promise<StopOutcome> => {
      const task = taskOf(arg);
      if (task === undefined) return 'no-task';
      const key = signedIn(task);
      if (key === undefined) return 'signed-out';
      const stopped = await deps.syncTargets.forget(key, task.taskId);
      deps.changed();
      vscode.window.setStatusBarMessage(
        stopped
          ? t('“{0}” is no longer kept in sync.', plainText(task.taskName))
          : t('“{0}” was not kept in sync.', plainText(task.taskName)),
        5000,
      );
      return stopped ? 'stopped' : 'not-following';
    },
  });
}
