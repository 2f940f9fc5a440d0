/**
 * Health's rows at the top of the Tasks view: the "Needs attention" pseudo-group (the tasks over
 * a threshold, as task nodes with the usual menus) and, for an account whose plan cannot have
 * health, one row that says so instead of an error per task.
 */
import * as vscode from 'vscode';

import type { HealthView, TaskHealthInfo } from '../health/healthBoard';
import { age, daysBefore, windowText } from '../health/healthText';
import { COMMANDS } from '../platform/commandIds';
import type { RunPresentation } from '../runs/runText';
import { filterAttention } from './paging';
import { TaskNode } from './taskNodes';

const t = vscode.l10n.t;

export class AttentionGroupNode extends vscode.TreeItem {
  override readonly contextValue = 'healthAttention';

  /** `count`: the tasks the view's filter keeps, of `total` (equal without a filter). */
  constructor(count: number, health: HealthView, total = count) {
    super(t('Needs attention'), vscode.TreeItemCollapsibleState.Expanded);
    this.id = 'health:attention';
    this.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    const s = health.snapshot;
    const updated = s ? age(health.now() - s.computedAt) : undefined;
    const shown = count === total ? String(count) : t('{0} of {1} match', count, total);
    this.description = updated === undefined ? shown : t('{0} · updated {1}', shown, updated);
    const md = new vscode.MarkdownString();
    md.appendMarkdown('**')
      .appendText(total === 1 ? t('1 task needs attention') : t('{0} tasks need attention', total))
      .appendMarkdown('**  \n');
    if (s)
      md.appendText(
        t(
          'Over {0}: a failure rate above {1}% or runs more than {2}× slower than in {3}.',
          windowText(s),
          Math.round(health.thresholds.failureRate * 100),
          health.thresholds.slowdownFactor,
          daysBefore(s.windowDays),
        ),
      );
    this.tooltip = md;
  }
}

/** A task of "Needs attention": the same node as in its group (run state included), under its own id and parent. */
export class AttentionTaskNode extends TaskNode {
  constructor(
    info: TaskHealthInfo,
    health: HealthView,
    readonly parentNode: AttentionGroupNode,
    run?: RunPresentation,
  ) {
    const { taskId, taskName, taskGroupId, taskGroupName } = info.task;
    super({ taskId, taskName }, { taskGroupId, taskGroupName }, health, run);
    this.id = `health:attention:${taskId}`;
  }
}

export class HealthUnavailableNode extends vscode.TreeItem {
  override readonly contextValue = 'healthUnavailable';

  constructor(message: string, requestId: string | undefined) {
    super(t('Task health unavailable'), vscode.TreeItemCollapsibleState.None);
    this.id = 'health:unavailable';
    this.iconPath = new vscode.ThemeIcon('circle-slash');
    this.description = t('analytics not in this plan');
    const md = new vscode.MarkdownString();
    md.appendText(message).appendMarkdown('  \n');
    md.appendText(
      t(
        'Task health needs task analytics, which a Standard, Professional or Enterprise plan includes. Click to try again.',
      ),
    );
    if (requestId) md.appendMarkdown('  \n').appendText(t('Request ID: {0}', requestId));
    this.tooltip = md;
    this.command = { command: COMMANDS.healthRefresh, title: t('Refresh Task Health') };
  }
}

/** The tasks of "Needs attention" the Tasks view's name filter keeps (all of them without a filter). */
export function attentionShown(health: HealthView, filter: string): TaskHealthInfo[] {
  return filterAttention(health.attention(), filter);
}

/** The rows health puts above the groups, for the account signed in now, under the view's name filter. */
export function healthRows(
  health: HealthView | undefined,
  filter = '',
): (AttentionGroupNode | HealthUnavailableNode)[] {
  if (!health) return [];
  const status = health.status;
  if (status.kind === 'unavailable') return [new HealthUnavailableNode(status.message, status.requestId)];
  const count = attentionShown(health, filter).length;
  return count > 0 ? [new AttentionGroupNode(count, health, health.attention().length)] : [];
}
