/**
 * Running queries: Run, paging, "Fetch all pages" and Cancel. One query request is pending at a
 * time; starting another cancels it, and only the pending request's answer is shown.
 */
import type { AnalyticsQuery } from '../../api/schemas';
import { isFormField } from '../../analyticsModel/formState';
import type { HostMessage, ResultState, WireError } from '../protocol';
import type { PageContext } from './context';
import type { FormFlow } from './formFlow';
import type { Outcome } from './requests';
import type { RequestKind } from './state';

type Answer = Extract<HostMessage, { type: 'queryResult' | 'fetchAllResult' }>;

export class QueryFlow {
  constructor(private readonly c: PageContext, private readonly form: FormFlow) {}

  run(): void {
    const query = this.form.validQuery();
    if (query) this.start('query', { ...query, page: 1 });
  }

  fetchAll(): void {
    const query = this.form.validQuery();
    if (!query) return;
    // The biggest pages make the fewest requests against the rate limit.
    const { page: _page, ...rest } = query;
    this.start('fetchAll', { ...rest, pageSize: 100 });
  }

  goTo(page: number): void {
    const r = this.c.s.result;
    if (!r || r.mode !== 'page' || this.c.s.request) return;
    this.start('query', { ...r.query, page: Math.max(1, page) });
  }

  cancel(): void {
    const { s, ui, requests } = this.c;
    const r = s.request;
    if (!r) return;
    requests.cancel(r.id);
    s.request = undefined;
    s.notice = r.kind === 'fetchAll' ? 'Fetching all pages was cancelled.' : 'The query was cancelled.';
    ui.status.update(s);
    ui.paging.update(s.result, false);
  }

  private async start(kind: RequestKind, query: AnalyticsQuery): Promise<void> {
    const { s, ui, requests } = this.c;
    if (s.request) requests.cancel(s.request.id);
    const { id, done }: { id: string; done: Promise<Outcome<Answer>> } = kind === 'query'
      ? requests.send({ type: 'query', query })
      : requests.send({ type: 'fetchAll', query }, (p) => {
        if (s.request?.id !== p.id) return;
        s.request = { ...s.request, fetched: p.fetched, total: p.total };
        ui.status.update(s);
      });
    s.request = { id, kind };
    s.error = undefined;
    s.formError = undefined;
    s.notice = undefined;
    ui.form.showServerError(undefined);
    ui.status.update(s);
    ui.paging.update(s.result, true);
    const outcome = await done;
    if (s.request?.id !== id) return; // cancelled or replaced: its answer is stale
    if (outcome.ok) this.show(outcome.reply);
    else this.failed(kind, outcome.error);
  }

  private show(m: Answer): void {
    const fetchedAt = new Date().toISOString();
    if (m.type === 'queryResult') {
      const requestIds = m.requestId ? [m.requestId] : [];
      this.showResult({ mode: 'page', query: m.query, total: m.page.total, records: m.page.data, requestIds, fetchedAt, resultId: m.resultId });
    } else {
      this.showResult({ mode: 'all', query: m.query, total: m.total, records: m.records, requestIds: m.requestIds, fetchedAt, resultId: m.resultId });
    }
  }

  private showResult(result: ResultState): void {
    const { s, ui } = this.c;
    performance.clearMarks('scrapedeck:render-start');
    performance.mark('scrapedeck:render-start');
    performance.measure('scrapedeck:parse', 'scrapedeck:received', 'scrapedeck:render-start');
    s.request = undefined;
    s.result = result;
    s.resultDropped = false;
    s.error = undefined;
    if (s.form && result.mode === 'page') s.form = { ...s.form, page: result.query.page ?? 1 };
    this.c.results.render(s);
    ui.status.update(s);
    // From arrival (parse included) to the DOM and charts built.
    performance.measure('scrapedeck:render', 'scrapedeck:received');
    this.c.save();
  }

  private failed(kind: RequestKind, error: WireError): void {
    const { s, ui } = this.c;
    const action = kind === 'fetchAll' ? 'Fetching all pages' : 'The query';
    s.request = undefined;
    if (error.kind === 'cancelled') {
      // Not the page's own Cancel (that settles quietly): the host stopped it, e.g. an account
      // change closed the client mid-fetch. Stop waiting and say so.
      s.notice = `${action} was stopped: ${error.message}`;
    } else if (error.kind === 'invalid-request') {
      // The server refused the parameters: explain it where they were typed.
      s.formError = { error, action };
      if (error.field && isFormField(error.field)) {
        const field = error.field;
        s.issues = { ...s.issues, [field]: [...(s.issues[field] ?? []), error.message] };
        ui.form.showIssues(s.issues);
      }
      ui.form.showServerError(s.formError);
    } else {
      s.error = { error, action };
    }
    ui.status.update(s);
    ui.paging.update(s.result, false);
  }
}
