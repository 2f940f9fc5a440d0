/**
 * How to ask one window's analytics in the fewest pages. A query answers 100 records a page, one
 * per task and collection method (two when the window crosses a month's end), and takes at most
 * 100 ids (the spec), so 100 ids often make 130 records: two pages, the second nearly empty.
 *
 * - When the ids are every task of the account, a query that names none (the spec: "omit to
 *   include all tasks") answers them all in full pages: ceil(records / 100), the floor.
 * - Otherwise (a subset, or an account whose query for all tasks answers far more than these),
 *   batches of ids are cut where their pages are full: about 75 tasks of 1.3 records a page.
 *
 * Pure: the estimates come from the caller (the records each task had in the last answer of the
 * same window, or in the other window) or from a probe batch (records per id, the same for all).
 */
import { ANALYTICS_LIMITS } from '../api/schemas/schemas';

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

/** What the caller knows of a query for every task of the account. */
export interface AccountQuery {
  /** Records such a query answered last (for either window: tasks run by the same methods week to week); undefined when never asked. */
  readonly records: number | undefined;
  /** The ids are every task of the account, so such a query answers about theirs alone. */
  readonly idsAreAll: boolean;
}

/**
 * `account`: one query for every task; page 1 answering more than `mostRecords` means the ids were
 * not every task (or the account grew), and the batches should take over.
 */
export type WindowPlan =
  | { readonly kind: 'account'; readonly mostRecords: number }
  | { readonly kind: 'batches'; readonly groups: string[][] };

export interface PlanLimits {
  /** The most records one paged fetch assembles (`MAX_FETCH_ALL_ROWS`). */
  readonly maxRecords: number;
  /** The most records one task answers in this window: two methods × the months it touches. */
  readonly perTask: number;
}

/**
 * A window's records a task can answer at most: two methods × the Month buckets of a window of up
 * to 46 days (three). Bounds an account query's size before anything is known of it.
 */
export const MOST_RECORDS_PER_TASK = 6;

export const pagesFor = (records: number): number => Math.max(1, Math.ceil(records / PAGE_RECORDS));

/**
 * Batches (of up to 100 ids, cut by `estimate`) or one query for every task, whichever is expected
 * to take fewer pages; a tie keeps the batches, which answer the ids asked and nothing else. An
 * account query is never planned past `limits.maxRecords` (what one paged fetch assembles).
 */
export function planWindow(
  ids: readonly string[],
  estimate: (id: string) => number,
  account: AccountQuery | undefined,
  limits: PlanLimits,
): WindowPlan {
  const batches = (
    groups = ids.length <= MAX_IDS ? (ids.length > 0 ? [[...ids]] : []) : planBatches(ids, estimate),
  ): WindowPlan => ({ kind: 'batches', groups });
  // Up to 100 ids are one query that answers no more than an account query would.
  if (account === undefined || ids.length <= MAX_IDS) return batches();
  const allTasks: WindowPlan = {
    kind: 'account',
    mostRecords: Math.min(limits.maxRecords, Math.max(ids.length * limits.perTask, (account.records ?? 0) * 1.5)),
  };
  if (account.records === undefined) {
    return account.idsAreAll && ids.length * MOST_RECORDS_PER_TASK <= limits.maxRecords ? allTasks : batches();
  }
  if (account.records * 1.5 > limits.maxRecords) return batches(); // room for an account that grew since
  const groups = planBatches(ids, estimate);
  const batchPages = groups.reduce((n, g) => n + pagesFor(g.reduce((r, id) => r + Math.max(0, estimate(id)), 0)), 0);
  return pagesFor(account.records) < batchPages ? allTasks : batches(groups);
}

/** Records per id answered by a probe batch; a batch with no records says 0. */
export function recordsPerId(records: number, ids: number): number {
  return ids > 0 ? records / ids : 1;
}
