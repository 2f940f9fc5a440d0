/**
 * What each of the three charts shows (its series over the date buckets) and how Chart.js is set
 * up, styled and described for it. Kept apart from chartsView.ts, which builds and draws the
 * charts, so each file stays small and has one job.
 */
import type { Chart, ChartConfiguration, ChartDataset, ChartType } from 'chart.js';

import { durationStep, formatDuration, formatDurationTick, formatInt } from '../../model/format';
import type { PageStringKey } from '../../model/pageStrings';
import type { Bucket } from '../../model/series';
import { t } from '../common/l10n';
import type { ChartColours } from '../common/theme';
import { type Palette, type SeriesColour, seriesStyle, setSeriesStyle } from './chartColours';
import { dateTick } from './dateTicks';

type Values = (number | null)[];

/** Words are the table's keys: the charts are specified before the page has its table. */
export interface ChartSpec {
  id: string;
  title: PageStringKey;
  type: 'bar' | 'line';
  stacked: boolean;
  duration: boolean;
  series: { label: PageStringKey; colour: SeriesColour; pick(b: Bucket): number | null }[];
}

export const SPECS: ChartSpec[] = [
  {
    id: 'chart-runs',
    title: 'chart.runs',
    type: 'bar',
    stacked: true,
    duration: false,
    series: [
      { label: 'chart.successful', colour: 'success', pick: (b) => b.successes },
      { label: 'chart.failed', colour: 'failure', pick: (b) => b.failures },
    ],
  },
  {
    id: 'chart-records',
    title: 'chart.records',
    type: 'line',
    stacked: false,
    duration: false,
    series: [
      { label: 'chart.collected', colour: 'collected', pick: (b) => b.collected },
      { label: 'chart.deduplicated', colour: 'deduplicated', pick: (b) => b.deduplicated },
    ],
  },
  {
    id: 'chart-duration',
    title: 'chart.duration',
    type: 'line',
    stacked: false,
    duration: true,
    series: [{ label: 'chart.duration', colour: 'duration', pick: (b) => b.avgDurationSeconds }],
  },
];

/** "2026-11-16: Successful runs 3, Failed runs 1" for bucket `index`. */
export function readout(chart: Chart, index: number, spec: ChartSpec): string {
  const exact = spec.duration ? formatDuration : formatInt;
  const value = (v: unknown): string => (typeof v === 'number' ? exact(v) : '—');
  return `${String(chart.data.labels?.[index] ?? '')}: ${chart.data.datasets.map((d) => `${d.label ?? ''} ${value(d.data[index])}`).join(', ')}`;
}

export function config(
  spec: ChartSpec,
  readoutEl: HTMLElement,
  rest: { text: string },
  palette: Palette,
): ChartConfiguration<ChartType, Values, string> {
  const tick = spec.duration
    ? (v: number | string) => formatDurationTick(Number(v))
    : (v: number | string) => formatInt(Number(v));
  const datasets: ChartDataset<ChartType, Values>[] = spec.series.map((s) => ({
    label: t(s.label),
    data: [],
    ...seriesStyle(spec.type, s.colour, palette.current, false),
  }));
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
        readoutEl.textContent = index === undefined ? rest.text : readout(chart, index, spec);
      },
      scales: {
        // Every chart puts its dates in the middle of equal slots (offset), as the bar chart does:
        // Chart.js's autoSkip sizes its stride for slots, and on an edge-to-edge line axis its
        // stride left labels 5 px short of their width ("2026-11-012026-11-09" at 1400x900).
        // Narrow charts write dates short (dateTick). Every label is measured: they differ (weeks).
        x: {
          stacked: spec.stacked,
          offset: true,
          ticks: { autoSkip: true, autoSkipPadding: 12, maxRotation: 0, callback: dateTick },
        },
        // grace: a point at the top of the scale is not cut in half by the chart's edge.
        y: {
          stacked: spec.stacked,
          beginAtZero: true,
          grace: '5%',
          ticks: { callback: tick, maxTicksLimit: 6, sampleSize: 8 },
        },
      },
    },
  };
}

/** Each series in the colours `c`, its point large when the chart has a single bucket. */
export function styleSeries(chart: Chart, spec: ChartSpec, c: ChartColours): void {
  const lone = (chart.data.labels?.length ?? 0) === 1;
  spec.series.forEach((s, i) => {
    const dataset = chart.data.datasets[i];
    if (dataset) setSeriesStyle(dataset, spec.type, s.colour, c, lone);
  });
}

/** Time-shaped ticks (5m, 10m, …) instead of Chart.js's base-10 steps (500 s = "8m 20s"). */
export function setDurationStep(chart: Chart, spec: ChartSpec, buckets: Bucket[]): void {
  const y = chart.options.scales?.['y'];
  if (!y?.ticks) return;
  let max = 0;
  for (const b of buckets) for (const s of spec.series) max = Math.max(max, s.pick(b) ?? 0);
  Object.assign(y.ticks, { stepSize: durationStep(max) });
}

export function describe(spec: ChartSpec, buckets: Bucket[], anyValue: boolean, part: string): string {
  const title = part ? t('chart.titlePart', t(spec.title), part) : t(spec.title);
  if (buckets.length === 0 || !anyValue) return t('chart.describeNone', title);
  if (buckets.length === 1) return t('chart.describeOne', title, buckets[0]?.label ?? '');
  const first = buckets[0]?.label ?? '';
  const last = buckets[buckets.length - 1]?.label ?? '';
  return t('chart.describeMany', title, formatInt(buckets.length), first, last);
}
