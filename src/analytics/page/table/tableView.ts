/**
 * The table of every record field: the charts' accessible twin. Headers are buttons (keyboard
 * sortable) and carry aria-sort; a sort orders every row fetched, and the table shows a range of
 * them (one page, or all of them under "Show all"). A long range is virtualised (rowWindow.ts):
 * only the rows in view, plus a few, are in the DOM, between two spacer rows that give the table
 * its full height; aria-rowcount and aria-rowindex tell screen readers where they are. The page is
 * the one scroller (a table scrolling inside a scrolling page had two scrollbars): the rows in view
 * follow the window's scroll and size, and the header sticks to the top of the window.
 * Body rows are pooled and repainted cell by cell (text nodes, never markup).
 */
import type { DayRange } from '../../model/format';
import { COLUMNS, shownColumns, sortedOrder, type SortState } from '../../model/tableModel';
import type { AnalyticsRecord } from '../../protocol/wire';
import { button, h } from '../common/dom';
import { columnText, t } from '../common/l10n';
import { RowPainter } from './rowPainter';
import { ROW_HEIGHT_ESTIMATE, type RowWindow, rowWindow, sameWindow } from './rowWindow';
import { SortWarmer } from './sortWarmer';

export class TableView {
  readonly root: HTMLElement;
  private readonly headers = new Map<string, HTMLTableCellElement>();
  private readonly table: HTMLTableElement;
  private readonly thead: HTMLTableSectionElement;
  private readonly tbody = h('tbody');
  private readonly topSpacer = spacerRow();
  private readonly bottomSpacer = spacerRow();
  private readonly painter = new RowPainter();
  private readonly warmer = new SortWarmer(COLUMNS);
  private records: readonly AnalyticsRecord[] = [];
  /** Row indexes of `records` in the sort's order (cached per result and column); undefined: as given. */
  private order: Uint32Array | undefined;
  private sortKey: SortState | undefined;
  /** The rows the table holds: [start, end) of the sorted rows. */
  private start = 0;
  private end = 0;
  /** The rows in the DOM now, relative to `start` (undefined: none, or the empty row). */
  private shown: RowWindow | undefined;
  /** Measured from the first rendered row; rows never wrap, so every row has this height. */
  private rowHeight = 0;
  private readonly emptyRow = h(
    'tr',
    {},
    h('td', { class: 'empty', text: t('table.noRows'), attrs: { colspan: String(COLUMNS.length) } }),
  );

  constructor(private readonly onSort: (column: string) => void) {
    const headRow = h('tr', { attrs: { 'aria-rowindex': '1' } });
    for (const c of COLUMNS) {
      const { header, title } = columnText(c);
      const b = button(header, () => this.onSort(c.id), {
        class: 'sort',
        attrs: { title: t('table.sortBy', title, header) },
      });
      b.append(h('span', { class: 'sort-indicator', attrs: { 'aria-hidden': 'true' } }));
      const th = h(
        'th',
        { class: c.kind === 'text' ? 'text' : 'num', attrs: { scope: 'col', 'data-column': c.id } },
        b,
      );
      this.headers.set(c.id, th);
      headRow.append(th);
    }
    this.thead = h('thead', {}, headRow);
    this.table = h(
      'table',
      {
        class: 'records',
        attrs: { 'aria-label': t('table.label'), 'aria-describedby': 'table-caption-note', 'aria-rowcount': '1' },
      },
      h('caption', { class: 'visually-hidden', text: t('table.caption'), attrs: { id: 'table-caption-note' } }),
      this.thead,
      this.tbody,
    );
    this.root = h(
      'div',
      { class: 'table-box', attrs: { role: 'region', 'aria-label': t('table.region') } },
      this.table,
    );
    // Scrolling or resizing brings other rows into view; a scroll event comes at most once a frame.
    window.addEventListener('scroll', () => this.renderWindow(), { passive: true });
    window.addEventListener('resize', () => this.renderWindow(), { passive: true });
  }

  /** A Day or Month result leaves out the week's start and end columns (they would say "—" on every row). */
  setGranularity(granularity: string | undefined): void {
    this.table.classList.toggle('no-week', shownColumns(granularity).length !== COLUMNS.length);
  }

  /** The result left the screen (cleared, dropped): stop preparing its orders. */
  stopWarming(): void {
    this.warmer.stop();
  }

  /** Shows rows [start, end) of `records` in the given order (the sorted order is cached); `range`: their query's days. */
  update(
    records: readonly AnalyticsRecord[],
    sort: SortState | undefined,
    start: number,
    end: number,
    range?: DayRange,
  ): void {
    const relabelled = this.painter.setRange(range);
    const sameSort = sort?.column === this.sortKey?.column && sort?.direction === this.sortKey?.direction;
    const reordered = records !== this.records || !sameSort;
    if (reordered) this.reorder(records, sort);
    this.warmer.warm(records);
    const moved = start !== this.start || end !== this.end;
    this.start = start;
    this.end = Math.max(start, end);
    // Another page, or a shorter or longer range, while the table's top is scrolled out of view:
    // its first rows are brought into view.
    if (moved && this.table.getBoundingClientRect().top < 0) this.table.scrollIntoView({ block: 'start' });
    this.table.setAttribute('aria-rowcount', String(this.records.length + 1));
    this.renderWindow(reordered || moved || relabelled);
  }

  private reorder(records: readonly AnalyticsRecord[], sort: SortState | undefined): void {
    this.records = records;
    this.sortKey = sort;
    this.order = sortedOrder(records, sort);
    for (const [id, th] of this.headers) {
      const direction = sort?.column === id ? sort.direction : undefined;
      if (direction) th.setAttribute('aria-sort', direction === 'asc' ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
      th.classList.toggle('sorted-asc', direction === 'asc');
      th.classList.toggle('sorted-desc', direction === 'desc');
    }
  }

  /** Puts the rows in view into the DOM; `force` repaints even when the window did not move. */
  private renderWindow(force = false): void {
    const count = this.end - this.start;
    if (count === 0) {
      if (this.shown !== undefined || this.tbody.firstChild !== this.emptyRow)
        this.tbody.replaceChildren(this.emptyRow);
      this.shown = undefined;
      return;
    }
    // Read the geometry first, then write: one layout per render, not one per row. How far the
    // table's top is scrolled above the window is the table's own scrollTop (negative: below it).
    const win = rowWindow({
      count,
      rowHeight: this.rowHeight || ROW_HEIGHT_ESTIMATE,
      scrollTop: -this.table.getBoundingClientRect().top,
      viewport: window.innerHeight,
      headerHeight: this.thead.offsetHeight,
    });
    if (!force && this.shown && sameWindow(win, this.shown)) return;
    this.paintWindow(win);
    if (this.rowHeight === 0) {
      // The first rows on screen give the true row height; a virtualised window is redone with it.
      const first = this.tbody.rows[1];
      const measured = first ? first.getBoundingClientRect().height : 0;
      if (measured > 0) {
        this.rowHeight = measured;
        if (win.virtual && Math.abs(measured - ROW_HEIGHT_ESTIMATE) > 0.5) this.renderWindow(true);
      }
    }
  }

  private paintWindow(win: RowWindow): void {
    const n = win.last - win.first;
    const rows = this.painter.rows(n);
    if (this.shown === undefined || this.shown.last - this.shown.first !== n) {
      this.tbody.replaceChildren(this.topSpacer, ...rows, this.bottomSpacer);
    }
    for (let i = 0; i < n; i++) {
      const index = this.start + win.first + i;
      this.painter.paint(i, this.records[this.order ? (this.order[index] as number) : index] as AnalyticsRecord);
      // Header row is 1; body rows count from 2 over every row the table holds.
      (rows[i] as HTMLTableRowElement).setAttribute('aria-rowindex', String(index + 2));
    }
    const rowHeight = this.rowHeight || ROW_HEIGHT_ESTIMATE;
    setSpacer(this.topSpacer, win.virtual ? win.first * rowHeight : 0);
    setSpacer(this.bottomSpacer, win.virtual ? (win.count - win.last) * rowHeight : 0);
    this.shown = win;
  }
}

/** A row that only takes up height: the rows above or below the window. */
function spacerRow(): HTMLTableRowElement {
  return h(
    'tr',
    { class: 'spacer', attrs: { 'aria-hidden': 'true' } },
    h('td', { attrs: { colspan: String(COLUMNS.length) } }),
  );
}

/** CSSOM, not a style attribute: the CSP allows no inline styles, and this is not one. */
function setSpacer(row: HTMLTableRowElement, px: number): void {
  row.hidden = px <= 0;
  (row.cells[0] as HTMLTableCellElement).style.height = `${px}px`;
}
