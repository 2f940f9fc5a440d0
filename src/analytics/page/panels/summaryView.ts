/** The summary figures above the charts, marked when they cover only the first rows of the query. */
import { DASH, formatDecimal, formatDuration, formatInt, formatPercent } from '../../model/format';
import { type Coverage, coverageTag } from '../../model/pages';
import type { PageStringKey } from '../../model/pageStrings';
import type { Summary } from '../../model/summary';
import { h } from '../common/dom';
import { t } from '../common/l10n';

/** Words are the table's keys: the figures are listed before the page has its table. */
interface Figure {
  id: string;
  label: PageStringKey;
  value(s: Summary): string;
  title(s: Summary): string;
}

const FIGURES: Figure[] = [
  { id: 'runs', label: 'summary.runs', value: (s) => formatInt(s.runs), title: () => t('summary.runsTitle') },
  {
    id: 'successRate',
    label: 'summary.successRate',
    value: (s) => formatPercent(s.successRate),
    title: (s) => t('summary.successRateTitle', formatInt(s.successRateRows), formatInt(s.rows)),
  },
  {
    id: 'failures',
    label: 'summary.failures',
    value: (s) => formatInt(s.failures),
    title: () => t('summary.failuresTitle'),
  },
  {
    id: 'collected',
    label: 'summary.collected',
    value: (s) => formatInt(s.collected),
    title: () => t('summary.collectedTitle'),
  },
  {
    id: 'deduplicated',
    label: 'summary.deduplicated',
    value: (s) => formatInt(s.deduplicated),
    title: () => t('summary.deduplicatedTitle'),
  },
  {
    id: 'time',
    label: 'summary.time',
    value: (s) => formatDuration(s.totalExecutionSeconds),
    title: () => t('summary.timeTitle'),
  },
  {
    id: 'proxy',
    label: 'summary.proxy',
    value: (s) => formatDecimal(s.proxyIps),
    title: () => t('summary.proxyTitle'),
  },
  {
    id: 'captchas',
    label: 'summary.captchas',
    value: (s) => formatInt(s.captchas),
    title: () => t('summary.captchasTitle'),
  },
  { id: 'cost', label: 'summary.cost', value: (s) => formatDecimal(s.cost), title: () => t('summary.costTitle') },
];

export class SummaryView {
  readonly root = h('dl', { class: 'summary', attrs: { id: 'summary', 'aria-label': t('summary.label') } });
  private readonly values = new Map<string, HTMLElement>();
  private readonly boxes = new Map<string, HTMLElement>();

  constructor() {
    for (const f of FIGURES) {
      const value = h('dd', { attrs: { 'data-figure': f.id } });
      const box = h('div', { class: 'figure' }, h('dt', { text: t(f.label) }), value);
      this.values.set(f.id, value);
      this.boxes.set(f.id, box);
      this.root.append(box);
    }
  }

  update(summary: Summary, coverage: Coverage): void {
    const part = coverageTag(coverage);
    this.root.classList.toggle('partial', !coverage.complete);
    this.root.setAttribute('aria-label', part ? t('summary.labelPart', part) : t('summary.labelAll'));
    for (const f of FIGURES) {
      const value = this.values.get(f.id);
      const box = this.boxes.get(f.id);
      if (!value || !box) continue;
      const text = f.value(summary);
      value.textContent = text;
      // A dash is "unknown", not zero: say why it is there. A partial figure says so too.
      const title = text === DASH ? t('summary.noRow', f.title(summary)) : f.title(summary);
      box.title = part ? t('summary.partOnly', title, part) : title;
    }
  }
}
