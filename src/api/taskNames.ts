/**
 * The service's own names for task ids, for confirmations: a command may be called with any
 * `{ taskId, taskName }` (another extension, a stale node), and the name the person is asked about
 * must be the one the service gives that id in the signed-in account. Names already read for this
 * account (the Tasks view's cache) are used first; the rest are found by listing the groups and
 * their tasks, stopping once every id is found. An id the account does not have is left out.
 */
import type { ScrapedeckClient } from './client';

export type KnownNames = (taskIds: readonly string[]) => ReadonlyMap<string, string>;

export async function serviceTaskNames(
  client: Pick<ScrapedeckClient, 'listTaskGroups' | 'searchTasks'>,
  taskIds: readonly string[],
  known: KnownNames = () => new Map(),
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  const wanted = new Set(taskIds);
  const names = new Map<string, string>();
  for (const [id, name] of known([...wanted])) {
    if (wanted.has(id)) names.set(id, name);
  }
  if (names.size === wanted.size) return names;
  const groups = (await client.listTaskGroups({ signal })).data;
  for (const group of groups) {
    for (const task of (await client.searchTasks(group.taskGroupId, { signal })).data) {
      if (wanted.has(task.taskId)) names.set(task.taskId, task.taskName);
    }
    if (names.size === wanted.size) break;
  }
  return names;
}
