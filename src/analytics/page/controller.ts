/**
 * The page's behaviour: host messages and user actions change the state, then the affected views
 * re-render and the state is saved. Replies go to the request they answer (requests.ts); the
 * flows own what each action does (formFlow, queryFlow, actions).
 */
import { defaultForm } from '../model/formModel';
import { forAccount, forgetAccount, holdsAccountData, type HostMessage, parseHostMessage } from '../protocol';
import { isDay, todayUtc } from '../protocol/wire';
import { Actions } from './actions';
import { t } from './common/l10n';
import { initialState, isComplete, toPageState, validPageSize } from './common/state';
import { PageContext } from './context';
import { addHostNames, labelFromHost } from './form/chipLabels';
import { FormFlow } from './formFlow';
import type { Host } from './host';
import { Layout } from './layout';
import { QueryFlow } from './queryFlow';
import { Requests } from './requests';
import { ResultsRenderer } from './resultsRenderer';

/** Why the page is empty after an account change: said, so nobody wonders where the figures went. */
function clearedNotice(signedIn: boolean): string {
  return signedIn ? t('notice.accountChanged') : t('notice.signedOutCleared');
}

export class Controller {
  private readonly c: PageContext;
  private readonly form: FormFlow;
  private readonly queries: QueryFlow;
  private readonly actions: Actions;

  constructor(
    private readonly host: Host,
    app: HTMLElement,
  ) {
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
      showAll: (on) => this.actions.showAll(on),
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
      this.host.log(
        'error',
        `Analytics page failed to handle a message: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  retheme(): void {
    this.c.ui.charts.retheme();
  }

  private apply(m: HostMessage): void {
    switch (m.type) {
      case 'init':
        return this.init(m);
      case 'signedIn':
        return this.signedIn(m);
      case 'taskNames':
        return this.taskNames(m);
      default:
        this.c.requests.settle(m); // an answer nobody waits for any more is stale: dropped
    }
  }

  private signedIn(m: Extract<HostMessage, { type: 'signedIn' }>): void {
    const { s, ui } = this.c;
    s.signedIn = m.signedIn;
    if (m.cleared || m.account !== s.account) {
      if (s.request !== undefined || holdsAccountData(toPageState(s))) return this.forgetAccount(m.account);
      s.account = m.account;
      this.c.save();
    }
    // The notice about an account change stays until the user acts; the signed-out one follows the state.
    if (s.notice === clearedNotice(true) || s.notice === clearedNotice(false)) s.notice = clearedNotice(m.signedIn);
    else if (!m.signedIn) s.notice = t('notice.signedOut');
    else if (s.notice === t('notice.signedOut')) s.notice = undefined;
    ui.status.update(s);
  }

  /** Names the host found after `init`, for tasks still chosen under the same account. */
  private taskNames(m: Extract<HostMessage, { type: 'taskNames' }>): void {
    const { s } = this.c;
    if (!s.form || m.account !== s.account) return;
    const next = addHostNames(s.form, m.names);
    if (!next) return;
    s.form = next;
    this.form.render();
    this.c.save();
  }

  /** Another account (or nobody) is signed in: drop the previous account's content and say so. */
  private forgetAccount(account: string | undefined): void {
    const { s, ui } = this.c;
    const kept = forgetAccount(toPageState(s), account);
    if (s.request) this.c.requests.cancel(s.request.id);
    s.request = undefined;
    s.account = account;
    s.preset = undefined;
    s.result = undefined;
    s.resultDropped = false;
    s.error = undefined;
    s.formError = undefined;
    if (kept.form) s.form = kept.form;
    s.notice = clearedNotice(s.signedIn);
    s.issues = s.form ? this.form.issuesOf(s.form) : {};
    this.form.render();
    this.c.results.render(s);
    ui.status.update(s);
    this.c.save();
  }

  private init(m: Extract<HostMessage, { type: 'init' }>): void {
    const { s, ui } = this.c;
    const today = isDay(m.today) ? m.today : todayUtc();
    const first = s.today === undefined;
    s.today = today;
    if (first) {
      // This page's own last state is the freshest; the host's copy serves after a reload. Either
      // is dropped to its account-free parts when it belongs to another account (or the host says
      // the account changed while this page was away).
      const saved = this.host.restore() ?? m.state;
      const kept = saved ? forAccount(saved, m.account) : undefined;
      const cleared =
        (kept?.cleared ?? false) || (m.cleared === true && saved !== undefined && holdsAccountData(saved));
      const restored = kept && m.cleared ? forgetAccount(kept.state, m.account) : kept?.state;
      s.account = m.account;
      if (cleared) s.notice = clearedNotice(m.account !== undefined);
      s.preset = restored?.preset ?? m.preset;
      s.form = restored?.form ?? defaultForm(today, s.preset);
      // The chips' names are the host's (its task cache of this account), never a saved label.
      if (m.taskNames) s.form = labelFromHost(s.form, m.taskNames);
      s.result = restored?.result;
      s.sort = restored?.sort;
      s.showAll = restored?.showAll === true;
      s.pageSize = validPageSize(s.form) ?? s.pageSize;
      const r = s.result;
      // Its rows were too many to keep: the page shows nothing of it until they are back.
      s.resultDropped = r !== undefined && r.records.length === 0 && r.total > 0;
    }
    ui.waiting.hidden = true;
    ui.form.root.hidden = false;
    s.issues = s.form ? this.form.issuesOf(s.form) : {};
    this.form.render();
    this.c.results.render(s);
    ui.status.update(s);
    this.c.save();
    // A result whose rows were not all kept, or not all fetched yet, gets the rest (the host
    // still holds them unless VS Code was restarted; then it asks the service again).
    if (first && s.result && !isComplete(s.result)) this.queries.resume();
    // Opened for a task or a group (from the tree, a notification): its figures at once, as
    // Run query would show them; a restored result, or a panel opened blank, waits for Run query.
    else if (first && !s.result && (s.preset?.taskIds?.length ?? 0) > 0 && s.account !== undefined) this.queries.run();
  }
}
