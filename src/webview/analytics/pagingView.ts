/** Paging controls ("Rows 21–40 of 1,234", First/Prev/Next/Last) and the export buttons. */
import { formatInt, rowsRange } from '../../analyticsModel/format';
import type { ResultState } from '../protocol';
import { button, h } from './dom';

export interface PagingHandlers {
  goTo(page: number): void;
  exportAs(format: 'csv' | 'json'): void;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export class PagingView {
  readonly root: HTMLElement;
  private readonly range = h('span', { class: 'range', attrs: { id: 'rows-range', role: 'status' } });
  private readonly first: HTMLButtonElement;
  private readonly prev: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private readonly last: HTMLButtonElement;
  private readonly exportCsv: HTMLButtonElement;
  private readonly exportJson: HTMLButtonElement;
  private readonly nav: HTMLElement;
  private page = 1;
  private pages = 1;

  constructor(handlers: PagingHandlers) {
    this.first = button('First', () => handlers.goTo(1), { class: 'secondary', attrs: { id: 'page-first', 'aria-label': 'First page' } });
    this.prev = button('Prev', () => handlers.goTo(this.page - 1), { class: 'secondary', attrs: { id: 'page-prev', 'aria-label': 'Previous page' } });
    this.next = button('Next', () => handlers.goTo(this.page + 1), { class: 'secondary', attrs: { id: 'page-next', 'aria-label': 'Next page' } });
    this.last = button('Last', () => handlers.goTo(this.pages), { class: 'secondary', attrs: { id: 'page-last', 'aria-label': 'Last page' } });
    this.exportCsv = button('Export CSV', () => handlers.exportAs('csv'), { class: 'secondary', attrs: { id: 'export-csv' } });
    this.exportJson = button('Export JSON', () => handlers.exportAs('json'), { class: 'secondary', attrs: { id: 'export-json' } });
    this.nav = h('nav', { class: 'pager', attrs: { 'aria-label': 'Pages' } }, this.first, this.prev, this.next, this.last);
    this.root = h('div', { class: 'toolbar' }, this.range, this.nav, h('span', { class: 'spacer' }), this.exportCsv, this.exportJson);
  }

  update(result: ResultState | undefined, busy: boolean): void {
    this.root.hidden = !result;
    if (!result) return;
    const hasRows = result.records.length > 0;
    this.exportCsv.disabled = !hasRows;
    this.exportJson.disabled = !hasRows;
    if (result.mode === 'all') {
      this.range.textContent = `All ${formatInt(result.total)} rows`;
      this.nav.hidden = true;
      return;
    }
    this.nav.hidden = false;
    const pageSize = result.query.pageSize ?? 20;
    this.page = result.query.page ?? 1;
    this.pages = pageCount(result.total, pageSize);
    this.range.textContent = `${rowsRange(this.page, pageSize, result.records.length, result.total)} · Page ${formatInt(this.page)} of ${formatInt(this.pages)}`;
    const atStart = busy || this.page <= 1;
    const atEnd = busy || this.page >= this.pages;
    this.first.disabled = atStart;
    this.prev.disabled = atStart;
    this.next.disabled = atEnd;
    this.last.disabled = atEnd;
  }
}
