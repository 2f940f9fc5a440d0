/**
 * What one cell of the browser holds, and how a column's cells read as a kind: numbers as
 * numbers, dates as dates, the rest as text. Pure; used by sorting, filtering and the profile.
 */
export type Cell = string | number | boolean | null;
export type ColumnKind = 'empty' | 'number' | 'date' | 'boolean' | 'text';

/** Longest text a sort key keeps (a fresh string, so no record text is kept alive through it). */
export const SORT_KEY_CHARS = 64;

export const isEmpty = (cell: Cell | undefined): boolean =>
  cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** ISO dates and date-times (what the service and the writers write); other text is not taken for a date. */
const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The number a cell is, or undefined. */
export function numberOf(cell: Cell): number | undefined {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : undefined;
  if (typeof cell !== 'string') return undefined;
  const text = cell.trim();
  return NUMBER.test(text) ? Number(text) : undefined;
}

/** Milliseconds since 1970 of a cell that is an ISO date, or undefined. */
export function dateOf(cell: Cell): number | undefined {
  if (typeof cell !== 'string') return undefined;
  const text = cell.trim();
  if (!DATE.test(text)) return undefined;
  const ms = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
  return Number.isNaN(ms) ? undefined : ms;
}

/** The kind of one cell (an empty cell has none of its own). */
export function kindOf(cell: Cell): ColumnKind {
  if (isEmpty(cell)) return 'empty';
  if (typeof cell === 'boolean') return 'boolean';
  if (numberOf(cell) !== undefined) return 'number';
  if (dateOf(cell) !== undefined) return 'date';
  return 'text';
}

/** A column's kind from its cells' kinds: one kind throughout (empties aside), else text. */
export function joinKinds(a: ColumnKind, b: ColumnKind): ColumnKind {
  if (a === 'empty') return b;
  if (b === 'empty' || a === b) return a;
  return 'text';
}

/** The cell as the page and the clipboard show it. */
export function cellText(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  return typeof cell === 'string' ? cell : String(cell);
}

/** A text sort key: case folded, at most SORT_KEY_CHARS characters, never a slice of a longer string. */
export function textKey(cell: Cell): string {
  const text = cellText(cell).toLowerCase();
  return text.length <= SORT_KEY_CHARS ? text : Buffer.from(text.slice(0, SORT_KEY_CHARS), 'utf8').toString('utf8');
}

/** A value of a JSON row as a cell: nested objects and arrays as their JSON text. */
export function cellOfJson(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  return JSON.stringify(value);
}
