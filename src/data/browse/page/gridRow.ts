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

export class GridRow {
  readonly el = document.createElement('div');
  private readonly num = document.createElement('div');
  private cells: HTMLDivElement[] = [];
  /** What the row was last drawn from: drawn again only when any of it changed. */
  private drawn: { place: number; row: BrowseRow | undefined; layout: string; marks: string } | undefined;

  constructor() {
    this.el.className = 'row';
    this.el.setAttribute('role', 'row');
    this.num.className = 'cell num-col';
    this.num.setAttribute('role', 'rowheader');
    this.num.setAttribute('aria-colindex', '1');
    this.num.style.width = `${NUM_W}px`;
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
    setText(this.num, row === undefined ? '…' : String(row.n));
    const x0 = `${layout.x0}px`;
    if (this.num.style.left !== x0) this.num.style.left = x0;
    if (row?.problem !== undefined) return this.problem(place, row.problem, layout);
    const left = `${layout.left}px`;
    if (this.el.style.paddingLeft !== left) this.el.style.paddingLeft = left;
    const cols = layout.cols;
    while (this.cells.length > cols.length) this.cells.pop()?.remove();
    while (this.cells.length < cols.length) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      this.cells.push(cell);
    }
    const { active, selection: s } = marks;
    cols.forEach((c, i) => {
      const cell = this.cells[i] as HTMLDivElement;
      const value = row?.cells[c];
      // One line a row: a line break in a value is shown as ↵ (the whole value keeps it).
      const text = value === null || value === undefined ? '' : String(value).replace(BREAK, '↵');
      let name = 'cell';
      if (typeof value === 'number' || (typeof value === 'string' && NUMBER.test(value.trim()))) name += ' number';
      if (text === '') name += ' empty';
      if (place === active.row && c === active.column) name += ' active';
      const selected = place >= s.top && place <= s.bottom && c >= s.left && c <= s.right;
      if (selected) name += ' selected';
      // Each is set only when it changed: an unchanged cell costs no style or layout again.
      setText(cell, row?.cut?.includes(c) === true ? `${text}…` : text);
      const id = cellId(place, c);
      if (cell.id !== id) cell.id = id;
      if (cell.className !== name) cell.className = name;
      if (cell.ariaColIndex !== String(c + 2)) cell.setAttribute('aria-colindex', String(c + 2));
      if (selected !== (cell.ariaSelected === 'true'))
        if (selected) cell.setAttribute('aria-selected', 'true');
        else cell.removeAttribute('aria-selected');
      const width = `${layout.widths[c] ?? DEFAULT_W}px`;
      if (cell.style.width !== width) cell.style.width = width;
    });
    if (this.el.childNodes.length !== cols.length + 1 || this.el.firstChild !== this.num)
      this.el.replaceChildren(this.num, ...this.cells);
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
    this.el.style.paddingLeft = `${layout.x0 + NUM_W}px`;
    this.cells = [];
    this.el.replaceChildren(this.num, p);
  }
}

/** The part of the focus and selection that this row's drawing depends on. */
function marksOf(place: number, cols: readonly number[], m: RowMarks): string {
  const active = place === m.active.row ? m.active.column : -1;
  const inSelection = place >= m.selection.top && place <= m.selection.bottom && cols.length > 0;
  return inSelection ? `${active}:${m.selection.left}-${m.selection.right}` : `${active}`;
}

/** The cell's text, in the text node it has (a new node would need its style and layout object made anew). */
function setText(cell: HTMLElement, text: string): void {
  const node = cell.firstChild;
  if (node !== null && node === cell.lastChild && node.nodeType === Node.TEXT_NODE) {
    if ((node as Text).data !== text) (node as Text).data = text;
  } else cell.textContent = text;
}
