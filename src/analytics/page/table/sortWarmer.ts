/**
 * Computes a result's row orders (sortOrder.ts) while the page is idle, one column per idle
 * callback, so the first click on a header of a long table finds its order ready and only paints.
 * A new result stops the previous one's work; a click before its column is warm computes it then.
 */
import type { AnalyticsRecord } from '../../protocol/wire';
import { sortOrdersFor, type SortColumn } from '../../model/sortOrder';

/** Below this many rows a cold sort takes a few milliseconds: nothing to prepare. */
export const WARM_MIN_ROWS = 2000;

export class SortWarmer {
  private records: readonly AnalyticsRecord[] | undefined;

  constructor(private readonly columns: readonly SortColumn[]) {}

  /** Starts preparing `records`' orders (the columns in table order), dropping any earlier result's. */
  warm(records: readonly AnalyticsRecord[]): void {
    if (records === this.records) return;
    this.records = records.length >= WARM_MIN_ROWS ? records : undefined;
    if (this.records) this.next(this.records, 0);
  }

  /** Drops the result being prepared (it left the screen): its remaining columns are not computed. */
  stop(): void {
    this.records = undefined;
  }

  private next(records: readonly AnalyticsRecord[], index: number): void {
    const column = this.columns[index];
    if (!column) return;
    idle(() => {
      if (records !== this.records) return; // another result came: its own warm-up runs
      const t0 = performance.now();
      sortOrdersFor(records).order(column, 'asc');
      // What a first sort of this column would cost without the warm-up (the table benches read it).
      performance.measure('scrapedeck:sort-warm', { start: t0, detail: { column: column.id, rows: records.length } });
      this.next(records, index + 1);
    });
  }
}

function idle(task: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task);
  else setTimeout(task, 50);
}
