/**
 * How to cut task ids into analytics queries so they take the fewest pages. A query takes at most
 * 100 ids (the spec) and answers 100 records a page; the service answers one record per task and
 * collection method (two when the window crosses a month's end), so 100 ids often make 130
 * records: two pages, the second nearly empty. Knowing (or guessing) each task's records, a batch
 * is cut where its pages are full: about 75 such tasks fill one page exactly.
 *
 * Pure: the estimates come from the caller (the records each task had in the last answer of the
 * same window, or in the other window) or from a probe batch (records per id, the same for all).
 */
import { ANALYTICS_LIMITS } from '../api/schemas';

export const PAGE_RECORDS = ANALYTICS_LIMITS.pageSizeMax;
export const MAX_IDS = ANALYTICS_LIMITS.maxTaskIds;
/**
 * Fill a batch's pages to this share of what its estimate says they hold: an estimate is a guess
 * (a task may run by a second method this week), and one record too many costs a whole page.
 */
export const FILL = 0.95;
/** Batches of up to this many pages are weighed against one-page batches. */
const MAX_PAGES_WEIGHED = 3;

/**
 * Cuts `ids` (distinct, in order) into batches of at most 100, each sized so the records it is
 * expected to answer fill its pages: for every batch, the number of pages (1..3) that packs the
 * most ids per page is chosen. `estimate(id)` is the records expected for one task.
 */
export function planBatches(ids: readonly string[], estimate: (id: string) => number): string[][] {
  const out: string[][] = [];
  let i = 0;
  while (i < ids.length) {
    let best = { take: 1, perPage: 0 };
    for (let pages = 1; pages <= MAX_PAGES_WEIGHED; pages++) {
      const room = pages * PAGE_RECORDS * FILL;
      let sum = 0;
      let take = 0;
      while (take < MAX_IDS && i + take < ids.length) {
        const next = Math.max(0, estimate(ids[i + take] as string));
        if (take > 0 && sum + next > room) break;
        sum += next;
        take++;
      }
      // Pages the batch is planned for, with the room kept for a wrong guess.
      const used = Math.max(1, Math.ceil(sum / (PAGE_RECORDS * FILL) - 1e-9));
      if (take / used > best.perPage) best = { take, perPage: take / used };
      if (i + take >= ids.length || take >= MAX_IDS) break; // more pages would not take more ids
    }
    out.push(ids.slice(i, i + best.take));
    i += best.take;
  }
  return out;
}

/** Records per id answered by a probe batch; a batch with no records says 0. */
export function recordsPerId(records: number, ids: number): number {
  return ids > 0 ? records / ids : 1;
}
