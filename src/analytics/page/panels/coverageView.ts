/**
 * What the summary and charts cover: all rows of the query, or the first N of M, with "Fetch all
 * pages" while they are not all here. Figures never pass for totals when they are not.
 */
import { type Coverage, coverageText } from '../../model/pages';
import { button, h } from '../common/dom';
import { t } from '../common/l10n';

export class CoverageView {
  readonly root: HTMLElement;
  private readonly text = h('span', { attrs: { id: 'coverage-text' } });
  private readonly fetchAll: HTMLButtonElement;

  constructor(fetchAll: () => void) {
    this.fetchAll = button(t('form.fetchAll'), fetchAll, { class: 'secondary', attrs: { id: 'coverage-fetch-all' } });
    this.root = h('p', { class: 'coverage', attrs: { id: 'coverage', role: 'status' } }, this.text, ' ', this.fetchAll);
  }

  /** `fetching`: the rest is on its way (progress shows above), so there is nothing to offer. */
  update(c: Coverage, fetching: boolean): void {
    this.root.classList.toggle('partial', !c.complete);
    this.root.dataset.complete = String(c.complete);
    this.text.textContent =
      c.complete || !fetching ? coverageText(c) : `${coverageText(c)} ${t('coverage.fetchingRest')}`;
    this.fetchAll.hidden = c.complete || fetching;
  }
}
