/**
 * Chart axes at any width (issue 16): tick labels skip or rotate as the charts narrow, so no two
 * labels' boxes overlap. The boxes come from Chart.js's own layout (window.__scrapedeckCharts),
 * measured with the font the labels are drawn in. Screenshots in artifacts/page/charts-*.png.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './harness';
import { useStandIn } from './standIn';
import { assertClean, runAndAnswer, TODAY } from './flows';
import { grid, weekRecord } from './records';
import { probeCharts } from './chartsProbe';
import { collisions } from '../../src/analyticsModel/labelBoxes';
import { addDays } from '../../src/api/dates';

describe('analytics page: chart axes', function () {
  const host = useStandIn();
  const out = join(repoRoot(), 'artifacts', 'page');
  before(() => { mkdirSync(out, { recursive: true }); });

  // 1400x900 is the reported case (three charts in a row); 900 is two in a row; 480, one, narrow.
  const widths = [1400, 900, 480];
  const results: [string, () => ReturnType<typeof grid>][] = [
    ['46 days', () => grid(3, 46, TODAY)],
    ['14 days', () => grid(3, 14, TODAY)],
    ['20 weeks', () => Array.from({ length: 20 }, (_, i) => weekRecord(addDays(TODAY, -7 * (19 - i)), { taskId: 'w' }))],
  ];
  for (const width of widths) {
    for (const [name, records] of results) {
      it(`no two tick labels overlap at ${width} px wide, ${name}`, async () => {
        const p = await host.open({}, { width, height: 900 });
        await runAndAnswer(p, records());
        const charts = await probeCharts(p);
        assert.equal(charts.length, 3);
        for (const c of charts) assert.ok(c.ticks.x.length >= 2, `${c.id} shows at least two dates (${c.ticks.x.length})`);
        if (name === '46 days') {
          await p.page.locator('.charts').screenshot({ path: join(out, `charts-axis-${width}.png`) });
        }
        assert.deepEqual(collisions(charts), []);
        await assertClean(p);
      });
    }
  }

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
        return charts.length === boxes.length && charts.every((c, i) => Math.abs(c.width - (boxes[i]?.clientWidth ?? 0)) < 1);
      });
      assert.deepEqual(collisions(await probeCharts(p)), [], `at ${width} px`);
    }
    assert.equal((await p.postedOf('query')).length, 1, `one query (${String(q.id)}), no re-run`);
    await assertClean(p);
  });
});
