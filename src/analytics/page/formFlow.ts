/** The query form's behaviour: edits, inline issues, and the query it describes when valid. */
import { checkForm, type FormIssues, type FormValues } from '../model/formModel';
import type { AnalyticsQuery } from '../protocol/wire';
import { validPageSize } from './common/state';
import type { PageContext } from './context';

export class FormFlow {
  constructor(private readonly c: PageContext) {}

  change(form: FormValues): void {
    const s = this.c.s;
    // A different query, or page size, starts again at the table's first page.
    const pageSize = validPageSize(form);
    const repage = s.form?.page !== 1 || (pageSize !== undefined && pageSize !== s.pageSize);
    s.form = { ...form, page: 1 };
    if (pageSize !== undefined) s.pageSize = pageSize;
    s.issues = this.issuesOf(s.form);
    this.c.ui.form.showIssues(s.issues);
    // The page size pages the table over the rows already here: no new request.
    if (repage) this.c.results.render(s);
    this.c.save();
  }

  update(patch: Partial<FormValues>): void {
    if (!this.c.s.form) return;
    this.change({ ...this.c.s.form, ...patch });
    this.render();
  }

  /** The query the form describes, or undefined after showing why it cannot be sent. */
  validQuery(): AnalyticsQuery | undefined {
    const { s, ui } = this.c;
    if (!s.form || !s.today) return undefined;
    const check = checkForm(s.form, s.today);
    s.issues = check.ok ? {} : check.issues;
    ui.form.showIssues(s.issues);
    if (check.ok) return check.query;
    ui.form.focusFirstIssue(s.issues);
    return undefined;
  }

  issuesOf(form: FormValues): FormIssues {
    if (!this.c.s.today) return {};
    const check = checkForm(form, this.c.s.today);
    return check.ok ? {} : check.issues;
  }

  render(): void {
    const { s, ui } = this.c;
    if (!s.form || !s.today) return;
    ui.form.setValues(s.form, s.today);
    ui.form.showIssues(s.issues);
    ui.form.showServerError(s.formError);
  }
}
