/**
 * What is happening now: a spinner for a pending query, a progress bar while rows are fetched,
 * each with Cancel; the failure of the last request; the outcome of an export; other notices.
 */
import { formatInt } from '../../model/format';
import { button, h } from '../common/dom';
import { ErrorBox } from '../common/errorBox';
import { t } from '../common/l10n';
import type { AppState, PendingRequest } from '../common/state';

export class StatusView {
  readonly root: HTMLElement;
  private readonly busy = h('div', { class: 'busy', attrs: { id: 'busy' } });
  private readonly busyText = h('span', { attrs: { role: 'status', id: 'busy-text' } });
  private readonly progress = h('progress', { attrs: { id: 'fetch-progress', 'aria-label': t('status.rowsFetched') } });
  private readonly notice = h('p', { class: 'notice', attrs: { id: 'notice', role: 'status' } });
  private readonly errorBox: ErrorBox;

  constructor(cancel: () => void, copy: (text: string) => void) {
    const cancelButton = button(t('status.cancel'), cancel, { class: 'secondary', attrs: { id: 'cancel' } });
    this.busy.append(
      h('span', { class: 'spinner', attrs: { 'aria-hidden': 'true' } }),
      this.busyText,
      this.progress,
      cancelButton,
    );
    this.errorBox = new ErrorBox('error', copy);
    this.root = h('div', { class: 'status' }, this.busy, this.errorBox.root, this.notice);
  }

  update(s: AppState): void {
    const r = s.request;
    this.busy.hidden = !r;
    if (r) {
      const counting = r.kind !== 'query' && r.total !== undefined;
      this.progress.hidden = !counting;
      if (counting) {
        const goal = r.target ?? r.total ?? 1;
        this.progress.max = Math.max(1, goal);
        this.progress.value = r.fetched ?? 0;
      }
      this.busyText.textContent = busyText(r);
    }
    this.errorBox.show(s.error);
    this.notice.textContent = s.notice ?? '';
    this.notice.hidden = !s.notice;
  }
}

function busyText(r: PendingRequest): string {
  if (r.kind === 'query') return t('status.running');
  if (r.total === undefined) return r.kind === 'fetchAll' ? t('status.fetchingAll') : t('status.fetchingRest');
  const fetched = formatInt(r.fetched ?? 0);
  return r.target !== undefined && r.target < r.total
    ? t('status.fetchedOfFirst', fetched, formatInt(r.target), formatInt(r.total))
    : t('status.fetchedOf', fetched, formatInt(r.total));
}
