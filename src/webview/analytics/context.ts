/** What the page's flows share: the state, the views, the host and the requests in flight. */
import type { Host } from './host';
import type { Layout } from './layout';
import type { Requests } from './requests';
import type { ResultsRenderer } from './resultsRenderer';
import { describeQuery, type QueryDescription } from '../../analyticsModel/describeQuery';
import { isDay } from '../../api/dates';
import { toPageState, type AppState } from './state';

export class PageContext {
  constructor(
    readonly s: AppState,
    readonly ui: Layout,
    readonly host: Host,
    readonly requests: Requests,
    readonly results: ResultsRenderer,
  ) {}

  private lastTitle: string | undefined;

  /**
   * Keeps the state across reloads (coalesced, off the render path: see Host.save), and says what
   * the query on screen is in the header and the panel's tab: every change of state passes here.
   */
  save(): void {
    this.host.save(toPageState(this.s));
    const d = describeOnScreen(this.s);
    if (!d) return;
    this.ui.subtitle.textContent = d.subtitle;
    if (d.title !== this.lastTitle) {
      this.lastTitle = d.title;
      this.host.post({ type: 'title', title: d.title.slice(0, 300) });
    }
  }
}

/** The result's query when there is one, else what the form would run (when its dates are days). */
export function describeOnScreen(s: AppState): QueryDescription | undefined {
  const f = s.form;
  const labels = new Map<string, string>();
  f?.taskIds.forEach((id, i) => {
    const label = f.taskLabels[i];
    if (label) labels.set(id, label);
  });
  const only = s.preset?.taskIds?.length === 1 ? s.preset.taskIds[0] : undefined;
  if (only !== undefined && s.preset?.label && !labels.has(only)) labels.set(only, s.preset.label);
  const query = s.result?.query ?? (f && isDay(f.start) && isDay(f.end) ? { start: f.start, end: f.end, timeGranularity: f.timeGranularity, taskIds: f.taskIds } : undefined);
  return query ? describeQuery(query, (id) => labels.get(id)) : undefined;
}
