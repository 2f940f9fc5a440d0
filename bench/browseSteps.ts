/**
 * The timed store steps both data-browser benches judge (the CSV store and the SQLite table):
 * one helper so their rows are measured and checked alike.
 */
import { measureCase } from './judge';
import type { BenchRow } from './types';

/** One step: its time judged against `target` seconds; MISSED when it throws or `check` refuses its result. */
export function timedStep(
  name: string,
  target: number,
  work: () => Promise<number>,
  check: (n: number) => boolean,
): Promise<BenchRow[]> {
  return measureCase(name, async () => {
    const started = performance.now();
    const n = await work();
    const ms = performance.now() - started;
    if (!check(n)) throw new Error(`unexpected result ${n}`);
    return [{ name, value: `${(ms / 1000).toFixed(2)} s`, target: `≤ ${target} s`, pass: ms <= target * 1000 }];
  });
}

type ViewChange = { sort: { column: number; direction: 'asc' | 'desc' } } | { filter: { search: string } };

/**
 * The bench table's text sort (column 1), number sort (column 2) and search ("mango", in about a
 * tenth of the rows), one after another, each under its own row name.
 */
export async function viewSteps(
  names: { text: string; number: string; search: string },
  rows: number,
  setView: (view: ViewChange) => Promise<number>,
): Promise<BenchRow[]> {
  const all = (n: number) => n === rows;
  return [
    ...(await timedStep(names.text, 2, () => setView({ sort: { column: 1, direction: 'asc' } }), all)),
    ...(await timedStep(names.number, 2, () => setView({ sort: { column: 2, direction: 'desc' } }), all)),
    ...(await timedStep(
      names.search,
      1,
      () => setView({ filter: { search: 'mango' } }),
      (n) => n > 50_000 && n < 150_000,
    )),
  ];
}
