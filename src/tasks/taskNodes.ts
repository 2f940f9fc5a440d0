/**
 * The Tasks view's nodes. Each is a `vscode.TreeItem` with a stable `id` (so expansion survives a
 * refresh) and a `contextValue` the menus in package.json match (`\btask\b`, `\btaskGroup\b`).
 */
import * as vscode from 'vscode';

import type { Task, TaskGroup } from '../api/schemas/schemas';
import type { SyncRowPart } from '../data/sync/syncBoard';
import type { HealthView } from '../health/healthBoard';
import { groupHealthPart, taskHealthPart } from '../health/nodeParts';
import type { HealthRowParts } from '../health/rowParts';
import { COMMANDS } from '../platform/commandIds';
import { plainText } from '../platform/plainText';
import type { RunPresentation } from '../runs/runText';
import { type SubtaskRow, themeIcon } from '../runs/subtaskNodes';
import { loadMoreLabel } from './paging';
import { type DescriptionPart, rowDescription } from './rowDescription';

/**
 * Icons that say what a row is: a group of tasks, a web-extraction task. Plain theme icons without
 * a colour, so health (issue 14) can colour them: `taskIcon(new vscode.ThemeColor(...))`.
 */
export const GROUP_ICON = 'folder-library';
export function taskIcon(colour?: vscode.ThemeColor): vscode.ThemeIcon {
  return new vscode.ThemeIcon('globe', colour);
}

type Count = { matching: number; total: number };

export class TaskGroupNode extends vscode.TreeItem {
  override readonly contextValue = 'taskGroup';

  constructor(
    readonly group: TaskGroup,
    count: Count | undefined,
    filtered: boolean,
    private readonly health?: HealthView,
  ) {
    // With a filter on, groups open by themselves so the matches are visible at once.
    super(
      group.taskGroupName,
      filtered ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    this.id = `taskGroup:${group.taskGroupId}`;
    this.iconPath = new vscode.ThemeIcon(GROUP_ICON);
    this.setCount(count, filtered);
  }

  /** Shows how many tasks the group has; returns whether the row changed (then the view must hear of it). */
  setCount(count: Count | undefined, filtered: boolean): boolean {
    const t = vscode.l10n.t;
    const counted =
      count === undefined
        ? undefined
        : filtered && count.matching !== count.total
          ? t('{0} of {1} match', count.matching, count.total)
          : tasksCount(count.total);
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(this.group.taskGroupName).appendMarkdown('**  \n');
    // Ids as plain text, not code spans: appendText's escapes would show literally inside backticks.
    md.appendText(t('Group ID: {0}', this.group.taskGroupId));
    if (count) md.appendMarkdown('  \n').appendText(tasksCount(count.total));
    // Each area adds its part of the description (and tooltip lines) with one call here.
    const description = joinParts([counted, groupHealthPart(this, md, this.health, this.group.taskGroupId)]);
    const label =
      count === undefined
        ? t('Task group {0}', plainText(this.group.taskGroupName))
        : t('Task group {0}, {1}', plainText(this.group.taskGroupName), tasksCount(count.total));
    const changed = description !== this.description;
    this.description = description;
    this.tooltip = md;
    this.accessibilityInformation = { label };
    return changed;
  }
}

export class TaskNode extends vscode.TreeItem {
  /** `task`, plus run flags (`runnable`, `running`) that menus match with `viewItem =~ /\brunning\b/`. */
  override contextValue = 'task runnable';
  private readonly parts = new Map<DescriptionPart, string>();
  private readonly baseTooltip: string;
  private readonly healthParts: HealthRowParts;
  /** Runs health counts in its window (cloud and local alike); 0 when it has none or is not known. */
  private readonly healthRuns: number;
  private run: RunPresentation | undefined;
  private sync: SyncRowPart | undefined;

  constructor(
    readonly task: Task,
    readonly group: TaskGroup,
    health?: HealthView,
    run?: RunPresentation,
  ) {
    super(task.taskName, vscode.TreeItemCollapsibleState.None);
    const t = vscode.l10n.t;
    // A task id is unique, but the group is part of the id in case one task is listed twice.
    this.id = `task:${group.taskGroupId}:${task.taskId}`;
    this.iconPath = taskIcon();
    // No row command: a click only selects (several tasks can be picked to move or start them).
    // Enter (scrapedeck.tasks.openSelected) and the row's inline action open its analytics.
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(task.taskName).appendMarkdown('**  \n');
    md.appendText(t('Task ID: {0}', task.taskId)).appendMarkdown('  \n');
    md.appendText(t('Group: {0}', plainText(group.taskGroupName))).appendMarkdown('  \n');
    md.appendText(t('Enter opens its analytics.'));
    // The description is made of the areas' parts (run state, health), joined with " · ".
    this.healthParts = taskHealthPart(this, md, health, task.taskId);
    this.healthRuns = health?.task(task.taskId)?.health.runs ?? 0;
    this.tooltip = md;
    this.baseTooltip = md.value;
    this.setRun(run);
  }

  /** One area's part of the description; empty or undefined removes it. */
  setDescriptionPart(area: DescriptionPart, text: string | undefined): void {
    if (text) this.parts.set(area, text);
    else this.parts.delete(area);
    const joined = rowDescription(this.parts, this.isRunning) ?? '';
    this.description = joined === '' ? undefined : joined;
    // Colours and badges are not read out: the description (run state, health) is.
    const label = vscode.l10n.t(
      'Task {0}, in group {1}',
      plainText(this.task.taskName),
      plainText(this.group.taskGroupName),
    );
    this.accessibilityInformation = { label: joined === '' ? label : `${label}, ${joined}` };
  }

  /** The run state (src/runs): icon, description part, tooltip lines, menu flags; a running task opens to its subtasks. */
  setRun(run: RunPresentation | undefined): void {
    this.run = run;
    this.iconPath = run === undefined ? taskIcon() : themeIcon(run.icon);
    // `syncing`: Stop Keeping in Sync is offered (package.json).
    this.contextValue = ['task', ...(run?.flags ?? ['runnable']), ...(this.sync === undefined ? [] : ['syncing'])].join(
      ' ',
    );
    this.setDescriptionPart('attention', this.healthParts.lead);
    this.setDescriptionPart('health', this.healthParts.tail);
    // Never run in the cloud, yet health counts runs: they ran on someone's computer. Said so, or
    // the row would read as two stories ("never run" beside "20 runs").
    const localOnly = run?.kind === 'neverRun' && this.healthRuns > 0;
    this.setDescriptionPart(
      'run',
      localOnly ? vscode.l10n.t('Never run in the cloud (local runs only)') : run?.description,
    );
    const md = new vscode.MarkdownString(this.baseTooltip);
    for (const line of [...(run?.tooltip ?? []), ...(this.sync === undefined ? [] : [this.sync.tooltip])])
      md.appendMarkdown('  \n').appendText(line);
    this.tooltip = md;
    this.setDescriptionPart('sync', this.sync?.description);
    const running = run?.flags.includes('running') ?? false;
    this.collapsibleState = running ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
  }

  /** Keep in Sync's part (`data/sync/syncBoard.ts`): where the task syncs to, or undefined. */
  setSync(part: SyncRowPart | undefined): void {
    this.sync = part;
    this.setRun(this.run);
  }

  get isRunning(): boolean {
    return /\brunning\b/.test(this.contextValue);
  }

  get taskId(): string {
    return this.task.taskId;
  }

  get taskName(): string {
    return this.task.taskName;
  }
}

export class LoadMoreNode extends vscode.TreeItem {
  override readonly contextValue = 'loadMore';

  constructor(
    readonly group: TaskGroup,
    shown: number,
    total: number,
  ) {
    super(loadMoreLabel(shown, total, vscode.l10n.t), vscode.TreeItemCollapsibleState.None);
    this.id = `loadMore:${group.taskGroupId}`;
    this.iconPath = new vscode.ThemeIcon('ellipsis');
    this.command = { command: COMMANDS.tasksLoadMore, title: vscode.l10n.t('Load More Tasks'), arguments: [group] };
  }
}

/** A row that only says something: empty group, nothing matches, first load failed. */
export class TaskMessageNode extends vscode.TreeItem {
  override readonly contextValue = 'message';

  constructor(id: string, label: string, icon: string, command?: vscode.Command) {
    super(label, vscode.TreeItemCollapsibleState.None);
    this.id = `message:${id}`;
    this.iconPath = new vscode.ThemeIcon(icon);
    if (command) this.command = command;
  }
}

export type TasksNode = TaskGroupNode | TaskNode | LoadMoreNode | TaskMessageNode | SubtaskRow;

/** Description parts of the areas, joined with " · "; undefined when none has anything to say. */
export function joinParts(parts: readonly (string | false | undefined)[]): string | undefined {
  const kept = parts.filter((p): p is string => typeof p === 'string' && p !== '');
  return kept.length === 0 ? undefined : kept.join(' · ');
}

function tasksCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 task') : vscode.l10n.t('{0} tasks', n);
}
