/**
 * Charts follow the theme live (issue 21 item 4): the results stay on screen while the body's
 * theme class changes, as VS Code does it; the charts are redrawn in place (no new query) in the
 * new theme's colours, bars and lines agree with their legend swatches, and no series is drawn
 * in (or near) the background's colour: 3:1 at least, in every theme. The date field's calendar
 * icon is drawn for the theme (color-scheme), so it shows in high contrast.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { contrast, GRAPHIC_CONTRAST, parseColour, type Rgb } from '../../src/analytics/model/colour';
import type { ChartProbe } from '../../src/analytics/model/labelBoxes';
import { probeCharts, switchTheme } from './chartsProbe';
import { assertClean, runAndAnswer, TODAY } from './flows';
import { type AnalyticsPage, repoRoot } from './harness';
import { grid } from './records';
import { useStandIn } from './standIn';

const THEMES = ['vscode-dark', 'vscode-light', 'vscode-high-contrast', 'vscode-high-contrast-light'];

function rgb(colour: string, what: string): Rgb {
  const c = parseColour(colour);
  assert.ok(c, `${what}: a colour (${colour})`);
  return c;
}

/** Each series as drawn: a bar's fill, a line's stroke. */
function drawnColours(c: ChartProbe): string[] {
  return c.datasets.map((d) => (c.id === 'chart-runs' ? d.backgroundColor : d.borderColor));
}

describe('analytics page: charts follow the theme', function () {
  const host = useStandIn();
  const out = join(repoRoot(), 'artifacts', 'page');
  before(() => {
    mkdirSync(out, { recursive: true });
  });

  for (const theme of THEMES) {
    it(`switched to ${theme} while results are shown: redrawn in place, legend agrees, every series stands out`, async () => {
      const start = theme === 'vscode-dark' ? 'vscode-light' : 'vscode-dark';
      const p = await host.open({}, { theme: start, width: 1400, height: 900 });
      await runAndAnswer(p, grid(3, 20, TODAY));
      const before = await probeCharts(p);
      await switchTheme(p, theme);
      const after = await probeCharts(p);
      assert.equal(after.length, 3);
      for (const c of after) {
        const bg = rgb(c.background, `${c.id} background`);
        drawnColours(c).forEach((colour, i) => {
          const series = `${c.id} ${c.datasets[i]?.label ?? i}`;
          const drawn = rgb(colour, series);
          assert.deepEqual(
            drawn,
            rgb(c.swatches[i] ?? '', `${series} swatch`),
            `${series}: drawn in its legend's colour`,
          );
          const ratio = contrast(drawn, bg);
          assert.ok(
            ratio >= GRAPHIC_CONTRAST,
            `${series} in ${theme}: ${colour} on ${c.background} is ${ratio.toFixed(2)}:1`,
          );
        });
      }
      const changed = after.some((c, i) => JSON.stringify(c.datasets) !== JSON.stringify(before[i]?.datasets));
      assert.ok(
        changed,
        `the series were redrawn from ${start}'s colours to ${theme}'s (fills, lines, high contrast's outlines)`,
      );
      assert.equal((await p.postedOf('query')).length, 1, 'no query ran again');
      await p.page
        .locator('.charts')
        .screenshot({ path: join(out, `charts-theme-${theme.replace('vscode-', '')}.png`) });
      await assertClean(p);
    });
  }

  it('draws the same series colours after a switch as a page opened in that theme', async () => {
    const switched = await host.open({}, { theme: 'vscode-dark' });
    await runAndAnswer(switched, grid(2, 10, TODAY));
    await switchTheme(switched, 'vscode-high-contrast-light');
    const fresh = await host.open({}, { theme: 'vscode-high-contrast-light' });
    await runAndAnswer(fresh, grid(2, 10, TODAY));
    const colours = async (p: AnalyticsPage) => (await probeCharts(p)).map((c) => c.datasets);
    assert.deepEqual(await colours(switched), await colours(fresh));
    await assertClean(switched);
    await assertClean(fresh);
  });

  it("draws the date fields' native parts (the calendar icon) for the theme, dark in high contrast", async () => {
    const p = await host.open({}, { theme: 'vscode-high-contrast' });
    const scheme = (): Promise<string> =>
      p.page.$eval(
        '#f-start',
        (e) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { colorScheme: string } }).getComputedStyle(e)
            .colorScheme,
      );
    assert.equal(await scheme(), 'dark', 'a light icon on the black page');
    await p.page.locator('#f-start').screenshot({ path: join(out, 'date-field-high-contrast.png') });
    await switchTheme(p, 'vscode-high-contrast-light');
    assert.equal(await scheme(), 'light');
    await switchTheme(p, 'vscode-dark');
    assert.equal(await scheme(), 'dark');
    await assertClean(p);
  });
});
