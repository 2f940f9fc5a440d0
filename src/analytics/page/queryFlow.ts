/**
 * Running queries: Run query shows the first 100 rows at once and fetches the rest of the query
 * in the background (up to the host's autoFetchRows setting); "Fetch all pages" goes on to every
 * row; Cancel stops whatever is pending. One request is pending at a time: a new one cancels it,
 * and only the pending request's answer is shown, so nothing late lands in a newer result.
 */
import { formatInt } from '../model/format';
import { isFormField } from '../model/formState';
import type { PageStringKey } from '../model/pageStrings';
import type { HostMessage, PageMessage, ResultState, WireError } from '../protocol';
import { ANALYTICS_LIMITS, type AnalyticsQuery } from '../protocol/wire';
import { t } from './common/l10n';
import { isComplete, type RequestKind } from './common/state';
import type { PageContext } from './context';
import type { FormFlow } from './formFlow';
import type { Outcome, Progress } from './requests';

type Answer = Extract<HostMessage, { type: 'queryResult' | 'fetchAllResult' }>;
type Ask = Omit<Extract<PageMessage, { type: 'query' }>, 'id'> | Omit<Extract<PageMessage, { type: 'fetchAll' }>, 'id'>;

const ACTION: Record<RequestKind, PageStringKey> = {
  query: 'action.query',
  rest: 'action.rest',
  fetchAll: 'action.fetchAll',
};

/** The query as it is asked: from page 1, 100 rows a page (the fewest requests); the table pages locally. */
function firstPage(query: AnalyticsQuery): AnalyticsQuery {
  return { ...query, page: 1, pageSize: ANALYTICS_LIMITS.pageSizeMax };
}

const sameRows = (a: AnalyticsQuery, b: AnalyticsQuery): boolean =>
  JSON.stringify(firstPage(a)) === JSON.stringify(firstPage(b));

export class QueryFlow {
  constructor(
    private readonly c: PageContext,
    private readonly form: FormFlow,
  ) {}

  run(): void {
    const query = this.form.validQuery();
    if (!query) return;
    // The page benchmark measures from here to the whole query's figures.
    performance.clearMarks('scrapedeck:run');
    performance.mark('scrapedeck:run');
    void this.ask('query', firstPage(query));
  }

  /** Every row: the result on screen goes on from the rows it has; another query starts over. */
  fetchAll(): void {
    const query = this.form.validQuery();
    if (!query) return;
    const r = this.c.s.result;
    if (r && r.resultId !== undefined && !isComplete(r) && sameRows(r.query, query)) void this.rest(r, 'all');
    else void this.ask('fetchAll', firstPage(query));
  }

  /** After a reload: a result whose rows were not all kept (or not all fetched) gets them again. */
  resume(): void {
    const { s, ui } = this.c;
    const r = s.result;
    if (!r || isComplete(r)) return;
    void this.rest(r, 'auto');
    if (s.resultDropped) {
      s.notice = t('notice.droppedRows', formatInt(r.total));
      ui.status.update(s);
    }
  }

  cancel(): void {
    const { s, requests } = this.c;
    const r = s.request;
    if (!r) return;
    requests.cancel(r.id);
    s.request = undefined;
    s.notice = t('notice.cancelled', t(ACTION[r.kind]));
    this.c.results.render(s);
    this.c.ui.status.update(s);
  }

  /**
   * Run query (the host goes on to the rest by itself, under the same id), or Fetch all pages of a
   * query not on screen.
   */
  private async ask(kind: 'query' | 'fetchAll', query: AnalyticsQuery): Promise<void> {
    const { s } = this.c;
    const done = this.send(
      kind,
      kind === 'query' ? { type: 'query', query, rest: 'auto' } : { type: 'fetchAll', query, scope: 'all' },
    );
    const outcome = await done.outcome;
    if (s.request?.id !== done.id) return; // cancelled or replaced: its answer is stale
    if (!outcome.ok) return this.failed(kind, outcome.error);
    const result = resultOf(outcome.reply);
    const more = outcome.reply.type === 'queryResult' && !isComplete(result);
    // The rest is already on its way under this id: wait for it, with its progress shown. Nothing
    // may be awaited before `expect`: its first progress (with rows) can be the next message.
    const rest = more ? this.c.requests.expect(done.id, 'fetchAll', (p) => this.progress(p)) : undefined;
    s.request = more ? { id: done.id, kind: 'rest', fetched: result.records.length, total: result.total } : undefined;
    this.show(result, true);
    if (rest) await this.restArrived(done.id, rest);
  }

  /** The rest of `result`'s rows, in the background; the result stays on screen meanwhile. */
  private async rest(result: ResultState, scope: 'auto' | 'all'): Promise<void> {
    const done = this.send('rest', { type: 'fetchAll', query: result.query, resultId: result.resultId, scope });
    const s = this.c.s;
    if (s.request) Object.assign(s.request, { fetched: result.records.length, total: result.total });
    this.c.ui.status.update(s);
    await this.restArrived(done.id, done.outcome);
  }

  private async restArrived(id: string, answer: Promise<Outcome<Answer>>): Promise<void> {
    const s = this.c.s;
    const outcome = await answer;
    if (s.request?.id !== id) return;
    if (!outcome.ok) return this.failed('rest', outcome.error);
    s.request = undefined;
    this.show(resultOf(outcome.reply), s.result?.resultId !== outcome.reply.resultId);
  }

  private progress(p: Progress): void {
    const { s, ui } = this.c;
    if (s.request?.id !== p.id) return;
    Object.assign(s.request, { fetched: p.fetched, total: p.total, target: p.target });
    ui.status.update(s);
  }

  /** Sends a request as the one pending (cancelling the one before), with its progress shown. */
  private send(kind: RequestKind, ask: Ask): { id: string; outcome: Promise<Outcome<Answer>> } {
    const { s, ui, requests } = this.c;
    if (s.request) requests.cancel(s.request.id);
    const onProgress = (p: Progress): void => this.progress(p);
    const { id, done }: { id: string; done: Promise<Outcome<Answer>> } =
      ask.type === 'query' ? requests.send(ask) : requests.send(ask, onProgress);
    s.request = { id, kind };
    s.error = undefined;
    s.formError = undefined;
    s.notice = undefined;
    ui.form.showServerError(undefined);
    ui.status.update(s);
    this.c.results.render(s);
    return { id, outcome: done };
  }

  /** Puts a result on screen; a new query's starts at the table's first page. */
  private show(result: ResultState, newQuery: boolean): void {
    const { s, ui } = this.c;
    performance.clearMarks('scrapedeck:render-start');
    performance.mark('scrapedeck:render-start');
    performance.measure('scrapedeck:parse', 'scrapedeck:received', 'scrapedeck:render-start');
    s.result = result;
    s.resultDropped = false;
    if (newQuery && s.form) s.form = { ...s.form, page: 1 };
    this.c.results.render(s);
    ui.status.update(s);
    // From arrival (parse included) to the DOM and charts built.
    performance.measure('scrapedeck:render', 'scrapedeck:received');
    if (s.request === undefined && performance.getEntriesByName('scrapedeck:run').length > 0) {
      performance.measure('scrapedeck:whole-query', 'scrapedeck:run');
    }
    this.c.save();
  }

  private failed(kind: RequestKind, error: WireError): void {
    const { s, ui } = this.c;
    const action = t(ACTION[kind]);
    s.request = undefined;
    if (error.kind === 'cancelled') {
      // Not the page's own Cancel (that settles quietly): the host stopped it, e.g. the account
      // changed. Stop waiting and say so; a partial result keeps saying what it covers.
      s.notice = t('notice.stopped', action, error.message);
    } else if (error.kind === 'invalid-request' && kind !== 'rest') {
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
    this.c.results.render(s);
    ui.status.update(s);
  }
}

function resultOf(m: Answer): ResultState {
  const fetchedAt = new Date().toISOString();
  if (m.type === 'queryResult') {
    const requestIds = m.requestId ? [m.requestId] : [];
    return { query: m.query, total: m.page.total, records: m.page.data, requestIds, fetchedAt, resultId: m.resultId };
  }
  return {
    query: m.query,
    total: m.total,
    records: m.records,
    requestIds: m.requestIds,
    fetchedAt,
    resultId: m.resultId,
  };
}
