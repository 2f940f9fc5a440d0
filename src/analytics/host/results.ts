/**
 * The results a panel has shown, kept on the host by id: an export names a result instead of
 * sending its rows back from the page (which would cost a structured clone and a zod parse of
 * every row). Only the latest few are kept; an id that is gone gets a clear error.
 */
import { ApiError } from '../../api/errors/errors';
import type { AnalyticsQuery, AnalyticsRecord } from '../../api/schemas/schemas';
import { english, type Translate } from '../../platform/errorText';

export interface HeldResult {
  query: AnalyticsQuery;
  /** Rows the query matches. */
  total: number;
  /** The rows fetched so far, in the service's order. */
  records: AnalyticsRecord[];
  requestIds: string[];
}

/** Enough for the result on screen and the one it is replacing, with room for a race. */
const KEPT = 3;

export class ResultStore {
  private readonly held = new Map<string, HeldResult>();
  private seq = 0;
  private cleared = 0;

  constructor(
    private readonly capacity = KEPT,
    private readonly t: Translate = english,
  ) {}

  /** Keeps a result; returns its id. The oldest result goes when more than `capacity` are held. */
  add(result: HeldResult): string {
    this.seq += 1;
    const id = `result-${this.seq}`;
    this.held.set(id, result);
    while (this.held.size > this.capacity) {
      const oldest = this.held.keys().next().value;
      if (oldest === undefined) break;
      this.held.delete(oldest);
    }
    return id;
  }

  get(id: string): HeldResult | undefined {
    return this.held.get(id);
  }

  /** The result kept under `id`, or an ApiError that says why it is not there. */
  require(id: string): HeldResult {
    const result = this.held.get(id);
    if (result) return result;
    throw new ApiError({
      kind: 'not-found',
      message: this.t(
        'Scrapedeck no longer holds the rows of this result (newer results replaced it, or the panel was reloaded). Run the query again, then export.',
      ),
    });
  }

  /** Changes each time the store is cleared (the account changed): a caller can tell its result went. */
  get generation(): number {
    return this.cleared;
  }

  clear(): void {
    this.cleared += 1;
    this.held.clear();
  }
}
