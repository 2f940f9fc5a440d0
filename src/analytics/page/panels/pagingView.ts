/**
 * Paging controls ("Rows 21–40 of 1,234 · Page 2 of 62", First/Prev/Next/Last) over the rows on
 * the page, "Show all" (every row fetched in one scrollable table), and the export buttons. A page
 * whose rows are still being fetched cannot be chosen yet. Focus stays where the user acted: a
 * pager button that becomes disabled under the focus hands it to its nearest enabled neighbour.
 */
import type { PageWindow } from '../../model/pages';
import { button, h } from '../common/dom';
import { t } from '../common/l10n';

export interface PagingHandlers {
  goTo(page: number): void;
  exportAs(format: 'csv' | 'json'): void;
  showAll(on: boolean): void;
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
  private readonly showAll: HTMLButtonElement;
  private readonly nav: HTMLButtonElement[];
  private page = 1;
  private pages = 1;

  constructor(handlers: PagingHandlers) {
    this.first = button(t('pager.first'), () => handlers.goTo(1), {
      class: 'secondary',
      attrs: { id: 'page-first', 'aria-label': t('pager.firstLabel') },
    });
    this.prev = button(t('pager.previous'), () => handlers.goTo(this.page - 1), {
      class: 'secondary',
      attrs: { id: 'page-prev', 'aria-label': t('pager.previousLabel') },
    });
    this.next = button(t('pager.next'), () => handlers.goTo(this.page + 1), {
      class: 'secondary',
      attrs: { id: 'page-next', 'aria-label': t('pager.nextLabel') },
    });
    this.last = button(t('pager.last'), () => handlers.goTo(this.pages), {
      class: 'secondary',
      attrs: { id: 'page-last', 'aria-label': t('pager.lastLabel') },
    });
    this.exportCsv = button(t('pager.exportCsv'), () => handlers.exportAs('csv'), {
      class: 'secondary',
      attrs: { id: 'export-csv' },
    });
    this.exportJson = button(t('pager.exportJson'), () => handlers.exportAs('json'), {
      class: 'secondary',
      attrs: { id: 'export-json' },
    });
    this.showAll = button(
      t('pager.showAll'),
      () => handlers.showAll(this.showAll.getAttribute('aria-pressed') !== 'true'),
      {
        class: 'secondary',
        attrs: { id: 'show-all', 'aria-pressed': 'false', title: t('pager.showAllTitle') },
      },
    );
    this.nav = [this.first, this.prev, this.next, this.last];
    const nav = h('nav', { class: 'pager', attrs: { 'aria-label': t('pager.pages') } }, ...this.nav, this.showAll);
    this.root = h(
      'div',
      { class: 'toolbar' },
      this.range,
      nav,
      h('span', { class: 'spacer' }),
      this.exportCsv,
      this.exportJson,
    );
  }

  /** Shows `win` (undefined: no result); `busy` while a new query is on its way. */
  update(win: PageWindow | undefined, rows: number, busy: boolean, showAll = false): void {
    this.root.hidden = !win;
    if (!win) return;
    const focused = this.nav.find((b) => b === document.activeElement);
    this.exportCsv.disabled = rows === 0;
    this.exportJson.disabled = rows === 0;
    this.page = win.page;
    this.pages = win.pages;
    this.range.textContent = win.label;
    this.first.disabled = busy || !win.canPrev;
    this.prev.disabled = busy || !win.canPrev;
    this.next.disabled = busy || !win.canNext;
    this.last.disabled = busy || !win.canLast;
    const waiting = !win.canLast && win.page < win.pages;
    this.last.title = waiting ? t('pager.lastWaiting') : '';
    this.showAll.setAttribute('aria-pressed', String(showAll));
    if (focused?.disabled) this.keepFocusNear(focused);
  }

  /** The nearest enabled pager button to `from` (Prev on the first page hands over to Next). */
  private keepFocusNear(from: HTMLButtonElement): void {
    const i = this.nav.indexOf(from);
    for (let d = 1; d < this.nav.length; d++) {
      for (const j of [i + d, i - d]) {
        const b = this.nav[j];
        if (b && !b.disabled) return b.focus();
      }
    }
    this.showAll.focus();
  }
}
