/**
 * The SQL of the data browser's read session (`sqliteReader.ts`): a cell as the grid shows it,
 * empty cells, the search and column conditions as a WHERE clause, and a column's sort key by its
 * kind. The kinds follow the browser's file store (`data/browse/store/cells.ts`, which this room
 * may not import): numbers as numbers (also text that is one), ISO dates as dates, the rest as
 * case-folded text; empties last. Values are always bound, names always quoted. No `vscode`.
 */
import type { WasmDatabase } from './sqliteRuntime';

export type ReadKind = 'empty' | 'number' | 'date' | 'text';
export type ReadOp = 'contains' | 'equals' | 'empty' | 'notEmpty';

export interface ReadFilter {
  search?: string;
  conditions?: ReadonlyArray<{ column: number; op: ReadOp; value?: string }>;
}

export const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return NUMBER.test(text) ? Number(text) : null;
}

export function dateOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!DATE.test(text)) return null;
  const ms = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
  return Number.isNaN(ms) ? null : ms;
}

/** The functions the queries below call: the kind of a text cell, and its number or date. */
export function addReadFunctions(db: WasmDatabase): void {
  db.function('sd_num', (v: unknown) => numberOf(v), { deterministic: true });
  db.function('sd_date', (v: unknown) => dateOf(v), { deterministic: true });
  db.function('sd_kind', (v: unknown) => (numberOf(v) !== null ? 'number' : dateOf(v) !== null ? 'date' : 'text'), {
    deterministic: true,
  });
}

/** True (1) for an empty cell: NULL, or text of only white space. */
export const emptyOf = (c: string): string =>
  `(${c} IS NULL OR (typeof(${c}) = 'text' AND trim(${c}, ' ' || char(9, 10, 11, 12, 13)) = ''))`;

/** The cell as text (a blob said, not shown), for search, conditions and the profile. */
export const textOf = (c: string): string =>
  `(CASE typeof(${c}) WHEN 'blob' THEN '(binary, ' || length(${c}) || ' bytes)' ELSE CAST(${c} AS TEXT) END)`;

/** The cell as the grid shows it; text cut to `cut` characters when given (the page asks for the rest). */
export const shownOf = (c: string, cut?: number): string =>
  `(CASE typeof(${c}) WHEN 'blob' THEN '(binary, ' || length(${c}) || ' bytes)'${cut !== undefined ? ` WHEN 'text' THEN substr(${c}, 1, ${Math.floor(cut)})` : ''} ELSE ${c} END)`;

/** `LIKE` with the term's own % _ and \ taken literally (LIKE folds ASCII letters only). */
const likeOf = (term: string): string => `%${term.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** The WHERE clause of a filter (`1` for none) and its bound values. */
export function whereOf(filter: ReadFilter | undefined, columns: readonly string[]): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  const term = (filter?.search ?? '').trim();
  if (term !== '' && columns.length > 0) {
    parts.push(`(${columns.map((name) => `${textOf(quoteName(name))} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
    for (let i = 0; i < columns.length; i++) params.push(likeOf(term));
  }
  for (const c of filter?.conditions ?? []) {
    const name = columns[c.column];
    if (name === undefined) continue;
    const col = quoteName(name);
    if (c.op === 'empty') parts.push(emptyOf(col));
    else if (c.op === 'notEmpty') parts.push(`NOT ${emptyOf(col)}`);
    else if (c.op === 'equals') {
      parts.push(`(NOT ${emptyOf(col)} AND lower(trim(${textOf(col)})) = lower(trim(?)))`);
      params.push(c.value ?? '');
    } else {
      parts.push(`coalesce(${textOf(col)}, '') LIKE ? ESCAPE '\\'`);
      params.push(likeOf(c.value ?? ''));
    }
  }
  return { sql: parts.length === 0 ? '1' : parts.join(' AND '), params };
}

/** A column's kind over the rows a filter passes: one kind throughout (empties aside), else text. `c` is the column, quoted. */
export function kindOfColumn(
  db: WasmDatabase,
  from: string,
  c: string,
  where: { sql: string; params: string[] },
): ReadKind {
  const filled = `(${where.sql}) AND NOT ${emptyOf(c)}`;
  // A column SQLite holds as numbers only (a pull's, an export's) is told in one pass, stopping at nothing.
  if (
    !db.get(
      `SELECT 1 AS x FROM ${from} WHERE ${filled} AND typeof(${c}) NOT IN ('integer', 'real') LIMIT 1`,
      where.params,
    )
  ) {
    return db.get(`SELECT 1 AS x FROM ${from} WHERE ${filled} LIMIT 1`, where.params) ? 'number' : 'empty';
  }
  const textual = `typeof(${c}) NOT IN ('integer', 'real') AND sd_kind(${c}) = 'text'`;
  // A text column is told by its first text cell; only a column without one is read whole.
  if (
    db.get(`SELECT 1 AS x FROM ${from} WHERE (${where.sql}) AND NOT ${emptyOf(c)} AND ${textual} LIMIT 1`, where.params)
  )
    return 'text';
  const seen = db.get(
    `SELECT max(k = 'number') AS num, max(k = 'date') AS day FROM (SELECT CASE WHEN typeof(${c}) IN ('integer', 'real') THEN 'number' ELSE sd_kind(${c}) END AS k FROM ${from} WHERE (${where.sql}) AND NOT ${emptyOf(c)})`,
    where.params,
  );
  const num = seen?.num === 1;
  const day = seen?.day === 1;
  return num && day ? 'text' : num ? 'number' : day ? 'date' : 'empty';
}

/** The sort key of a column of that kind (NULL for an empty cell); `c` is the column, quoted. */
export function keyOf(c: string, kind: ReadKind): string {
  if (kind === 'number') return `(CASE WHEN typeof(${c}) IN ('integer', 'real') THEN ${c} ELSE sd_num(${c}) END)`;
  if (kind === 'date') return `sd_date(${c})`;
  return `lower(${textOf(c)})`;
}
