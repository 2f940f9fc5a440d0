/**
 * The task rows the Tasks view has handed to VS Code, per scope (a group, Needs attention), and by
 * task: runs polls the tasks of the scopes on screen, and a run's change redraws just its rows.
 */
import type { RunsForViews } from '../runs';
import type { TaskNode } from './taskNodes';

export class ShownRows {
  private readonly byTask = new Map<string, Set<TaskNode>>();
  private readonly byScope = new Map<string, TaskNode[]>();

  constructor(private readonly runs: RunsForViews | undefined) {}

  /** Remembers a scope's rows (replacing its previous ones) and tells runs they are on screen. */
  track(scope: string, rows: TaskNode[]): void {
    for (const old of this.byScope.get(scope) ?? []) this.byTask.get(old.taskId)?.delete(old);
    this.byScope.set(scope, rows);
    for (const row of rows) {
      const set = this.byTask.get(row.taskId) ?? new Set<TaskNode>();
      set.add(row);
      this.byTask.set(row.taskId, set);
    }
    this.runs?.tasksShown(
      scope,
      rows.map((n) => n.task),
    );
  }

  /** A scope opened again (VS Code keeps its rows): runs hears its tasks are on screen again. */
  again(scope: string): void {
    const rows = this.byScope.get(scope);
    if (rows)
      this.runs?.tasksShown(
        scope,
        rows.map((n) => n.task),
      );
  }

  /** The rows of these tasks, each given its run state as runs has it now. */
  withRunsOf(taskIds: readonly string[], runs: RunsForViews): TaskNode[] {
    const rows: TaskNode[] = [];
    for (const id of taskIds) {
      const present = runs.present(id);
      for (const row of this.byTask.get(id) ?? []) {
        row.setRun(present);
        rows.push(row);
      }
    }
    return rows;
  }

  clear(): void {
    this.byTask.clear();
    this.byScope.clear();
  }
}
