/**
 * A read-only look at the charts as Chart.js laid them out, on window.__scrapedeckCharts: the page
 * tests check from it that no two tick labels overlap at any width and which colours each series
 * is drawn in after a theme change. It exposes nothing the page does not already show.
 */
import type { Chart } from 'chart.js';

import type { ChartProbe, LabelBox } from '../../model/labelBoxes';

export type { ChartProbe };

interface LabelItem {
  label: string | string[];
  font: { string: string; lineHeight: number };
  textOffset: number;
  options: { rotation: number; textAlign: string; translation: [number, number] };
}

interface LaidOutScale {
  labelRotation: number;
  getLabelItems(): LabelItem[];
}

function boxes(chart: Chart, axis: 'x' | 'y'): LabelBox[] {
  const scale = chart.scales[axis] as unknown as LaidOutScale | undefined;
  if (!scale) return [];
  const ctx = chart.ctx;
  return scale.getLabelItems().map((item) => {
    const lines = Array.isArray(item.label) ? item.label : [item.label];
    ctx.save();
    ctx.font = item.font.string;
    const width = Math.max(0, ...lines.map((l) => ctx.measureText(l).width));
    ctx.restore();
    const height = lines.length * item.font.lineHeight;
    const {
      rotation,
      textAlign,
      translation: [tx, ty],
    } = item.options;
    // Chart.js draws the text at (0, textOffset) after translate + rotate, baseline 'middle'.
    const left = textAlign === 'center' ? -width / 2 : textAlign === 'right' ? -width : 0;
    const top = item.textOffset - item.font.lineHeight / 2;
    const local = [
      { x: left, y: top },
      { x: left + width, y: top },
      { x: left + width, y: top + height },
      { x: left, y: top + height },
    ];
    const cos = Math.cos(rotation);
    const sin = Math.sin(rotation);
    const corners = local.map((p) => ({ x: tx + p.x * cos - p.y * sin, y: ty + p.x * sin + p.y * cos }));
    return { text: lines.join(' '), corners };
  });
}

interface Drawn {
  options?: { backgroundColor?: unknown; borderColor?: unknown };
}

/** The colours dataset `i` is drawn in: its elements' resolved options, not what was asked for. */
function drawn(chart: Chart, i: number, label: string): ChartProbe['datasets'][number] {
  const meta = chart.getDatasetMeta(i) as unknown as { dataset?: Drawn; data: Drawn[] };
  const first = meta.data[0]?.options;
  const line = meta.dataset?.options;
  return {
    label,
    backgroundColor: String(first?.backgroundColor ?? ''),
    borderColor: String(line?.borderColor ?? first?.borderColor ?? ''),
  };
}

export function probeChart(id: string, chart: Chart, swatches: HTMLElement[], background: string): ChartProbe {
  return {
    background,
    id,
    width: chart.width,
    labelRotation: (chart.scales['x'] as unknown as LaidOutScale | undefined)?.labelRotation ?? 0,
    ticks: { x: boxes(chart, 'x'), y: boxes(chart, 'y') },
    datasets: chart.data.datasets.map((d, i) => drawn(chart, i, d.label ?? '')),
    swatches: swatches.map((el) => getComputedStyle(el).backgroundColor),
  };
}

/** Installs the hook; `charts` is asked each time, so it always describes what is on screen. */
export function installChartsProbe(charts: () => ChartProbe[]): void {
  Object.defineProperty(window, '__scrapedeckCharts', { value: { charts }, configurable: true });
}
