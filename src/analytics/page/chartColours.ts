/**
 * How the charts take the theme's colours. Series colours are scriptable options that read the
 * current palette at every update: Chart.js keeps plain element options it can share (bars, a
 * line's points) from their first resolve, and a 'none'-mode update never refreshes them, which
 * left bars in its default near-transparent grey or in the previous theme's colours while the
 * legend had moved on. Axis colours are plain options: Chart.js re-resolves those on update.
 */
import type { Chart, ScriptableContext } from 'chart.js';
import type { ChartColours } from './theme';

export type SeriesColour = 'success' | 'failure' | 'collected' | 'deduplicated' | 'duration';

/** The colours in force; retheme() replaces `current` and updates the charts. */
export interface Palette { current: ChartColours }

/** A dataset's colour options for one series, read from the palette at each update. */
export function seriesStyle(type: 'bar' | 'line', colour: SeriesColour, p: Palette): Record<string, unknown> {
  const fill = (): string => p.current[colour];
  if (type === 'bar') {
    return {
      backgroundColor: fill,
      // High contrast: every bar outlined in the theme's foreground, as its boxes are.
      borderColor: (): string => (p.current.highContrast ? p.current.text : fill()),
      borderWidth: (): number => (p.current.highContrast ? 1 : 0),
    };
  }
  return {
    backgroundColor: fill,
    borderColor: fill,
    borderWidth: 2,
    // Large when there is one bucket: a line of one point draws nothing else.
    pointRadius: (ctx: ScriptableContext<'line'>): number => ((ctx.chart.data.labels?.length ?? 0) === 1 ? 5 : 2),
    pointBackgroundColor: fill,
    pointBorderColor: fill,
  };
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
