/**
 * One row of the grid's document, kept and filled again as the grid scrolls: making every row's
 * elements anew each frame cost more than a frame (their styles, their garbage). Its cells are
 * laid out in a line (flex), not placed one by one: a positioned cell is a paint layer of its
 * own, and a screenful of them made painting the largest part of a frame. Only the row number
 * is placed (it stays in sight when the grid scrolls sideways). Every value is set as text.
 */
import type { BrowseRow } from '../protocol';

/** What a row is drawn with: the columns in sight and where the grid is scrolled to. */
export interface RowLayout {
  /** The columns in sight, left to right. */
  cols: readonly number[];
  /** Where the first of them starts (from the grid's left edge). */
  left: number;
  widths: readonly number[];
  /** The grid's horizontal scroll: the row number is drawn there. */
  x0: number;
  /** The width of a row's problem (a row that could not be read). */
  problemWidth: number;
  /** Changes whenever any of the above does. */
  key: string;
}

export interface RowMarks {
  active: { row: number; column: number };
  selection: { top: number; bottom: number; left: number; right: number };
}

export const ROW_H = 24;
export const HEAD_H = 28;
export const NUM_W = 72;
export const DEFAULT_W = 160;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const BREAK = /\r\n|[\r\n\u2028\u2029]/g;

export const cellId = (row: number, column: number): string => `cell-${row}-${column}`;

/**
 * A cell's element and what was last written to it. The grid compares with these, not with the
 * element: reading a DOM property crosses into the engine (an inline width is serialised anew on
 * each read), and a scroll writes some 300 cells a frame.
 */
interface Cell {
  readonly el: HTMLDivElement;
  /** The cell's one text node: its data is set in place (a new node needs its layout object made anew). */
  readonly text: Text;
  id: string;
  name: string;
  column: number;
  selected: boolean;
  width: string;
}

export class GridRow {
  readonly el = document.createElement('div');
  private readonly num = document.createElement('div');
  private readonly numText = document.createTextNode('');
  private numLeft = '';
  private paddingLeft = '';
  private cells: Cell[] = [];
  /** What the row was last drawn from: drawn again only when any of it changed. */
  private drawn: { place: number; row: BrowseRow | undefined; layout: string; marks: string } | undefined;

  constructor() {
    this.el.className = 'row';
    this.el.setAttribute('role', 'row');
    this.num.className = 'cell num-col';
    this.num.setAttribute('role', 'rowheader');
    this.num.setAttribute('aria-colindex', '1');
    this.num.style.width = `${NUM_W}px`;
    this.num.append(this.numText);
  }

  fill(place: number, row: BrowseRow | undefined, layout: RowLayout, marks: RowMarks): void {
    const mine = marksOf(place, layout.cols, marks);
    const d = this.drawn;
    if (d?.place === place && d.row === row && d.layout === layout.key && d.marks === mine) return;
    this.drawn = { place, row, layout: layout.key, marks: mine };
    if (d?.place !== place) {
      this.el.setAttribute('aria-rowindex', String(place + 2));
      this.el.style.transform = `translateY(${HEAD_H + place * ROW_H}px)`;
    }
    setData(this.numText, row === undefined ? '…' : String(row.n));
    const x0 = `${layout.x0}px`;
    if (this.numLeft !== x0) this.num.style.left = this.numLeft = x0;
    if (row?.problem !== undefined) return this.problem(place, row.problem, layout);
    const left = `${layout.left}px`;
    if (this.paddingLeft !== left) this.el.style.paddingLeft = this.paddingLeft = left;
    const cols = layout.cols;
    while (this.cells.length > cols.length) this.cells.pop()?.el.remove();
    while (this.cells.length < cols.length) this.cells.push(newCell());
    const { active, selection: s } = marks;
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i] as number;
      const cell = this.cells[i] as Cell;
      const value = row?.cells[c];
      // One line a row: a line break in a value is shown as ↵ (the whole value keeps it).
      const text = value === null || value === undefined ? '' : String(value).replace(BREAK, '↵');
      let name = 'cell';
      if (typeof value === 'number' || (typeof value === 'string' && NUMBER.test(value.trim()))) name += ' number';
      if (text === '') name += ' empty';
      if (place === active.row && c === active.column) name += ' active';
      const selected = place >= s.top && place <= s.bottom && c >= s.left && c <= s.right;
      if (selected) name += ' selected';
      // Each is written only when it changed: an unchanged cell costs no style or layout again.
      setData(cell.text, row?.cut?.includes(c) === true ? `${text}…` : text);
      const id = cellId(place, c);
      if (cell.id !== id) cell.el.id = cell.id = id;
      if (cell.name !== name) cell.el.className = cell.name = name;
      if (cell.column !== c) {
        cell.column = c;
        cell.el.setAttribute('aria-colindex', String(c + 2));
      }
      if (cell.selected !== selected) {
        cell.selected = selected;
        if (selected) cell.el.setAttribute('aria-selected', 'true');
        else cell.el.removeAttribute('aria-selected');
      }
      const width = `${layout.widths[c] ?? DEFAULT_W}px`;
      if (cell.width !== width) cell.el.style.width = cell.width = width;
    }
    if (this.el.childNodes.length !== cols.length + 1 || this.el.firstChild !== this.num)
      this.el.replaceChildren(this.num, ...this.cells.map((cell) => cell.el));
  }

  /** The row's problem, with its line, in place of its cells. */
  private problem(place: number, text: string, layout: RowLayout): void {
    const p = document.createElement('div');
    p.className = 'cell problem';
    p.setAttribute('role', 'gridcell');
    p.setAttribute('aria-colindex', '2');
    p.id = cellId(place, 0);
    p.textContent = text;
    p.style.width = `${layout.problemWidth}px`;
    this.el.style.paddingLeft = this.paddingLeft = `${layout.x0 + NUM_W}px`;
    this.cells = [];
    this.el.replaceChildren(this.num, p);
  }
}

function newCell(): Cell {
  const el = document.createElement('div');
  el.setAttribute('role', 'gridcell');
  const text = document.createTextNode('');
  el.append(text);
  return { el, text, id: '', name: '', column: -1, selected: false, width: '' };
}

/** The part of the focus and selection that this row's drawing depends on. */
function marksOf(place: number, cols: readonly number[], m: RowMarks): string {
  const active = place === m.active.row ? m.active.column : -1;
  const inSelection = place >= m.selection.top && place <= m.selection.bottom && cols.length > 0;
  return inSelection ? `${active}:${m.selection.left}-${m.selection.right}` : `${active}`;
}

/** A text node's data, written only when it changed. */
function setData(node: Text, text: string): void {
  if (node.data !== text) node.data = text;
}
