/** The summary figures above the charts, marked when they cover only the first rows of the query. */
import { DASH, formatDuration, formatInt, formatDecimal, formatPercent } from '../../analyticsModel/format';
import { coverageTag, type Coverage } from '../../analyticsModel/pages';
import type { Summary } from '../../analyticsModel/summary';
import { h } from './dom';

interface Figure {
  id: string;
  label: string;
  value(s: Summary): string;
  title(s: Summary): string;
}

const FIGURES: Figure[] = [
  { id: 'runs', label: 'Runs', value: (s) => formatInt(s.runs), title: () => 'Total runs over the rows fetched' },
  {
    id: 'successRate',
    label: 'Success rate',
    value: (s) => formatPercent(s.successRate),
    title: (s) => `Successful runs ÷ runs, over the ${formatInt(s.successRateRows)} of ${formatInt(s.rows)} rows that report both`,
  },
  { id: 'failures', label: 'Failures', value: (s) => formatInt(s.failures), title: () => 'Failed runs over the rows fetched' },
  { id: 'collected', label: 'Records collected', value: (s) => formatInt(s.collected), title: () => 'Total records collected' },
  { id: 'deduplicated', label: 'After dedup', value: (s) => formatInt(s.deduplicated), title: () => 'Records remaining after deduplication' },
  { id: 'time', label: 'Execution time', value: (s) => formatDuration(s.totalExecutionSeconds), title: () => 'Total execution time' },
  { id: 'proxy', label: 'Proxy IPs', value: (s) => formatDecimal(s.proxyIps), title: () => 'Proxy IP usage' },
  { id: 'captchas', label: 'CAPTCHAs', value: (s) => formatInt(s.captchas), title: () => 'CAPTCHAs processed' },
  { id: 'cost', label: 'Cost', value: (s) => formatDecimal(s.cost), title: () => 'Resource cost (balance)' },
];

export class SummaryView {
  readonly root = h('dl', { class: 'summary', attrs: { id: 'summary', 'aria-label': 'Summary of the rows fetched' } });
  private readonly values = new Map<string, HTMLElement>();
  private readonly boxes = new Map<string, HTMLElement>();

  constructor() {
    for (const f of FIGURES) {
      const value = h('dd', { attrs: { 'data-figure': f.id } });
      const box = h('div', { class: 'figure' }, h('dt', { text: f.label }), value);
      this.values.set(f.id, value);
      this.boxes.set(f.id, box);
      this.root.append(box);
    }
  }

  update(summary: Summary, coverage: Coverage): void {
    const part = coverageTag(coverage);
    this.root.classList.toggle('partial', !coverage.complete);
    this.root.setAttribute('aria-label', part ? `Summary of the ${part}` : 'Summary of every row of the query');
    for (const f of FIGURES) {
      const value = this.values.get(f.id);
      const box = this.boxes.get(f.id);
      if (!value || !box) continue;
      const text = f.value(summary);
      value.textContent = text;
      // A dash is "unknown", not zero: say why it is there. A partial figure says so too.
      const title = text === DASH ? `${f.title(summary)}. No row reports it.` : f.title(summary);
      box.title = part ? `${title} (the ${part} only)` : title;
    }
  }
}
