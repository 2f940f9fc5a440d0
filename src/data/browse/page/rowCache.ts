/**
 * The rows the page holds: the windows it asked for around what it shows, at most MAX_HELD
 * (farthest first out). Asked again after the view changes. The page never holds every row.
 */
import type { BrowseRow } from '../protocol';

export const BLOCK = 100;
const MAX_HELD = 2000;

export class RowCache {
  private readonly rows = new Map<number, BrowseRow>();
  private readonly asked = new Set<number>();
  private generation = 0;

  constructor(private readonly ask: (from: number, count: number, generation: number) => void) {}

  get(place: number): BrowseRow | undefined {
    return this.rows.get(place);
  }

  /** Forget every row (the view changed); answers to older asks are then dropped. */
  clear(): void {
    this.rows.clear();
    this.asked.clear();
    this.generation++;
  }

  /** Asks for the blocks that cover [first, last] and one block either side. */
  want(first: number, last: number, shown: number): void {
    const from = Math.max(0, Math.floor(first / BLOCK) - 1);
    const to = Math.floor(Math.min(last, shown - 1) / BLOCK) + 1;
    for (let b = from; b <= to; b++) {
      const start = b * BLOCK;
      if (start >= shown || this.asked.has(b)) continue;
      // A block asked while fewer rows were loaded may be short: ask again once more are.
      const held = this.rows.has(Math.min(start + BLOCK, shown) - 1);
      if (held) continue;
      this.asked.add(b);
      this.ask(start, BLOCK, this.generation);
    }
    this.evict(first);
  }

  /** Rows arrived; false when they answer an older view. */
  put(from: number, rows: readonly BrowseRow[], generation: number): boolean {
    if (generation !== this.generation) return false;
    rows.forEach((row, i) => this.rows.set(from + i, row));
    this.asked.delete(Math.floor(from / BLOCK));
    return true;
  }

  get current(): number {
    return this.generation;
  }

  private evict(near: number): void {
    if (this.rows.size <= MAX_HELD) return;
    const far = [...this.rows.keys()].sort((a, b) => Math.abs(b - near) - Math.abs(a - near));
    for (const place of far.slice(0, this.rows.size - MAX_HELD)) this.rows.delete(place);
  }
}
