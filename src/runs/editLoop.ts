/**
 * "Edit URL or Text List": reads the task's loops (URL lists and text lists), asks which one when
 * there are several, and opens it as a `scrapedeck:` document named after the task and the loop.
 */
import * as vscode from 'vscode';

import type { ScrapedeckClient } from '../api/client';
import { LOOP_ACTION } from '../api/ops/tasks';
import type { TaskAction } from '../api/schemas/taskOpsSchemas';
import type { TaskRef } from '../api/taskRef';
import { plainText } from '../platform/plainText';
import type { Ui } from '../platform/ui';
import type { LoopFileSystem } from './loopFileSystem';
import { loopTypeText } from './loopItems';
import { LOOP_LANGUAGE, LOOP_SCHEME, type LoopAddresses, loopFileName } from './loopUri';
import type { ReportFailure } from './runReport';
import { formatNumber } from './runText';

const t = vscode.l10n.t;

export interface EditLoopDeps {
  getClient(): ScrapedeckClient | undefined;
  accountKey(): string | undefined;
  fs: Pick<LoopFileSystem, 'prime'>;
  addresses: Pick<LoopAddresses, 'pathFor'>;
  ui: Pick<Ui, 'showQuickPick' | 'showInformationMessage'>;
  report: ReportFailure;
  /** The spinner on the Tasks view while the loops are read. */
  progress<T>(work: () => Promise<T>): Thenable<T>;
}

/** A loop that can be edited: its items and its type are known (the update must name the type). */
type Loop = TaskAction & { loopItems: string[]; loopType: string };

/** Opens the chosen loop's document; resolves to its address, or undefined if nothing was opened. */
export async function editLoopItems(task: TaskRef, deps: EditLoopDeps): Promise<vscode.Uri | undefined> {
  const client = deps.getClient();
  const account = deps.accountKey();
  if (client === undefined || account === undefined) {
    void deps.ui.showInformationMessage(t('Sign in to Scrapedeck to edit a task’s URL or text list.'));
    return undefined;
  }
  let loops: Loop[];
  try {
    const reply = await deps.progress(() => client.getActions([task.taskId], [LOOP_ACTION]));
    const actions = reply.data.find((a) => a.taskId === task.taskId)?.actions ?? [];
    loops = actions.filter((a): a is Loop => a.loopItems !== null && a.loopType !== null);
  } catch (error) {
    await deps.report(error, t('Could not read the lists of “{0}”', plainText(task.taskName)));
    return undefined;
  }
  if (loops.length === 0) {
    void deps.ui.showInformationMessage(t('“{0}” has no URL list or text list to edit.', plainText(task.taskName)));
    return undefined;
  }
  const loop = loops.length === 1 ? loops[0] : await pickLoop(task, loops, deps.ui);
  if (loop === undefined) return undefined;
  const ref = { account, taskId: task.taskId, actionId: loop.actionId, loopType: loop.loopType };
  const uri = vscode.Uri.from({
    scheme: LOOP_SCHEME,
    path: deps.addresses.pathFor(ref, loopFileName(task.taskName, loopName(loop))),
  });
  deps.fs.prime(uri, loop.loopItems);
  // The list's language before it is shown (changing it later reopens the document).
  const doc = await vscode.languages.setTextDocumentLanguage(
    await vscode.workspace.openTextDocument(uri),
    LOOP_LANGUAGE,
  );
  await vscode.window.showTextDocument(doc, { preview: false });
  return uri;
}

async function pickLoop(task: TaskRef, loops: Loop[], ui: EditLoopDeps['ui']): Promise<Loop | undefined> {
  const locale = vscode.env.language;
  const items = loops.map((loop) => ({
    label: plainText(loopName(loop)),
    description: loopTypeText(loop.loopType, t),
    detail:
      loop.loopItems.length === 1
        ? t('1 item: {0}', plainText(loop.loopItems[0] ?? ''))
        : t('{0} items, starting {1}', formatNumber(loop.loopItems.length, locale), plainText(loop.loopItems[0] ?? '')),
    loop,
  }));
  const picked = await ui.showQuickPick(items, {
    title: t('Edit a List of “{0}”', plainText(task.taskName)),
    placeHolder: t('The task has {0} lists. Which one?', loops.length),
  });
  return picked?.loop;
}

function loopName(loop: Loop): string {
  return loop.name?.trim() || loop.actionId;
}
