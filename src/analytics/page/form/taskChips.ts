/**
 * The chosen tasks as chips: each task's name (its id when the host could not name it), the id in
 * the tooltip. Beyond a few, the rest hide behind one "+N more" toggle, so a group of 60 tasks
 * keeps the Run button on the first screen. The toggle is one element that stays in place across
 * renders: pressing it (mouse or keyboard) leaves focus on it, expanded or collapsed.
 */
import { formatInt } from '../../model/format';
import { button, h } from '../common/dom';
import { t } from '../common/l10n';

/** Chips shown before the rest collapse behind the toggle. */
export const VISIBLE_CHIPS = 5;

export class TaskChips {
  readonly list = h('ul', { class: 'chips', attrs: { id: 'f-tasks', 'aria-label': t('chips.label') } });
  readonly toggle: HTMLButtonElement;
  private expanded = false;
  /** The chosen ids last rendered: a different choice starts collapsed again. */
  private shownKey = '';

  constructor() {
    this.toggle = button('', () => this.setExpanded(!this.expanded), {
      class: 'chips-toggle',
      attrs: { id: 'f-tasks-more', 'aria-controls': 'f-tasks', 'aria-expanded': 'false' },
    });
    this.toggle.hidden = true;
  }

  render(taskIds: readonly string[], taskLabels: readonly string[]): void {
    const key = taskIds.join('\n');
    if (key !== this.shownKey) this.expanded = false;
    this.shownKey = key;
    const items =
      taskIds.length === 0
        ? [h('li', { class: 'chip all', text: t('chips.allTasks') })]
        : taskIds.map((id, i) => {
            const name = taskLabels[i];
            return h('li', {
              class: name ? 'chip' : 'chip unnamed',
              text: name || id,
              attrs: { title: t('chips.taskId', id) },
            });
          });
    this.list.replaceChildren(...items);
    this.applyExpanded();
  }

  private setExpanded(expanded: boolean): void {
    this.expanded = expanded;
    this.applyExpanded();
  }

  private applyExpanded(): void {
    const chips = Array.from(this.list.children) as HTMLElement[];
    const hidden = chips.length - VISIBLE_CHIPS;
    chips.forEach((chip, i) => {
      chip.hidden = !this.expanded && i >= VISIBLE_CHIPS;
    });
    this.toggle.hidden = hidden <= 0;
    this.toggle.textContent = this.expanded ? t('chips.fewer') : t('chips.more', formatInt(hidden));
    this.toggle.setAttribute('aria-expanded', String(this.expanded));
    this.toggle.title = this.expanded ? t('chips.fewerTitle') : t('chips.moreTitle', formatInt(chips.length));
  }
}
