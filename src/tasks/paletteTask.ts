/**
 * Commands that act on one task, run from the command palette. VS Code calls them with no
 * argument, so the user is asked which task first and the command gets it as a Tasks view row
 * passes it (`{ task: { taskId, taskName } }`). Menus, the finish notice and agents pass their
 * task and are never asked. Move to Group… asks by itself (its second question is the group).
 */
import * as vscode from 'vscode';

import { type CommandKey, COMMANDS } from '../platform/commandIds';
import type { Registrar } from '../platform/registrar';

const t = vscode.l10n.t;

/** Each command the palette offers with a task question, and that question's title. */
export function paletteTaskQuestions(): Partial<Record<CommandKey, string>> {
  return {
    runsStart: t('Start Run: which task?'),
    runsStop: t('Stop Run: which task?'),
    runsEditUrlList: t('Edit URL or Text List: which task?'),
    tasksDuplicate: t('Duplicate Task: which task?'),
    dataExport: t('Export Data: which task?'),
    dataPullNewRows: t('Pull New Rows: which task?'),
    dataBrowse: t('Browse Data: which task?'),
    dataKeepInSync: t('Keep in Sync: which task?'),
    dataStopSync: t('Stop Keeping in Sync: which task?'),
    dataRemove: t('Remove Data: which task?'),
  };
}

/** Asks which task (undefined: cancelled, or nothing to choose from, already said). */
export type AskTask = (title: string) => Promise<{ taskId: string; taskName: string } | undefined>;

/**
 * `registrar`, except that the commands above ask `ask` for their task when they are given none
 * while `signedIn()` (signed out, there is no list to ask from: the command answers as before).
 */
export function askingForTask(registrar: Registrar, ask: AskTask, signedIn: () => boolean): Registrar {
  const questions = new Map<string, string>();
  for (const [key, title] of Object.entries(paletteTaskQuestions())) questions.set(COMMANDS[key as CommandKey], title);
  const asking: Registrar = Object.create(registrar) as Registrar;
  asking.registerCommand = (id, handler) => {
    const title = questions.get(id);
    if (title === undefined) return registrar.registerCommand(id, handler);
    return registrar.registerCommand(id, async (...args: unknown[]) => {
      if (args[0] !== undefined || !signedIn()) return handler(...args);
      const task = await ask(title);
      return task === undefined ? undefined : handler({ task: { taskId: task.taskId, taskName: task.taskName } });
    });
  };
  return asking;
}
