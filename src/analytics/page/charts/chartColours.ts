/**
 * How the charts take the theme's colours. Series colours are plain values, set on each dataset
 * before every update (setSeriesStyle): plain options let Chart.js resolve a dataset's element
 * options once and share them with every bar and point, where scriptable ones were resolved
 * element by element (most of a 10,000-row first render). Shared options are refreshed only by
 * an update that is not 'none' (its direct mode keeps the first resolve, which left bars in the
 * previous theme's colours), so the charts update in the default mode; with animation off it
 * draws at once all the same. Axis colours are plain options too: Chart.js re-resolves those on
 * update.
 */
import type { Chart, ChartDataset } from 'chart.js';

import type { ChartColours } from '../common/theme';

export type SeriesColour = 'success' | 'failure' | 'collected' | 'deduplicated' | 'duration';

/** The colours in force; retheme() replaces `current` and updates the charts. */
export interface Palette {
  current: ChartColours;
}

/**
 * A dataset's colour options for one series in the colours `c`; `lone`: the chart has a single
 * bucket, whose point is drawn large (a line of one point draws nothing else).
 */
export function seriesStyle(
  type: 'bar' | 'line',
  colour: SeriesColour,
  c: ChartColours,
  lone: boolean,
): Record<string, string | number> {
  const fill = c[colour];
  if (type === 'bar') {
    // High contrast: every bar outlined in the theme's foreground, as its boxes are.
    return { backgroundColor: fill, borderColor: c.highContrast ? c.text : fill, borderWidth: c.highContrast ? 1 : 0 };
  }
  return {
    backgroundColor: fill,
    borderColor: fill,
    borderWidth: 2,
    pointRadius: lone ? 5 : 2,
    pointBackgroundColor: fill,
    pointBorderColor: fill,
  };
}

/** Puts the series' style into the dataset (before chart.update in the default mode). */
export function setSeriesStyle(
  dataset: ChartDataset,
  type: 'bar' | 'line',
  colour: SeriesColour,
  c: ChartColours,
  lone: boolean,
): void {
  Object.assign(dataset, seriesStyle(type, colour, c, lone));
}

/** Tick text, grid and axis lines in the theme's colours (applied before chart.update). */
export function applyAxisColours(chart: Chart, c: ChartColours): void {
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
