/**
 * Puts a result on screen: what its figures cover, summary and charts (recomputed only when the
 * result changed), and the table page the pager points at.
 */
import { allRowsWindow, coverageOf, DRAW_CHARTS_LATER_ROWS, pageWindow } from '../model/pages';
import { buildSeries } from '../model/series';
import { summarize } from '../model/summary';
import type { ResultState } from '../protocol';
import type { AppState } from './common/state';
import type { Layout } from './layout';

export class ResultsRenderer {
  private shown: ResultState | undefined;

  constructor(private readonly ui: Layout) {}

  render(s: AppState): void {
    const r = s.result;
    const visible = r !== undefined && !s.resultDropped;
    this.ui.results.hidden = !visible;
    if (!visible) {
      this.ui.table.stopWarming();
      return this.ui.paging.update(undefined, 0, false);
    }
    const rows = r.records.length;
    const win = s.showAll ? allRowsWindow(rows, r.total) : pageWindow(s.form?.page ?? 1, s.pageSize, rows, r.total);
    // While a new query is on its way, the pager waits; the rest of this result can still be paged.
    this.ui.paging.update(win, rows, s.request !== undefined && s.request.kind !== 'rest', s.showAll);
    this.ui.empty.hidden = r.total > 0;
    const coverage = coverageOf(rows, r.total);
    this.ui.coverage.update(coverage, s.request?.kind === 'rest');
    this.ui.coverage.root.hidden = r.total === 0;
    if (r !== this.shown) {
      this.shown = r;
      const t0 = performance.now();
      this.ui.summary.update(summarize(r.records), coverage);
      this.ui.charts.update(buildSeries(r.records, r.query), coverage, rows > DRAW_CHARTS_LATER_ROWS);
      performance.measure('scrapedeck:charts', { start: t0 });
    }
    const t1 = performance.now();
    this.ui.table.setGranularity(r.query.timeGranularity);
    this.ui.table.update(r.records, s.sort, win.start, win.end, r.query);
    performance.measure('scrapedeck:table', { start: t1 });
  }
}
