/**
 * The table's pages over the rows fetched so far, and what the figures cover. Pure, so the page
 * and the tests agree. Pages count over the query's total; a page whose rows have not arrived yet
 * cannot be shown.
 */
import { formatInt, rowsRange } from './format';
import { pageText } from './pageStrings';

export interface PageWindow {
  /** The page shown (1-based), moved back into range if needed. */
  page: number;
  /** Pages of the whole query. */
  pages: number;
  /** Row indices [start, end) of the page within the rows fetched. */
  start: number;
  end: number;
  canPrev: boolean;
  canNext: boolean;
  /** The last page's rows are all here. */
  canLast: boolean;
  /** "Rows 21–40 of 1,020 · Page 2 of 51". */
  label: string;
}

export function pageWindow(page: number, pageSize: number, fetched: number, total: number): PageWindow {
  const size = Math.max(1, Math.floor(pageSize));
  const pages = Math.max(1, Math.ceil(total / size));
  // Only pages whose first row is here can be shown.
  const reachable = Math.max(1, Math.min(pages, Math.ceil(fetched / size)));
  const p = Math.min(Math.max(1, Math.floor(page)), reachable);
  const start = (p - 1) * size;
  const end = Math.min(fetched, start + size);
  return {
    page: p,
    pages,
    start,
    end,
    canPrev: p > 1,
    canNext: p < reachable,
    canLast: p < pages && fetched >= total,
    label: pageText('pager.label', rowsRange(p, size, end - start, total), formatInt(p), formatInt(pages)),
  };
}

export interface Coverage {
  rows: number;
  total: number;
  complete: boolean;
}

export function coverageOf(rows: number, total: number): Coverage {
  return { rows, total, complete: rows >= total };
}

/** What the summary and charts cover, in words: the whole query, or which part of it. */
export function coverageText(c: Coverage): string {
  if (c.complete) return c.total === 1 ? pageText('coverage.one') : pageText('coverage.all', formatInt(c.total));
  return pageText('coverage.first', formatInt(c.rows), formatInt(c.total));
}

/** The short form a chart's caption carries while the figures are partial ('' when whole). */
export function coverageTag(c: Coverage): string {
  return c.complete ? '' : pageText('coverage.tag', formatInt(c.rows), formatInt(c.total));
}

/** "Show all": every row fetched so far in one scrollable table; the pager has nowhere to go. */
export function allRowsWindow(fetched: number, total: number): PageWindow {
  const rows = Math.max(0, Math.floor(fetched));
  const label =
    rows >= total
      ? total === 1
        ? pageText('pager.oneRow')
        : pageText('pager.allRows', formatInt(total))
      : pageText('pager.allFetched', formatInt(rows), formatInt(total));
  return { page: 1, pages: 1, start: 0, end: rows, canPrev: false, canNext: false, canLast: false, label };
}

/**
 * Above this many rows, the charts are drawn after the frame that shows the figures and the table
 * (drawing three charts costs about as much as the rest of a 10,000-row result). A smaller result,
 * quick anyway, is drawn whole in one frame, without charts that catch up.
 */
export const DRAW_CHARTS_LATER_ROWS = 2_000;
