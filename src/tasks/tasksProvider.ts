/**
 * The Tasks view's TreeDataProvider: turns `TasksModel` answers into nodes. It shows no pop-ups
 * itself and registers no commands; failures go to the injected `report` (the view keeps its
 * last good rows) and loading goes through the injected `progress` (the spinner on the view).
 *
 * A plan that does not allow listing task groups (403) is not an error to report: the view is
 * left empty and `onPlanLimited(true)` lets the welcome area say what the plan allows, once.
 */
import * as vscode from 'vscode';

import { isApiError } from '../api/errors/errors';
import type { Task, TaskGroup } from '../api/schemas/schemas';
import { AttentionGroupNode, attentionShown, AttentionTaskNode, healthRows } from './attentionNodes';
import { groupsFailedRow, noGroupsRow, noTasksRow, tasksFailedRow } from './messageRows';
import { ShownRows } from './shownRows';
import { LoadMoreNode, TaskGroupNode, TaskNode } from './taskNodes';
import type { TasksModel } from './tasksModel';
import { reportUnlessCancelled, type TasksNode, type TasksProviderDeps } from './tasksProviderDeps';

export type { TasksNode, TasksProviderDeps } from './tasksProviderDeps';

/** Runs' name for the rows of a scope on screen (each is polled while shown). */
const groupScope = (taskGroupId: string): string => `group:${taskGroupId}`;
const ATTENTION_SCOPE = 'attention';

export class TasksTreeProvider implements vscode.TreeDataProvider<TasksNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TasksNode | TasksNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** The group nodes last handed to VS Code: refreshing one group must fire with that very object. */
  private readonly groupNodes = new Map<string, TaskGroupNode>();
  private readonly healthSubscription: { dispose(): void } | undefined;
  /** Task rows handed to VS Code, per scope (a group, Needs attention): a run's change redraws just those rows. */
  private readonly shown: ShownRows;
  private readonly runsSubscription: { dispose(): void } | undefined;
  private readonly syncSubscription: { dispose(): void } | undefined;
  private planLimitedNow = false;
  /** Groups whose count was asked for since the last refresh (asked once, answered or not). */
  private readonly counting = new Set<string>();

  constructor(
    readonly model: TasksModel,
    private readonly deps: TasksProviderDeps,
  ) {
    this.shown = new ShownRows(deps.runs);
    this.healthSubscription = deps.health?.onDidChange(() => this.redraw());
    this.runsSubscription = deps.runs?.onDidChange((ids) => this.redrawRuns(ids));
    this.syncSubscription = deps.sync?.onDidChange(() => this.redraw());
  }

  /** Whether the last listing was refused for the account's plan (the welcome area says so). */
  get planLimited(): boolean {
    return this.planLimitedNow;
  }

  getTreeItem(element: TasksNode): vscode.TreeItem {
    return element;
  }

  getParent(element: TasksNode): TasksNode | undefined {
    if (element instanceof AttentionTaskNode) return element.parentNode;
    if (element instanceof TaskNode || element instanceof LoadMoreNode)
      return this.groupNodes.get(element.group.taskGroupId);
    return undefined;
  }

  async getChildren(element?: TasksNode): Promise<TasksNode[]> {
    if (!this.deps.signedIn()) return [];
    if (element === undefined) return this.rootChildren();
    if (element instanceof TaskGroupNode) return this.groupChildren(element.group);
    if (element instanceof AttentionGroupNode) return this.attentionChildren(element);
    if (element instanceof TaskNode && element.isRunning && this.deps.runs)
      return this.deps.runs.subtaskRows(element.taskId);
    return [];
  }

  /** Re-fetch everything; rows stay as they are until the answers arrive (or if they fail). */
  refresh(): void {
    this.model.invalidate();
    this.counting.clear();
    this.changed.fire(undefined);
    this.deps.runs?.refreshAll();
  }

  /** Tasks moved to another group at the service (a drop): both groups' counts follow at once, then everything is read again. */
  moved(tasks: readonly Task[], target: TaskGroup): void {
    this.model.applyMove(tasks, target.taskGroupId);
    this.refresh();
  }

  /** A group opened again (VS Code keeps its rows): its tasks are on screen again. */
  groupExpanded(taskGroupId: string): void {
    this.shown.again(groupScope(taskGroupId));
  }

  /** A group closed: its tasks are off screen, and not polled. */
  groupCollapsed(taskGroupId: string): void {
    this.deps.runs?.scopeHidden(groupScope(taskGroupId));
  }

  /** "Needs attention" opened again, or closed: its tasks' run states are asked, or no longer. */
  attentionExpanded(expanded: boolean): void {
    if (expanded) this.shown.again(ATTENTION_SCOPE);
    else this.deps.runs?.scopeHidden(ATTENTION_SCOPE);
  }

  /** The account changed: drop every row of the previous one. */
  reset(): void {
    this.model.reset();
    this.counting.clear();
    this.groupNodes.clear();
    this.shown.clear();
    this.setPlanLimited(false);
    this.changed.fire(undefined);
  }

  /** Draws the rows again from what is loaded (no request): health or run state changed. */
  redraw(): void {
    this.changed.fire(undefined);
  }

  setFilter(text: string | undefined): void {
    if (this.model.setFilter(text)) this.changed.fire(undefined);
  }

  /** One more page of a group; no request, the tasks are already loaded. */
  loadMore(taskGroupId: string): void {
    this.model.loadMore(taskGroupId);
    this.changed.fire(this.groupNodes.get(taskGroupId));
  }

  dispose(): void {
    this.healthSubscription?.dispose();
    this.runsSubscription?.dispose();
    this.syncSubscription?.dispose();
    this.changed.dispose();
  }

  private async rootChildren(): Promise<TasksNode[]> {
    const groups = await this.groupRows();
    // A plan without tasks: the welcome area's one statement covers health too (it needs an empty root).
    return this.planLimitedNow ? [] : [...healthRows(this.deps.health, this.model.filter), ...groups];
  }

  private async groupRows(): Promise<TasksNode[]> {
    const loaded = await this.deps.progress(() => this.model.groups());
    const groups = loaded.value;
    if (groups === undefined && isApiError(loaded.error) && loaded.error.kind === 'forbidden') {
      // One plain statement in the welcome area instead of a row, a toast and a warning.
      this.setPlanLimited(true);
      return [];
    }
    this.setPlanLimited(false);
    reportUnlessCancelled(this.deps, loaded.error, 'loadGroups');
    if (groups === undefined) return loaded.error === undefined ? [] : [groupsFailedRow()];
    if (groups.length === 0) return [noGroupsRow(this.model)];
    this.groupNodes.clear();
    const nodes = groups.map(({ group }) => {
      const node = new TaskGroupNode(
        group,
        this.model.taskCount(group.taskGroupId),
        this.model.isFiltered,
        this.deps.health,
      );
      this.groupNodes.set(group.taskGroupId, node);
      return node;
    });
    this.countInBackground(groups.map(({ group }) => group.taskGroupId));
    return nodes;
  }

  /**
   * The service's group listing carries no task count, so each group whose count is unknown (after
   * a restart, a new group) or from before a refresh (a move, a duplicate) is listed in the
   * background, once per refresh, and its row shows the count as it arrives. Quiet on failure:
   * opening the group reports it.
   */
  private countInBackground(taskGroupIds: readonly string[]): void {
    for (const id of taskGroupIds) {
      if (this.counting.has(id) || !this.model.needsCount(id)) continue;
      this.counting.add(id);
      void this.model.allTasksOf(id).then(() => this.showCount(id));
    }
  }

  private async groupChildren(group: TaskGroup): Promise<TasksNode[]> {
    const loaded = await this.deps.progress(() => this.model.tasks(group.taskGroupId));
    reportUnlessCancelled(this.deps, loaded.error, 'loadTasks', group.taskGroupName);
    const slice = loaded.value;
    const id = group.taskGroupId;
    if (slice === undefined) return loaded.error === undefined ? [] : [tasksFailedRow(id)];
    this.showCount(id);
    if (slice.total === 0) return [noTasksRow(id, this.model.isFiltered)];
    const rows = slice.visible.map(
      (task) => new TaskNode(task, group, this.deps.health, this.deps.runs?.present(task.taskId)),
    );
    this.trackRows(groupScope(id), rows);
    const nodes: TasksNode[] = rows;
    if (slice.hasMore) nodes.push(new LoadMoreNode(group, slice.shown, slice.total));
    return nodes;
  }

  /** The tasks needing attention, with their run state as in their groups (and kept up to date like them). */
  private attentionChildren(parent: AttentionGroupNode): TasksNode[] {
    const health = this.deps.health;
    if (!health) return [];
    const rows = attentionShown(health, this.model.filter).map(
      (i) => new AttentionTaskNode(i, health, parent, this.deps.runs?.present(i.task.taskId)),
    );
    this.trackRows(ATTENTION_SCOPE, rows);
    return rows;
  }

  /** Each row says where its task syncs to, then the rows are remembered as on screen. */
  private trackRows(scope: string, rows: TaskNode[]): void {
    for (const row of rows) row.setSync(this.deps.sync?.part(row.taskId));
    this.shown.track(scope, rows);
  }

  /** Run states changed: only those rows are drawn again (one event for all of them). */
  private redrawRuns(taskIds: readonly string[]): void {
    const runs = this.deps.runs;
    if (!runs) return;
    const rows = this.shown.withRunsOf(taskIds, runs);
    if (rows.length > 0) this.changed.fire(rows);
  }

  /** A group's tasks were listed: its row shows their count at once (the view hears of it when it changed). */
  private showCount(taskGroupId: string): void {
    const node = this.groupNodes.get(taskGroupId);
    if (node !== undefined && node.setCount(this.model.taskCount(taskGroupId), this.model.isFiltered))
      this.changed.fire(node);
  }

  private setPlanLimited(limited: boolean): void {
    if (limited === this.planLimitedNow) return;
    this.planLimitedNow = limited;
    this.deps.onPlanLimited(limited);
  }
}
