/**
 * The page's side of the webview boundary: typed posting, and state kept with getState/setState.
 * Restored state is parsed with its schema like any other message: it may come from an older
 * version of the page.
 */
import { type PageMessage, type PageState, pageStateSchema } from '../protocol';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}

/** Results above this many records are not kept across reloads (setState copies them each time). */
export const MAX_KEPT_RECORDS = 5000;

export class Host {
  private pendingSave: PageState | undefined;
  private saveScheduled = false;
  private saveCycle = 0;

  constructor(private readonly api: VsCodeApi) {}

  post(message: PageMessage): void {
    this.api.postMessage(message);
  }

  log(level: 'info' | 'warn' | 'error', message: string): void {
    this.post({ type: 'log', level, message: message.slice(0, 4000) });
  }

  restore(): PageState | undefined {
    const parsed = pageStateSchema.safeParse(this.api.getState());
    return parsed.success ? parsed.data : undefined;
  }

  /**
   * Saves after the next paint, coalescing bursts (typing, paging, sorting) into one copy: VS Code's
   * setState serialises the whole state (a kept result of 5,000 rows took 50-140 ms), and in the
   * task that answers a click it delayed the very frame that shows the click's effect. The frame
   * comes first; a page that paints no frame (hidden) still saves within SAVE_LATEST_MS. A state
   * without many rows to copy is saved in the next task instead.
   */
  save(state: PageState): void {
    this.pendingSave = state;
    if (this.saveScheduled) return;
    this.saveScheduled = true;
    const cycle = ++this.saveCycle;
    // Whichever of the two comes first saves; the other (or a late one from an earlier cycle) does nothing.
    const flush = (): void => {
      if (!this.saveScheduled || cycle !== this.saveCycle) return;
      this.saveScheduled = false;
      const next = this.pendingSave;
      this.pendingSave = undefined;
      if (next) this.api.setState(keepable(next));
    };
    // A small state costs little to copy: saved in the next task, as soon as possible, so a panel
    // hidden (and so torn down) right after a click still keeps it.
    if (keptRecords(state) <= SAVE_AT_ONCE_RECORDS) {
      setTimeout(flush, 0);
      return;
    }
    // After the frame, when the page is idle: a task queued right after it could still run before
    // the compositor shows the frame (and before the next input).
    requestAnimationFrame(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(flush, { timeout: SAVE_LATEST_MS });
      else setTimeout(flush, 0);
    });
    setTimeout(flush, SAVE_LATEST_MS);
  }
}

/** The latest a save waits for a frame. */
const SAVE_LATEST_MS = 250;
/** Up to this many kept records, a save does not wait for the frame (copying them takes a few ms). */
const SAVE_AT_ONCE_RECORDS = 500;

const keptRecords = (state: PageState): number => {
  const n = state.result?.records.length ?? 0;
  return n > MAX_KEPT_RECORDS ? 0 : n;
};

/** A big "all pages" result is dropped from the kept state; the page says so after a reload. */
function keepable(state: PageState): PageState {
  const result = state.result;
  if (!result || result.records.length <= MAX_KEPT_RECORDS) return state;
  return { ...state, result: { ...result, records: [] } };
}
