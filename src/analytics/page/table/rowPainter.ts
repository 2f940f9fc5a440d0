/**
 * The table's body rows, pooled: a re-sort or a scroll changes the text of cells that already
 * have their style and layout objects, instead of parsing and attaching new ones. A record's
 * cells as shown never change, so they are formatted once and kept.
 */
import { DASH, type DayRange } from '../../model/format';
import { COLUMNS, formatCell } from '../../model/tableModel';
import type { AnalyticsRecord } from '../../protocol/wire';
import { h } from '../common/dom';
import { t } from '../common/l10n';

/** One cell as shown: its text, class and tooltip ('' for none). */
interface CellView {
  text: string;
  cls: string;
  title: string;
}
type RowView = CellView[];

export class RowPainter {
  private readonly pool: HTMLTableRowElement[] = [];
  /** What each pooled row shows now (undefined: blank). */
  private readonly painted: (RowView | undefined)[] = [];
  private views = new WeakMap<AnalyticsRecord, RowView>();
  private readonly template = rowTemplate();
  /** The query's days: the bucket column's label says which of them a row covers. */
  private range: DayRange | undefined;

  /** The days of the query whose rows are painted next; rows of another query are formatted again. Returns whether they changed. */
  setRange(range: DayRange | undefined): boolean {
    if (range?.start === this.range?.start && range?.end === this.range?.end) return false;
    this.range = range === undefined ? undefined : { start: range.start, end: range.end };
    this.views = new WeakMap();
    return true;
  }

  /** The first `n` pooled rows (made as needed). */
  rows(n: number): HTMLTableRowElement[] {
    while (this.pool.length < n) this.pool.push(this.template.cloneNode(true) as HTMLTableRowElement);
    return this.pool.slice(0, n);
  }

  /** Puts `record` into pooled row i, touching only the cells whose text, class or title differ. */
  paint(i: number, record: AnalyticsRecord): void {
    const view = this.viewOf(record);
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

  private viewOf(record: AnalyticsRecord): RowView {
    let view = this.views.get(record);
    if (view === undefined) {
      view = rowView(record, this.range);
      this.views.set(record, view);
    }
    return view;
  }
}

function rowView(r: AnalyticsRecord, range: DayRange | undefined): RowView {
  return COLUMNS.map((c) => {
    const text = formatCell(c, r, range);
    const idOnly = c.id === 'task' && r.taskName === null;
    const cls = (c.kind === 'text' ? 'text' : 'num') + (text === DASH ? ' null' : '') + (idOnly ? ' id-only' : '');
    const title = text === DASH ? t('table.notReported') : idOnly ? t('table.idOnly') : '';
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
