/**
 * A fetch's rows as they come with its progress (`fetchAllProgress { at, records }`), joined in
 * front of its answer's own rows (`fetchAllResult { records, streamed }`). A batch that does not
 * follow on from the ones before, or an answer that counts other rows than came, leaves no result
 * rather than one with a hole in it. The page keeps one per pending request; tests use the same
 * join to read what the host sent as the page does.
 */
import type { AnalyticsRecord } from '../../api/schemas/analyticsSchemas';
import { MESSAGE_LIMITS } from './schemas';

export class StreamedRows {
  private records: AnalyticsRecord[] = [];
  private broken = false;

  /** Rows received so far, in order (0 once the stream broke). */
  get length(): number {
    return this.records.length;
  }

  /** Adds a batch that starts at row `at`; one that does not follow on (or passes the limit) breaks the stream. */
  add(at: number | undefined, batch: readonly AnalyticsRecord[]): void {
    if (this.broken) return;
    if (at !== this.records.length || at + batch.length > MESSAGE_LIMITS.records) {
      this.broken = true;
      this.records = [];
      return;
    }
    for (const r of batch) this.records.push(r);
  }

  /** The result's rows: the `streamed` that came first, then `tail`; undefined when some went missing. */
  join(streamed: number, tail: AnalyticsRecord[]): AnalyticsRecord[] | undefined {
    if (this.broken || this.records.length !== streamed || streamed + tail.length > MESSAGE_LIMITS.records)
      return undefined;
    return streamed === 0 ? tail : this.records.concat(tail);
  }
}
