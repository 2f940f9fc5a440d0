/**
 * Duplicate a task, and move tasks to another group (the tree's drag and drop). The service has no
 * undo for a move, so moving more than one task asks first, in a modal whose first button keeps
 * them where they are (Enter alone moves nothing). Moves go one at a time: a failure names its
 * task and the rest still move.
 */
import * as vscode from 'vscode';

import type { ScrapedeckClient } from '../api/client';
import type { CopiedTask } from '../api/schemas/taskOpsSchemas';
import type { TaskRef } from '../api/taskRef';
import { plainText } from '../platform/plainText';
import type { Ui } from '../platform/ui';
import type { ReportFailure } from './runReport';

const t = vscode.l10n.t;

export interface OrganiseDeps {
  getClient(): ScrapedeckClient | undefined;
  ui: Pick<Ui, 'showInformationMessage' | 'showModalWarning'>;
  report: ReportFailure;
  log: Pick<vscode.LogOutputChannel, 'info'>;
}

export interface GroupRef {
  readonly taskGroupId: string;
  readonly taskGroupName: string;
}

export interface MovingTask extends TaskRef {
  /** The group it is in now. */
  readonly taskGroupId: string;
}

export interface MoveOutcome {
  readonly moved: string[];
  readonly failed: string[];
  readonly declined: boolean;
}

export async function duplicateTask(task: TaskRef, deps: OrganiseDeps): Promise<CopiedTask | undefined> {
  const client = deps.getClient();
  if (client === undefined) {
    void deps.ui.showInformationMessage(t('Sign in to Scrapedeck to duplicate a task.'));
    return undefined;
  }
  try {
    const { data, requestId } = await client.copyTask(task.taskId);
    deps.log.info(`Duplicated task ${task.taskId} as ${data.taskId}${requestId ? ` (request ID ${requestId})` : ''}`);
    void deps.ui.showInformationMessage(
      t('Duplicated “{0}” as “{1}”, in the same group.', plainText(task.taskName), plainText(data.taskName)),
    );
    return data;
  } catch (error) {
    void deps.report(error, t('Could not duplicate “{0}”', plainText(task.taskName)), 'organiseTasks');
    return undefined;
  }
}

export async function moveTasks(
  tasks: readonly MovingTask[],
  target: GroupRef,
  deps: OrganiseDeps,
): Promise<MoveOutcome> {
  const todo = tasks.filter(
    (task, i) => task.taskGroupId !== target.taskGroupId && tasks.findIndex((x) => x.taskId === task.taskId) === i,
  );
  if (todo.length === 0) return { moved: [], failed: [], declined: false };
  const client = deps.getClient();
  if (client === undefined) {
    void deps.ui.showInformationMessage(t('Sign in to Scrapedeck to move tasks.'));
    return { moved: [], failed: [], declined: false };
  }
  if (todo.length > 1 && !(await confirmMove(todo, target, deps.ui))) return { moved: [], failed: [], declined: true };
  const moved: string[] = [];
  const failed: string[] = [];
  for (const task of todo) {
    try {
      const { requestId } = await client.moveTask(task.taskId, target.taskGroupId);
      moved.push(task.taskId);
      deps.log.info(
        `Moved task ${task.taskId} to group ${target.taskGroupId}${requestId ? ` (request ID ${requestId})` : ''}`,
      );
    } catch (error) {
      failed.push(task.taskId);
      void deps.report(
        error,
        t('Could not move “{0}” to “{1}”', plainText(task.taskName), plainText(target.taskGroupName)),
        'organiseTasks',
      );
    }
  }
  if (moved.length > 0) {
    const first = todo.find((task) => task.taskId === moved[0])?.taskName ?? '';
    const text =
      moved.length === 1
        ? t('Moved “{0}” to “{1}”', plainText(first), plainText(target.taskGroupName))
        : t('Moved {0} tasks to “{1}”', moved.length, plainText(target.taskGroupName));
    vscode.window.setStatusBarMessage(`$(move) ${text}`, 5000);
  }
  return { moved, failed, declined: false };
}

async function confirmMove(todo: readonly MovingTask[], target: GroupRef, ui: OrganiseDeps['ui']): Promise<boolean> {
  const names =
    todo
      .slice(0, 10)
      .map((task) => `• ${plainText(task.taskName)}`)
      .join('\n') + (todo.length > 10 ? `\n${t('and {0} more', todo.length - 10)}` : '');
  const keep = t('Keep Them Where They Are');
  const move = t('Move {0} Tasks', todo.length);
  const answer = await ui.showModalWarning(
    t('Move {0} tasks to “{1}”?', todo.length, plainText(target.taskGroupName)),
    `${t('A move cannot be undone from Scrapedeck: to put them back, move each one back.')}\n\n${names}`,
    move,
    keep,
  );
  return answer === move;
}
