/**
 * A column's sort keys, from one pass over the file: each row's rank among the column's distinct
 * values (numbers as numbers, dates as dates, the rest as case-folded text), 4 bytes a row in a
 * Uint32Array, empties ranked after every value. Ranks, not the values, are what a sort keeps:
 * a later sort of the same column, in either direction, is a counting sort over them (tens of
 * milliseconds at a million rows) and no record text stays alive through them.
 */
import { type ColumnKind, dateOf, isEmpty, joinKinds, kindOf, numberOf, textKey } from './cells';
import type { RecordFile } from './recordFile';

export interface ColumnKeys {
  /** Rank of each row's cell among the distinct values, ascending; `groups` for an empty cell. */
  ranks: Uint32Array;
  /** Distinct non-empty values. */
  groups: number;
  kind: ColumnKind;
}

/** Distinct texts a column may have before its keys are sorted row by row instead (a Map of a million texts costs more than it saves). */
const MAX_GROUPED = 1 << 16;

export async function columnKeys(
  file: RecordFile,
  column: number,
  count: number,
  signal?: AbortSignal,
): Promise<ColumnKeys> {
  const numbers = await numberPass(file, column, count, signal);
  if (numbers !== undefined) return numberRanks(numbers.values, numbers.kind);
  const { keys, kind } = await textPass(file, column, count, signal);
  return textRanks(keys, kind);
}

/**
 * The column read as numbers (or dates, as milliseconds) straight into a Float64Array, no text
 * kept; undefined as soon as a cell is neither (the column is text: it is read again as such).
 */
async function numberPass(
  file: RecordFile,
  column: number,
  count: number,
  signal?: AbortSignal,
): Promise<{ values: Float64Array; kind: ColumnKind } | undefined> {
  const values = new Float64Array(count).fill(NaN);
  let kind: ColumnKind = 'empty';
  const notNumbers = new AbortController();
  try {
    await file.scanColumn(
      column,
      (at, cell) => {
        if (isEmpty(cell) || notNumbers.signal.aborted) return;
        const n = kind === 'date' ? undefined : numberOf(cell);
        const d = n === undefined ? dateOf(cell) : undefined;
        kind = joinKinds(kind, n !== undefined ? 'number' : d !== undefined ? 'date' : kindOf(cell));
        if (kind === 'number' || kind === 'date') values[at] = (n ?? d) as number;
        else notNumbers.abort();
      },
      { signal: signal === undefined ? notNumbers.signal : AbortSignal.any([signal, notNumbers.signal]), count },
    );
  } catch (error) {
    if (signal?.aborted === true || !notNumbers.signal.aborted) throw error;
  }
  return notNumbers.signal.aborted ? undefined : { values, kind };
}

/** The column's text keys (case folded, at most SORT_KEY_CHARS characters), undefined for an empty cell. */
async function textPass(
  file: RecordFile,
  column: number,
  count: number,
  signal?: AbortSignal,
): Promise<{ keys: Array<string | undefined>; kind: ColumnKind }> {
  const keys = new Array<string | undefined>(count).fill(undefined);
  let kind: ColumnKind = 'empty';
  await file.scanColumn(
    column,
    (at, cell) => {
      if (isEmpty(cell)) return;
      // Once text, always text: the kind of the rest need not be found.
      if (kind !== 'text') kind = joinKinds(kind, kindOf(cell));
      keys[at] = typeof cell === 'boolean' ? String(cell) : textKey(cell);
    },
    { signal, count },
  );
  signal?.throwIfAborted();
  return { keys, kind: (kind as ColumnKind) === 'boolean' ? 'boolean' : 'text' };
}

/** Numbers (and dates as milliseconds, NaN for an empty cell): the distinct values sorted natively, each row's rank found by halving. */
function numberRanks(values: Float64Array, kind: ColumnKind): ColumnKeys {
  const count = values.length;
  let filled = 0;
  for (let i = 0; i < count; i++) if (!Number.isNaN(values[i] as number)) filled++;
  const sorted = new Float64Array(filled);
  for (let i = 0, k = 0; i < count; i++) if (!Number.isNaN(values[i] as number)) sorted[k++] = values[i] as number;
  sorted.sort();
  // -0 and 0 are one value, as `===` says.
  let groups = 0;
  for (let i = 0; i < filled; i++)
    if (i === 0 || (sorted[i] as number) !== (sorted[groups - 1] as number)) sorted[groups++] = sorted[i] as number;
  const ranks = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const v = values[i] as number;
    if (Number.isNaN(v)) {
      ranks[i] = groups;
      continue;
    }
    let lo = 0;
    let hi = groups - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as number) < v) lo = mid + 1;
      else hi = mid;
    }
    ranks[i] = lo;
  }
  return { ranks, groups, kind };
}

/**
 * Text ranks by UTF-16 code units (as `<` compares strings). Few distinct texts (names, shops,
 * categories) are gathered in a Map and only they are sorted; many (addresses, descriptions)
 * are ranked by sorting the rows themselves, then walking the order.
 */
function textRanks(keys: Array<string | undefined>, kind: ColumnKind): ColumnKeys {
  return groupedRanks(keys, kind) ?? sortedRanks(keys, kind);
}

function groupedRanks(keys: Array<string | undefined>, kind: ColumnKind): ColumnKeys | undefined {
  const count = keys.length;
  const ids = new Uint32Array(count);
  const seen = new Map<string, number>();
  const distinct: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = keys[i];
    if (key === undefined) {
      ids[i] = 0xffffffff;
      continue;
    }
    let id = seen.get(key);
    if (id === undefined) {
      if (distinct.length === MAX_GROUPED) return undefined;
      id = distinct.length;
      distinct.push(key);
      seen.set(key, id);
    }
    ids[i] = id;
  }
  keys.length = 0;
  const groups = distinct.length;
  const byKey = Array.from({ length: groups }, (_, i) => i).sort((a, b) =>
    compareText(distinct[a] as string, distinct[b] as string),
  );
  const rankOfId = new Uint32Array(groups);
  byKey.forEach((id, rank) => (rankOfId[id] = rank));
  const ranks = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const id = ids[i] as number;
    ranks[i] = id === 0xffffffff ? groups : (rankOfId[id] as number);
  }
  return { ranks, groups, kind };
}

function sortedRanks(keys: Array<string | undefined>, kind: ColumnKind): ColumnKeys {
  const count = keys.length;
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => {
    const x = keys[a];
    const y = keys[b];
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    return compareText(x, y);
  });
  const ranks = new Uint32Array(count);
  let groups = 0;
  let last: string | undefined;
  for (let j = 0; j < count; j++) {
    const n = order[j] as number;
    const key = keys[n];
    if (key === undefined) break;
    if (groups === 0 || key !== last) {
      groups++;
      last = key;
    }
    ranks[n] = groups - 1;
  }
  for (let i = 0; i < count; i++) if (keys[i] === undefined) ranks[i] = groups;
  keys.length = 0;
  return { ranks, groups, kind };
}

const compareText = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Row numbers in order of rank, in one counting pass: stable (equal cells keep the file's order)
 * and empties last in both directions.
 */
export function orderByRanks(keys: ColumnKeys, direction: 'asc' | 'desc'): Uint32Array {
  const { ranks, groups } = keys;
  const count = ranks.length;
  const slot = (rank: number): number => (rank === groups || direction === 'asc' ? rank : groups - 1 - rank);
  const starts = new Uint32Array(groups + 2);
  for (let i = 0; i < count; i++) {
    const s = slot(ranks[i] as number) + 1;
    starts[s] = (starts[s] as number) + 1;
  }
  for (let g = 1; g <= groups + 1; g++) starts[g] = (starts[g] as number) + (starts[g - 1] as number);
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const s = slot(ranks[i] as number);
    const at = starts[s] as number;
    order[at] = i;
    starts[s] = at + 1;
  }
  return order;
}
