/**
 * Commands of runs: Start Run, Stop Run (one task or the selection), Edit URL or Text List, Save
 * List and the subtasks' "Load more" (Duplicate Task, which redraws the tree, is the Tasks view's).
 * The work is done by the rest of this folder; these parse the arguments (tree nodes from menus,
 * plain `{ task: { taskId, taskName } }` objects from other callers) and hand over.
 */
import * as z from 'zod';

import type { TaskRef } from '../api/taskRef';
import { defineHandlers } from '../platform/commandHandlers';
import { taskArgSchema } from '../platform/treeArgs';
import { withTasksViewProgress } from '../platform/viewIds';
import type { RunOutcome } from './runActions';

/** A menu on a multi-selection passes (clicked node, selected nodes); other rows in it are ignored. */
const selectionSchema = z.array(z.unknown()).max(10_000);
const subtasksArgSchema = z.object({ taskId: z.string().min(1) });

/** The clicked task, or every selected task when the clicked one is part of the selection. */
export function tasksOf(arg: unknown, selection: unknown): TaskRef[] {
  const clicked = taskArgSchema.safeParse(arg);
  if (!clicked.success) return [];
  const rows = selectionSchema.safeParse(selection);
  const selected = rows.success
    ? rows.data.map((row) => taskArgSchema.safeParse(row)).flatMap((r) => (r.success ? [r.data] : []))
    : [];
  return selected.some((task) => task.taskId === clicked.data.taskId) ? selected : [clicked.data];
}

/** What the commands hand over to (runs/index.ts). */
export interface RunCommandTarget {
  start(tasks: readonly TaskRef[]): Promise<RunOutcome>;
  stop(tasks: readonly TaskRef[]): Promise<RunOutcome>;
  editLoop(task: TaskRef, progress: <T>(work: () => Promise<T>) => Thenable<T>): Promise<unknown>;
  saveList(): Promise<boolean>;
  loadMoreSubtasks(taskId: string): void;
}

export function runCommands(runs: RunCommandTarget) {
  return defineHandlers({
    runsStart: (arg, selection) => {
      const chosen = tasksOf(arg, selection);
      return chosen.length === 0 ? undefined : runs.start(chosen);
    },

    runsStop: (arg, selection) => {
      const chosen = tasksOf(arg, selection);
      return chosen.length === 0 ? undefined : runs.stop(chosen);
    },

    runsEditUrlList: (arg) => {
      const task = taskArgSchema.safeParse(arg);
      return task.success ? runs.editLoop(task.data, withTasksViewProgress) : undefined;
    },

    runsSaveList: () => runs.saveList(),

    runsLoadMoreSubtasks: (arg) => {
      const parsed = subtasksArgSchema.safeParse(arg);
      if (parsed.success) runs.loadMoreSubtasks(parsed.data.taskId);
    },
  });
}
