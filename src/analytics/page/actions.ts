/** The smaller actions: choosing tasks, exporting the result, copying, sorting the table. */
import { formatInt } from '../model/format';
import { nextSort } from '../model/tableModel';
import { t } from './common/l10n';
import type { PageContext } from './context';
import type { FormFlow } from './formFlow';

export class Actions {
  /** Only the latest pick and export are answered on screen; an earlier one's answer is stale. */
  private latestPick: string | undefined;
  private latestExport: string | undefined;

  constructor(
    private readonly c: PageContext,
    private readonly form: FormFlow,
  ) {}

  async pickTasks(): Promise<void> {
    const { s, ui, requests } = this.c;
    if (!s.form) return;
    const { id, done } = requests.send({ type: 'pickTasks', selected: s.form.taskIds.slice(0, 100) });
    this.latestPick = id;
    const outcome = await done;
    if (this.latestPick !== id) return;
    this.latestPick = undefined;
    // The picker (a quick pick outside the page) took focus: it comes back to the trigger, not the body.
    ui.form.focusTasksTrigger();
    if (outcome.ok) return this.form.update({ taskIds: outcome.reply.taskIds, taskLabels: outcome.reply.taskLabels });
    if (outcome.error.kind === 'cancelled') return; // the pick was dismissed
    s.error = { error: outcome.error, action: t('action.pickTasks') };
    ui.status.update(s);
  }

  /** Asks the host to save the result on screen; the host holds its rows, the page names it. */
  async exportAs(format: 'csv' | 'json'): Promise<void> {
    const { s, ui, requests } = this.c;
    const r = s.result;
    if (!r || r.records.length === 0) return;
    if (r.resultId === undefined) {
      s.error = { error: { kind: 'not-found', message: t('export.notHeld') }, action: t('action.export') };
      return ui.status.update(s);
    }
    const { id, done } = requests.send({ type: 'export', format, resultId: r.resultId });
    this.latestExport = id;
    s.notice = t('notice.exporting', formatInt(r.records.length), format.toUpperCase());
    ui.status.update(s);
    const outcome = await done;
    if (this.latestExport !== id) return;
    this.latestExport = undefined;
    s.notice = outcome.ok ? t('notice.exported', outcome.reply.path) : undefined;
    // A dismissed save dialog is not an error.
    if (!outcome.ok && outcome.error.kind !== 'cancelled')
      s.error = { error: outcome.error, action: t('action.export') };
    ui.status.update(s);
  }

  /** The table's pages are local: the rows are here (or on their way, and the pager waits). */
  goTo(page: number): void {
    const { s } = this.c;
    if (!s.form || !s.result) return;
    s.form = { ...s.form, page: Math.max(1, page) };
    this.c.results.render(s);
    this.c.save();
  }

  /** "Show all" on: every row fetched, scrollable; off: back to the page the pager was on. */
  showAll(on: boolean): void {
    const { s } = this.c;
    if (s.showAll === on) return;
    s.showAll = on;
    this.c.results.render(s);
    this.c.save();
  }

  copy(text: string): void {
    if (text) this.c.host.post({ type: 'copy', text: text.slice(0, 1000) });
  }

  sort(column: string): void {
    const { s } = this.c;
    if (!s.result) return;
    performance.clearMarks('scrapedeck:sort-start');
    performance.mark('scrapedeck:sort-start');
    s.sort = nextSort(s.sort, column);
    this.c.results.render(s);
    performance.measure('scrapedeck:sort', 'scrapedeck:sort-start');
    this.c.save();
  }
}
