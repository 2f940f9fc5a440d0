/**
 * Which rows of a long table are in the DOM: those in the window's view plus a few
 * either side (overscan), so a sort or a scroll paints a few dozen rows whatever the row count.
 * Pure: the numbers come from the DOM, the answer goes back to it.
 */

/** Up to this many rows are rendered whole (a page of the pager is at most 100). */
export const VIRTUAL_MIN_ROWS = 200;
/** Rows rendered above and below the view, so a short scroll shows rows already painted. */
export const OVERSCAN_ROWS = 10;
/** Until a row has been measured (padding 3px twice, a line, a 1px border). */
export const ROW_HEIGHT_ESTIMATE = 24;

export interface WindowInput {
  /** Rows the table holds. */
  count: number;
  rowHeight: number;
  /** How far the table's top is scrolled above the view (negative: below its top), the view's height, and the (sticky) header's height. */
  scrollTop: number;
  viewport: number;
  headerHeight: number;
}

export interface RowWindow {
  /** Rows [first, last) of `count` are rendered; the others are spacer height. */
  first: number;
  last: number;
  count: number;
  virtual: boolean;
}

export function rowWindow(input: WindowInput): RowWindow {
  const count = Math.max(0, Math.floor(input.count));
  if (count <= VIRTUAL_MIN_ROWS) return { first: 0, last: count, count, virtual: false };
  const rowHeight = input.rowHeight > 0 ? input.rowHeight : ROW_HEIGHT_ESTIMATE;
  const top = Math.max(0, input.scrollTop - input.headerHeight);
  const viewport = Math.max(rowHeight, input.viewport);
  const firstInView = Math.min(count - 1, Math.floor(top / rowHeight));
  const lastInView = Math.min(count, Math.ceil((top + viewport) / rowHeight));
  return {
    first: Math.max(0, firstInView - OVERSCAN_ROWS),
    last: Math.min(count, Math.max(lastInView, firstInView + 1) + OVERSCAN_ROWS),
    count,
    virtual: true,
  };
}

export function sameWindow(a: RowWindow, b: RowWindow): boolean {
  return a.first === b.first && a.last === b.last && a.count === b.count && a.virtual === b.virtual;
}
