/**
 * Drag tasks onto a group (or onto a task or row of that group) to move them there. The drop is
 * handed to runs' move flow (which asks first when more than one task moves); the tree shows the
 * moved tasks' groups with their new counts at once, and is refreshed. What arrives in the data transfer is parsed with zod, never trusted.
 */
import * as vscode from 'vscode';
import * as z from 'zod';

import type { GroupRef, MoveOutcome, MovingTask } from '../runs/organise';
import { LoadMoreNode, TaskGroupNode, TaskNode, type TasksNode } from './taskNodes';

/** The tree's own type: `application/vnd.code.tree.<view id in lower case>`. */
export const TASKS_MIME = 'application/vnd.code.tree.scrapedeck.tasks';

const movingSchema = z
  .array(z.object({ taskId: z.string().min(1), taskName: z.string(), taskGroupId: z.string().min(1) }))
  .min(1)
  .max(10_000);

export interface TasksDragAndDropDeps {
  move(tasks: readonly MovingTask[], target: GroupRef): Promise<MoveOutcome>;
  /** These tasks are in `target` now: the groups' lists (and counts) changed. */
  moved(tasks: readonly MovingTask[], target: GroupRef): void;
}

export class TasksDragAndDrop implements vscode.TreeDragAndDropController<TasksNode> {
  readonly dragMimeTypes = [TASKS_MIME];
  readonly dropMimeTypes = [TASKS_MIME];

  constructor(private readonly deps: TasksDragAndDropDeps) {}

  handleDrag(source: readonly TasksNode[], dataTransfer: vscode.DataTransfer): void {
    const tasks: MovingTask[] = source
      .filter((node): node is TaskNode => node instanceof TaskNode)
      .map((node) => ({ taskId: node.taskId, taskName: node.taskName, taskGroupId: node.group.taskGroupId }));
    if (tasks.length > 0) dataTransfer.set(TASKS_MIME, new vscode.DataTransferItem(tasks));
  }

  async handleDrop(target: TasksNode | undefined, dataTransfer: vscode.DataTransfer): Promise<void> {
    await this.drop(target, dataTransfer);
  }

  /** The drop; resolves to what the move did (undefined when it was not onto a group's row). */
  async drop(target: TasksNode | undefined, dataTransfer: vscode.DataTransfer): Promise<MoveOutcome | undefined> {
    const group =
      target instanceof TaskGroupNode || target instanceof TaskNode || target instanceof LoadMoreNode
        ? target.group
        : undefined;
    const item = dataTransfer.get(TASKS_MIME);
    if (group === undefined || item === undefined) return undefined;
    const parsed = movingSchema.safeParse(item.value);
    if (!parsed.success) return undefined;
    const into: GroupRef = { taskGroupId: group.taskGroupId, taskGroupName: group.taskGroupName };
    const outcome = await this.deps.move(parsed.data, into);
    if (outcome.moved.length > 0)
      this.deps.moved(
        parsed.data.filter((t) => outcome.moved.includes(t.taskId)),
        into,
      );
    return outcome;
  }
}
