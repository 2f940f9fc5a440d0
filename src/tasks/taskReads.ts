/**
 * The shapes of the Tasks view's reads: where tasks come from, a read's outcome (the fresh value or
 * the last good one with the error), a task row of every group, and what the model caches.
 */
import type { Task, TaskGroup } from '../api/schemas/schemas';

/** The two reads the view needs; `ScrapedeckClient` adapted (see `clientTaskSource`). */
export interface TaskSource {
  listTaskGroups(signal?: AbortSignal): Promise<readonly TaskGroup[]>;
  searchTasks(taskGroupId: string, signal?: AbortSignal): Promise<readonly Task[]>;
}

/**
 * A read's outcome: the fresh value, or after a failure the last good one (undefined if there
 * never was one) together with the error, so the caller can keep the tree and still report.
 */
export interface Loaded<T> {
  readonly value: T;
  readonly error?: unknown;
}

export interface TaskRow {
  readonly taskId: string;
  readonly taskName: string;
  readonly taskGroupId: string;
  readonly taskGroupName: string;
}

export interface Cached<T> {
  value: T;
  /** Set by `invalidate()`: re-fetch on the next read, but keep `value` as the fallback. */
  stale: boolean;
}
