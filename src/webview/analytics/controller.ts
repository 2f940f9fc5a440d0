/**
 * The page's behaviour: host messages and user actions change the state, then the affected views
 * re-render and the state is saved. Replies go to the request they answer (requests.ts); the
 * flows own what each action does (formFlow, queryFlow, actions).
 */
import { isDay, todayUtc } from '../../api/dates';
import { defaultForm } from '../../analyticsModel/formModel';
import { parseHostMessage, type HostMessage } from '../protocol';
import { Actions } from './actions';
import { PageContext } from './context';
import { FormFlow } from './formFlow';
import type { Host } from './host';
import { Layout } from './layout';
import { QueryFlow } from './queryFlow';
import { Requests } from './requests';
import { ResultsRenderer } from './resultsRenderer';
import { initialState, isComplete, validPageSize } from './state';

export class Controller {
  private readonly c: PageContext;
  private readonly form: FormFlow;
  private readonly queries: QueryFlow;
  private readonly actions: Actions;

  constructor(private readonly host: Host, app: HTMLElement) {
    // The handlers run on user events, after the flows below exist.
    const ui = new Layout(app, {
      change: (values) => this.form.change(values),
      run: () => this.queries.run(),
      fetchAll: () => this.queries.fetchAll(),
      pickTasks: () => void this.actions.pickTasks(),
      clearTasks: () => this.form.update({ taskIds: [], taskLabels: [] }),
      copy: (text) => this.actions.copy(text),
      goTo: (page) => this.actions.goTo(page),
      exportAs: (format) => void this.actions.exportAs(format),
      cancel: () => this.queries.cancel(),
      sort: (column) => this.actions.sort(column),
    });
    const requests = new Requests((m) => host.post(m));
    this.c = new PageContext(initialState(), ui, host, requests, new ResultsRenderer(ui));
    this.form = new FormFlow(this.c);
    this.queries = new QueryFlow(this.c, this.form);
    this.actions = new Actions(this.c, this.form);
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
    this.c.ui.charts.retheme();
  }

  private apply(m: HostMessage): void {
    switch (m.type) {
      case 'init': return this.init(m);
      case 'signedIn': {
        const { s, ui } = this.c;
        s.signedIn = m.signedIn;
        s.notice = m.signedIn ? undefined : 'You are signed out. Sign in from the Scrapedeck view to run queries.';
        return ui.status.update(s);
      }
      default:
        this.c.requests.settle(m); // an answer nobody waits for any more is stale: dropped
    }
  }

  private init(m: Extract<HostMessage, { type: 'init' }>): void {
    const { s, ui } = this.c;
    const today = isDay(m.today) ? m.today : todayUtc();
    const first = s.today === undefined;
    s.today = today;
    if (first) {
      // This page's own last state is the freshest; the host's copy serves after a reload.
      const restored = this.host.restore() ?? m.state;
      s.preset = restored?.preset ?? m.preset;
      s.form = restored?.form ?? defaultForm(today, s.preset);
      s.result = restored?.result;
      s.sort = restored?.sort;
      s.pageSize = validPageSize(s.form) ?? s.pageSize;
      const r = s.result;
      // Its rows were too many to keep: the page shows nothing of it until they are back.
      s.resultDropped = r !== undefined && r.records.length === 0 && r.total > 0;
    }
    ui.waiting.hidden = true;
    ui.form.root.hidden = false;
    ui.subtitle.textContent = s.preset?.label ? `For ${s.preset.label}` : '';
    s.issues = s.form ? this.form.issuesOf(s.form) : {};
    this.form.render();
    this.c.results.render(s);
    ui.status.update(s);
    this.c.save();
    // A result whose rows were not all kept, or not all fetched yet, gets the rest (the host
    // still holds them unless VS Code was restarted; then it asks the service again).
    if (first && s.result && !isComplete(s.result)) this.queries.resume();
  }
}
