/**
 * Figures for the whole query, in headless Chromium: after Run query the page shows the first rows
 * at once and says so ("first N of M"), asks for the rest by itself, and then shows totals over
 * every row; a capped or stopped result keeps saying what it covers. Charts with one bucket draw
 * their point; a series with no value says "no data".
 */
import * as assert from 'node:assert/strict';

import { encodeForPage } from '../../src/analytics/protocol';
import { analyticsQuerySchema, type AnalyticsRecord } from '../../src/api/schemas/schemas';
import { answerRest, assertClean, resultIdOf, runAndAnswer, tableRows } from './flows';
import type { AnalyticsPage } from './harness';
import { grid, record } from './records';
import { useStandIn } from './standIn';

/** Sums written out here, not through the page's summary code. */
function sums(rows: AnalyticsRecord[]): { runs: number; failures: number; collected: number } {
  let runs = 0;
  let failures = 0;
  let collected = 0;
  for (const r of rows) {
    runs += r.executionMetrics.runCount ?? 0;
    failures += r.executionMetrics.failureCount ?? 0;
    collected += r.dataVolumeMetrics.totalCollected ?? 0;
  }
  return { runs, failures, collected };
}
const thousands = (n: number): string => n.toLocaleString('en-US');

describe('analytics page: figures for the whole query', function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  beforeEach(async () => {
    p = await host.open();
  });

  const all = grid(30, 34, '2026-11-22'); // 1,020 rows, 11 pages of 100
  const figure = (id: string): Promise<string> => p.text(`[data-figure="${id}"]`);

  it('shows "first 100 of 1,020" until the rest arrives, then totals over every row', async () => {
    const q = await runAndAnswer(p, all.slice(0, 100), all.length);
    // Run query asks for the rest too: the host goes on to it under the same id, no click needed.
    assert.equal(q.rest, 'auto');
    assert.equal(await p.page.locator('#busy').isVisible(), true);
    assert.equal(await p.text('#coverage-text'), 'Figures for the first 100 of 1,020 rows only. Fetching the rest…');
    assert.equal(await p.text('#rows-range'), 'Rows 1–20 of 1,020 · Page 1 of 51');
    assert.equal(await figure('runs'), thousands(sums(all.slice(0, 100)).runs));
    assert.match((await p.page.locator('#chart-runs').getAttribute('aria-label')) ?? '', /\(first 100 of 1,020 rows\)/);
    assert.match(await p.page.locator('.chart figcaption').first().innerText(), /first 100 of 1,020 rows/);
    assert.match((await p.page.locator('#summary').getAttribute('aria-label')) ?? '', /first 100 of 1,020 rows/);
    assert.equal(await p.page.locator('#page-last').isDisabled(), true, 'the last page is not here yet');
    await p.send({ type: 'fetchAllProgress', id: q.id, fetched: 600, total: 1020 });
    await p.page.locator('#busy-text', { hasText: 'Fetched 600 of 1,020 rows' }).waitFor();
    assert.equal(
      await p.page.locator('#coverage-fetch-all').isHidden(),
      true,
      'nothing to offer while the rest is on its way',
    );

    await answerRest(p, q, all, all.length);
    assert.equal((await p.postedOf('fetchAll')).length, 0, 'the page never had to ask');
    await p.page.locator('#coverage', { hasText: 'Figures for all 1,020 rows of this query.' }).waitFor();
    const whole = sums(all);
    assert.equal(await figure('runs'), thousands(whole.runs));
    assert.equal(await figure('failures'), thousands(whole.failures));
    assert.equal(await figure('collected'), thousands(whole.collected));
    assert.equal(await p.page.locator('#busy').isHidden(), true);
    assert.doesNotMatch((await p.page.locator('#chart-runs').getAttribute('aria-label')) ?? '', /first/);
    assert.match((await p.page.locator('#chart-runs').getAttribute('aria-label')) ?? '', /34 date buckets/);
    assert.equal(await p.page.locator('#page-last').isDisabled(), false);
    await p.page.click('#page-last');
    await p.page.locator('#rows-range', { hasText: 'Rows 1,001–1,020 of 1,020 · Page 51 of 51' }).waitFor();
    assert.deepEqual(
      (await tableRows(p)).map((r) => r[1]),
      all.slice(1000).map((r) => r.taskId),
    );
    await assertClean(p);
  });

  it('above the setting: says which part the figures cover and offers Fetch all pages, which goes on from there', async () => {
    const q = await runAndAnswer(p, all.slice(0, 100), all.length);
    await p.send({ type: 'fetchAllProgress', id: q.id, fetched: 200, total: 1020, target: 300 });
    await p.page.locator('#busy-text', { hasText: 'Fetched 200 of the first 300 rows (1,020 in all)' }).waitFor();
    await answerRest(p, q, all.slice(0, 300), all.length);
    await p.page.locator('#coverage', { hasText: 'Figures for the first 300 of 1,020 rows only.' }).waitFor();
    assert.equal(await figure('runs'), thousands(sums(all.slice(0, 300)).runs));
    await p.page.click('#coverage-fetch-all');
    const f = await p.waitForPosted('fetchAll');
    assert.deepEqual([f.resultId, f.scope], [resultIdOf(q), 'all']);
    assert.deepEqual(f.query, q.query);
    await answerRest(p, f, all, all.length);
    await p.page.locator('#coverage', { hasText: 'Figures for all 1,020 rows' }).waitFor();
    assert.equal(await figure('runs'), thousands(sums(all).runs));
    await assertClean(p);
  });

  it('a new query cancels the fetch of the rest; nothing of it arrives late', async () => {
    const f = await runAndAnswer(p, all.slice(0, 100), all.length);
    const q2 = await runAndAnswer(p, [record({ taskId: 'fresh' })], 1);
    assert.deepEqual(
      (await p.postedOf('cancel')).map((c) => c.id),
      [f.id],
      'the rest of the old result was cancelled',
    );
    await p.send({ type: 'fetchAllProgress', id: f.id, fetched: 900, total: 1020 });
    await p.send({
      type: 'fetchAllResult',
      id: f.id,
      resultId: resultIdOf(f),
      query: f.query,
      total: 1020,
      records: all,
      requestIds: [],
    });
    await p.page.waitForTimeout(100);
    assert.equal(await p.text('#coverage-text'), 'Figures for the one row of this query.');
    assert.deepEqual(
      (await tableRows(p)).map((r) => r[1]),
      ['fresh'],
    );
    assert.equal(await p.page.locator('#busy').isHidden(), true);
    assert.ok(q2.id !== f.id);
    await assertClean(p);
  });

  it('rows lost on the way (a batch that does not follow on) give a clear error; the first rows stay, with Fetch all pages', async () => {
    const q = await runAndAnswer(p, all.slice(0, 100), all.length);
    await p.send(
      encodeForPage({
        type: 'fetchAllProgress',
        id: String(q.id),
        fetched: 200,
        total: 1020,
        at: 0,
        records: all.slice(0, 200),
      }),
    );
    await p.send(
      encodeForPage({
        type: 'fetchAllProgress',
        id: String(q.id),
        fetched: 400,
        total: 1020,
        at: 300,
        records: all.slice(300, 400),
      }),
    );
    await p.send(
      encodeForPage({
        type: 'fetchAllResult',
        id: String(q.id),
        resultId: resultIdOf(q),
        query: analyticsQuerySchema.parse(q.query),
        total: 1020,
        records: all.slice(400),
        streamed: 400,
        requestIds: [],
      }),
    );
    await p.page
      .locator('#error', {
        hasText: 'Some of the rows did not reach this page. Use “Fetch all pages” to get them again.',
      })
      .waitFor();
    assert.equal(await p.text('#coverage-text'), 'Figures for the first 100 of 1,020 rows only.');
    assert.equal(await p.page.locator('#coverage-fetch-all').isVisible(), true);
    assert.equal(await p.page.locator('#busy').isHidden(), true, 'nothing left pending');
    await assertClean(p);
  });

  it('a fetch the host stops (the account changed) keeps the first rows and says what they cover', async () => {
    const f = await runAndAnswer(p, all.slice(0, 100), all.length);
    await p.send({
      type: 'error',
      id: f.id,
      error: { kind: 'cancelled', message: 'The account changed. Run the query again.' },
    });
    await p.page
      .locator('#notice', { hasText: 'Fetching the rest of the rows was stopped: The account changed.' })
      .waitFor();
    assert.equal(await p.text('#coverage-text'), 'Figures for the first 100 of 1,020 rows only.');
    assert.equal(await p.page.locator('#coverage-fetch-all').isVisible(), true);
    assert.equal(await p.page.locator('#page-next').isDisabled(), false, 'the rows here still page');
    await assertClean(p);
  });

  it('draws a lone bucket as a point and says its value; a series with no value says "no data"', async () => {
    const lone = record({
      executionMetrics: { ...record().executionMetrics, durationPerRunSeconds: 250 },
      dataVolumeMetrics: { totalCollected: 1200, deduplicatedVolume: null },
    });
    await runAndAnswer(p, [lone]);
    const readout = p.page.locator('#chart-duration').locator('xpath=ancestor::figure').locator('.readout');
    assert.equal(await readout.innerText(), '2026-11-20: Average duration per run 4m 10s');
    // The point is drawn: pixels of the series colour on the canvas.
    const painted = await p.page.evaluate(() => {
      type Ctx = { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
      type El = { width: number; height: number; getContext(k: '2d'): Ctx };
      const d = globalThis as unknown as {
        document: { getElementById(id: string): El | null; querySelector(s: string): unknown };
        getComputedStyle(e: unknown): { backgroundColor: string };
      };
      const canvas = d.document.getElementById('chart-duration');
      const swatch = d.document.querySelector('.swatch-duration');
      if (!canvas || !swatch) return -1;
      const [r, g, b] = (d.getComputedStyle(swatch).backgroundColor.match(/\d+/g) ?? []).map(Number);
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (
          Math.abs((data[i] ?? 0) - (r ?? 0)) < 24 &&
          Math.abs((data[i + 1] ?? 0) - (g ?? 0)) < 24 &&
          Math.abs((data[i + 2] ?? 0) - (b ?? 0)) < 24
        )
          n++;
      }
      return n;
    });
    assert.ok(painted > 20, `the point is on the canvas (${painted} pixels of its colour)`);
    assert.equal(await p.page.locator('#chart-duration').locator('xpath=..').locator('.chart-empty').isHidden(), true);
    const legend = (
      await p.page.locator('#chart-records').locator('xpath=ancestor::figure').locator('.legend').innerText()
    ).replace(/\s+/g, ' ');
    assert.match(legend, /^Collected After dedup \(no data\)$/);

    await runAndAnswer(p, [
      record({ executionMetrics: { ...record().executionMetrics, durationPerRunSeconds: null } }),
    ]);
    const empty = p.page.locator('#chart-duration').locator('xpath=..').locator('.chart-empty');
    await empty.waitFor({ state: 'visible' });
    assert.equal(await empty.innerText(), 'No data for these rows');
    assert.match((await p.page.locator('#chart-duration').getAttribute('aria-label')) ?? '', /no data/);
    await assertClean(p);
  });
});
