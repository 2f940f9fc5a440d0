/**
 * The controls above the grid: the count of rows (loaded, matching), Stop, the search, the
 * column filters, and the actions on the focused cell (whole value, open a link, copy, profile,
 * export). Everything built with the DOM, every outside text set as text.
 */
import type { BrowseStatus, BrowseView } from '../protocol';
import { t } from './words';

export type ConditionOp = 'contains' | 'equals' | 'empty' | 'notEmpty';
const OPS: readonly ConditionOp[] = ['contains', 'equals', 'empty', 'notEmpty'];
const opText = (op: ConditionOp): string => t(`op.${op}`);

export interface ToolbarActions {
  search(text: string): void;
  addCondition(column: number, op: ConditionOp, value: string): void;
  removeCondition(index: number): void;
  stop(): void;
  copyCell(): void;
  copyRow(): void;
  wholeValue(): void;
  openLink(): void;
  profile(): void;
  export(): void;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = '',
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== '') node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text: string, run: () => void): HTMLButtonElement {
  const b = el('button', '', text);
  b.type = 'button';
  b.addEventListener('click', run);
  return b;
}

const fmt = (n: number): string => n.toLocaleString(document.documentElement.dataset['locale'] ?? 'en');

export class Toolbar {
  readonly root = el('div', 'toolbar');
  private readonly count = el('p', 'count');
  private readonly notice = el('p', 'notice');
  private readonly stopButton: HTMLButtonElement;
  private readonly searchBox = el('input');
  private readonly columnPick = el('select');
  private readonly opPick = el('select');
  private readonly valueBox = el('input');
  private readonly chips = el('ul', 'chips');
  readonly linkButton: HTMLButtonElement;
  readonly wholeButton: HTMLButtonElement;

  constructor(
    title: string,
    private readonly actions: ToolbarActions,
  ) {
    const h1 = el('h1', '', title);
    this.count.setAttribute('role', 'status');
    this.count.setAttribute('aria-live', 'polite');
    this.notice.setAttribute('role', 'alert');
    this.stopButton = button(t('toolbar.stop'), () => actions.stop());
    const searchLabel = el('label', '', `${t('toolbar.search')} `);
    this.searchBox.type = 'search';
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.searchBox.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => actions.search(this.searchBox.value), 250);
    });
    searchLabel.append(this.searchBox);
    for (const op of OPS) this.opPick.append(new Option(opText(op), op));
    this.columnPick.setAttribute('aria-label', t('toolbar.column'));
    this.opPick.setAttribute('aria-label', t('toolbar.condition'));
    this.valueBox.setAttribute('aria-label', t('toolbar.value'));
    this.opPick.addEventListener(
      'change',
      () => (this.valueBox.disabled = this.opPick.value === 'empty' || this.opPick.value === 'notEmpty'),
    );
    const add = button(t('toolbar.addFilter'), () => {
      actions.addCondition(Number(this.columnPick.value), this.opPick.value as ConditionOp, this.valueBox.value);
      this.valueBox.value = '';
    });
    const filters = el('div', 'filters');
    filters.append(searchLabel, this.columnPick, this.opPick, this.valueBox, add, this.chips);
    this.wholeButton = button(t('toolbar.wholeValue'), () => actions.wholeValue());
    this.linkButton = button(t('toolbar.openLink'), () => actions.openLink());
    // Shown once the focused cell is known to be cut or a link (Controller.cellActions).
    this.wholeButton.hidden = true;
    this.linkButton.hidden = true;
    const cellActions = el('div', 'actions');
    cellActions.append(
      button(t('toolbar.copyCell'), () => actions.copyCell()),
      button(t('toolbar.copyRow'), () => actions.copyRow()),
      this.wholeButton,
      this.linkButton,
      button(t('toolbar.profile'), () => actions.profile()),
      button(t('toolbar.export'), () => actions.export()),
    );
    const top = el('div', 'top');
    top.append(h1, this.count, this.stopButton);
    this.root.append(top, this.notice, filters, cellActions);
  }

  setColumns(columns: readonly string[]): void {
    const chosen = this.columnPick.value;
    this.columnPick.replaceChildren(...columns.map((c, i) => new Option(c, String(i))));
    if (chosen !== '' && Number(chosen) < columns.length) this.columnPick.value = chosen;
  }

  setStatus(s: BrowseStatus, canStop: boolean): void {
    const loaded =
      s.state === 'loading'
        ? s.total !== undefined
          ? t('status.loadingOf', fmt(s.loaded), fmt(s.total))
          : t('status.loading', fmt(s.loaded))
        : t('status.rows', fmt(s.loaded));
    const parts = [
      loaded,
      s.shown === s.loaded ? '' : t('status.match', fmt(s.shown)),
      s.busy === true ? t('status.busy') : '',
      s.problems > 0 ? t('status.problems', fmt(s.problems)) : '',
    ];
    this.count.textContent = parts.filter((p) => p !== '').join(' · ');
    this.stopButton.hidden = !(canStop && s.state === 'loading');
    const notes = [s.message ?? '', s.changed === true ? t('status.changed') : ''].filter((n) => n !== '');
    this.notice.textContent = notes.join(' ');
    this.notice.hidden = notes.length === 0;
  }

  setConditions(view: BrowseView, columns: readonly string[]): void {
    this.chips.replaceChildren(
      ...(view.conditions ?? []).map((c, i) => {
        const li = el('li', '', `${columns[c.column] ?? '?'} ${opText(c.op)}${c.value ? ` “${c.value}”` : ''} `);
        const remove = button(t('toolbar.remove'), () => this.actions.removeCondition(i));
        remove.setAttribute('aria-label', t('toolbar.removeFilter', columns[c.column] ?? '?'));
        li.append(remove);
        return li;
      }),
    );
    if (this.searchBox.value !== (view.search ?? '')) this.searchBox.value = view.search ?? '';
  }
}
