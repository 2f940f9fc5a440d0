/**
 * The rows under a running task: its subtasks with their state, "Load more subtasks…", or a line
 * saying why there are none. Plain `TreeItem`s; the Tasks view's provider returns them as the
 * task's children.
 */
import * as vscode from 'vscode';

import type { SubtaskStatus } from '../api/schemas/runSchemas';
import { COMMANDS } from '../platform/commandIds';
import { type IconSpec, RUN_ICONS, runKindOf, statusText } from './runKinds';

const t = vscode.l10n.t;

export function themeIcon(spec: IconSpec): vscode.ThemeIcon {
  return new vscode.ThemeIcon(spec.id, spec.colour === undefined ? undefined : new vscode.ThemeColor(spec.colour));
}

export class SubtaskNode extends vscode.TreeItem {
  override readonly contextValue = 'subtask';

  constructor(
    readonly taskId: string,
    readonly subtask: SubtaskStatus,
  ) {
    super(t('Subtask {0}', shortId(subtask.subTaskId)), vscode.TreeItemCollapsibleState.None);
    this.id = `subtask:${taskId}:${subtask.subTaskId}`;
    const shown = statusText(subtask.status);
    this.description = shown;
    this.iconPath = themeIcon(RUN_ICONS[runKindOf(subtask.status)]);
    this.tooltip = t('Subtask ID: {0}\nStatus: {1}', subtask.subTaskId, shown);
    this.accessibilityInformation = { label: t('Subtask {0}, {1}', subtask.subTaskId, shown) };
  }
}

export class SubtasksMoreNode extends vscode.TreeItem {
  override readonly contextValue = 'loadMore';

  constructor(taskId: string, shown: number) {
    super(t('Load more subtasks… ({0} shown)', shown), vscode.TreeItemCollapsibleState.None);
    this.id = `subtasks-more:${taskId}`;
    this.iconPath = new vscode.ThemeIcon('ellipsis');
    this.command = { command: COMMANDS.runsLoadMoreSubtasks, title: t('Load More Subtasks'), arguments: [{ taskId }] };
  }
}

export class SubtaskMessageNode extends vscode.TreeItem {
  override readonly contextValue = 'message';

  constructor(taskId: string, label: string, icon: string) {
    super(label, vscode.TreeItemCollapsibleState.None);
    this.id = `subtasks-message:${taskId}`;
    this.iconPath = new vscode.ThemeIcon(icon);
  }
}

export type SubtaskRow = SubtaskNode | SubtasksMoreNode | SubtaskMessageNode;

/** Long generated ids stay readable: the last 8 characters (the tooltip has the whole id). */
function shortId(id: string): string {
  return id.length > 12 ? `…${id.slice(-8)}` : id;
}
