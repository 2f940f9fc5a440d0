/** What the page's flows share: the state, the views, the host and the requests in flight. */
import type { Host } from './host';
import type { Layout } from './layout';
import type { Requests } from './requests';
import type { ResultsRenderer } from './resultsRenderer';
import { toPageState, type AppState } from './state';

export class PageContext {
  constructor(
    readonly s: AppState,
    readonly ui: Layout,
    readonly host: Host,
    readonly requests: Requests,
    readonly results: ResultsRenderer,
  ) {}

  /** Keeps the state across reloads (coalesced, off the render path: see Host.save). */
  save(): void {
    this.host.save(toPageState(this.s));
  }
}
