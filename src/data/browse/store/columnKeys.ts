/**
 * A column's sort keys, from one pass over the file: each row's rank among the column's distinct
 * values (numbers as numbers, dates as dates, the rest as case-folded text), 4 bytes a row in a
 * Uint32Array, empties ranked after every value. Ranks, not the values, are what a sort keeps:
 * a later sort of the same column, in either direction, is a counting sort over them (tens of
 * milliseconds at a million rows) and no record text stays alive through them. The ranks come
 * from radix sorts (numberRanks.ts, textRanks.ts), and a CSV's usual cells are read from their
 * bytes, with no string a cell.
 */
import { dateAt, numberAt } from './cellBytes';
import { type Cell, type ColumnKind, dateOf, isEmpty, joinKinds, kindOf, numberOf } from './cells';
import type { ColumnKeys } from './keyRanks';
import { numberRanks } from './numberRanks';
import type { RecordFile } from './recordFile';
import { TextKeys, textRanks } from './textRanks';

export type { ColumnKeys } from './keyRanks';

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
 * kept (a CSV's usual numbers and dates not even decoded: cellBytes.ts); undefined as soon as
 * a cell is neither (the column is text: it is read again as such).
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
  const each = (at: number, cell: Cell): void => {
    if (isEmpty(cell) || notNumbers.signal.aborted) return;
    const n = kind === 'date' ? undefined : numberOf(cell);
    const d = n === undefined ? dateOf(cell) : undefined;
    kind = joinKinds(kind, n !== undefined ? 'number' : d !== undefined ? 'date' : kindOf(cell));
    if (kind === 'number' || kind === 'date') values[at] = (n ?? d) as number;
    else notNumbers.abort();
  };
  const bytes = (at: number, buf: Buffer, start: number, end: number): void => {
    if (start === end || notNumbers.signal.aborted) return;
    const n = kind === 'date' ? undefined : numberAt(buf, start, end);
    const d = n === undefined ? dateAt(buf, start, end) : undefined;
    if (n === undefined && d === undefined) return each(at, buf.toString('utf8', start, end));
    kind = joinKinds(kind, n !== undefined ? 'number' : 'date');
    if (kind === 'number' || kind === 'date') values[at] = (n ?? d) as number;
    else notNumbers.abort();
  };
  try {
    await file.scanColumn(column, each, {
      signal: signal === undefined ? notNumbers.signal : AbortSignal.any([signal, notNumbers.signal]),
      count,
      bytes,
    });
  } catch (error) {
    if (signal?.aborted === true || !notNumbers.signal.aborted) throw error;
  }
  return notNumbers.signal.aborted ? undefined : { values, kind };
}

/** The column's text keys (case folded, at most SORT_KEY_CHARS characters, as bytes: textRanks.ts); an empty cell has none. */
async function textPass(
  file: RecordFile,
  column: number,
  count: number,
  signal?: AbortSignal,
): Promise<{ keys: TextKeys; kind: ColumnKind }> {
  const keys = new TextKeys(count);
  // Booleans (of JSON rows) sort as booleans only when every cell is one.
  let booleans = 0;
  let others = 0;
  await file.scanColumn(
    column,
    (at, cell) => {
      if (isEmpty(cell)) return;
      if (typeof cell === 'boolean') booleans++;
      else others++;
      keys.setText(at, cell);
    },
    {
      signal,
      count,
      bytes: (at, buf, start, end) => {
        if (start === end) return;
        others++;
        if (!keys.setAscii(at, buf, start, end)) keys.setText(at, buf.toString('utf8', start, end));
      },
    },
  );
  signal?.throwIfAborted();
  return { keys, kind: booleans > 0 && others === 0 ? 'boolean' : 'text' };
}

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
