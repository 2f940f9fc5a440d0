/**
 * The page's logic: what the host sent (each message parsed), the view it asked for (sort,
 * search, conditions), the windows of rows around what the grid shows, and the side panel (a
 * whole value, a profile). The page keeps its view and widths with getState/setState.
 */
import {
  type BrowseProfile,
  type BrowseStatus,
  type BrowseView,
  hostMessageSchema,
  type PageMessage,
  pageStateSchema,
  parseMessage,
} from '../protocol';
import { Grid } from './grid';
import { RowCache } from './rowCache';
import { el, Toolbar } from './toolbar';
import { t } from './words';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export class Controller {
  private grid: Grid | undefined;
  private toolbar: Toolbar | undefined;
  private readonly side = el('section', 'side');
  private view: BrowseView = {};
  private status: BrowseStatus = { state: 'loading', loaded: 0, shown: 0, problems: 0 };
  private canStop = false;
  private next = 0;
  private readonly waiting = new Map<string, number>();
  private readonly cache = new RowCache((from, count, generation) => {
    const id = this.id();
    this.waiting.set(id, generation);
    this.post({ type: 'window', id, from, count });
  });

  constructor(
    private readonly api: VsCodeApi,
    private readonly app: HTMLElement,
  ) {
    this.side.setAttribute('aria-label', t('side.details'));
    this.side.hidden = true;
  }

  private id(): string {
    return `r${++this.next}`;
  }

  post(m: PageMessage): void {
    this.api.postMessage(m);
  }

  receive(raw: unknown): void {
    const parsed = parseMessage(hostMessageSchema, raw);
    if (!parsed.ok) {
      // l10n-exempt: a line for the Output channel, which stays English (for support)
      this.post({ type: 'log', level: 'warn', message: `A message from the host did not parse: ${parsed.issue}` });
      return;
    }
    const m = parsed.message;
    switch (m.type) {
      case 'init':
        return this.init(m.title, m.columns, m.status, m.canStop);
      case 'columns':
        if (this.grid && m.columns.length !== this.grid.columns.length) {
          this.grid.setColumns(m.columns);
          this.toolbar?.setColumns(m.columns);
        }
        return;
      case 'status':
        return this.setStatus(m.status);
      case 'view':
        this.cache.clear();
        this.grid?.setShown(m.shown);
        return;
      case 'rows': {
        const generation = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (generation !== undefined && this.cache.put(m.from, m.rows, generation)) {
          this.grid?.schedule();
          this.cellActions(); // the focused cell's row may just have arrived
        }
        return;
      }
      case 'cell':
        return this.showSide(t('side.wholeValue'), (box) =>
          box.append(el('pre', 'whole', m.value + (m.cut ? '\n…' : ''))),
        );
      case 'profile':
        return this.showProfile(m.profile);
      case 'error': {
        const generation = m.id === undefined ? undefined : this.waiting.get(m.id);
        if (m.id !== undefined) this.waiting.delete(m.id);
        if (generation !== undefined) this.cache.failed(generation);
        return this.showSide(t('side.problem'), (box) => box.append(el('p', '', m.message)));
      }
    }
  }

  private init(title: string, columns: string[], status: BrowseStatus, canStop: boolean): void {
    this.canStop = canStop;
    const saved = pageStateSchema.safeParse(this.api.getState());
    const restoring =
      saved.success &&
      Boolean(saved.data.view.sort || saved.data.view.search || (saved.data.view.conditions ?? []).length > 0);
    // The first window is asked for before the grid is built, so the host reads it meanwhile (a
    // restored sort or filter asks once its view is made).
    if (!restoring) {
      const top = saved.success ? saved.data.top : 0;
      this.cache.want(top, top + Math.ceil(window.innerHeight / 24), status.shown);
    }
    this.toolbar = new Toolbar(title, {
      search: (text) => this.setView({ ...this.view, search: text }),
      addCondition: (column, op, value) =>
        this.setView({
          ...this.view,
          conditions: [
            ...(this.view.conditions ?? []),
            { column, op, ...(op === 'contains' || op === 'equals' ? { value } : {}) },
          ],
        }),
      removeCondition: (i) =>
        this.setView({ ...this.view, conditions: (this.view.conditions ?? []).filter((_, k) => k !== i) }),
      stop: () => this.post({ type: 'stop' }),
      copyCell: () => this.copy('cell'),
      copyRow: () => this.copy('row'),
      wholeValue: () =>
        this.grid &&
        this.post({ type: 'cell', id: this.id(), row: this.grid.active.row, column: this.grid.active.column }),
      openLink: () =>
        this.grid && this.post({ type: 'openLink', row: this.grid.active.row, column: this.grid.active.column }),
      profile: () => this.grid && this.post({ type: 'profile', id: this.id(), column: this.grid.active.column }),
      export: () => this.post({ type: 'export' }),
    });
    const main = el('div', 'main');
    this.app.replaceChildren(this.toolbar.root, main);
    this.grid = new Grid(main, {
      row: (place) => this.cache.get(place),
      want: (first, last) => this.cache.want(first, last, this.status.shown),
      sort: (column) => this.sortBy(column),
      sortState: (column) =>
        this.view.sort?.column !== column ? 'none' : this.view.sort.direction === 'asc' ? 'ascending' : 'descending',
      focusMoved: () => this.focusMoved(),
      resized: () => this.save(),
    });
    main.append(this.side);
    this.grid.scroller.addEventListener('keydown', (e) => this.key(e));
    this.grid.scroller.addEventListener('click', (e) => {
      const id = (e.target as HTMLElement).closest('[id^="cell-"]')?.id.split('-');
      if (id?.length === 3) this.grid?.focusCell(Number(id[1]), Number(id[2]), e.shiftKey);
    });
    this.grid.setColumns(columns, saved.success ? saved.data.widths : undefined);
    this.toolbar.setColumns(columns);
    this.setStatus(status);
    if (saved.success && restoring) this.setView(saved.data.view);
    if (saved.success) this.grid.scroller.scrollTop = saved.data.top * 24;
  }

  private setStatus(status: BrowseStatus): void {
    const grew = status.shown !== this.status.shown;
    this.status = status;
    this.toolbar?.setStatus(status, this.canStop);
    if (grew) this.grid?.setShown(status.shown);
  }

  private setView(view: BrowseView): void {
    this.view = view;
    this.toolbar?.setConditions(view, this.grid?.columns ?? []);
    this.post({ type: 'view', view });
    this.save();
    this.grid?.schedule();
  }

  private sortBy(column: number): void {
    const now = this.view.sort?.column === column ? this.view.sort.direction : undefined;
    const { sort: _old, ...rest } = this.view;
    this.setView(now === 'desc' ? rest : { ...rest, sort: { column, direction: now === 'asc' ? 'desc' : 'asc' } });
  }

  private copy(what: 'cell' | 'row' | 'selection'): void {
    const g = this.grid;
    if (!g || g.shown === 0) return;
    const s = g.selection();
    if (what === 'cell')
      this.post({
        type: 'copy',
        from: g.active.row,
        to: g.active.row,
        firstColumn: g.active.column,
        lastColumn: g.active.column,
      });
    else if (what === 'row')
      this.post({
        type: 'copy',
        from: g.active.row,
        to: g.active.row,
        firstColumn: 0,
        lastColumn: Math.max(0, g.columns.length - 1),
      });
    else this.post({ type: 'copy', from: s.top, to: s.bottom, firstColumn: s.left, lastColumn: s.right });
  }

  private key(e: KeyboardEvent): void {
    if (!this.grid) return;
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c') this.copy('selection');
    else if (e.key === 'Enter')
      this.post({ type: 'cell', id: this.id(), row: this.grid.active.row, column: this.grid.active.column });
    else if (!this.grid.key(e)) return;
    e.preventDefault();
  }

  private focusMoved(): void {
    this.cellActions();
    this.save();
  }

  /** Whole value and Open link… only where they apply: a cut cell, a cell holding a URL. */
  private cellActions(): void {
    const g = this.grid;
    const t = this.toolbar;
    if (!g || !t) return;
    const row = this.cache.get(g.active.row);
    const value = row?.cells[g.active.column];
    t.linkButton.hidden = !(typeof value === 'string' && /^https?:\/\/\S+$/i.test(value.trim()));
    t.wholeButton.hidden = row?.cut?.includes(g.active.column) !== true;
  }

  private showSide(title: string, fill: (box: HTMLElement) => void): void {
    const close = el('button', '', t('side.close'));
    close.type = 'button';
    close.addEventListener('click', () => {
      this.side.hidden = true;
      this.grid?.scroller.focus();
    });
    const h2 = el('h2', '', title);
    this.side.replaceChildren(h2, close);
    fill(this.side);
    this.side.hidden = false;
  }

  private showProfile(p: BrowseProfile): void {
    const pct = p.rows === 0 ? 0 : Math.round((p.empty / p.rows) * 100);
    const fmt = (n: number): string => n.toLocaleString(document.documentElement.dataset['locale'] ?? 'en');
    this.showSide(t('profile.title', p.column), (box) => {
      const dl = el('dl');
      const item = (k: string, v: string): void => dl.append(el('dt', '', k), el('dd', '', v));
      item(t('profile.kind'), t(`kind.${p.kind}`));
      item(t('profile.rows'), fmt(p.rows));
      item(t('profile.empty'), t('profile.emptyValue', fmt(pct), fmt(p.empty)));
      item(t('profile.distinct'), p.distinctAtLeast ? t('profile.atLeast', fmt(p.distinct)) : fmt(p.distinct));
      if (p.min !== undefined) item(t('profile.least'), p.min);
      if (p.max !== undefined) item(t('profile.greatest'), p.max);
      const common = el('ol');
      for (const c of p.common)
        common.append(el('li', '', `${c.value === '' ? t('profile.emptyCell') : c.value}: ${fmt(c.count)}`));
      box.append(dl, el('h3', '', t('profile.common')), common);
    });
  }

  private save(): void {
    const g = this.grid;
    if (!g) return;
    this.api.setState({ view: this.view, top: Math.floor(g.scroller.scrollTop / 24), widths: g.widths });
  }
}
