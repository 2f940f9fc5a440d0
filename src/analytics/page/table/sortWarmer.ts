/**
 * Computes a result's row orders (sortOrder.ts) while the page is idle, a few slices of rows per
 * idle callback (a column takes several), so the first click on a header of a long table finds its order ready and only paints.
 * A new result stops the previous one's work; a click before its column is warm computes it then.
 */
import { type SortColumn, sortOrdersFor } from '../../model/sortOrder';
import type { AnalyticsRecord } from '../../protocol/wire';

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

  private next(records: readonly AnalyticsRecord[], index: number, script = 0, longest = 0, started = 0): void {
    const column = this.columns[index];
    if (!column) return;
    idle((deadline) => {
      if (records !== this.records) return; // another result came: its own warm-up runs
      const t0 = performance.now();
      // Slices until the idle period (or a slice budget) is used up: no input waits on a long block.
      const ready = sortOrdersFor(records).prepare(
        column,
        () => performance.now() - t0 < SLICE_BUDGET_MS && deadline.timeRemaining() > 1,
      );
      const block = performance.now() - t0;
      const total = script + block;
      const worst = Math.max(longest, block);
      const since = started || t0;
      if (!ready) {
        this.next(records, index, total, worst, since);
        return;
      }
      // script: what a first sort of this column would cost without the warm-up; longest: the
      // longest block the warm-up held the page for (the table benches read both).
      performance.measure('scrapedeck:sort-warm', {
        start: since,
        detail: { column: column.id, rows: records.length, script: total, longest: worst },
      });
      this.next(records, index + 1);
    });
  }
}

/** Longest run of slices in one idle callback, however long the browser says the idle period is. */
const SLICE_BUDGET_MS = 20;

interface IdleDeadline {
  timeRemaining(): number;
}

function idle(task: (deadline: IdleDeadline) => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task);
  else setTimeout(() => task({ timeRemaining: () => SLICE_BUDGET_MS }), 50);
}
