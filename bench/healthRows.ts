/**
 * How the health section's rows are judged (bench/health.bench.ts measures): each pass comes after
 * every check of its case, so a refresh that covered fewer tasks, or a decorating run that
 * decorated nothing, does not read as fast.
 */
import { loadavg } from 'node:os';

import { medianOf, missed, no429Row } from './judge';
import type { BenchRow } from './types';

export const RATE = 20;
export const TASKS = 1_000;
export const MAX_REQUESTS = 20;
export const DECORATE_MS = 50;

const median = (xs: number[]): number => medianOf(xs) ?? Number.NaN;
const spread = (xs: number[], format: (x: number) => string): string =>
  `${format(Math.min(...xs))} – ${format(Math.max(...xs))}`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const millis = (ms: number): string => `${ms.toFixed(1)} ms`;

/** What one fixture's refreshes observed: requests and 429s counted at the sandbox, times, and what went wrong. */
export interface RefreshFigures {
  label: string;
  runs: number;
  /** Analytics requests at the server, per first refresh of a day. */
  firstCounts: number[];
  /** The same for the later refresh of each run. */
  againCounts: number[];
  walls: number[];
  /** 429s the sandbox answered over every refresh. */
  limited: number;
  /** Requests the sandbox answered over every refresh (the 429s' denominator: none sent is none measured). */
  sent: number;
  currentRecords: number;
  previousRecords: number;
  /** A refresh that failed, or left tasks without health: every row of the fixture is MISSED. */
  problems: string[];
}

/**
 * The fixture's rows. Each pass is computed after every check of the case: a refresh that failed
 * or covered fewer tasks sent fewer requests and took less time, which must not read as met.
 */
export function refreshRows(f: RefreshFigures): BenchRow[] {
  const n = TASKS.toLocaleString('en');
  const name = `health for ${n} tasks, ${f.label}: first refresh of a day, analytics requests`;
  const complete = f.firstCounts.length === f.runs && f.againCounts.length === f.runs && f.walls.length === f.runs;
  if (!complete)
    return [
      missed(
        name,
        `${f.firstCounts.length} of ${f.runs} runs measured${f.problems.length ? `; ${f.problems.join('; ')}` : ''}`,
      ),
    ];
  const ok = f.problems.length === 0;
  const why = ok ? '' : ` (${f.problems.join('; ')})`;
  const floorFirst = Math.ceil(f.currentRecords / 100) + Math.ceil(f.previousRecords / 100);
  const most = Math.max(...f.firstCounts);
  const later = Math.max(...f.againCounts);
  const ratios = f.walls.map((w, i) => w / (((f.firstCounts[i] as number) / RATE) * 1000));
  const ratio = median(ratios);
  return [
    {
      name,
      value: `${most} requests${why}`,
      against: `runs ${f.firstCounts.join(', ')}; floor ${floorFirst} (${f.currentRecords.toLocaleString('en')} + ${f.previousRecords.toLocaleString('en')} records)`,
      ratio: most / floorFirst,
      // The floor is what no query shape goes below: where it is above 20, 20 cannot be met, and
      // the row judges the floor instead, saying so.
      target: floorFirst <= MAX_REQUESTS ? `≤ ${MAX_REQUESTS}` : `floor ${floorFirst} (≤ ${MAX_REQUESTS} unreachable)`,
      pass: ok && floorFirst > 0 && (floorFirst <= MAX_REQUESTS ? most <= MAX_REQUESTS : most <= floorFirst),
    },
    {
      name: `  time, median of ${f.runs} (spread ${spread(f.walls, seconds)})`,
      value: `${seconds(median(f.walls))}${why}`,
      against: `bound ${seconds((median(f.firstCounts) / RATE) * 1000)} at ${RATE} req/s`,
      ratio,
      target: '≤ 1.10 x',
      pass: ok && Number.isFinite(ratio) && ratio <= 1.1,
    },
    {
      name: '  later refresh the same day (previous window kept): requests',
      value: `${later} requests${why}`,
      against: `runs ${f.againCounts.join(', ')}; floor ${Math.ceil(f.currentRecords / 100)}`,
      target: `≤ ${MAX_REQUESTS}`,
      pass: ok && later <= MAX_REQUESTS,
    },
    no429Row(`  429s on the wire (load average ${loadavg()[0]?.toFixed(1) ?? '?'})`, f.limited, f.sent),
  ];
}

/** What the decorating runs observed: their times, and what the provider answered in the last run. */
export interface DecorateFigures {
  times: number[];
  runs: number;
  nodes: number;
  /** Nodes that carried a resource URI (each task node should). */
  withUri: number;
  /** URIs the provider answered with a decoration. */
  decorated: number;
  /** Tasks the board holds as not ok: each should be decorated, and no other. */
  unwell: number;
}

/**
 * The decorating row: a time is met only when the provider did its work, a decoration for every
 * task the board holds as not ok (and none else), asked for every node. Nothing decorated is fast
 * and says nothing.
 */
export function decorateRow(f: DecorateFigures): BenchRow {
  const name = `decorating ${f.nodes.toLocaleString('en')} task nodes (the provider, per node URI), median of ${f.runs}`;
  const problems = [
    ...(f.nodes > 0 && f.withUri === f.nodes ? [] : [`${f.withUri} of ${f.nodes} nodes have a URI`]),
    ...(f.unwell > 0 ? [] : ['the board holds no task to decorate']),
    ...(f.decorated === f.unwell ? [] : [`${f.decorated} decorated, ${f.unwell} expected`]),
  ];
  const m = f.times.length === f.runs ? medianOf(f.times) : undefined;
  if (m === undefined) return missed(name, `${f.times.length} of ${f.runs} runs timed`);
  return {
    name,
    value: problems.length > 0 ? `${millis(m)} (${problems.join('; ')})` : millis(m),
    against: `spread ${spread(f.times, millis)}; ${f.decorated} of ${f.nodes} decorated`,
    ratio: m / DECORATE_MS,
    target: `≤ ${DECORATE_MS} ms`,
    pass: problems.length === 0 && m <= DECORATE_MS,
  };
}
