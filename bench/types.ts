/**
 * The shape every bench section returns; scripts/bench.mjs runs each `bench/*.bench.ts` and
 * prints its rows as one table. A section measures side by side in one run, against a sandbox
 * it starts itself, and states each figure against its bound or baseline.
 */
export interface BenchRow {
  /** What was measured. */
  name: string;
  /** The figure, formatted with its unit ("9.41 s", "0 x 429"). */
  value: string;
  /** What it is compared with ("bound 10.00 s", "raw undici 0.41 ms"). */
  against?: string;
  /** value / bound (or / baseline). */
  ratio?: number;
  /** The target, in words ("≤ 1.05 x"). */
  target?: string;
  /** Whether the target was met; undefined for context-only rows. */
  pass?: boolean;
}

export interface BenchSection {
  title: string;
  rows: BenchRow[];
  notes?: string[];
}

/** A bench module's default export. */
export type BenchRun = () => Promise<BenchSection>;
