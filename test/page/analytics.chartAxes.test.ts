/**
 * Chart axes at any width (issue 16): tick labels skip or rotate as the charts narrow, so no two
 * labels' boxes overlap. The boxes come from Chart.js's own layout (window.__scrapedeckCharts),
 * measured with the font the labels are drawn in. Screenshots in artifacts/page/charts-*.png.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { collisions } from '../../src/analytics/model/labelBoxes';
import { addDays } from '../../src/api/schemas/dates';
import { probeCharts } from './chartsProbe';
import { assertClean, columnIndex, runAndAnswer, tableRows, TODAY } from './flows';
import { repoRoot } from './harness';
import { grid, weekRecord } from './records';
import { useStandIn } from './standIn';

describe('analytics page: chart axes', function () {
  const host = useStandIn();
  const out = join(repoRoot(), 'artifacts', 'page');
  before(() => {
    mkdirSync(out, { recursive: true });
  });

  // 1400x900 is the reported case (three charts in a row); 900 is two in a row; 480, one, narrow.
  const widths = [1400, 900, 480];
  const results: [string, () => ReturnType<typeof grid>][] = [
    ['46 days', () => grid(3, 46, TODAY)],
    ['14 days', () => grid(3, 14, TODAY)],
    [
      '20 weeks',
      () => Array.from({ length: 20 }, (_, i) => weekRecord(addDays(TODAY, -7 * (19 - i)), { taskId: 'w' })),
    ],
  ];
  for (const width of widths) {
    for (const [name, records] of results) {
      it(`no two tick labels overlap at ${width} px wide, ${name}`, async () => {
        const p = await host.open({}, { width, height: 900 });
        await runAndAnswer(p, records());
        const charts = await probeCharts(p);
        assert.equal(charts.length, 3);
        for (const c of charts)
          assert.ok(c.ticks.x.length >= 2, `${c.id} shows at least two dates (${c.ticks.x.length})`);
        if (name === '46 days') {
          await p.page.locator('.charts').screenshot({ path: join(out, `charts-axis-${width}.png`) });
        }
        assert.deepEqual(collisions(charts), []);
        await assertClean(p);
      });
    }
  }

  // 1050: the panel beside VS Code's side bar in a 1400 px window (the e2e walk's), where the middle chart dropped a date.
  for (const width of [1400, 1250, 1100, 1050, 1000, 950])
    it(`a Week query across two weeks labels both buckets in every chart at ${width} px, each with only its days inside the query`, async () => {
      const p = await host.open({}, { width, height: 900 });
      await p.page.selectOption('#f-granularity', 'Week');
      // Friday to Thursday: the end of W46 and the start of W47 (TODAY is Sunday, Nov 22).
      await p.page.fill('#f-start', '2026-11-13');
      await p.page.fill('#f-end', '2026-11-19');
      // Six-digit row counts: the widest y-axis, the narrowest room for dates (the middle chart).
      const big = { dataVolumeMetrics: { totalCollected: 123_456, deduplicatedVolume: 120_001 } };
      await runAndAnswer(p, [weekRecord('2026-11-13', big), weekRecord('2026-11-19', big)]);
      const want = ['2026-W46 (Nov 13 – Nov 15)', '2026-W47 (Nov 16 – Nov 19)'];
      const charts = await probeCharts(p);
      await p.page.locator('.charts').screenshot({ path: join(out, `charts-two-weeks-${width}.png`) });
      assert.equal(charts.length, 3);
      // A label may be drawn on two lines (the probe joins them with a space): compare without the brackets.
      const plain = (text: string): string => text.replace(/[()]/g, '');
      for (const c of charts) {
        assert.equal(c.ticks.x.length, 2, `${c.id} labels both weeks: ${c.ticks.x.map((t) => t.text).join(' | ')}`);
        assert.deepEqual(
          c.ticks.x.map((t) => plain(t.text)),
          want.map(plain),
          c.id,
        );
      }
      assert.deepEqual(collisions(charts), []);
      const described = await p.page.locator('#chart-records').getAttribute('aria-label');
      assert.match(described ?? '', /2 date buckets from 2026-W46 \(Nov 13 – Nov 15\) to 2026-W47 \(Nov 16 – Nov 19\)/);
      const bucket = await columnIndex(p, 'dayKey');
      assert.deepEqual((await tableRows(p)).map((r) => r[bucket]).sort(), want, 'the table says the same');
      await assertClean(p);
    });

  it('re-lays out the ticks as the panel is resized from 1400 to 400 px, without a new query', async () => {
    const p = await host.open({}, { width: 1400, height: 900 });
    const q = await runAndAnswer(p, grid(2, 46, TODAY));
    for (let width = 1400; width >= 400; width -= 75) {
      await p.page.setViewportSize({ width, height: 900 });
      // Chart.js follows its box through a ResizeObserver: wait until every chart has.
      await p.page.waitForFunction(() => {
        const g = globalThis as unknown as {
          __scrapedeckCharts: { charts(): { width: number }[] };
          document: { querySelectorAll(s: string): ArrayLike<{ clientWidth: number }> };
        };
        const boxes = Array.from(g.document.querySelectorAll('.chart-box'));
        const charts = g.__scrapedeckCharts.charts();
        return (
          charts.length === boxes.length && charts.every((c, i) => Math.abs(c.width - (boxes[i]?.clientWidth ?? 0)) < 1)
        );
      });
      assert.deepEqual(collisions(await probeCharts(p)), [], `at ${width} px`);
    }
    assert.equal((await p.postedOf('query')).length, 1, `one query (${String(q.id)}), no re-run`);
    await assertClean(p);
  });
});
