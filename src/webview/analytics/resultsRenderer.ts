/** Puts a result on screen: summary, charts and table are recomputed only when the result changed. */
import { buildSeries } from '../../analyticsModel/series';
import { summarize } from '../../analyticsModel/summary';
import type { ResultState } from '../protocol';
import type { Layout } from './layout';
import type { AppState } from './state';

export class ResultsRenderer {
  private shown: ResultState | undefined;

  constructor(private readonly ui: Layout) {}

  render(s: AppState): void {
    const r = s.result;
    this.ui.results.hidden = !r || s.resultDropped;
    this.ui.paging.update(r, s.request !== undefined);
    if (!r || s.resultDropped) return;
    const empty = r.records.length === 0;
    this.ui.empty.hidden = !empty;
    if (r !== this.shown) {
      this.shown = r;
      const t0 = performance.now();
      this.ui.summary.update(summarize(r.records));
      this.ui.charts.update(buildSeries(r.records));
      performance.measure('scrapedeck:charts', { start: t0 });
    }
    const t1 = performance.now();
    this.ui.table.update(r.records, s.sort);
    performance.measure('scrapedeck:table', { start: t1 });
  }
}
