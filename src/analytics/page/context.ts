/** What the page's flows share: the state, the views, the host and the requests in flight. */
import { describeQuery, type QueryDescription } from '../model/describeQuery';
import { isDay } from '../protocol/wire';
import { type AppState, toPageState } from './common/state';
import type { Host } from './host';
import type { Layout } from './layout';
import type { Requests } from './requests';
import type { ResultsRenderer } from './resultsRenderer';

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
  const query =
    s.result?.query ??
    (f && isDay(f.start) && isDay(f.end)
      ? { start: f.start, end: f.end, timeGranularity: f.timeGranularity, taskIds: f.taskIds }
      : undefined);
  if (!query) return undefined;
  // Opened for a group (or a list such as "Needs attention") and still asking for just its tasks: its name says them.
  const preset = s.preset;
  const setLabel =
    preset?.label && (preset.taskIds?.length ?? 0) > 1 && sameIds(query.taskIds, preset.taskIds)
      ? preset.label
      : undefined;
  return describeQuery(query, (id) => labels.get(id), setLabel);
}

function sameIds(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = new Set(a ?? []);
  const y = new Set(b ?? []);
  return x.size === y.size && [...x].every((id) => y.has(id));
}
