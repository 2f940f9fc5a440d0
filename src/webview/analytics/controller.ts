/**
 * The page's behaviour: user actions and host messages change the state, then the affected
 * views re-render and the state is saved. Replies are matched to the request they answer by
 * id; a reply to anything but the pending request is stale and ignored.
 */
import type { AnalyticsQuery } from '../../api/schemas';
import { isDay, todayUtc } from '../../api/dates';
import { checkForm, defaultForm, type FormField, type FormIssues, type FormValues } from '../../analyticsModel/form-model';
import { nextSort } from '../../analyticsModel/table-model';
import { parseHostMessage } from '../../analyticsModel/host-message';
import type { HostMessage, ResultState, WireError } from '../protocol';
import type { Host } from './host';
import { Layout } from './layout';
import { ResultsRenderer } from './results-renderer';
import { initialState, toPageState, type AppState, type RequestKind } from './state';

const FORM_FIELDS = new Set<string>(['start', 'end', 'timeGranularity', 'collectionMethod', 'taskIds', 'memberNames', 'pageSize', 'page']);

export class Controller {
  private readonly s: AppState = initialState();
  private readonly ui: Layout;
  private readonly results: ResultsRenderer;

  constructor(private readonly host: Host, app: HTMLElement) {
    this.ui = new Layout(app, {
      change: (form, field) => this.change(form, field),
      run: () => this.run(),
      fetchAll: () => this.fetchAll(),
      pickTasks: () => this.pickTasks(),
      clearTasks: () => this.updateForm({ taskIds: [], taskLabels: [] }),
      copy: (text) => this.copy(text),
      goTo: (page) => this.goTo(page),
      exportAs: (format) => this.exportAs(format),
      cancel: () => this.cancel(),
      sort: (column) => this.sort(column),
    });
    this.results = new ResultsRenderer(this.ui);
  }

  /** Entry point of every message event: parse, apply, never throw. */
  receive(raw: unknown): void {
    try {
      // Timings the page benchmark reads (performance.measure); cleared so they never pile up.
      performance.clearMarks('scrapedeck:received');
      performance.mark('scrapedeck:received');
      const parsed = parseHostMessage(raw);
      if (!parsed.ok) {
        this.host.log('warn', `Analytics page ignored a malformed message (${parsed.reason})`);
        return;
      }
      this.apply(parsed.message);
    } catch (error) {
      this.host.log('error', `Analytics page failed to handle a message: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  retheme(): void {
    this.ui.charts.retheme();
  }

  private apply(m: HostMessage): void {
    switch (m.type) {
      case 'init': return this.init(m);
      case 'queryResult':
        if (this.s.request?.id !== m.id) return;
        return this.showResult({
          mode: 'page', query: m.query, total: m.page.total, records: m.page.data,
          requestIds: m.requestId ? [m.requestId] : [], fetchedAt: new Date().toISOString(),
        });
      case 'fetchAllProgress':
        if (this.s.request?.id !== m.id) return;
        this.s.request = { ...this.s.request, fetched: m.fetched, total: m.total };
        return this.ui.status.update(this.s);
      case 'fetchAllResult':
        if (this.s.request?.id !== m.id) return;
        return this.showResult({
          mode: 'all', query: m.query, total: m.total, records: m.records, requestIds: m.requestIds, fetchedAt: new Date().toISOString(),
        });
      case 'tasksPicked':
        if (this.s.pickId !== m.id) return;
        this.s.pickId = undefined;
        return this.updateForm({ taskIds: m.taskIds, taskLabels: m.taskLabels });
      case 'exportDone':
        if (this.s.exportId !== m.id) return;
        this.s.exportId = undefined;
        this.s.notice = `Exported to ${m.path}`;
        return this.ui.status.update(this.s);
      case 'error': return this.failed(m.id, m.error);
      case 'signedIn':
        this.s.signedIn = m.signedIn;
        this.s.notice = m.signedIn ? undefined : 'You are signed out. Sign in from the Scrapedeck view to run queries.';
        return this.ui.status.update(this.s);
    }
  }

  private init(m: Extract<HostMessage, { type: 'init' }>): void {
    const today = isDay(m.today) ? m.today : todayUtc();
    const first = this.s.today === undefined;
    this.s.today = today;
    if (first) {
      // This page's own last state is the freshest; the host's copy serves after a reload.
      const restored = this.host.restore() ?? m.state;
      this.s.preset = restored?.preset ?? m.preset;
      this.s.form = restored?.form ?? defaultForm(today, this.s.preset);
      this.s.result = restored?.result;
      this.s.sort = restored?.sort;
      const r = this.s.result;
      if (r && r.mode === 'all' && r.records.length === 0 && r.total > 0) {
        this.s.resultDropped = true;
        this.s.notice = `The ${r.total.toLocaleString('en-US')} rows fetched before were too many to keep across a reload. Fetch all pages again to see them.`;
      }
    }
    this.ui.waiting.hidden = true;
    this.ui.form.root.hidden = false;
    this.ui.subtitle.textContent = this.s.preset?.label ? `For ${this.s.preset.label}` : '';
    this.s.issues = this.s.form ? this.issuesOf(this.s.form) : {};
    this.renderForm();
    this.results.render(this.s);
    this.ui.status.update(this.s);
    this.save();
  }

  private change(form: FormValues, _field: FormField): void {
    // A different query starts again at its first page.
    this.s.form = { ...form, page: 1 };
    this.s.issues = this.issuesOf(this.s.form);
    this.ui.form.showIssues(this.s.issues);
    this.save();
  }

  private updateForm(patch: Partial<FormValues>): void {
    if (!this.s.form) return;
    this.change({ ...this.s.form, ...patch }, 'taskIds');
    this.renderForm();
  }

  private run(): void {
    const query = this.validQuery();
    if (query) this.startRequest('query', { ...query, page: 1 });
  }

  private fetchAll(): void {
    const query = this.validQuery();
    if (!query) return;
    // The biggest pages make the fewest requests against the rate limit.
    const { page: _page, ...rest } = query;
    this.startRequest('fetchAll', { ...rest, pageSize: 100 });
  }

  private goTo(page: number): void {
    const r = this.s.result;
    if (!r || r.mode !== 'page' || this.s.request) return;
    this.startRequest('query', { ...r.query, page: Math.max(1, page) });
  }

  /** The query the form describes, or undefined after showing why it cannot be sent. */
  private validQuery(): AnalyticsQuery | undefined {
    if (!this.s.form || !this.s.today) return undefined;
    const check = checkForm(this.s.form, this.s.today);
    this.s.issues = check.ok ? {} : check.issues;
    this.ui.form.showIssues(this.s.issues);
    if (check.ok) return check.query;
    this.ui.form.focusFirstIssue(this.s.issues);
    return undefined;
  }

  private startRequest(kind: RequestKind, query: AnalyticsQuery): void {
    if (this.s.request) this.host.post({ type: 'cancel', id: this.s.request.id });
    const id = this.host.nextId(kind);
    this.s.request = { id, kind };
    this.s.error = undefined;
    this.s.formError = undefined;
    this.s.notice = undefined;
    this.host.post(kind === 'query' ? { type: 'query', id, query } : { type: 'fetchAll', id, query });
    this.ui.form.showServerError(undefined);
    this.ui.status.update(this.s);
    this.ui.paging.update(this.s.result, true);
  }

  private cancel(): void {
    const r = this.s.request;
    if (!r) return;
    this.host.post({ type: 'cancel', id: r.id });
    this.s.request = undefined;
    this.s.notice = r.kind === 'fetchAll' ? 'Fetching all pages was cancelled.' : 'The query was cancelled.';
    this.ui.status.update(this.s);
    this.ui.paging.update(this.s.result, false);
  }

  private showResult(result: ResultState): void {
    performance.clearMarks('scrapedeck:render-start');
    performance.mark('scrapedeck:render-start');
    performance.measure('scrapedeck:parse', 'scrapedeck:received', 'scrapedeck:render-start');
    this.s.request = undefined;
    this.s.result = result;
    this.s.resultDropped = false;
    this.s.error = undefined;
    if (this.s.form && result.mode === 'page') this.s.form = { ...this.s.form, page: result.query.page ?? 1 };
    this.results.render(this.s);
    this.ui.status.update(this.s);
    // From arrival (parse included) to the DOM and charts built.
    performance.measure('scrapedeck:render', 'scrapedeck:received');
    this.save();
  }

  private failed(id: string, error: WireError): void {
    if (error.kind === 'cancelled') return this.dismissed(id, error);
    if (this.s.request?.id === id) {
      const action = this.s.request.kind === 'fetchAll' ? 'Fetching all pages' : 'The query';
      this.s.request = undefined;
      if (error.kind === 'invalid-request') {
        // The server refused the parameters: explain it where they were typed.
        this.s.formError = { error, action };
        if (error.field && FORM_FIELDS.has(error.field)) {
          const field = error.field as FormField;
          this.s.issues = { ...this.s.issues, [field]: [...(this.s.issues[field] ?? []), error.message] };
          this.ui.form.showIssues(this.s.issues);
        }
        this.ui.form.showServerError(this.s.formError);
      } else {
        this.s.error = { error, action };
      }
      this.ui.paging.update(this.s.result, false);
    } else if (this.s.pickId === id) {
      this.s.pickId = undefined;
      this.s.error = { error, action: 'Choosing tasks' };
    } else if (this.s.exportId === id) {
      this.s.exportId = undefined;
      this.s.notice = undefined;
      this.s.error = { error, action: 'The export' };
    } else {
      return; // stale: the request it answers was cancelled or replaced
    }
    this.ui.status.update(this.s);
  }

  /**
   * 'cancelled' settles quietly: the user dismissed a dialog (quick pick, save), so nothing failed.
   * For the running query it came from the host (the page's own Cancel clears the request first):
   * an account change closed the client mid-fetch. Stop waiting and say so.
   */
  private dismissed(id: string, error: WireError): void {
    if (this.s.request?.id === id) {
      const action = this.s.request.kind === 'fetchAll' ? 'Fetching all pages' : 'The query';
      this.s.request = undefined;
      this.s.notice = `${action} was stopped: ${error.message}`;
      this.ui.status.update(this.s);
      this.ui.paging.update(this.s.result, false);
      return;
    }
    if (this.s.pickId === id) this.s.pickId = undefined;
    if (this.s.exportId === id) {
      this.s.exportId = undefined;
      this.s.notice = undefined;
      this.ui.status.update(this.s);
    }
  }

  private pickTasks(): void {
    if (!this.s.form) return;
    this.s.pickId = this.host.nextId('pick');
    this.host.post({ type: 'pickTasks', id: this.s.pickId, selected: this.s.form.taskIds.slice(0, 100) });
  }

  private exportAs(format: 'csv' | 'json'): void {
    const r = this.s.result;
    if (!r || r.records.length === 0) return;
    this.s.exportId = this.host.nextId('export');
    this.host.post({ type: 'export', id: this.s.exportId, format, query: r.query, records: r.records });
    this.s.notice = `Exporting ${r.records.length.toLocaleString('en-US')} rows as ${format.toUpperCase()}…`;
    this.ui.status.update(this.s);
  }

  private copy(text: string): void {
    if (!text) return;
    this.host.post({ type: 'copy', text: text.slice(0, 1000) });
  }

  private sort(column: string): void {
    if (!this.s.result) return;
    performance.clearMarks('scrapedeck:sort-start');
    performance.mark('scrapedeck:sort-start');
    this.s.sort = nextSort(this.s.sort, column);
    this.ui.table.update(this.s.result.records, this.s.sort);
    performance.measure('scrapedeck:sort', 'scrapedeck:sort-start');
    this.save();
  }

  private issuesOf(form: FormValues): FormIssues {
    if (!this.s.today) return {};
    const check = checkForm(form, this.s.today);
    return check.ok ? {} : check.issues;
  }

  private renderForm(): void {
    if (!this.s.form || !this.s.today) return;
    this.ui.form.setValues(this.s.form, this.s.today);
    this.ui.form.showIssues(this.s.issues);
    this.ui.form.showServerError(this.s.formError);
  }

  private save(): void {
    this.host.save(toPageState(this.s));
  }
}
