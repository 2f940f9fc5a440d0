/**
 * The table of every record field: the charts' accessible twin. Headers are buttons (keyboard
 * sortable) and carry aria-sort. The body is one innerHTML of escaped strings, the fastest way to
 * put thousands of rows on screen; big results show their first rows and a "Show more" button.
 */
import type { AnalyticsRecord } from '../../api/schemas';
import { DASH, formatInt } from '../../analyticsModel/format';
import { COLUMNS, formatCell, sortRecords, type SortState } from '../../analyticsModel/table-model';
import { button, escapeHtml, h } from './dom';

/** Rows put on screen at first and per "Show more": a full page (page size ≤ 100) renders whole, and a 10,000-row result stays inside the render budget. */
export const ROW_CHUNK = 100;

export class TableView {
  readonly root: HTMLElement;
  private readonly headers = new Map<string, HTMLTableCellElement>();
  private readonly tbody = h('tbody');
  private readonly more = h('div', { class: 'table-more' });
  private readonly moreText = h('span', { attrs: { role: 'status' } });
  private records: readonly AnalyticsRecord[] = [];
  private sorted: AnalyticsRecord[] = [];
  private sortKey: SortState | undefined;
  private limit = ROW_CHUNK;
  private rowCache = new WeakMap<AnalyticsRecord, string>();

  constructor(private readonly onSort: (column: string) => void) {
    const headRow = h('tr');
    for (const c of COLUMNS) {
      const b = button(c.header, () => this.onSort(c.id), { class: 'sort', attrs: { title: `${c.title}. Sort by ${c.header}` } });
      b.append(h('span', { class: 'sort-indicator', attrs: { 'aria-hidden': 'true' } }));
      const th = h('th', { class: c.kind === 'text' ? 'text' : 'num', attrs: { scope: 'col', 'data-column': c.id } }, b);
      this.headers.set(c.id, th);
      headRow.append(th);
    }
    const table = h('table', { class: 'records', attrs: { 'aria-label': 'Analytics records', 'aria-describedby': 'table-caption-note' } },
      h('caption', { class: 'visually-hidden', text: 'Analytics records. Column headers are buttons that sort the table.', attrs: { id: 'table-caption-note' } }),
      h('thead', {}, headRow),
      this.tbody,
    );
    const showMore = button(`Show ${ROW_CHUNK} more`, () => this.grow(ROW_CHUNK), { class: 'secondary', attrs: { id: 'show-more' } });
    const showAll = button('Show all', () => this.grow(Infinity), { class: 'secondary', attrs: { id: 'show-all' } });
    this.more.append(this.moreText, showMore, showAll);
    this.root = h('div', { class: 'table-wrap' }, h('div', { class: 'table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Records table' } }, table), this.more);
  }

  /** Renders records in the given order; does nothing when neither changed (sort is cached). */
  update(records: readonly AnalyticsRecord[], sort: SortState | undefined): void {
    const sameSort = sort?.column === this.sortKey?.column && sort?.direction === this.sortKey?.direction;
    if (records === this.records && sameSort) return;
    if (records !== this.records) this.limit = ROW_CHUNK;
    this.records = records;
    this.sortKey = sort;
    this.sorted = sort ? sortRecords(records, sort) : records.slice();
    for (const [id, th] of this.headers) {
      const direction = sort?.column === id ? sort.direction : undefined;
      if (direction) th.setAttribute('aria-sort', direction === 'asc' ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
      th.classList.toggle('sorted-asc', direction === 'asc');
      th.classList.toggle('sorted-desc', direction === 'desc');
    }
    this.renderBody();
  }

  private grow(by: number): void {
    this.limit = Math.min(this.sorted.length, this.limit + by);
    this.renderBody();
  }

  private renderBody(): void {
    const rows = this.sorted.length > this.limit ? this.sorted.slice(0, this.limit) : this.sorted;
    const parts: string[] = [];
    for (const r of rows) {
      // A row's markup never changes: re-sorting reuses it instead of formatting 20 cells again.
      let html = this.rowCache.get(r);
      if (html === undefined) {
        html = rowHtml(r);
        this.rowCache.set(r, html);
      }
      parts.push(html);
    }
    if (rows.length === 0) parts.push(`<tr><td class="empty" colspan="${COLUMNS.length}">No rows</td></tr>`);
    this.tbody.innerHTML = parts.join('');
    const hidden = this.sorted.length - rows.length;
    this.more.hidden = hidden <= 0;
    this.moreText.textContent = hidden > 0 ? `Showing ${formatInt(rows.length)} of ${formatInt(this.sorted.length)} rows. ` : '';
  }
}

function rowHtml(r: AnalyticsRecord): string {
  let html = '<tr>';
  for (const c of COLUMNS) {
    const text = formatCell(c, r);
    const cls = (c.kind === 'text' ? 'text' : 'num') + (text === DASH ? ' null' : '') + (c.id === 'task' && r.taskName === null ? ' id-only' : '');
    const title = text === DASH ? ' title="Not reported"' : c.id === 'task' && r.taskName === null ? ' title="Task name not reported; showing its id"' : '';
    // The task names its row, for screen readers moving along a column.
    const tag = c.id === 'task' ? 'th scope="row"' : 'td';
    html += `<${tag} class="${cls}"${title}>${escapeHtml(text)}</${c.id === 'task' ? 'th' : 'td'}>`;
  }
  return `${html}</tr>`;
}
