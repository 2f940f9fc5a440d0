/**
 * The table benches' one measurement, run inside the page (the stand-in's, or the analytics
 * panel's frame in code-server): the page's own clock from the action to the frame after the rows
 * * are in the DOM and laid out. Shared by table.bench.ts and webviewTable.bench.ts.
 */

/** Anything Playwright can evaluate a function in: a Page or a Frame. */
export interface Evaluator {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

/** Frames a change may take before the action counts as not shown (about ten seconds at 60 Hz). */
export const FRAMES = 600;

export interface Timing {
  /** The action, then a forced layout: script + style + layout, before any paint. */
  sync: number;
  /** To the first frame after the rows changed, and one task after it (the rows are painted). */
  frame: number;
  /** To the page being free again: two more frames and a task (whatever the click queued ran). */
  settled: number;
}

/**
 * Does the action (a header's click, or the page's scrollTop for 'top' | 'middle' |
 * 'end'), forces layout, then waits frame by frame until the rows changed: for a sort, until the
 * header says so and the page has measured its sort to the end (`scrapedeck:sort`, taken after
 * the rows are painted); for a scroll, until the row the position points at is in the DOM.
 * Yields through rAF and a MessageChannel, which are not throttled. Rows that never change within
 * FRAMES frames are an error, never a time: a timing of nothing would read as fast.
 */
export async function timed(
  target: Evaluator,
  action: 'sort' | 'scroll',
  arg: string,
  frames = FRAMES,
): Promise<Timing> {
  return target.evaluate(
    async ([kind, to, limit]) => {
      type El = {
        click(): void;
        scrollTop: number;
        scrollHeight: number;
        textContent: string | null;
        getAttribute(n: string): string | null;
        getBoundingClientRect(): unknown;
      };
      type G = {
        document: { querySelector(s: string): El | null; body: El; scrollingElement: El };
        requestAnimationFrame(cb: () => void): void;
        MessageChannel: new () => {
          port1: { onmessage: (() => void) | null };
          port2: { postMessage(v: unknown): void };
        };
      };
      const g = globalThis as unknown as G;
      const channel = new g.MessageChannel();
      const tick = (): Promise<void> =>
        new Promise((resolve) => {
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(0);
        });
      const frame = (): Promise<void> => new Promise((resolve) => g.requestAnimationFrame(() => resolve()));
      // The page is the one scroller; the table's rows follow its scroll.
      const scroller = g.document.scrollingElement;
      const header = g.document.querySelector(`th[data-column="${to}"]`);
      const sortBefore = header?.getAttribute('aria-sort') ?? '';
      const sortsBefore = performance.getEntriesByName('scrapedeck:sort').length;
      let wanted = '';
      const t0 = performance.now();
      if (kind === 'sort') {
        g.document.querySelector(`th[data-column="${to}"] button`)?.click();
      } else {
        scroller.scrollTop = to === 'end' ? scroller.scrollHeight : to === 'top' ? 0 : scroller.scrollHeight / 2;
        const rows = Number(g.document.querySelector('table.records')?.getAttribute('aria-rowcount')) - 1;
        wanted = to === 'end' ? String(rows + 1) : to === 'top' ? '2' : String(Math.floor(rows / 2));
      }
      g.document.body.getBoundingClientRect();
      const sync = performance.now() - t0;
      // A header that says "sorted" is not a sort done: the page's own measure of the sort is taken
      // after its rows are painted, so both must have happened.
      const changed = (): boolean =>
        kind === 'sort'
          ? (header?.getAttribute('aria-sort') ?? '') !== sortBefore &&
            performance.getEntriesByName('scrapedeck:sort').length > sortsBefore
          : g.document.querySelector(`table.records tbody tr[aria-rowindex="${wanted}"]`) !== null;
      let done = false;
      for (let i = 0; i < limit && !done; i++) {
        await frame();
        done = changed();
      }
      if (!done) throw new Error(`the ${kind} to ${to} did not show within ${limit} frames`);
      g.document.body.getBoundingClientRect();
      await tick();
      const painted = performance.now() - t0;
      await frame();
      await tick();
      await frame();
      await tick();
      return { sync, frame: painted, settled: performance.now() - t0 };
    },
    [action, arg, frames] as const,
  );
}

export const median = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
export const ms = (v: number): string => `${v.toFixed(1)} ms`;
export const spread = (xs: number[]): string => `${Math.min(...xs).toFixed(0)} – ${Math.max(...xs).toFixed(0)} ms`;
