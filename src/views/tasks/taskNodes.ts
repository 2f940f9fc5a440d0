/**
 * The Tasks view's nodes. Each is a `vscode.TreeItem` with a stable `id` (so expansion survives a
 * refresh) and a `contextValue` the menus in package.json match (`\btask\b`, `\btaskGroup\b`).
 */
import * as vscode from 'vscode';
import type { Task, TaskGroup } from '../../api/schemas';
import type { HealthView } from '../../health/healthBoard';
import { groupHealthPart, taskHealthPart } from '../../health/nodeParts';
import { COMMANDS } from '../../platform/commandIds';
import type { AttentionGroupNode, HealthUnavailableNode } from './attentionNodes';
import { loadMoreLabel } from './paging';

export class TaskGroupNode extends vscode.TreeItem {
  override readonly contextValue = 'taskGroup';

  constructor(
    readonly group: TaskGroup,
    count: { matching: number; total: number } | undefined,
    filtered: boolean,
    health?: HealthView,
  ) {
    // With a filter on, groups open by themselves so the matches are visible at once.
    super(group.taskGroupName, filtered ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `taskGroup:${group.taskGroupId}`;
    this.iconPath = new vscode.ThemeIcon('folder');
    const counted = count && (filtered && count.matching !== count.total ? `${count.matching} of ${count.total} match` : plural(count.total, 'task'));
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(group.taskGroupName).appendMarkdown('**  \n');
    // Ids as plain text, not code spans: appendText's escapes would show literally inside backticks.
    md.appendMarkdown('Group ID: ').appendText(group.taskGroupId);
    if (count) md.appendMarkdown('  \n').appendText(plural(count.total, 'task'));
    // Each area adds its part of the description (and tooltip lines) with one call here.
    this.description = joinParts([counted, groupHealthPart(this, md, health, group.taskGroupId)]);
    this.tooltip = md;
  }
}

export class TaskNode extends vscode.TreeItem {
  override readonly contextValue = 'task';

  constructor(
    readonly task: Task,
    readonly group: TaskGroup,
    health?: HealthView,
  ) {
    super(task.taskName, vscode.TreeItemCollapsibleState.None);
    // A task id is unique, but the group is part of the id in case one task is listed twice.
    this.id = `task:${group.taskGroupId}:${task.taskId}`;
    this.iconPath = new vscode.ThemeIcon('checklist');
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(task.taskName).appendMarkdown('**  \n');
    md.appendMarkdown('Task ID: ').appendText(task.taskId).appendMarkdown('  \n');
    md.appendMarkdown('Group: ').appendText(group.taskGroupName);
    // The description is made of the areas' parts (run state, health), joined with " · ".
    this.description = joinParts([taskHealthPart(this, md, health, task.taskId)]);
    this.tooltip = md;
    // Colours and badges are not read out: the description (health, run state) is.
    this.accessibilityInformation = { label: `Task ${task.taskName}, in group ${group.taskGroupName}${typeof this.description === 'string' ? `, ${this.description}` : ''}` };
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
    super(loadMoreLabel(shown, total), vscode.TreeItemCollapsibleState.None);
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

export type TasksNode = TaskGroupNode | TaskNode | LoadMoreNode | TaskMessageNode | AttentionGroupNode | HealthUnavailableNode;

/** Description parts of the areas, joined with " · "; undefined when none has anything to say. */
export function joinParts(parts: readonly (string | false | undefined)[]): string | undefined {
  const kept = parts.filter((p): p is string => typeof p === 'string' && p !== '');
  return kept.length === 0 ? undefined : kept.join(' · ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
