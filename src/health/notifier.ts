/**
 * What health tells the user, in words: tasks that newly need attention (one notification per
 * refresh, with "Open Analytics" preset to them), a plan that cannot have health (once, through
 * the shared reporter, which offers the request id), a failed refresh, and a clamped window.
 */
import * as vscode from 'vscode';

import { COMMANDS } from '../platform/commandIds';
import { plainText } from '../platform/plainText';
import type { Reporter } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import type { TaskHealthInfo } from './healthBoard';
import type { HealthConfig } from './healthConfig';
import type { HealthNotifier } from './healthController';
import { daysBefore, factor, percent, runs } from './healthText';

const t = vscode.l10n.t;
/** The analytics query's limit on task ids. */
const MAX_CHARTED = 100;
const NAMED = 3;

export interface NotifierDeps {
  ui: Ui;
  reporter: Pick<Reporter, 'report'>;
  config: Pick<HealthConfig, 'warnOnce'>;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
}

/** Why one task needs attention, in a few words. */
export function reason(info: TaskHealthInfo, windowDays: number): string {
  const h = info.health;
  const parts: string[] = [];
  const when = windowDays === 1 ? t('today') : t('in the last {0} days', windowDays);
  if (h.failing && h.failureRate !== null)
    parts.push(t('{0} of its {1} failed {2}', percent(h.failureRate), runs(h.runs), when));
  if (h.slowing && h.slowdown !== null)
    parts.push(t('its runs took {0} as long as in {1}', factor(h.slowdown), daysBefore(windowDays)));
  return parts.join(t(', and '));
}

export function crossedMessage(tasks: readonly TaskHealthInfo[], windowDays: number): string {
  const [first] = tasks;
  if (tasks.length === 1 && first)
    return t('“{0}” needs attention: {1}.', plainText(first.task.taskName), reason(first, windowDays));
  const named = tasks
    .slice(0, NAMED)
    .map(
      (i) =>
        `“${plainText(i.task.taskName)}” (${i.health.failing && i.health.failureRate !== null ? t('{0} failed', percent(i.health.failureRate)) : t('{0} slower', factor(i.health.slowdown ?? 0))})`,
    );
  const more = tasks.length - named.length;
  return more > 0
    ? t('{0} tasks need attention: {1} and {2} more.', tasks.length, named.join(', '), more)
    : t('{0} tasks need attention: {1}.', tasks.length, named.join(', '));
}

export function healthNotifier(deps: NotifierDeps): HealthNotifier {
  return {
    crossed(tasks, windowDays) {
      const message = crossedMessage(tasks, windowDays);
      deps.log.info(`Task health: ${tasks.length} task(s) newly need attention`);
      const open = t('Open Analytics');
      void deps.ui.showWarningMessage(message, open).then(async (choice) => {
        if (choice !== open) return;
        const [first] = tasks;
        if (tasks.length === 1 && first) {
          await vscode.commands.executeCommand(COMMANDS.analyticsOpenForTask, {
            task: { taskId: first.task.taskId, taskName: first.task.taskName },
          });
        } else {
          await vscode.commands.executeCommand(COMMANDS.analyticsOpen, {
            taskIds: tasks.slice(0, MAX_CHARTED).map((i) => i.task.taskId),
            label: t('Needs attention'),
          });
        }
      });
    },
    unavailable(error) {
      void deps.reporter.report(error, 'healthUnavailable');
    },
    failed(error, count) {
      void deps.reporter.report(error, 'healthRefresh', count === 1 ? t('1 task') : t('{0} tasks', count));
    },
    settled(attention, announced) {
      deps.log.info(`Task health: ${attention} task(s) need attention, ${announced} announced as new`);
    },
    clamped(windows) {
      const message = t(
        'The setting scrapedeck.health.windowDays is {0}, but the {0} days before the window must also lie within the three months the service answers for. Using {1} days.',
        windows.requested,
        windows.days,
      );
      deps.config.warnOnce(`clamp:${windows.requested}:${windows.days}`, 'scrapedeck.health.windowDays', message);
    },
  };
}
