/**
 * The three charts over the date buckets. Chart.js is imported piece by piece and registered, so
 * the bundle carries only bar and line charts. Legend and hover read-out are plain HTML (see
 * create()): a fraction of the size of Chart.js's plugins, and themed by the stylesheet. No animations: they cost time on 10,000 rows and
 * are unkind to people who asked for reduced motion. The table is the charts' accessible twin.
 * A large result's charts are drawn after the frame that shows its figures and table (Chart.js's
 * layout and drawing of three charts is most of a first render); their words are set at once.
 * What each chart shows and its Chart.js set-up are in chartConfig.ts.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
} from 'chart.js';

import { type Coverage, coverageTag } from '../../model/pages';
import type { Bucket } from '../../model/series';
import { h } from '../common/dom';
import { t } from '../common/l10n';
import { type ChartColours, readColours } from '../common/theme';
import { applyAxisColours, type Palette, type SeriesColour } from './chartColours';
import { type ChartSpec, config, describe, readout, setDurationStep, SPECS, styleSeries } from './chartConfig';
import { type ChartProbe, installChartsProbe, probeChart } from './chartsProbe';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale);

/** One chart on screen, with the parts that say what it shows. */
interface Shown {
  spec: ChartSpec;
  chart: Chart;
  canvas: HTMLCanvasElement;
  /** " · first 100 of 1,020 rows" after the title while the figures are partial. */
  tag: HTMLElement;
  /** "No data" over an empty frame. */
  empty: HTMLElement;
  /** Each series' legend entry, to say which series has no value at all. */
  legendNotes: HTMLElement[];
  readout: HTMLElement;
  /** What the read-out says when the pointer is not on a bucket: the values of a lone bucket. */
  rest: { text: string };
  /** The legend swatches, in series order. */
  swatches: HTMLElement[];
}

export class ChartsView {
  readonly root = h('div', { class: 'charts' });
  private readonly charts: Shown[] = [];
  /** Legend swatches, coloured like their lines (theme colours made opaque, see colour.ts). */
  private readonly swatches: { el: HTMLElement; colour: SeriesColour }[] = [];
  private palette: Palette | undefined;
  /** New data waits to be drawn after the next frame (see drawAfterPaint). */
  private pending = false;

  constructor() {
    installChartsProbe(() => this.probe());
  }

  /** The charts as laid out now (see chartsProbe.ts); data still waiting is drawn first. */
  probe(): ChartProbe[] {
    if (this.pending) this.draw();
    return this.charts.map((c) => probeChart(c.spec.id, c.chart, c.swatches, this.palette?.current.background ?? ''));
  }

  /** `later`: draw after the next frame is painted (a large result's figures and table show first). */
  update(buckets: Bucket[], coverage: Coverage, later = false): void {
    const palette = (this.palette ??= { current: readColours() });
    if (this.charts.length === 0) this.create(palette);
    const labels = buckets.map((b) => b.label);
    const part = coverageTag(coverage);
    this.root.classList.toggle('partial', !coverage.complete);
    for (const shown of this.charts) {
      const { spec, chart, canvas } = shown;
      chart.data.labels = labels;
      const values = spec.series.map((s) => buckets.map(s.pick));
      values.forEach((data, i) => {
        const dataset = chart.data.datasets[i];
        if (dataset) dataset.data = data;
      });
      const known = values.map((data) => data.some((v) => v !== null));
      shown.legendNotes.forEach((note, i) => {
        note.textContent = known[i] ? '' : ` ${t('chart.noDataNote')}`;
      });
      shown.empty.hidden = known.some(Boolean);
      shown.tag.textContent = part;
      canvas.setAttribute('aria-label', describe(spec, buckets, known.some(Boolean), part));
      // A lone bucket: its value is said below the chart, and a line's single point drawn large.
      shown.rest.text = buckets.length === 1 ? readout(chart, 0, spec) : '';
      shown.readout.textContent = shown.rest.text;
      if (spec.duration) setDurationStep(chart, spec, buckets);
      styleSeries(chart, spec, palette.current);
    }
    if (later) this.drawAfterPaint();
    else this.draw();
  }

  private draw(): void {
    this.pending = false;
    const t0 = performance.now();
    // The default mode, not 'none': it refreshes the options the elements share (chartColours.ts).
    for (const { chart } of this.charts) chart.update();
    performance.measure('scrapedeck:charts-draw', { start: t0 });
  }

  /**
   * Draws once the next frame is painted: a frame callback runs before the paint, a message posted
   * from it after. Newer data before then is drawn in the same go; a hidden page draws when shown.
   */
  private drawAfterPaint(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        if (this.pending) this.draw();
      };
      channel.port2.postMessage(0);
    });
  }

  /** Re-reads the theme's colours and repaints. */
  retheme(): void {
    const colours = readColours();
    if (this.palette) this.palette.current = colours;
    // Drawn now, with any data still waiting.
    this.pending = false;
    for (const { chart, spec } of this.charts) {
      applyAxisColours(chart, colours);
      styleSeries(chart, spec, colours);
      chart.update();
    }
    this.paintSwatches(colours);
  }

  private paintSwatches(colours: ChartColours): void {
    for (const { el, colour } of this.swatches) el.style.backgroundColor = colours[colour];
  }

  private create(palette: Palette): void {
    const colours = palette.current;
    Chart.defaults.font.family = colours.font;
    for (const spec of SPECS) {
      const canvas = h('canvas', { attrs: { id: spec.id, role: 'img' } });
      canvas.textContent = t('chart.fallback', t(spec.title));
      // An HTML legend instead of Chart.js's plugin: smaller bundle, and its swatches take their
      // colours straight from the theme's CSS variables.
      const legendNotes = spec.series.map(() => h('span', { class: 'legend-note' }));
      const swatches = spec.series.map((s) => {
        const swatch = h('span', { class: `swatch swatch-${s.colour}`, attrs: { 'aria-hidden': 'true' } });
        this.swatches.push({ el: swatch, colour: s.colour });
        return swatch;
      });
      const legend = h(
        'ul',
        { class: 'legend' },
        ...spec.series.map((s, i) => h('li', {}, swatches[i] ?? '', t(s.label), legendNotes[i])),
      );
      const readoutEl = h('p', { class: 'readout' });
      const tag = h('span', { class: 'coverage-tag' });
      const empty = h('p', { class: 'chart-empty', text: t('chart.noData') });
      const caption = h('figcaption', {}, t(spec.title), tag);
      const figure = h(
        'figure',
        { class: 'chart' },
        caption,
        h('div', { class: 'chart-box' }, canvas, empty),
        legend,
        readoutEl,
      );
      this.root.append(figure);
      const rest = { text: '' };
      const chart = new Chart(canvas, config(spec, readoutEl, rest, palette));
      applyAxisColours(chart, colours);
      this.charts.push({ spec, chart, canvas, tag, empty, legendNotes, readout: readoutEl, rest, swatches });
    }
    this.paintSwatches(colours);
  }
}
