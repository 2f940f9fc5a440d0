/**
 * Move to Group…: what dragging tasks onto a group does, from the task's context menu (the clicked
 * task, or every selected task when it is one of them) and from the command palette (a quick pick
 * of the task, then one of the group). The move itself is runs' (`runs/organise.ts`: several tasks
 * are asked about first, failures are reported), as for a drop; the tree shows the new groups at once.
 */
import * as vscode from 'vscode';

import type { TaskGroup } from '../api/schemas/schemas';
import { plainText } from '../platform/plainText';
import type { Reporter } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import type { GroupRef, MoveOutcome, MovingTask } from '../runs/organise';
import { groupsToOffer, movingTasksOf } from './moveChoices';
import { pickTask } from './taskPicker';
import type { TaskRow } from './taskReads';

const t = vscode.l10n.t;

export interface MoveToGroupDeps {
  ui: Pick<Ui, 'showQuickPick' | 'showInformationMessage'>;
  reporter: Pick<Reporter, 'report'>;
  signedIn(): boolean;
  /** Every task with its group (the palette's first question). */
  listTasks(): Promise<readonly TaskRow[]>;
  /** The account's groups, unfiltered. */
  groups(): Promise<readonly TaskGroup[]>;
  move(tasks: readonly MovingTask[], target: GroupRef): Promise<MoveOutcome>;
  /** These tasks are in `target` now: the tree draws their groups again. */
  moved(tasks: readonly MovingTask[], target: GroupRef): void;
}

export async function moveToGroup(
  arg: unknown,
  selection: unknown,
  deps: MoveToGroupDeps,
): Promise<MoveOutcome | undefined> {
  if (!deps.signedIn()) {
    void deps.ui.showInformationMessage(t('Sign in to Scrapedeck to move tasks.'));
    return undefined;
  }
  const tasks = movingTasksOf(arg, selection) ?? (await pickTaskToMove(deps));
  if (tasks === undefined || tasks.length === 0) return undefined;
  const target = await pickGroup(tasks, deps);
  if (target === undefined) return undefined;
  const outcome = await deps.move(tasks, target);
  if (outcome.moved.length > 0)
    deps.moved(
      tasks.filter((task) => outcome.moved.includes(task.taskId)),
      target,
    );
  return outcome;
}

type Picked<T> = vscode.QuickPickItem & { value: T };

async function pickTaskToMove(deps: MoveToGroupDeps): Promise<MovingTask[] | undefined> {
  const row = await pickTask(deps, {
    title: t('Move a Task to Another Group (1/2)'),
    placeHolder: t('The task to move (its group is beside it)'),
  });
  return row === undefined ? undefined : [{ taskId: row.taskId, taskName: row.taskName, taskGroupId: row.taskGroupId }];
}

async function pickGroup(tasks: readonly MovingTask[], deps: MoveToGroupDeps): Promise<GroupRef | undefined> {
  let groups: readonly TaskGroup[];
  try {
    groups = await deps.groups();
  } catch (error) {
    void deps.reporter.report(error, 'loadGroups');
    return undefined;
  }
  const items: Picked<GroupRef>[] = groupsToOffer(tasks, groups).map((g) => ({
    label: plainText(g.taskGroupName),
    value: { taskGroupId: g.taskGroupId, taskGroupName: g.taskGroupName },
  }));
  const first = plainText(tasks[0]?.taskName ?? '');
  if (items.length === 0) {
    void deps.ui.showInformationMessage(t('There is no other task group to move “{0}” to.', first));
    return undefined;
  }
  const picked = await deps.ui.showQuickPick(items, {
    title: tasks.length === 1 ? t('Move “{0}” to…', first) : t('Move {0} Tasks to…', tasks.length),
    placeHolder: t('The group to move to; the service cannot undo a move, but you can move back'),
  });
  return picked?.value;
}
