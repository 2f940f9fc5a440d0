/**
 * What Move to Group… moves and where it may move them (no `vscode`: unit-tested in Node). Menus
 * pass tree rows, parsed with zod, never trusted.
 */
import * as z from 'zod';

import type { TaskGroup } from '../api/schemas/schemas';
import type { MovingTask } from '../runs/organise';

/** A task row of the tree, as a menu passes it: the task and the group it is listed in. */
const taskNodeSchema = z
  .object({
    task: z.object({ taskId: z.string().min(1), taskName: z.string() }),
    group: z.object({ taskGroupId: z.string().min(1), taskGroupName: z.string() }),
  })
  .transform((n): MovingTask => ({
    taskId: n.task.taskId,
    taskName: n.task.taskName,
    taskGroupId: n.group.taskGroupId,
  }));
const selectionSchema = z.array(z.unknown()).max(10_000);

/**
 * The clicked task, or every selected task when the clicked one is part of the selection (a menu on
 * a multi-selection passes both); undefined when no task row was clicked (the palette).
 */
export function movingTasksOf(arg: unknown, selection: unknown): MovingTask[] | undefined {
  const clicked = taskNodeSchema.safeParse(arg);
  if (!clicked.success) return undefined;
  const rows = selectionSchema.safeParse(selection);
  const selected = rows.success
    ? rows.data.map((row) => taskNodeSchema.safeParse(row)).flatMap((r) => (r.success ? [r.data] : []))
    : [];
  return selected.some((task) => task.taskId === clicked.data.taskId) ? selected : [clicked.data];
}

/** The groups to offer: all but one every task is in already (moving there would move nothing). */
export function groupsToOffer(tasks: readonly MovingTask[], groups: readonly TaskGroup[]): TaskGroup[] {
  return groups.filter((g) => !tasks.every((task) => task.taskGroupId === g.taskGroupId));
}
