/**
 * The Tasks view's nodes. Each is a `vscode.TreeItem` with a stable `id` (so expansion survives a
 * refresh) and a `contextValue` the menus in package.json match (`\btask\b`, `\btaskGroup\b`).
 */
import * as vscode from 'vscode';
import type { Task, TaskGroup } from '../../api/schemas';
import { COMMANDS } from '../../platform/commandIds';
import { loadMoreLabel } from './paging';

export class TaskGroupNode extends vscode.TreeItem {
  override readonly contextValue = 'taskGroup';

  constructor(
    readonly group: TaskGroup,
    count: { matching: number; total: number } | undefined,
    filtered: boolean,
  ) {
    // With a filter on, groups open by themselves so the matches are visible at once.
    super(group.taskGroupName, filtered ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `taskGroup:${group.taskGroupId}`;
    this.iconPath = new vscode.ThemeIcon('folder');
    if (count) this.description = filtered && count.matching !== count.total ? `${count.matching} of ${count.total} match` : plural(count.total, 'task');
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(group.taskGroupName).appendMarkdown('**  \n');
    // Ids as plain text, not code spans: appendText's escapes would show literally inside backticks.
    md.appendMarkdown('Group ID: ').appendText(group.taskGroupId);
    if (count) md.appendMarkdown('  \n').appendText(plural(count.total, 'task'));
    this.tooltip = md;
  }
}

export class TaskNode extends vscode.TreeItem {
  override readonly contextValue = 'task';

  constructor(
    readonly task: Task,
    readonly group: TaskGroup,
  ) {
    super(task.taskName, vscode.TreeItemCollapsibleState.None);
    // A task id is unique, but the group is part of the id in case one task is listed twice.
    this.id = `task:${group.taskGroupId}:${task.taskId}`;
    this.iconPath = new vscode.ThemeIcon('checklist');
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**').appendText(task.taskName).appendMarkdown('**  \n');
    md.appendMarkdown('Task ID: ').appendText(task.taskId).appendMarkdown('  \n');
    md.appendMarkdown('Group: ').appendText(group.taskGroupName);
    this.tooltip = md;
    this.accessibilityInformation = { label: `Task ${task.taskName}, in group ${group.taskGroupName}` };
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

export type TasksNode = TaskGroupNode | TaskNode | LoadMoreNode | TaskMessageNode;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
