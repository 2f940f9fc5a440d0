/**
 * The analytics commands: `scrapedeck.analytics.open` (the panel's own behaviour, from
 * `host/index.ts`) and the Tasks view's two adapters from tree nodes to it.
 */
import * as vscode from 'vscode';

import { ANALYTICS_LIMITS } from '../../api/schemas/schemas';
import { defineHandlers } from '../../platform/commandHandlers';
import { COMMANDS } from '../../platform/commandIds';
import { plainText } from '../../platform/plainText';
import type { Reporter } from '../../platform/reporter';
import { groupArgSchema, taskArgSchema } from '../../platform/treeArgs';
import type { Ui } from '../../platform/ui';
import type { AnalyticsPanel } from './panel';

const t = vscode.l10n.t;

export interface AnalyticsCommandDeps {
  /** What `scrapedeck.analytics.open` does (index.ts). */
  open(arg?: unknown): Promise<AnalyticsPanel | undefined>;
  ui: Pick<Ui, 'showInformationMessage'>;
  reporter: Pick<Reporter, 'report'>;
  /** A group's tasks, with the Tasks view's spinner (its model's cache). */
  groupTasks(
    taskGroupId: string,
  ): PromiseLike<{ readonly value: readonly { taskId: string }[] | undefined; readonly error?: unknown }>;
}

export function analyticsCommands(deps: AnalyticsCommandDeps) {
  return defineHandlers({
    analyticsOpen: (arg) => deps.open(arg),

    analyticsOpenForTask: async (arg) => {
      const task = taskArgSchema.safeParse(arg);
      if (!task.success) return;
      await openAnalytics(deps, [task.data.taskId], task.data.taskName);
    },

    analyticsOpenForGroup: async (arg) => {
      const parsed = groupArgSchema.safeParse(arg);
      if (!parsed.success) return;
      const group = parsed.data;
      const loaded = await deps.groupTasks(group.taskGroupId);
      if (loaded.value === undefined) {
        if (loaded.error !== undefined) await deps.reporter.report(loaded.error, 'loadTasks', group.taskGroupName);
        return;
      }
      const ids = loaded.value.map((task) => task.taskId);
      if (ids.length === 0) {
        await deps.ui.showInformationMessage(t('“{0}” has no tasks to chart.', plainText(group.taskGroupName)));
        return;
      }
      const max = ANALYTICS_LIMITS.maxTaskIds;
      if (ids.length > max) {
        // The analytics query accepts at most 100 task ids; say so rather than drop tasks silently.
        void deps.ui.showInformationMessage(
          t(
            '“{0}” has {1} tasks; analytics can chart at most {2} at once, so it shows the first {2}.',
            plainText(group.taskGroupName),
            ids.length,
            max,
          ),
        );
      }
      await openAnalytics(deps, ids.slice(0, max), group.taskGroupName);
    },
  });
}

async function openAnalytics(deps: AnalyticsCommandDeps, taskIds: string[], label: string): Promise<void> {
  try {
    await vscode.commands.executeCommand(COMMANDS.analyticsOpen, { taskIds, label });
  } catch (error) {
    await deps.reporter.report(error, 'openAnalytics');
  }
}
