/** Reading the charts through the page's window.__scrapedeckCharts hook (src/analytics/page/charts/chartsProbe.ts). */
import type { ChartProbe } from '../../src/analytics/model/labelBoxes';
import type { AnalyticsPage } from './harness';

export async function probeCharts(p: AnalyticsPage): Promise<ChartProbe[]> {
  return p.page.evaluate(() => {
    const hook = (globalThis as unknown as { __scrapedeckCharts?: { charts(): unknown } }).__scrapedeckCharts;
    if (!hook) throw new Error('the page has no __scrapedeckCharts hook');
    return hook.charts();
  }) as Promise<ChartProbe[]>;
}
