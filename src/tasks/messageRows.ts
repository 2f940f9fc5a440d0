/**
 * The Tasks view's message rows: what it shows in place of groups or tasks it could not list, or
 * when there are none (to list, or matching the filter). A failure's row runs Refresh on a click.
 */
import * as vscode from 'vscode';

import { COMMANDS } from '../platform/commandIds';
import { TaskMessageNode } from './taskNodes';

const refresh = (): vscode.Command => ({ command: COMMANDS.tasksRefresh, title: vscode.l10n.t('Refresh Tasks') });

export function groupsFailedRow(): TaskMessageNode {
  return new TaskMessageNode(
    'groups-failed',
    vscode.l10n.t('Could not load task groups. Click to try again.'),
    'warning',
    refresh(),
  );
}

/** No group to show: none matches `filter`, or (unfiltered) the account has none. */
export function noGroupsRow(filter: { readonly isFiltered: boolean; readonly filter: string }): TaskMessageNode {
  return filter.isFiltered
    ? new TaskMessageNode(
        'no-match',
        vscode.l10n.t('No task or group name contains “{0}”', filter.filter),
        'search-stop',
      )
    : new TaskMessageNode('no-groups', vscode.l10n.t('This account has no task groups yet.'), 'info');
}

export function tasksFailedRow(taskGroupId: string): TaskMessageNode {
  return new TaskMessageNode(
    `tasks-failed:${taskGroupId}`,
    vscode.l10n.t('Could not load the tasks. Click to try again.'),
    'warning',
    refresh(),
  );
}

export function noTasksRow(taskGroupId: string, isFiltered: boolean): TaskMessageNode {
  const text = isFiltered ? vscode.l10n.t('No task name matches the filter') : vscode.l10n.t('No tasks in this group');
  return new TaskMessageNode(`empty:${taskGroupId}`, text, 'info');
}
