/**
 * A running task's subtasks, a page of 20 at a time ("Load more subtasks…" adds a page). The
 * service's reply has no total: a short page is the last one, and the run's `subTaskCount` (v2)
 * says when every subtask is shown. The pages shown are asked again whenever the task's row is
 * drawn again (its run moved on), so their states follow the run.
 */
import type { ScrapedeckClient } from '../api/client';
import { OPS_LIMITS } from '../api/schemas/opsSchemas';
import type { SubtaskStatus } from '../api/schemas/runSchemas';

export const SUBTASK_PAGE_SIZE = OPS_LIMITS.subtaskPageMax;

export interface SubtaskList {
  readonly items: readonly SubtaskStatus[];
  readonly hasMore: boolean;
}

type SubtaskReader = Pick<ScrapedeckClient, 'getSubtaskStatuses'>;

export class SubtaskPages {
  private readonly pages = new Map<string, number>();

  /** The pages shown of a task's subtasks, read now. */
  async read(
    client: SubtaskReader,
    taskId: string,
    expected: number | null,
    signal?: AbortSignal,
  ): Promise<SubtaskList> {
    const wanted = this.pages.get(taskId) ?? 1;
    const items: SubtaskStatus[] = [];
    let lastFull = false;
    for (let page = 1; page <= wanted; page++) {
      const reply = await client.getSubtaskStatuses(taskId, { page, size: SUBTASK_PAGE_SIZE }, { signal });
      items.push(...reply.data);
      lastFull = reply.data.length === SUBTASK_PAGE_SIZE;
      if (!lastFull) break;
    }
    return { items, hasMore: lastFull && (expected === null || items.length < expected) };
  }

  /** One more page next time. */
  more(taskId: string): void {
    this.pages.set(taskId, (this.pages.get(taskId) ?? 1) + 1);
  }

  /** The run ended, or another account: start again from one page. */
  forget(taskId?: string): void {
    if (taskId === undefined) this.pages.clear();
    else this.pages.delete(taskId);
  }
}
