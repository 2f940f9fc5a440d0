/**
 * The query form. Native controls styled with --vscode-* variables: each input carries
 * aria-invalid and aria-describedby pointing at its inline error, which needs the input and its
 * message in the same tree (ids do not cross a web component's shadow root).
 */
import { formatInt } from '../../model/format';
import type { FormField, FormIssues, FormValues } from '../../model/formModel';
import { FORM_METHODS, GRANULARITIES } from '../../model/formState';
import { ANALYTICS_LIMITS } from '../../protocol/wire';
import { earliestStart } from '../../protocol/wire';
import { button, h } from '../common/dom';
import { ErrorBox } from '../common/errorBox';
import { t, tOr } from '../common/l10n';
import type { ShownError } from '../common/state';
import { TaskChips } from './taskChips';

export interface FormHandlers {
  change(form: FormValues, field: FormField): void;
  run(): void;
  fetchAll(): void;
  pickTasks(): void;
  clearTasks(): void;
  copy(text: string): void;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export class FormView {
  readonly root: HTMLFormElement;
  private readonly controls = new Map<FormField, Control>();
  private readonly errors = new Map<FormField, HTMLElement>();
  private readonly start = h('input', { attrs: { type: 'date', id: 'f-start', name: 'start', required: '' } });
  private readonly end = h('input', { attrs: { type: 'date', id: 'f-end', name: 'end', required: '' } });
  private readonly granularity = select('f-granularity', GRANULARITIES);
  private readonly method = select('f-method', FORM_METHODS);
  private readonly members = h('textarea', {
    attrs: { id: 'f-members', rows: '2', spellcheck: 'false', placeholder: t('form.onlyMe') },
  });
  private readonly pageSize = h('input', {
    attrs: {
      type: 'number',
      id: 'f-pageSize',
      min: String(ANALYTICS_LIMITS.pageSizeMin),
      max: String(ANALYTICS_LIMITS.pageSizeMax),
      step: '1',
      inputmode: 'numeric',
    },
  });
  private readonly chips = new TaskChips();
  /** "Choose tasks…": where focus returns when the task picker closes or the choice is cleared. */
  private readonly chooseTasks: HTMLButtonElement;
  private readonly clearTasksButton: HTMLButtonElement;
  private readonly serverError: ErrorBox;
  private values: FormValues | undefined;

  constructor(private readonly handlers: FormHandlers) {
    this.controls
      .set('start', this.start)
      .set('end', this.end)
      .set('timeGranularity', this.granularity)
      .set('collectionMethod', this.method)
      .set('memberNames', this.members)
      .set('pageSize', this.pageSize);
    this.chooseTasks = button(t('form.chooseTasks'), () => handlers.pickTasks(), {
      class: 'secondary',
      attrs: { id: 'f-choose-tasks', 'aria-describedby': 'f-tasks err-taskIds' },
    });
    this.clearTasksButton = button(
      t('form.useAllTasks'),
      () => {
        handlers.clearTasks();
        this.focusTasksTrigger(); // the button hides itself: focus must not fall to the page body
      },
      { class: 'secondary', attrs: { id: 'f-clear-tasks', title: t('form.useAllTasksTitle') } },
    );
    this.serverError = new ErrorBox('form-error', (text) => handlers.copy(text));
    const run = h('button', { class: 'primary', text: t('form.run'), attrs: { type: 'submit', id: 'run' } });
    const fetchAll = button(t('form.fetchAll'), () => handlers.fetchAll(), {
      class: 'secondary',
      attrs: { id: 'fetch-all', title: t('form.fetchAllTitle') },
    });

    this.root = h(
      'form',
      { class: 'query-form', attrs: { 'aria-label': t('form.label'), novalidate: '' } },
      h(
        'div',
        { class: 'fields' },
        this.field('start', t('form.start'), this.start, t('form.startHelp')),
        this.field('end', t('form.end'), this.end, t('form.endHelp')),
        this.field('timeGranularity', t('form.granularity'), this.granularity),
        this.field('collectionMethod', t('form.method'), this.method),
        this.field(
          'pageSize',
          t('form.pageSize'),
          this.pageSize,
          t('form.pageSizeHelp', formatInt(ANALYTICS_LIMITS.pageSizeMin), formatInt(ANALYTICS_LIMITS.pageSizeMax)),
        ),
      ),
      h(
        'div',
        { class: 'fields wide' },
        h(
          'div',
          { class: 'field tasks-field', attrs: { role: 'group', 'aria-labelledby': 'l-tasks' } },
          h('span', { class: 'label', text: t('form.tasks'), attrs: { id: 'l-tasks' } }),
          h('div', { class: 'tasks-row' }, this.chips.list, this.chips.toggle, this.chooseTasks, this.clearTasksButton),
          h('p', { class: 'field-error', attrs: { id: 'err-taskIds', 'aria-live': 'polite' } }),
        ),
        this.field(
          'memberNames',
          t('form.members'),
          this.members,
          t('form.membersHelp', formatInt(ANALYTICS_LIMITS.maxMemberNames)),
        ),
      ),
      h('div', { class: 'actions' }, run, fetchAll),
      this.serverError.root,
    );
    this.errors.set('taskIds', this.root.querySelector<HTMLElement>('#err-taskIds') ?? h('p'));

    this.root.addEventListener('submit', (e) => {
      e.preventDefault(); // Enter in any field lands here: run, never navigate
      handlers.run();
    });
    this.members.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        handlers.run();
      }
    });
    for (const [field, control] of this.controls) {
      control.addEventListener('input', () => this.emit(field));
      control.addEventListener('change', () => this.emit(field));
    }
  }

  /** Writes values into the controls (only where they differ, so the caret stays put). */
  setValues(values: FormValues, today: string): void {
    this.values = values;
    setValue(this.start, values.start);
    setValue(this.end, values.end);
    setValue(this.granularity, values.timeGranularity);
    setValue(this.method, values.collectionMethod);
    setValue(this.members, values.memberNames);
    setValue(this.pageSize, values.pageSize);
    // The native pickers offer only acceptable days; typed text is still checked by the rules.
    for (const input of [this.start, this.end]) {
      input.min = earliestStart(today);
      input.max = today;
    }
    this.renderTasks(values);
  }

  showIssues(issues: FormIssues): void {
    for (const [field, el] of this.errors) {
      const messages = issues[field] ?? [];
      el.textContent = messages.join(' ');
      el.hidden = messages.length === 0;
      const control = field === 'taskIds' ? this.root.querySelector('#f-choose-tasks') : this.controls.get(field);
      if (messages.length > 0) control?.setAttribute('aria-invalid', 'true');
      else control?.removeAttribute('aria-invalid');
    }
  }

  showServerError(shown: ShownError | undefined): void {
    this.serverError.show(shown);
  }

  /** Moves focus to the first field with an issue, so keyboard users land on the explanation. */
  focusFirstIssue(issues: FormIssues): void {
    for (const field of this.errors.keys()) {
      if (!issues[field]?.length) continue;
      const target = field === 'taskIds' ? this.chooseTasks : this.controls.get(field);
      target?.focus();
      return;
    }
  }

  /** The task picker closed (or the choice was cleared): focus goes back to the button that opened it. */
  focusTasksTrigger(): void {
    this.chooseTasks.focus();
  }

  private emit(field: FormField): void {
    if (!this.values) return;
    this.values = {
      ...this.values,
      start: this.start.value,
      end: this.end.value,
      timeGranularity: this.granularity.value as FormValues['timeGranularity'],
      collectionMethod: this.method.value as FormValues['collectionMethod'],
      memberNames: this.members.value,
      pageSize: this.pageSize.value,
    };
    this.handlers.change(this.values, field);
  }

  private renderTasks(values: FormValues): void {
    this.chips.render(values.taskIds, values.taskLabels);
    this.clearTasksButton.hidden = values.taskIds.length === 0;
  }

  private field(name: FormField, label: string, control: Control, help?: string): HTMLElement {
    const errId = `err-${name}`;
    const helpId = `help-${name}`;
    const error = h('p', { class: 'field-error', attrs: { id: errId, 'aria-live': 'polite' } });
    error.hidden = true;
    this.errors.set(name, error);
    control.setAttribute('aria-describedby', help ? `${errId} ${helpId}` : errId);
    return h(
      'div',
      { class: 'field' },
      h('label', { text: label, attrs: { for: control.id } }),
      control,
      help ? h('p', { class: 'help', text: help, attrs: { id: helpId } }) : null,
      error,
    );
  }
}

function select(id: string, options: readonly string[]): HTMLSelectElement {
  const el = h('select', { attrs: { id } });
  // The value is the service's word; the option says it in the page's language.
  for (const o of options) el.append(h('option', { text: tOr(`option.${o}`, o), attrs: { value: o } }));
  return el;
}

function setValue(control: Control, value: string): void {
  if (control.value !== value) control.value = value;
}
