/**
 * Themes: the page in a dark, a light and a high-contrast theme, screenshots saved under
 * artifacts/page/ for people to look at, and charts that repaint when the theme changes.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { switchTheme } from './chartsProbe';
import { assertClean, runAndAnswer } from './flows';
import { type AnalyticsPage, repoRoot } from './harness';
import { grid } from './records';
import { useStandIn } from './standIn';

describe('analytics page: themes', function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  const out = join(repoRoot(), 'artifacts', 'page');
  before(() => {
    mkdirSync(out, { recursive: true });
  });

  const records = grid(6, 14, '2026-11-22');

  for (const theme of ['vscode-dark', 'vscode-light', 'vscode-high-contrast']) {
    it(`renders in ${theme} and saves a screenshot`, async () => {
      p = await host.open({ preset: { taskIds: ['task-1'], label: 'Prices' } }, { theme, width: 1280, height: 1000 });
      await p.page.fill('#f-start', '2026-11-09');
      await runAndAnswer(p, records);
      await p.page.fill('#f-pageSize', '0'); // an inline error in the picture, too
      const file = join(out, `analytics-${theme.replace('vscode-', '')}.png`);
      await p.page.screenshot({ path: file, fullPage: true });
      const fg = await p.page.evaluate(() => {
        const d = globalThis as unknown as {
          getComputedStyle(e: unknown): { color: string };
          document: { body: unknown };
        };
        return d.getComputedStyle(d.document.body).color;
      });
      assert.notEqual(fg, '', 'the theme variables apply');
      await assertClean(p);
    });
  }

  it('saves a screenshot of a result whose rest is still being fetched', async () => {
    p = await host.open({}, { theme: 'vscode-dark', width: 1280, height: 1000 });
    const big = grid(30, 34, '2026-11-22');
    const q = await runAndAnswer(p, big.slice(0, 100), big.length);
    await p.send({ type: 'fetchAllProgress', id: q.id, fetched: 400, total: big.length });
    await p.page.locator('#busy-text', { hasText: 'Fetched 400 of 1,020 rows' }).waitFor();
    await p.page.screenshot({ path: join(out, 'analytics-dark-partial.png'), fullPage: true });
    await assertClean(p);
  });

  it('repaints the charts in the new colours when the theme changes', async () => {
    p = await host.open({}, { theme: 'vscode-dark' });
    await runAndAnswer(p, records.slice(0, 20), 20);
    const canvas = p.page.locator('#chart-runs');
    const before = await canvas.screenshot();
    // Waits until the charts were coloured for the new background, not for a fixed time.
    await switchTheme(p, 'vscode-light');
    const after = await canvas.screenshot();
    assert.ok(!before.equals(after), 'the chart was redrawn in the light colours');
    await assertClean(p);
  });
});
