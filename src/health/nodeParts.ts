/**
 * Health's share of the Tasks view's nodes, called from tasks/taskNodes.ts: the node's
 * resource URI (which the decorations colour), the tooltip lines, and the short part of the
 * description that the node joins with the other areas' parts (`joinParts`, " · ").
 */
import type * as vscode from 'vscode';

import type { HealthView } from './healthBoard';
import { appendGroupTooltip, appendTaskTooltip, groupPart, taskParts } from './healthText';
import type { HealthRowParts } from './rowParts';
import { groupResourceUri, taskResourceUri } from './taskUri';

/** Sets the task node's resource URI and tooltip lines; returns its description parts (what leads, what trails). */
export function taskHealthPart(
  item: vscode.TreeItem,
  tooltip: vscode.MarkdownString,
  health: HealthView | undefined,
  taskId: string,
): HealthRowParts {
  item.resourceUri = taskResourceUri(taskId);
  const info = health?.task(taskId);
  const snapshot = health?.snapshot;
  if (!health || !info || !snapshot) return {};
  appendTaskTooltip(tooltip, info, health, snapshot);
  return taskParts(info.health, snapshot.windowDays);
}

/** The same for a group: the worst of its tasks. */
export function groupHealthPart(
  item: vscode.TreeItem,
  tooltip: vscode.MarkdownString,
  health: HealthView | undefined,
  taskGroupId: string,
): string | undefined {
  item.resourceUri = groupResourceUri(taskGroupId);
  const info = health?.group(taskGroupId);
  const snapshot = health?.snapshot;
  if (!health || !info || !snapshot) return undefined;
  appendGroupTooltip(tooltip, info, snapshot, health.now());
  return groupPart(info);
}
