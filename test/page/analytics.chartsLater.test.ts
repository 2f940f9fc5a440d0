/**
 * A large result shows its figures and table in the frame it arrives in; its charts are drawn
 * after that frame (Chart.js drawing three charts cost about as much as the rest of a 10,000-row
 * result). A small result is drawn whole at once. The message is dispatched in the page itself, so
 * "at once" is checked before any frame could have run.
 */
import * as assert from 'node:assert/strict';

import { formatInt } from '../../src/analytics/model/format';
import { DRAW_CHARTS_LATER_ROWS } from '../../src/analytics/model/pages';
import { encodeForPage } from '../../src/analytics/protocol/hostMessage';
import { analyticsQuerySchema, type AnalyticsRecord } from '../../src/api/schemas/schemas';
import { assertClean, resultIdOf, runAndAnswer, TODAY } from './flows';
import type { AnalyticsPage } from './harness';
import { grid } from './records';
import { useStandIn } from './standIn';

interface Seen {
  /** Renders and chart draws by the end of the message's own task (microtasks included). */
  rendered: number;
  drawnAtOnce: number;
  runsFigure: string;
  bodyRows: number;
  /** Chart draws after waiting up to 600 frames. */
  drawnLater: number;
}

/** Dispatches `message` as the host's, and reads what was on the page before any frame could run. */
function deliver(p: AnalyticsPage, message: unknown): Promise<Seen> {
  return p.page.evaluate(async (m) => {
    type D = {
      querySelector(s: string): { textContent: string | null } | null;
      querySelectorAll(s: string): { length: number };
    };
    const g = globalThis as unknown as {
      document: D;
      dispatchEvent(e: unknown): void;
      MessageEvent: new (type: string, init: { data: unknown }) => unknown;
      requestAnimationFrame(cb: () => void): void;
    };
    const count = (name: string): number => performance.getEntriesByName(name).length;
    const renders = count('scrapedeck:render');
    const draws = count('scrapedeck:charts-draw');
    g.dispatchEvent(new g.MessageEvent('message', { data: m }));
    // The reply settles through promises: microtasks, which run before any frame or task.
    for (let i = 0; i < 200 && count('scrapedeck:render') === renders; i++) await Promise.resolve();
    const rendered = count('scrapedeck:render') - renders;
    const drawnAtOnce = count('scrapedeck:charts-draw') - draws;
    const runsFigure = g.document.querySelector('[data-figure="runs"]')?.textContent ?? '';
    const bodyRows = g.document.querySelectorAll('table.records tbody tr:not(.spacer)').length;
    for (let i = 0; i < 600 && count('scrapedeck:charts-draw') === draws; i++)
      await new Promise<void>((resolve) => g.requestAnimationFrame(() => resolve()));
    return { rendered, drawnAtOnce, runsFigure, bodyRows, drawnLater: count('scrapedeck:charts-draw') - draws };
  }, message);
}

const runsOf = (rows: AnalyticsRecord[]): string =>
  formatInt(rows.reduce((n, r) => n + (r.executionMetrics.runCount ?? 0), 0));

describe("analytics page: a large result's charts are drawn after its figures and table", function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  beforeEach(async () => {
    p = await host.open({}, { width: 1280, height: 800 });
  });

  it('3,000 rows: figures and the first page of the table at once, the charts after the frame', async () => {
    const all = grid(30, 100, TODAY);
    assert.ok(all.length > DRAW_CHARTS_LATER_ROWS);
    const q = await runAndAnswer(p, all.slice(0, 100), all.length);
    const seen = await deliver(
      p,
      encodeForPage({
        type: 'fetchAllResult',
        id: String(q.id),
        resultId: resultIdOf(q),
        query: analyticsQuerySchema.parse(q.query),
        total: all.length,
        records: all,
        requestIds: ['req-rest'],
      }),
    );
    assert.deepEqual(seen, { rendered: 1, drawnAtOnce: 0, runsFigure: runsOf(all), bodyRows: 20, drawnLater: 1 });
    await p.page.locator('#coverage', { hasText: 'Figures for all 3,000 rows' }).waitFor();
    await assertClean(p);
  });

  it('a small result is drawn whole, charts included, in the task it arrives in', async () => {
    const rows = grid(5, 20, TODAY);
    assert.ok(rows.length <= DRAW_CHARTS_LATER_ROWS);
    const before = (await p.postedOf('query')).length;
    await p.page.click('#run');
    const q = await p.waitForPosted('query', before + 1);
    const seen = await deliver(p, {
      type: 'queryResult',
      id: q.id,
      resultId: resultIdOf(q),
      query: q.query,
      page: { total: rows.length, data: rows },
      requestId: 'req-page',
    });
    assert.deepEqual(seen, { rendered: 1, drawnAtOnce: 1, runsFigure: runsOf(rows), bodyRows: 20, drawnLater: 1 });
    await assertClean(p);
  });
});
