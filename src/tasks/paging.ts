/**
 * Client-side paging and name filtering of the Tasks view. Pure functions (no `vscode`): the
 * service answers a group's whole task list at once, so paging only limits how many tree rows
 * VS Code has to render.
 */
import type { Task, TaskGroup } from '../api/schemas/schemas';
import { english, type Translate } from '../platform/errorText';

export const TASK_PAGE_SIZE = 50;

export interface TaskSlice {
  /** The tasks to show now: the first `shown` of the (filtered) list. */
  readonly visible: readonly Task[];
  /** How many are shown, never more than `total`. */
  readonly shown: number;
  /** How many tasks there are after filtering. */
  readonly total: number;
  readonly hasMore: boolean;
}

/** The first `limit` tasks; `limit` below one page still shows a page, never a negative count. */
export function sliceTasks(tasks: readonly Task[], limit: number): TaskSlice {
  const shown = Math.min(tasks.length, Math.max(0, Math.floor(limit)));
  return { visible: tasks.slice(0, shown), shown, total: tasks.length, hasMore: shown < tasks.length };
}

/** The next limit after "Load more…": one more page, capped at the total so the label stays true. */
export function nextLimit(current: number, total: number, pageSize = TASK_PAGE_SIZE): number {
  return Math.min(total, current + pageSize);
}

/** Label of the paging node, e.g. "Load more… (50 of 180)". */
export function loadMoreLabel(shown: number, total: number, t: Translate = english): string {
  return t('Load more… ({0} of {1})', shown, total);
}

/** The filter as typed, trimmed; empty means "no filter". */
export function normaliseFilter(text: string | undefined): string {
  return (text ?? '').trim();
}

/** Case-insensitive substring match, locale-independent so "I" matches "i" everywhere. */
export function matchesFilter(name: string, filter: string): boolean {
  const needle = normaliseFilter(filter).toLowerCase();
  return needle === '' || name.toLowerCase().includes(needle);
}

export interface FilteredGroup {
  readonly group: TaskGroup;
  /** The group's tasks that the filter keeps (all of them when the group's own name matches). */
  readonly tasks: readonly Task[] | undefined;
  /** Whether the group is shown because of its own name (then every task is kept). */
  readonly byName: boolean;
}

/**
 * Which groups and tasks a filter keeps. A group whose name matches keeps all its tasks; any other
 * group is kept only with its matching tasks, and dropped when none match. A group whose tasks are
 * unknown (`undefined`, e.g. their request failed) survives only by its own name.
 */
export function filterGroups(
  groups: readonly TaskGroup[],
  tasksOf: (groupId: string) => readonly Task[] | undefined,
  filter: string,
): FilteredGroup[] {
  const needle = normaliseFilter(filter);
  const out: FilteredGroup[] = [];
  for (const group of groups) {
    const tasks = tasksOf(group.taskGroupId);
    if (needle === '' || matchesFilter(group.taskGroupName, needle)) {
      out.push({ group, tasks, byName: true });
      continue;
    }
    const kept = tasks?.filter((t) => matchesFilter(t.taskName, needle)) ?? [];
    if (kept.length > 0) out.push({ group, tasks: kept, byName: false });
  }
  return out;
}

/**
 * The "Needs attention" tasks the name filter keeps, by the groups' rule: a task whose group's
 * name matches, or whose own name does (the pseudo-group listed every task under a filter).
 */
export function filterAttention<T extends { task: { taskName: string; taskGroupName: string } }>(
  items: readonly T[],
  filter: string,
): T[] {
  return items.filter((i) => matchesFilter(i.task.taskName, filter) || matchesFilter(i.task.taskGroupName, filter));
}
