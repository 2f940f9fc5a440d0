/**
 * Reading the charts through the page's window.__scrapedeckCharts hook (src/analytics/page/charts/chartsProbe.ts),
 * and switching the theme under them.
 */
import type { ChartProbe } from '../../src/analytics/model/labelBoxes';
import type { AnalyticsPage } from './harness';

export async function probeCharts(p: AnalyticsPage): Promise<ChartProbe[]> {
  return p.page.evaluate(() => {
    const hook = (globalThis as unknown as { __scrapedeckCharts?: { charts(): unknown } }).__scrapedeckCharts;
    if (!hook) throw new Error('the page has no __scrapedeckCharts hook');
    return hook.charts();
  }) as Promise<ChartProbe[]>;
}

/** Puts the page in `theme` (its body class, as VS Code does) and waits until the charts are repainted for it. */
export async function switchTheme(p: AnalyticsPage, theme: string): Promise<void> {
  await p.page.evaluate((t) => {
    (globalThis as unknown as { document: { body: { className: string } } }).document.body.className = t;
  }, theme);
  // The page repaints on the next animation frame after the class change: wait for the swatches
  // and the drawn series to agree with the new theme's background.
  await p.page.waitForFunction(() => {
    const g = globalThis as unknown as {
      __scrapedeckCharts: { charts(): { background: string }[] };
      document: { body: unknown };
      getComputedStyle(e: unknown): { backgroundColor: string };
    };
    const bg = g.getComputedStyle(g.document.body).backgroundColor;
    return g.__scrapedeckCharts.charts().every((c) => c.background === bg);
  });
}
