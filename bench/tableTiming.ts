/**
 * The table benches' one measurement, run inside the page (the stand-in's, or the analytics
 * panel's frame in code-server): the page's own clock from the action to the frame after the rows
 * * are in the DOM and laid out. Shared by table.bench.ts and webviewTable.bench.ts.
 */

/** Anything Playwright can evaluate a function in: a Page or a Frame. */
export interface Evaluator {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

export interface Timing {
  /** The action, then a forced layout: script + style + layout, before any paint. */
  sync: number;
  /** To the first frame after the rows changed, and one task after it (the rows are painted). */
  frame: number;
  /** To the page being free again: two more frames and a task (whatever the click queued ran). */
  settled: number;
}

/**
 * Does the action (a header's click, or the scroll container's scrollTop for 'top' | 'middle' |
 * 'end'), forces layout, then waits frame by frame until the rows changed: for a sort, until the
 * header says so and the first body row is repainted; for a scroll, until the row the position
 * points at is in the DOM. Yields through rAF and a MessageChannel, which are not throttled.
 */
export async function timed(target: Evaluator, action: 'sort' | 'scroll', arg: string): Promise<Timing> {
  return target.evaluate(async ([kind, to]) => {
    type El = { click(): void; scrollTop: number; scrollHeight: number; textContent: string | null; getAttribute(n: string): string | null; getBoundingClientRect(): unknown };
    type G = {
      document: { querySelector(s: string): El | null; body: El };
      requestAnimationFrame(cb: () => void): void;
      MessageChannel: new () => { port1: { onmessage: (() => void) | null }; port2: { postMessage(v: unknown): void } };
    };
    const g = globalThis as unknown as G;
    const channel = new g.MessageChannel();
    const tick = (): Promise<void> => new Promise((resolve) => { channel.port1.onmessage = () => resolve(); channel.port2.postMessage(0); });
    const frame = (): Promise<void> => new Promise((resolve) => g.requestAnimationFrame(() => resolve()));
    const scroller = g.document.querySelector('.table-scroll') as El;
    const header = g.document.querySelector(`th[data-column="${to}"]`);
    const sortBefore = header?.getAttribute('aria-sort') ?? '';
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
    // A sort repaints its rows in the click's own task; the header's aria-sort is set with them.
    const changed = (): boolean => kind === 'sort'
      ? (header?.getAttribute('aria-sort') ?? '') !== sortBefore
      : g.document.querySelector(`table.records tbody tr[aria-rowindex="${wanted}"]`) !== null;
    for (let i = 0; i < 600; i++) {
      await frame();
      if (changed()) break;
    }
    g.document.body.getBoundingClientRect();
    await tick();
    const painted = performance.now() - t0;
    await frame();
    await tick();
    await frame();
    await tick();
    return { sync, frame: painted, settled: performance.now() - t0 };
  }, [action, arg] as const);
}

export const median = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
export const ms = (v: number): string => `${v.toFixed(1)} ms`;
export const spread = (xs: number[]): string => `${Math.min(...xs).toFixed(0)} – ${Math.max(...xs).toFixed(0)} ms`;
