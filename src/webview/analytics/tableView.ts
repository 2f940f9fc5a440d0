/**
 * The table of every record field: the charts' accessible twin. Headers are buttons (keyboard
 * sortable) and carry aria-sort; a sort orders every row fetched, and the table shows one page of
 * them (the pager above chooses which). Body rows are pooled and repainted cell by cell (text
 * nodes, never markup).
 */
import type { AnalyticsRecord } from '../../api/schemas';
import { DASH } from '../../analyticsModel/format';
import { COLUMNS, formatCell, sortRecords, type SortState } from '../../analyticsModel/tableModel';
import { button, h } from './dom';

export class TableView {
  readonly root: HTMLElement;
  private readonly headers = new Map<string, HTMLTableCellElement>();
  private readonly tbody = h('tbody');
  private records: readonly AnalyticsRecord[] = [];
  private sorted: readonly AnalyticsRecord[] = [];
  private sortKey: SortState | undefined;
  private readonly views = new WeakMap<AnalyticsRecord, RowView>();
  /**
   * Rows are kept and repainted, not rebuilt: a re-sort changes the text of cells that already
   * have their style and layout objects, instead of parsing and attaching 2,000 new ones.
   */
  private readonly pool: HTMLTableRowElement[] = [];
  /** What each pooled row shows now (undefined: blank). */
  private readonly painted: (RowView | undefined)[] = [];
  /** How many pooled rows are in the body. */
  private attached = 0;
  private readonly rowTemplate = rowTemplate();
  private readonly emptyRow = h('tr', {}, h('td', { class: 'empty', text: 'No rows', attrs: { colspan: String(COLUMNS.length) } }));

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
    this.root = h('div', { class: 'table-wrap' }, h('div', { class: 'table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Records table' } }, table));
  }

  /** Shows rows [start, end) of `records` in the given order (the sorted order is cached). */
  update(records: readonly AnalyticsRecord[], sort: SortState | undefined, start: number, end: number): void {
    const sameSort = sort?.column === this.sortKey?.column && sort?.direction === this.sortKey?.direction;
    if (records !== this.records || !sameSort) this.order(records, sort);
    this.renderBody(this.sorted.slice(start, end));
  }

  private order(records: readonly AnalyticsRecord[], sort: SortState | undefined): void {
    this.records = records;
    this.sortKey = sort;
    this.sorted = sort ? sortRecords(records, sort) : records;
    for (const [id, th] of this.headers) {
      const direction = sort?.column === id ? sort.direction : undefined;
      if (direction) th.setAttribute('aria-sort', direction === 'asc' ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
      th.classList.toggle('sorted-asc', direction === 'asc');
      th.classList.toggle('sorted-desc', direction === 'desc');
    }
  }

  private renderBody(rows: readonly AnalyticsRecord[]): void {
    if (rows.length === 0) {
      this.tbody.replaceChildren(this.emptyRow);
      this.attached = 0;
    } else {
      while (this.pool.length < rows.length) this.pool.push(this.newRow());
      if (this.attached !== rows.length) {
        this.tbody.replaceChildren(...this.pool.slice(0, rows.length));
        this.attached = rows.length;
      }
      rows.forEach((record, i) => this.paint(i, this.viewOf(record)));
    }
  }

  /** A row's cells as shown; a record's view never changes, so it is built once and kept. */
  private viewOf(record: AnalyticsRecord): RowView {
    let view = this.views.get(record);
    if (view === undefined) {
      view = rowView(record);
      this.views.set(record, view);
    }
    return view;
  }

  /** Puts a view into pooled row i, touching only the cells whose text, class or title differ. */
  private paint(i: number, view: RowView): void {
    const before = this.painted[i];
    if (before === view) return;
    const cells = (this.pool[i] as HTMLTableRowElement).cells;
    for (let j = 0; j < view.length; j++) {
      const cell = cells[j] as HTMLTableCellElement;
      const next = view[j] as CellView;
      const prev = before?.[j];
      if (prev?.text !== next.text) (cell.firstChild as Text).data = next.text;
      if (prev?.cls !== next.cls) cell.className = next.cls;
      if (prev?.title !== next.title) {
        if (next.title) cell.title = next.title;
        else cell.removeAttribute('title');
      }
    }
    this.painted[i] = view;
  }

  private newRow(): HTMLTableRowElement {
    return this.rowTemplate.cloneNode(true) as HTMLTableRowElement;
  }
}

/** One cell as shown: its text, class and tooltip ('' for none). */
interface CellView {
  text: string;
  cls: string;
  title: string;
}
type RowView = CellView[];

function rowView(r: AnalyticsRecord): RowView {
  return COLUMNS.map((c) => {
    const text = formatCell(c, r);
    const idOnly = c.id === 'task' && r.taskName === null;
    const cls = (c.kind === 'text' ? 'text' : 'num') + (text === DASH ? ' null' : '') + (idOnly ? ' id-only' : '');
    const title = text === DASH ? 'Not reported' : idOnly ? 'Task name not reported; showing its id' : '';
    return { text, cls, title };
  });
}

/** An empty row: one cell per column (the task names its row, for screen readers moving along a column). */
function rowTemplate(): HTMLTableRowElement {
  const tr = h('tr');
  for (const c of COLUMNS) {
    const cell = c.id === 'task' ? h('th', { attrs: { scope: 'row' } }) : h('td');
    cell.append(document.createTextNode(''));
    tr.append(cell);
  }
  return tr;
}
