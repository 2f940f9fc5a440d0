/**
 * The rows the page holds: the windows it asked for around what it shows, at most MAX_HELD
 * (farthest first out). One window is on its way at a time, the one in sight when it was asked:
 * a fast scroll (a drag of the scroll bar passes thousands of rows a frame) asks once per answer
 * for where it is then, not for every place it passed, and answers to an older view are dropped.
 * The page never holds every row.
 */
import { type BrowseRow, LIMITS } from '../protocol';

/** Rows asked for beyond each edge of what is in sight, so a slow scroll finds them there. */
export const MARGIN = 50;
const MAX_HELD = 2000;

export class RowCache {
  private readonly rows = new Map<number, BrowseRow>();
  private generation = 0;
  /** The window on its way (its generation), if one is. */
  private inFlight: number | undefined;
  /** Where the grid looked last: eviction keeps the rows nearest it. */
  private near = 0;
  /** Where the grid looked at its last draw (none yet before the first). */
  private looked: number | undefined;

  constructor(private readonly ask: (from: number, count: number, generation: number) => void) {}

  get(place: number): BrowseRow | undefined {
    return this.rows.get(place);
  }

  /** Forget every row (the view changed); answers to older asks are then dropped. */
  clear(): void {
    this.rows.clear();
    this.inFlight = undefined;
    this.generation++;
  }

  /**
   * Asks for the rows of [first, last] that are missing, with a margin either side, unless a
   * window is already on its way (its answer makes the grid draw again, which asks for what is
   * in sight then). Rows in the margin alone are asked for once the gap comes within half a
   * margin of sight. The work is bounded by the window, never by how far the view jumped.
   */
  want(first: number, last: number, shown: number): void {
    // A view that moved by more than it shows and a margin is being dragged: its margins would be passed
    // before they came, so only the rows in sight are asked for (a third of the rows to send,
    // clone and parse); the margins follow once it moves less.
    const jumped = this.looked !== undefined && Math.abs(first - this.looked) > last - first + 1 + MARGIN;
    const margin = jumped ? 0 : MARGIN;
    this.near = first;
    this.looked = first;
    if (this.inFlight !== undefined || shown <= 0) return;
    const end = Math.min(Math.max(first, last), shown - 1);
    if (!this.missing(first - margin / 2, end + margin / 2, shown)) return;
    let from = Math.max(0, first - margin);
    let to = Math.min(shown - 1, end + margin);
    while (from < to && this.rows.has(from)) from++;
    while (to > from && this.rows.has(to)) to--;
    this.inFlight = this.generation;
    this.ask(from, Math.min(LIMITS.window, to - from + 1), this.generation);
  }

  private missing(a: number, b: number, shown: number): boolean {
    for (let p = Math.max(0, a); p <= Math.min(b, shown - 1); p++) if (!this.rows.has(p)) return true;
    return false;
  }

  /** Rows arrived; false when they answer an older view. */
  put(from: number, rows: readonly BrowseRow[], generation: number): boolean {
    if (generation !== this.generation) return false;
    this.inFlight = undefined;
    rows.forEach((row, i) => this.rows.set(from + i, row));
    this.evict();
    return true;
  }

  /** A window of this generation failed: the next draw may ask again. */
  failed(generation: number): void {
    if (generation === this.generation) this.inFlight = undefined;
  }

  get current(): number {
    return this.generation;
  }

  /** Drops the rows farther than half of MAX_HELD from where the grid looked: one pass over what is held. */
  private evict(): void {
    if (this.rows.size <= MAX_HELD) return;
    for (const place of this.rows.keys()) if (Math.abs(place - this.near) >= MAX_HELD / 2) this.rows.delete(place);
  }
}
