/**
 * The three charts over the date buckets. Chart.js is imported piece by piece and registered, so
 * the bundle carries only bar and line charts. Legend and hover read-out are plain HTML (see
 * create()): a fraction of the size of Chart.js's plugins, and themed by the stylesheet. No animations: they cost time on 10,000 rows and
 * are unkind to people who asked for reduced motion. The table is the charts' accessible twin.
 */
import {
  BarController, BarElement, CategoryScale, Chart, LineController, LineElement, LinearScale, PointElement,
  type ChartConfiguration, type ChartDataset, type ChartType,
} from 'chart.js';
import { durationStep, formatDuration, formatDurationTick, formatInt } from '../../analyticsModel/format';
import type { Bucket } from '../../analyticsModel/series';
import { h } from './dom';
import { readColours, type ChartColours } from './theme';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale);

type Values = (number | null)[];

interface ChartSpec {
  id: string;
  title: string;
  type: 'bar' | 'line';
  stacked: boolean;
  duration: boolean;
  series: { label: string; colour: keyof ChartColours; pick(b: Bucket): number | null }[];
}

const SPECS: ChartSpec[] = [
  {
    id: 'chart-runs', title: 'Successful and failed runs', type: 'bar', stacked: true, duration: false,
    series: [
      { label: 'Successful runs', colour: 'success', pick: (b) => b.successes },
      { label: 'Failed runs', colour: 'failure', pick: (b) => b.failures },
    ],
  },
  {
    id: 'chart-records', title: 'Records collected and after deduplication', type: 'line', stacked: false, duration: false,
    series: [
      { label: 'Collected', colour: 'collected', pick: (b) => b.collected },
      { label: 'After dedup', colour: 'deduplicated', pick: (b) => b.deduplicated },
    ],
  },
  {
    id: 'chart-duration', title: 'Average duration per run', type: 'line', stacked: false, duration: true,
    series: [{ label: 'Average duration per run', colour: 'duration', pick: (b) => b.avgDurationSeconds }],
  },
];

export class ChartsView {
  readonly root = h('div', { class: 'charts' });
  private readonly charts: { spec: ChartSpec; chart: Chart; canvas: HTMLCanvasElement }[] = [];
  /** Legend swatches, coloured like their lines (theme colours made opaque, see colour.ts). */
  private readonly swatches: { el: HTMLElement; colour: keyof ChartColours }[] = [];
  private colours: ChartColours | undefined;

  update(buckets: Bucket[]): void {
    const colours = (this.colours ??= readColours());
    if (this.charts.length === 0) this.create(colours);
    const labels = buckets.map((b) => b.label);
    for (const { spec, chart, canvas } of this.charts) {
      chart.data.labels = labels;
      spec.series.forEach((s, i) => {
        const dataset = chart.data.datasets[i];
        if (dataset) dataset.data = buckets.map(s.pick);
      });
      canvas.setAttribute('aria-label', describe(spec, buckets));
      if (spec.duration) setDurationStep(chart, spec, buckets);
      chart.update('none');
    }
  }

  /** Re-reads the theme's colours and repaints. */
  retheme(): void {
    this.colours = readColours();
    for (const { spec, chart } of this.charts) {
      applyColours(chart, spec, this.colours);
      chart.update('none');
    }
    this.paintSwatches(this.colours);
  }

  private paintSwatches(colours: ChartColours): void {
    for (const { el, colour } of this.swatches) {
      const value = colours[colour];
      if (typeof value === 'string') el.style.backgroundColor = value;
    }
  }

  private create(colours: ChartColours): void {
    Chart.defaults.font.family = colours.font;
    for (const spec of SPECS) {
      const canvas = h('canvas', { attrs: { id: spec.id, role: 'img' } });
      canvas.textContent = `${spec.title}. The table below lists every figure.`;
      // An HTML legend instead of Chart.js's plugin: smaller bundle, and its swatches take their
      // colours straight from the theme's CSS variables.
      const legend = h('ul', { class: 'legend' }, ...spec.series.map((s) => {
        const swatch = h('span', { class: `swatch swatch-${s.colour}`, attrs: { 'aria-hidden': 'true' } });
        this.swatches.push({ el: swatch, colour: s.colour });
        return h('li', {}, swatch, s.label);
      }));
      const readout = h('p', { class: 'readout' });
      const figure = h('figure', { class: 'chart' }, h('figcaption', { text: spec.title }), h('div', { class: 'chart-box' }, canvas), legend, readout);
      this.root.append(figure);
      const chart = new Chart(canvas, config(spec, readout));
      applyColours(chart, spec, colours);
      this.charts.push({ spec, chart, canvas });
    }
    this.paintSwatches(colours);
  }
}

function config(spec: ChartSpec, readout: HTMLElement): ChartConfiguration<ChartType, Values, string> {
  const tick = spec.duration ? (v: number | string) => formatDurationTick(Number(v)) : (v: number | string) => formatInt(Number(v));
  const exact = spec.duration ? formatDuration : formatInt;
  const value = (v: unknown): string => (typeof v === 'number' ? exact(v) : '—');
  const datasets: ChartDataset<ChartType, Values>[] = spec.series.map((s) => ({ label: s.label, data: [] }));
  return {
    type: spec.type,
    data: { labels: [], datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      // The bucket under the pointer, spelled out below the chart.
      onHover: (_event, elements, chart) => {
        const index = elements[0]?.index;
        readout.textContent = index === undefined ? '' : `${String(chart.data.labels?.[index] ?? '')}: ${chart.data.datasets
          .map((d) => `${d.label ?? ''} ${value(d.data[index])}`).join(', ')}`;
      },
      scales: {
        // sampleSize: measure a few labels, not all 100 buckets', to decide which fit.
        x: { stacked: spec.stacked, ticks: { maxRotation: 0, autoSkip: true, sampleSize: 8 } },
        y: { stacked: spec.stacked, beginAtZero: true, ticks: { callback: tick, maxTicksLimit: 6, sampleSize: 8 } },
      },
    },
  };
}

/** Time-shaped ticks (5m, 10m, …) instead of Chart.js's base-10 steps (500 s = "8m 20s"). */
function setDurationStep(chart: Chart, spec: ChartSpec, buckets: Bucket[]): void {
  const y = chart.options.scales?.['y'];
  if (!y?.ticks) return;
  let max = 0;
  for (const b of buckets) for (const s of spec.series) max = Math.max(max, s.pick(b) ?? 0);
  Object.assign(y.ticks, { stepSize: durationStep(max) });
}

function applyColours(chart: Chart, spec: ChartSpec, c: ChartColours): void {
  spec.series.forEach((s, i) => {
    const dataset = chart.data.datasets[i];
    if (!dataset) return;
    const colour = c[s.colour];
    if (typeof colour !== 'string') return;
    Object.assign(dataset, {
      backgroundColor: colour,
      borderColor: spec.type === 'bar' && c.highContrast ? c.text : colour,
      borderWidth: spec.type === 'bar' ? (c.highContrast ? 1 : 0) : 2,
      pointRadius: 2,
    });
  });
  const options = chart.options;
  options.color = c.text;
  for (const axis of ['x', 'y'] as const) {
    const scale = options.scales?.[axis];
    if (!scale) continue;
    if (scale.ticks) scale.ticks.color = c.text;
    if (scale.grid) scale.grid.color = c.grid;
    if ('border' in scale && scale.border) scale.border.color = c.grid;
  }
}

function describe(spec: ChartSpec, buckets: Bucket[]): string {
  if (buckets.length === 0) return `${spec.title}: no data.`;
  const first = buckets[0]?.label ?? '';
  const last = buckets[buckets.length - 1]?.label ?? '';
  return `${spec.title}, ${buckets.length} date buckets from ${first} to ${last}. The table below lists every figure.`;
}
