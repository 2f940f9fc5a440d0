/**
 * Commands of runs: Start Run, Stop Run (one task or the selection), Edit URL or Text List, Duplicate Task
 * and the subtasks' "Load more". The work is in `src/runs`; these parse the arguments (tree nodes
 * from menus, plain `{ task: { taskId, taskName } }` objects from other callers) and hand over.
 */
import * as z from 'zod';
import type { TaskRef } from '../runs/editLoop';
import type { CommandDeps, Handlers } from './deps';
import { taskArgSchema } from './treeArgs';

type RunCommandDeps = Pick<CommandDeps, 'runs' | 'views'>;

/** A menu on a multi-selection passes (clicked node, selected nodes); other rows in it are ignored. */
const selectionSchema = z.array(z.unknown()).max(10_000);
const subtasksArgSchema = z.object({ taskId: z.string().min(1) });

/** The clicked task, or every selected task when the clicked one is part of the selection. */
export function tasksOf(arg: unknown, selection: unknown): TaskRef[] {
  const clicked = taskArgSchema.safeParse(arg);
  if (!clicked.success) return [];
  const rows = selectionSchema.safeParse(selection);
  const selected = rows.success ? rows.data.map((row) => taskArgSchema.safeParse(row)).flatMap((r) => (r.success ? [r.data] : [])) : [];
  return selected.some((task) => task.taskId === clicked.data.taskId) ? selected : [clicked.data];
}

export function runCommands(deps: RunCommandDeps): Handlers<'runsStart' | 'runsStop' | 'runsEditUrlList' | 'runsLoadMoreSubtasks' | 'runsSaveList' | 'tasksDuplicate'> {
  const { runs } = deps;
  const tasks = deps.views.tasks;
  return {
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
      return task.success ? runs.editLoop(task.data, tasks.progress) : undefined;
    },

    runsSaveList: () => runs.saveList(),

    runsLoadMoreSubtasks: (arg) => {
      const parsed = subtasksArgSchema.safeParse(arg);
      if (parsed.success) runs.loadMoreSubtasks(parsed.data.taskId);
    },

    tasksDuplicate: async (arg) => {
      const task = taskArgSchema.safeParse(arg);
      if (!task.success) return undefined;
      const copy = await runs.duplicate(task.data);
      if (copy !== undefined) tasks.provider.refresh();
      return copy;
    },
  };
}
