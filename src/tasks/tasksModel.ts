/**
 * What the Tasks view shows, without `vscode`: task groups, their tasks fetched lazily, the
 * client-side paging, the name filter, and the last good answer kept for when a request fails.
 * The tree provider turns this into nodes; unit tests drive it directly against a sandbox.
 */
import { ApiError } from '../api/errors/errors';
import type { Task, TaskGroup } from '../api/schemas/schemas';
import { english, type Translate } from '../platform/errorText';
import {
  FilteredGroup,
  filterGroups,
  matchesFilter,
  nextLimit,
  normaliseFilter,
  sliceTasks,
  TASK_PAGE_SIZE,
  TaskSlice,
} from './paging';
import type { Cached, Loaded, TaskRow, TaskSource } from './taskReads';

export class TasksModel {
  private groupsCache: Cached<readonly TaskGroup[]> | undefined;
  private readonly tasksCache = new Map<string, Cached<readonly Task[]>>();
  private groupsInFlight: Promise<Loaded<readonly TaskGroup[] | undefined>> | undefined;
  private readonly tasksInFlight = new Map<string, Promise<Loaded<readonly Task[] | undefined>>>();
  private readonly limits = new Map<string, number>();
  private filterText = '';
  /** Bumped by `reset()`: answers to requests of an earlier generation are dropped. */
  private generation = 0;
  private abort = new AbortController();

  constructor(
    private readonly source: () => TaskSource | undefined,
    readonly pageSize: number = TASK_PAGE_SIZE,
    /** Words the analytics page shows (vscode.l10n.t in the extension). */
    private readonly t: Translate = english,
  ) {}

  get filter(): string {
    return this.filterText;
  }

  get isFiltered(): boolean {
    return this.filterText !== '';
  }

  /** Returns whether the filter changed. Paging restarts, since the lists are different lists. */
  setFilter(text: string | undefined): boolean {
    const next = normaliseFilter(text);
    if (next === this.filterText) return false;
    this.filterText = next;
    this.limits.clear();
    return true;
  }

  /** Refresh: the next reads go to the service; what is cached stays as the fallback. */
  invalidate(): void {
    if (this.groupsCache) this.groupsCache.stale = true;
    for (const cached of this.tasksCache.values()) cached.stale = true;
  }

  /** Sign-in, sign-out or another account: forget everything, and abandon requests under way. */
  reset(): void {
    this.generation++;
    this.abort.abort();
    this.abort = new AbortController();
    this.groupsCache = undefined;
    this.tasksCache.clear();
    this.groupsInFlight = undefined;
    this.tasksInFlight.clear();
    this.limits.clear();
  }

  /** The groups to show: all of them, or with a filter those that match by name or by a task. */
  async groups(signal?: AbortSignal): Promise<Loaded<FilteredGroup[] | undefined>> {
    const groups = await this.loadGroups(signal);
    if (groups.value === undefined) return { value: undefined, error: groups.error };
    if (!this.isFiltered) return { value: filterGroups(groups.value, () => undefined, ''), error: groups.error };
    // Filtering by task name needs every group's tasks; they load in parallel (the client limits the rate).
    const loads = await Promise.all(groups.value.map((g) => this.loadTasks(g.taskGroupId, signal)));
    const error = groups.error ?? loads.find((l) => l.error !== undefined)?.error;
    const value = filterGroups(groups.value, (id) => this.tasksCache.get(id)?.value, this.filterText);
    return { value, error };
  }

  /** One group's tasks after the filter, limited to the pages loaded so far. */
  async tasks(taskGroupId: string, signal?: AbortSignal): Promise<Loaded<TaskSlice | undefined>> {
    const loaded = await this.loadTasks(taskGroupId, signal);
    if (loaded.value === undefined) return { value: undefined, error: loaded.error };
    const list = this.filteredTasks(taskGroupId, loaded.value);
    return { value: sliceTasks(list, this.limitOf(taskGroupId)), error: loaded.error };
  }

  /** "Load more…": one more page of the group, from what is already loaded (no request). */
  loadMore(taskGroupId: string): void {
    const all = this.tasksCache.get(taskGroupId)?.value;
    const total = all ? this.filteredTasks(taskGroupId, all).length : Number.MAX_SAFE_INTEGER;
    this.limits.set(taskGroupId, nextLimit(this.limitOf(taskGroupId), total, this.pageSize));
  }

  /** All tasks of one group, unfiltered and unpaged (for "analytics for all tasks in the group"). */
  async allTasksOf(taskGroupId: string, signal?: AbortSignal): Promise<Loaded<readonly Task[] | undefined>> {
    return this.loadTasks(taskGroupId, signal);
  }

  /** Every group of the account, unfiltered (Move to Group…'s choices). Throws when they could not be read. */
  async allGroups(signal?: AbortSignal): Promise<readonly TaskGroup[]> {
    const groups = await this.loadGroups(signal);
    if (groups.value === undefined)
      throw groups.error ?? new ApiError({ kind: 'auth', message: this.t('Not signed in: sign in to move tasks.') });
    return groups.value;
  }

  /** Every task of every group, for pickers elsewhere (the analytics panel). Throws on failure. */
  async listAllTasks(signal?: AbortSignal): Promise<TaskRow[]> {
    return (await this.listEveryTask(signal)).rows;
  }

  /**
   * Every task of every group, and whether that is all of them: not when the group list or a
   * group's tasks failed and what is shown is the last good answer, or nothing (task health then
   * asks by task id instead of for all tasks). Throws when nothing at all could be listed.
   */
  async listEveryTask(signal?: AbortSignal): Promise<{ rows: TaskRow[]; complete: boolean }> {
    const groups = await this.loadGroups(signal);
    if (groups.value === undefined) {
      // No value and no error: signed out (or reset meanwhile). Never throw undefined.
      throw (
        groups.error ??
        new ApiError({ kind: 'auth', message: this.t('Not signed in: sign in to choose from your tasks.') })
      );
    }
    const rows: TaskRow[] = [];
    const loads = await Promise.all(groups.value.map((g) => this.loadTasks(g.taskGroupId, signal)));
    groups.value.forEach((g, i) => {
      const tasks = loads[i]?.value;
      if (tasks === undefined) return;
      for (const t of tasks)
        rows.push({
          taskId: t.taskId,
          taskName: t.taskName,
          taskGroupId: g.taskGroupId,
          taskGroupName: g.taskGroupName,
        });
    });
    const failed = groups.error ?? loads.find((l) => l.value === undefined)?.error;
    if (failed !== undefined && rows.length === 0) throw failed;
    return {
      rows,
      complete: groups.error === undefined && loads.every((l) => l.error === undefined && l.value !== undefined),
    };
  }

  /**
   * The names of `taskIds` this model holds now (no request): what the analytics panel shows on
   * its task chips. The cache is this account's (`reset()` empties it), so no other account's
   * names can be given; a task not loaded yet is left out and its id labels it.
   */
  knownTaskNames(taskIds: readonly string[]): Map<string, string> {
    const wanted = new Set(taskIds);
    const names = new Map<string, string>();
    for (const cached of this.tasksCache.values()) {
      for (const task of cached.value) {
        if (wanted.has(task.taskId) && task.taskName) names.set(task.taskId, task.taskName);
      }
    }
    return names;
  }

  /** The loaded tasks named `name` with their group's name (no request), to tell tasks of one name apart. */
  tasksNamed(name: string): { taskId: string; groupName?: string }[] {
    const found = new Map<string, string | undefined>();
    for (const [groupId, cached] of this.tasksCache)
      for (const task of cached.value)
        if (task.taskName === name && !found.has(task.taskId))
          found.set(task.taskId, this.groupById(groupId)?.taskGroupName);
    return [...found].map(([taskId, groupName]) => (groupName === undefined ? { taskId } : { taskId, groupName }));
  }

  /** The group as last loaded, to name it in tooltips and messages. */
  groupById(taskGroupId: string): TaskGroup | undefined {
    return this.groupsCache?.value.find((g) => g.taskGroupId === taskGroupId);
  }

  /**
   * Whether a group's count should be asked for: never listed (the service's group listing carries
   * no count), or listed before a refresh; and not already on its way.
   */
  needsCount(taskGroupId: string): boolean {
    const cached = this.tasksCache.get(taskGroupId);
    return (cached === undefined || cached.stale) && !this.tasksInFlight.has(taskGroupId);
  }

  /**
   * Tasks the service moved to another group (a drop): the lists held here follow at once, so
   * both groups' counts are right before the refresh's answers arrive. A group not listed yet stays
   * unknown (its first listing counts it).
   */
  applyMove(tasks: readonly Task[], targetGroupId: string): void {
    const moving = new Set(tasks.map((t) => t.taskId));
    for (const [id, cached] of this.tasksCache) {
      if (id !== targetGroupId && cached.value.some((t) => moving.has(t.taskId)))
        cached.value = cached.value.filter((t) => !moving.has(t.taskId));
    }
    const target = this.tasksCache.get(targetGroupId);
    if (target) {
      const there = new Set(target.value.map((t) => t.taskId));
      target.value = [...target.value, ...tasks.filter((t) => !there.has(t.taskId))];
    }
  }

  /** How many tasks a group has, if known (for the group's description). */
  taskCount(taskGroupId: string): { matching: number; total: number } | undefined {
    const all = this.tasksCache.get(taskGroupId)?.value;
    if (!all) return undefined;
    return { matching: this.filteredTasks(taskGroupId, all).length, total: all.length };
  }

  private limitOf(taskGroupId: string): number {
    return this.limits.get(taskGroupId) ?? this.pageSize;
  }

  private filteredTasks(taskGroupId: string, tasks: readonly Task[]): readonly Task[] {
    if (!this.isFiltered) return tasks;
    const group = this.groupById(taskGroupId);
    if (group && matchesFilter(group.taskGroupName, this.filterText)) return tasks;
    return tasks.filter((t) => matchesFilter(t.taskName, this.filterText));
  }

  private loadGroups(signal?: AbortSignal): Promise<Loaded<readonly TaskGroup[] | undefined>> {
    const cached = this.groupsCache;
    if (cached && !cached.stale) return Promise.resolve({ value: cached.value });
    // One request at a time: VS Code may ask for the root twice while the first answer is pending.
    this.groupsInFlight ??= this.fetch(
      (s, src) => src.listTaskGroups(s),
      () => this.groupsCache,
      (value) => (this.groupsCache = { value, stale: false }),
      () => (this.groupsInFlight = undefined),
      signal,
    );
    return this.groupsInFlight;
  }

  private loadTasks(taskGroupId: string, signal?: AbortSignal): Promise<Loaded<readonly Task[] | undefined>> {
    const cached = this.tasksCache.get(taskGroupId);
    if (cached && !cached.stale) return Promise.resolve({ value: cached.value });
    let pending = this.tasksInFlight.get(taskGroupId);
    if (!pending) {
      pending = this.fetch(
        (s, src) => src.searchTasks(taskGroupId, s),
        () => this.tasksCache.get(taskGroupId),
        (value) => this.tasksCache.set(taskGroupId, { value, stale: false }),
        () => this.tasksInFlight.delete(taskGroupId),
        signal,
      );
      this.tasksInFlight.set(taskGroupId, pending);
    }
    return pending;
  }

  /** One request with the fallback rule: success replaces the cache, failure returns the last good value. */
  private async fetch<T>(
    request: (signal: AbortSignal, source: TaskSource) => Promise<T>,
    lastGood: () => Cached<T> | undefined,
    store: (value: T) => void,
    done: () => void,
    callerSignal?: AbortSignal,
  ): Promise<Loaded<T | undefined>> {
    const generation = this.generation;
    const source = this.source();
    if (!source) {
      done();
      return { value: undefined };
    }
    const signal = callerSignal ? AbortSignal.any([this.abort.signal, callerSignal]) : this.abort.signal;
    try {
      const value = await request(signal, source);
      if (generation !== this.generation) return { value: undefined };
      store(value);
      return { value };
    } catch (error) {
      // A reset while waiting means the answer belongs to another account: no value, no error.
      if (generation !== this.generation) return { value: undefined };
      return { value: lastGood()?.value, error };
    } finally {
      if (generation === this.generation) done();
    }
  }
}
