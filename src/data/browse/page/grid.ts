/**
 * The virtualised grid: only the rows and columns in sight are in the document (a task can have
 * 60 fields and a file a million rows). A sticky header, a row-number column, resizable columns,
 * numbers right-aligned, long text cut. Every cell's text is set as text (never HTML). To a
 * screen reader it is a grid with its row and column counts; the focused cell is the grid's
 * active descendant, moved by the keyboard.
 */
import type { BrowseRow } from '../protocol';
import { cellId, DEFAULT_W, GridRow, HEAD_H, NUM_W, ROW_H, type RowLayout, type RowMarks } from './gridRow';
import { t } from './words';

export { ROW_H } from './gridRow';
const MIN_W = 40;
/** Rows kept out of the document for the next frames to fill (a screenful is about 40). */
const SPARE_ROWS = 200;

export interface GridCallbacks {
  row(place: number): BrowseRow | undefined;
  want(first: number, last: number): void;
  sort(column: number): void;
  sortState(column: number): 'ascending' | 'descending' | 'none';
  focusMoved(): void;
  resized(): void;
}

export class Grid {
  readonly scroller: HTMLDivElement;
  private readonly canvas: HTMLDivElement;
  private readonly head: HTMLDivElement;
  private readonly body: HTMLDivElement;
  columns: string[] = [];
  widths: number[] = [];
  shown = 0;
  /** The focused cell: a place in the view and a column. */
  active = { row: 0, column: 0 };
  /** Where a Shift selection started. */
  anchor = { row: 0, column: 0 };
  private frame = 0;
  /** The rows in the document, by their place in the view. */
  private rows = new Map<number, GridRow>();
  private readonly spare: GridRow[] = [];
  /** What the header and the canvas were last drawn from (they are drawn again only when it changes). */
  private drawnHead = '';
  private drawnSize = '';
  private descendant: string | undefined;

  constructor(
    parent: HTMLElement,
    private readonly cb: GridCallbacks,
  ) {
    this.scroller = el('div', 'grid');
    this.scroller.setAttribute('role', 'grid');
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('aria-label', t('grid.rows'));
    this.canvas = el('div', 'canvas');
    this.canvas.setAttribute('role', 'presentation');
    this.head = el('div', 'head');
    this.head.setAttribute('role', 'row');
    this.head.setAttribute('aria-rowindex', '1');
    this.body = el('div', 'body');
    this.body.setAttribute('role', 'presentation');
    this.canvas.append(this.head, this.body);
    this.scroller.append(this.canvas);
    parent.append(this.scroller);
    this.scroller.addEventListener('scroll', () => this.schedule());
    window.addEventListener('resize', () => this.schedule());
  }

  setColumns(columns: string[], widths?: readonly number[]): void {
    const old = new Map(this.columns.map((c, i) => [c, this.widths[i] ?? DEFAULT_W]));
    this.columns = columns;
    this.widths = columns.map((c, i) => widths?.[i] ?? old.get(c) ?? DEFAULT_W);
    this.schedule();
  }

  setShown(shown: number): void {
    this.shown = shown;
    this.active.row = Math.min(this.active.row, Math.max(0, shown - 1));
    this.schedule();
  }

  schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private left(column: number): number {
    let x = NUM_W;
    for (let c = 0; c < column; c++) x += this.widths[c] ?? DEFAULT_W;
    return x;
  }

  render(): void {
    const total = this.left(this.columns.length);
    const size = `${total} ${this.shown} ${this.columns.length}`;
    if (size !== this.drawnSize) {
      this.drawnSize = size;
      this.canvas.style.width = `${total}px`;
      this.canvas.style.height = `${HEAD_H + this.shown * ROW_H}px`;
      this.scroller.setAttribute('aria-rowcount', String(this.shown + 1));
      this.scroller.setAttribute('aria-colcount', String(this.columns.length + 1));
    }
    const top = this.scroller.scrollTop;
    const height = this.scroller.clientHeight || 400;
    const first = Math.max(0, Math.floor(top / ROW_H) - 2);
    const last = Math.min(this.shown - 1, Math.ceil((top + height) / ROW_H) + 2);
    const x0 = this.scroller.scrollLeft;
    const x1 = x0 + (this.scroller.clientWidth || 800);
    const cols: number[] = [];
    let start = NUM_W;
    for (let c = 0, x = NUM_W; c < this.columns.length; x += this.widths[c] ?? DEFAULT_W, c++) {
      if (x + (this.widths[c] ?? DEFAULT_W) >= x0 + NUM_W && x <= x1) {
        if (cols.length === 0) start = x;
        cols.push(c);
      }
    }
    if (this.shown > 0) this.cb.want(first, last);
    const head = `${x0} ${cols.join(',')} ${cols.map((c) => `${this.widths[c]}${this.cb.sortState(c)}`).join(',')} ${this.columns.join('\u0000')}`;
    if (head !== this.drawnHead) {
      this.drawnHead = head;
      this.head.replaceChildren(this.numberHead(x0), ...cols.map((c) => this.headCell(c)));
    }
    const layout: RowLayout = {
      cols,
      left: start,
      widths: this.widths,
      x0,
      problemWidth: Math.max(200, (this.scroller.clientWidth || 800) - NUM_W),
      key: `${x0} ${start} ${cols.join(',')} ${cols.map((c) => this.widths[c]).join(',')} ${this.scroller.clientWidth}`,
    };
    this.drawRows(first, last, layout);
    // Written when it changes alone: every id it names is watched while it is set.
    const descendant = this.shown > 0 ? cellId(this.active.row, this.active.column) : '';
    if (descendant !== this.descendant)
      this.scroller.setAttribute('aria-activedescendant', (this.descendant = descendant));
  }

  /**
   * The rows first..last, each drawn by an element kept from the last frame where it can be: a
   * row still in sight keeps its own (nothing to draw again), one that left is filled with a new
   * row. The document keeps the rows in their order.
   */
  private drawRows(first: number, last: number, layout: RowLayout): void {
    const marks = { active: this.active, selection: this.selection() };
    const kept = new Map<number, GridRow>();
    for (const [place, row] of this.rows) if (place >= first && place <= last) kept.set(place, row);
    if (kept.size === 0) return this.refillInPlace(first, last, layout, marks);
    for (const [place, row] of this.rows)
      if (!kept.has(place)) {
        row.el.remove();
        if (this.spare.length < SPARE_ROWS) this.spare.push(row);
      }
    // By place, as the document has them: refillInPlace() relies on that order.
    const rows = new Map<number, GridRow>();
    let at: ChildNode | null = this.body.firstChild;
    for (let place = first; place <= last; place++) {
      const row = kept.get(place) ?? this.spare.pop() ?? new GridRow();
      rows.set(place, row);
      row.fill(place, this.cb.row(place), layout, marks);
      if (at === row.el) at = at.nextSibling;
      else this.body.insertBefore(row.el, at);
    }
    this.rows = rows;
  }

  /**
   * A jump past every row in sight (a drag of the scroll bar): the rows in the document, in
   * their order, are filled with the new places where they stand. Taken out and put back, each
   * had its style and layout objects made anew: most of such a frame's style and layout time.
   */
  private refillInPlace(first: number, last: number, layout: RowLayout, marks: RowMarks): void {
    const rows = new Map<number, GridRow>();
    for (const row of this.rows.values())
      if (first + rows.size <= last) rows.set(first + rows.size, row);
      else {
        row.el.remove();
        if (this.spare.length < SPARE_ROWS) this.spare.push(row);
      }
    for (let place = first + rows.size; place <= last; place++) {
      const row = this.spare.pop() ?? new GridRow();
      rows.set(place, row);
      this.body.append(row.el); // the body holds the rows alone, in order
    }
    for (const [place, row] of rows) row.fill(place, this.cb.row(place), layout, marks);
    this.rows = rows;
  }

  private numberHead(x0: number): HTMLElement {
    const cell = el('div', 'cell num-col');
    cell.setAttribute('role', 'columnheader');
    cell.setAttribute('aria-colindex', '1');
    cell.textContent = '#';
    place(cell, x0, NUM_W);
    return cell;
  }

  private headCell(c: number): HTMLElement {
    const cell = el('div', 'cell');
    cell.setAttribute('role', 'columnheader');
    cell.setAttribute('aria-colindex', String(c + 2));
    cell.setAttribute('aria-sort', this.cb.sortState(c));
    const button = el('button', 'sort');
    button.type = 'button';
    button.tabIndex = -1;
    const state = this.cb.sortState(c);
    button.textContent = `${this.columns[c] ?? ''}${state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ''}`;
    button.title = t('grid.sortBy', this.columns[c] ?? '');
    button.addEventListener('click', () => this.cb.sort(c));
    const grip = el('div', 'grip');
    grip.setAttribute('aria-hidden', 'true');
    grip.addEventListener('pointerdown', (e) => this.resize(c, e));
    cell.append(button, grip);
    place(cell, this.left(c), this.widths[c] ?? DEFAULT_W);
    return cell;
  }

  private resize(c: number, start: PointerEvent): void {
    start.preventDefault();
    const from = this.widths[c] ?? DEFAULT_W;
    const move = (e: PointerEvent): void => {
      this.widths[c] = Math.min(4000, Math.max(MIN_W, from + e.clientX - start.clientX));
      this.schedule();
    };
    const up = (): void => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      this.cb.resized();
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  }

  /** The block between the anchor and the focused cell. */
  selection(): { top: number; bottom: number; left: number; right: number } {
    return {
      top: Math.min(this.anchor.row, this.active.row),
      bottom: Math.max(this.anchor.row, this.active.row),
      left: Math.min(this.anchor.column, this.active.column),
      right: Math.max(this.anchor.column, this.active.column),
    };
  }

  /** Moves the focus (arrows, Page Up/Down, Home/End); Shift extends the selection. Returns false for other keys. */
  key(e: KeyboardEvent): boolean {
    const page = Math.max(1, Math.floor((this.scroller.clientHeight || 400) / ROW_H) - 1);
    const { row, column } = this.active;
    const last = { row: Math.max(0, this.shown - 1), column: Math.max(0, this.columns.length - 1) };
    const ctrl = e.ctrlKey || e.metaKey;
    const to: Record<string, [number, number]> = {
      ArrowUp: [row - 1, column],
      ArrowDown: [row + 1, column],
      ArrowLeft: [row, column - 1],
      ArrowRight: [row, column + 1],
      PageUp: [row - page, column],
      PageDown: [row + page, column],
      Home: ctrl ? [0, 0] : [row, 0],
      End: ctrl ? [last.row, last.column] : [row, last.column],
    };
    const next = to[e.key];
    if (next === undefined) return false;
    this.focusCell(next[0], next[1], e.shiftKey);
    return true;
  }

  focusCell(row: number, column: number, extend = false): void {
    this.active = {
      row: clamp(row, 0, Math.max(0, this.shown - 1)),
      column: clamp(column, 0, Math.max(0, this.columns.length - 1)),
    };
    if (!extend) this.anchor = { ...this.active };
    const top = this.active.row * ROW_H;
    const height = (this.scroller.clientHeight || 400) - HEAD_H;
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
    else if (top + ROW_H > this.scroller.scrollTop + height) this.scroller.scrollTop = top + ROW_H - height;
    const x = this.left(this.active.column) - NUM_W;
    const w = this.widths[this.active.column] ?? DEFAULT_W;
    const width = (this.scroller.clientWidth || 800) - NUM_W;
    if (x < this.scroller.scrollLeft) this.scroller.scrollLeft = x;
    else if (x + w > this.scroller.scrollLeft + width) this.scroller.scrollLeft = x + w - width;
    this.render();
    this.cb.focusMoved();
  }
}

const clamp = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, n));

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

function place(cell: HTMLElement, left: number, width: number): void {
  cell.style.left = `${left}px`;
  cell.style.width = `${width}px`;
}
