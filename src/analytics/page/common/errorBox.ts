/** An error as the user sees it: what failed, the server's code and message, and its request id to copy. */
import { button, h } from './dom';
import { t } from './l10n';
import type { ShownError } from './state';

export class ErrorBox {
  readonly root: HTMLElement;
  private readonly headline = h('p', { class: 'error-headline' });
  private readonly detail = h('p', { class: 'error-detail' });
  private readonly requestIdText = h('code', { class: 'request-id' });
  private readonly requestRow: HTMLElement;
  private requestId = '';

  constructor(id: string, copy: (text: string) => void) {
    const copyButton = button(t('error.copyRequestId'), () => copy(this.requestId), {
      class: 'secondary copy-request-id',
    });
    this.requestRow = h(
      'p',
      { class: 'error-request' },
      `${t('error.requestId')} `,
      this.requestIdText,
      ' ',
      copyButton,
    );
    this.root = h(
      'div',
      { class: 'error-box', attrs: { id, role: 'alert' } },
      this.headline,
      this.detail,
      this.requestRow,
    );
    this.root.hidden = true;
  }

  show(shown: ShownError | undefined): void {
    this.root.hidden = !shown;
    if (!shown) return;
    const { error, action } = shown;
    this.headline.textContent =
      error.status !== undefined ? t('error.failedHttp', action, error.status) : t('error.failed', action);
    this.detail.textContent =
      error.code !== undefined && error.code !== ''
        ? t('error.code', String(error.code), error.message)
        : error.message;
    this.requestId = error.requestId ?? '';
    this.requestIdText.textContent = this.requestId;
    this.requestRow.hidden = this.requestId === '';
  }
}
