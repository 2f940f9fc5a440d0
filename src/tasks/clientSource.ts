/**
 * Adapts the shared client to the two reads the Tasks view needs. The client is looked up on
 * every request, so a sign-in, sign-out or settings change is followed without re-wiring.
 */
import type { ScrapedeckClient } from '../api/client';
import type { TaskSource } from './taskReads';

export function clientTaskSource(getClient: () => ScrapedeckClient | undefined): () => TaskSource | undefined {
  return () => {
    const client = getClient();
    if (client === undefined) return undefined;
    return {
      listTaskGroups: async (signal) => (await client.listTaskGroups({ signal })).data,
      searchTasks: async (taskGroupId, signal) => (await client.searchTasks(taskGroupId, { signal })).data,
    };
  };
}
