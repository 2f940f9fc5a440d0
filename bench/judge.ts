/**
 * How a bench row is judged, shared by every section: a row's pass comes from what was measured,
 * after every check of its case, and a case that could not be measured is a MISSED row (never a
 * note, never a missing row). Nothing here measures; it only turns figures into rows.
 */
import type { BenchRow } from './types';

/** The figure of a case that could not run: always MISSED, with the reason in its value. */
export function missed(name: string, reason: string): BenchRow {
  return { name, value: `not measured: ${reason}`, target: 'measured', pass: false };
}

/** The first line of an error, for a row. */
export function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}

/**
 * Runs one case and returns its rows; a case that throws gives one MISSED row under `name`
 * instead (its figures, if any were pushed, are dropped: they were not all checked).
 */
export async function measureCase(name: string, measure: () => Promise<BenchRow[]>): Promise<BenchRow[]> {
  try {
    const rows = await measure();
    return rows.length > 0 ? rows : [missed(name, 'the case produced no figure')];
  } catch (error) {
    return [missed(name, reasonOf(error))];
  }
}

/**
 * The largest sample, only when all `expected` samples are there and each is a finite number;
 * undefined otherwise (an empty or short list must not read as "0 ms" or "-Infinity MB").
 */
export function worstOf(samples: readonly number[], expected: number): number | undefined {
  if (expected <= 0 || samples.length !== expected || !samples.every(Number.isFinite)) return undefined;
  return Math.max(...samples);
}

/** The median of samples; undefined when there is none or one is not a finite number. */
export function medianOf(samples: readonly number[]): number | undefined {
  if (samples.length === 0 || !samples.every(Number.isFinite)) return undefined;
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * A row judged against an upper bound: MISSED when the figure is missing, and when any of the
 * case's other checks (`problems`: what went wrong besides the figure) failed.
 */
export function boundRow(
  name: string,
  figure: number | undefined,
  bound: number,
  format: (x: number) => string,
  options: { against?: string; target?: string; problems?: readonly string[] } = {},
): BenchRow {
  if (figure === undefined) return missed(name, options.problems?.join('; ') || 'no sample');
  const problems = options.problems ?? [];
  return {
    name,
    value: problems.length > 0 ? `${format(figure)} (${problems.join('; ')})` : format(figure),
    against: options.against ?? `bound ${format(bound)}`,
    ratio: figure / bound,
    target: options.target ?? '≤ 1.00 x',
    pass: problems.length === 0 && figure <= bound,
  };
}

/**
 * A "0 x 429" row: met only when requests reached the server and none was refused. Nothing sent
 * is nothing measured (no 429 could have been answered), so it is MISSED, not a clean zero.
 * `sent`: requests the server counted over the same span as `limited`.
 */
export function no429Row(
  name: string,
  limited: number,
  sent: number,
  options: { against?: string; problems?: readonly string[] } = {},
): BenchRow {
  if (!Number.isFinite(sent) || sent <= 0)
    return missed(name, 'no request reached the server, so no 429 could be counted');
  if (!Number.isFinite(limited) || limited < 0) return missed(name, `the 429 count is not a count (${limited})`);
  const problems = options.problems ?? [];
  return {
    name,
    value: `${limited} x 429${problems.length > 0 ? ` (${problems.join('; ')})` : ''}`,
    against: options.against ?? `${sent} requests at the server`,
    target: '0',
    pass: problems.length === 0 && limited === 0,
  };
}
