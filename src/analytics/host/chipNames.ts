/**
 * The names on the analytics page's task chips. They come from the host's task cache of the
 * signed-in account (the Tasks view's model), never from the page: a page's saved labels could
 * belong to another account or be stale. A task the cache does not hold is left out, so the page
 * shows its id. `vscode`-free: unit-tested in Node.
 */
import { MESSAGE_LIMITS, type PageState, type Preset, type TaskName } from '../protocol';
import type { TaskListing } from './pickTasks';

/** A name longer than a message may carry is shortened, so one long name cannot void the message. */
function fit(name: string): string {
  return name.length <= MESSAGE_LIMITS.label ? name : `${name.slice(0, MESSAGE_LIMITS.label - 1)}…`;
}

/** What the host knows now, without a request (the tree's cache). */
export type KnownTaskNames = (taskIds: readonly string[]) => ReadonlyMap<string, string>;

/** Every task id the page will show on `init`: the preset's and the restored form's, once each. */
export function shownTaskIds(preset: Preset | undefined, state: PageState | undefined): string[] {
  return [...new Set([...(preset?.taskIds ?? []), ...(state?.form?.taskIds ?? [])])];
}

/**
 * The names the host can give for `taskIds`, in their order. A one-task preset carries its task's
 * name as its label (set by the host from the tree node), which names it when the cache does not.
 */
export function namesFor(taskIds: readonly string[], known: KnownTaskNames | undefined, preset?: Preset): TaskName[] {
  const names = new Map(known?.(taskIds) ?? []);
  const only = preset?.taskIds?.length === 1 ? preset.taskIds[0] : undefined;
  if (only !== undefined && preset?.label && !names.has(only)) names.set(only, preset.label);
  return taskIds.flatMap((taskId) => {
    const taskName = names.get(taskId);
    return taskName ? [{ taskId, taskName: fit(taskName) }] : [];
  });
}

/** The ids of `taskIds` that `named` does not name. */
export function unnamed(taskIds: readonly string[], named: readonly TaskName[]): string[] {
  const have = new Set(named.map((n) => n.taskId));
  return taskIds.filter((id) => !have.has(id));
}

/** The names of `taskIds` found in a task listing (which also fills the tree's cache). */
export function namesFromListing(taskIds: readonly string[], listing: readonly TaskListing[]): TaskName[] {
  const byId = new Map(listing.filter((t) => t.taskName).map((t) => [t.taskId, t.taskName]));
  return taskIds.flatMap((taskId) => {
    const taskName = byId.get(taskId);
    return taskName ? [{ taskId, taskName: fit(taskName) }] : [];
  });
}
