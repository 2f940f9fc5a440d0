/** The page's views, put together inside #app. */
import { ChartsView } from './charts/chartsView';
import { h } from './common/dom';
import { t } from './common/l10n';
import { type FormHandlers, FormView } from './form/formView';
import { CoverageView } from './panels/coverageView';
import { type PagingHandlers, PagingView } from './panels/pagingView';
import { StatusView } from './panels/statusView';
import { SummaryView } from './panels/summaryView';
import { TableView } from './table/tableView';

export interface LayoutHandlers extends FormHandlers, PagingHandlers {
  cancel(): void;
  sort(column: string): void;
}

export class Layout {
  readonly subtitle = h('p', { class: 'subtitle', attrs: { id: 'subtitle' } });
  readonly waiting = h('p', { class: 'waiting', text: t('page.waiting'), attrs: { role: 'status' } });
  readonly form: FormView;
  readonly status: StatusView;
  readonly paging: PagingView;
  readonly coverage: CoverageView;
  readonly summary = new SummaryView();
  readonly charts = new ChartsView();
  readonly table: TableView;
  readonly results: HTMLElement;
  readonly empty = h('p', { class: 'empty-result', text: t('page.noRowsMatch'), attrs: { id: 'empty-result' } });

  constructor(app: HTMLElement, handlers: LayoutHandlers) {
    this.form = new FormView(handlers);
    this.status = new StatusView(
      () => handlers.cancel(),
      (text) => handlers.copy(text),
    );
    this.paging = new PagingView(handlers);
    this.coverage = new CoverageView(() => handlers.fetchAll());
    this.table = new TableView((column) => handlers.sort(column));
    this.results = h(
      'section',
      { class: 'results', attrs: { 'aria-label': t('page.results'), id: 'results' } },
      this.paging.root,
      this.empty,
      this.coverage.root,
      h('h2', { class: 'visually-hidden', text: t('page.summaryHeading') }),
      this.summary.root,
      h('h2', { class: 'visually-hidden', text: t('page.chartsHeading') }),
      this.charts.root,
      h('h2', { class: 'visually-hidden', text: t('page.recordsHeading') }),
      this.table.root,
    );
    this.results.hidden = true;
    this.form.root.hidden = true;
    // One main landmark after the header: screen readers jump straight to the query and results.
    app.replaceChildren(
      h('header', { class: 'page-header' }, h('h1', { text: t('page.title') }), this.subtitle),
      h('main', {}, this.waiting, this.form.root, this.status.root, this.results),
    );
  }
}
