/**
 * The page's side of the webview boundary: typed posting, and state kept with getState/setState.
 * Restored state is parsed with its schema like any other message: it may come from an older
 * version of the page.
 */
import { pageStateSchema, type PageMessage, type PageState } from '../protocol';

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
   * Saves after the current task, coalescing bursts (typing, paging) into one copy, and off the
   * render path: setState serialises the whole state.
   */
  save(state: PageState): void {
    this.pendingSave = state;
    if (this.saveScheduled) return;
    this.saveScheduled = true;
    setTimeout(() => {
      this.saveScheduled = false;
      const next = this.pendingSave;
      this.pendingSave = undefined;
      if (next) this.api.setState(keepable(next));
    }, 0);
  }
}

/** A big "all pages" result is dropped from the kept state; the page says so after a reload. */
function keepable(state: PageState): PageState {
  const result = state.result;
  if (!result || result.records.length <= MAX_KEPT_RECORDS) return state;
  return { ...state, result: { ...result, records: [] } };
}
