/**
 * What is happening now: a spinner for a pending page, a progress bar for "Fetch all pages", each
 * with Cancel; the failure of the last request; the outcome of an export; other notices.
 */
import { formatInt } from '../../analyticsModel/format';
import { button, h } from './dom';
import { ErrorBox } from './errorBox';
import type { AppState } from './state';

export class StatusView {
  readonly root: HTMLElement;
  private readonly busy = h('div', { class: 'busy', attrs: { id: 'busy' } });
  private readonly busyText = h('span', { attrs: { role: 'status', id: 'busy-text' } });
  private readonly progress = h('progress', { attrs: { id: 'fetch-progress', 'aria-label': 'Rows fetched' } });
  private readonly notice = h('p', { class: 'notice', attrs: { id: 'notice', role: 'status' } });
  private readonly errorBox: ErrorBox;

  constructor(cancel: () => void, copy: (text: string) => void) {
    const cancelButton = button('Cancel', cancel, { class: 'secondary', attrs: { id: 'cancel' } });
    this.busy.append(h('span', { class: 'spinner', attrs: { 'aria-hidden': 'true' } }), this.busyText, this.progress, cancelButton);
    this.errorBox = new ErrorBox('error', copy);
    this.root = h('div', { class: 'status' }, this.busy, this.errorBox.root, this.notice);
  }

  update(s: AppState): void {
    const r = s.request;
    this.busy.hidden = !r;
    if (r) {
      const counting = r.kind === 'fetchAll' && r.total !== undefined;
      this.progress.hidden = !counting;
      if (counting) {
        this.progress.max = Math.max(1, r.total ?? 1);
        this.progress.value = r.fetched ?? 0;
        this.busyText.textContent = `Fetched ${formatInt(r.fetched ?? 0)} of ${formatInt(r.total ?? 0)} rows…`;
      } else {
        this.busyText.textContent = r.kind === 'fetchAll' ? 'Fetching all pages…' : 'Running query…';
      }
    }
    this.errorBox.show(s.error);
    this.notice.textContent = s.notice ?? '';
    this.notice.hidden = !s.notice;
  }
}
