/**
 * The words and icon of a task's run state, without `vscode`: the run's part of the row's
 * description ("Extracting, 120 rows"; the tree joins it with other parts by " · "), the tooltip
 * lines and the menu flags. Numbers and times follow the user's locale and time zone; the
 * service's times carry no zone, are read as UTC (`parseServiceTime`) and the tooltip says so.
 */
import type { TaskRunStatus } from '../api/ops/runs';
import { parseServiceTime } from '../api/schemas/runSchemas';
import {
  type IconSpec,
  isUnderWay,
  type PendingAction,
  RUN_ICONS,
  type RunKind,
  runKindOf,
  statusText,
} from './runKinds';
import type { RunEntry } from './runStore';

/** `vscode.l10n.t` in the extension; {0}-style arguments. */
export type Translate = (message: string, ...args: (string | number | boolean)[]) => string;

export interface TextOptions {
  t: Translate;
  /** BCP 47 (`vscode.env.language`); an unknown one falls back to the runtime's default. */
  locale: string | undefined;
  /** IANA zone; undefined: the machine's own. */
  timeZone?: string;
}

/** What the tree draws for one task's run state; undefined parts leave the row as it was. */
export interface RunPresentation {
  readonly kind: RunKind | PendingAction | 'neverRun';
  readonly icon: IconSpec;
  /** The run's part of the description, e.g. "Extracting, 120 rows". */
  readonly description: string;
  /** Tooltip lines (plain text). */
  readonly tooltip: readonly string[];
  /**
   * `running` (Stop Run applies: queued or extracting), `runnable` (Start Run applies), or neither
   * while a request is on its way; `lot` when the last run was started here and its rows can be
   * exported alone.
   */
  readonly flags: readonly ('running' | 'runnable' | 'lot')[];
}

/** The run state of a task nothing is known of yet: Start Run is offered, nothing else is said. */
export const UNKNOWN_RUN: RunPresentation = {
  kind: 'unknown',
  icon: RUN_ICONS.unknown,
  description: '',
  tooltip: [],
  flags: ['runnable'],
};

/**
 * A task of an account whose plan refuses cloud runs (its statuses, a start or a stop were refused
 * with 403): neither Start Run nor Stop Run is offered, rather than offered and then refused; the
 * tooltip says why. The task's own icon, no run part in the description.
 */
export function noCloudRuns(o: Pick<TextOptions, 't'>): RunPresentation {
  return {
    kind: 'unknown',
    icon: { id: 'globe' },
    description: '',
    tooltip: [o.t('Cloud runs need a Professional or Enterprise plan, so Start Run is not offered.')],
    flags: [],
  };
}

/*
 * The store replaces a task's entry only when its state changed, so a presentation is kept per
 * entry object: a refresh presents again only the rows whose run changed (a busy machine takes
 * about 0.1 ms per row to build one, and 1,000 rows are on screen).
 */
const presented = new WeakMap<
  RunEntry,
  { locale: string | undefined; timeZone: string | undefined; t: Translate; value: RunPresentation | undefined }
>();

export function presentRun(entry: RunEntry | undefined, o: TextOptions): RunPresentation | undefined {
  if (entry === undefined) return undefined;
  const kept = presented.get(entry);
  if (kept !== undefined && kept.locale === o.locale && kept.timeZone === o.timeZone && kept.t === o.t)
    return kept.value;
  const value = buildPresentation(entry, o);
  presented.set(entry, { locale: o.locale, timeZone: o.timeZone, t: o.t, value });
  return value;
}

function buildPresentation(entry: RunEntry, o: TextOptions): RunPresentation | undefined {
  const status = entry?.status;
  const pending = entry?.pending?.action;
  const lot = entry.lot !== undefined ? (['lot'] as const) : [];
  if (pending !== undefined) {
    const description = pending === 'starting' ? o.t('Starting…') : o.t('Stopping…');
    return {
      kind: pending,
      icon: RUN_ICONS[pending],
      description,
      tooltip: status ? tooltipLines(status, o) : [],
      flags: [],
    };
  }
  if (status === undefined) {
    if (entry.neverRun !== true) return undefined;
    return {
      kind: 'neverRun',
      icon: RUN_ICONS.neverRun,
      description: o.t('Never run in the cloud'),
      tooltip: [neverRunLine(o)],
      flags: ['runnable'],
    };
  }
  const kind = runKindOf(status.status);
  // A service that answers a never-run task anyway says Stopped with 0 runs.
  const neverRun = kind === 'stopped' && status.executedTimes === 0;
  if (neverRun)
    return {
      kind: 'neverRun',
      icon: RUN_ICONS.neverRun,
      description: o.t('Never run in the cloud'),
      tooltip: [neverRunLine(o), ...tooltipLines(status, o).slice(1)],
      flags: ['runnable', ...lot],
    };
  return {
    kind,
    icon: RUN_ICONS[kind],
    description: kind === 'queued' ? o.t('Queued') : describeRun(status, o),
    tooltip:
      kind === 'queued'
        ? [...tooltipLines(status, o), o.t('Queued: the run waits for a cloud node and starts by itself.')]
        : tooltipLines(status, o),
    flags: isUnderWay(kind) ? ['running', ...lot] : ['runnable', ...lot],
  };
}

function neverRunLine(o: TextOptions): string {
  return o.t(
    'Never run in the cloud: the service has no cloud run of this task (runs on your own computer are not counted here).',
  );
}

/**
 * "Extracting, 120 rows" while it runs; "Finished: 157 rows last run" once it ended (the rows of
 * that run, not all the task's data, which Export Data writes). An unpublished status is shown as it came.
 */
export function describeRun(status: TaskRunStatus, o: TextOptions): string {
  const shown = statusText(status.status);
  const rows = status.currentTotalExtractCount;
  if (rows === null) return shown;
  return ended(status) ? o.t('{0}: {1} last run', shown, rowsText(rows, o)) : o.t('{0}, {1}', shown, rowsText(rows, o));
}

function ended(status: TaskRunStatus): boolean {
  const kind = runKindOf(status.status);
  return kind === 'finished' || kind === 'failed' || kind === 'stopped';
}

export function rowsText(rows: number, o: TextOptions): string {
  return rows === 1 ? o.t('1 row') : o.t('{0} rows', formatNumber(rows, o.locale));
}

export function tooltipLines(status: TaskRunStatus, o: TextOptions): string[] {
  const { t } = o;
  const lines = [t('Run status: {0}', statusText(status.status))];
  const rows = status.currentTotalExtractCount;
  if (rows !== null) {
    const n = formatNumber(rows, o.locale);
    lines.push(
      ended(status)
        ? t('Rows of its last run: {0} (Export Data writes all of the task’s rows)', n)
        : t('Rows collected so far in this run: {0}', n),
    );
  }
  if (status.executedTimes !== null)
    lines.push(
      t('Cloud runs so far, all time (the service’s count): {0}', formatNumber(status.executedTimes, o.locale)),
    );
  if (status.subTaskCount !== null && status.subTaskCount > 0)
    lines.push(t('Subtasks: {0}', formatNumber(status.subTaskCount, o.locale)));
  const times: [(when: string) => string, string | null][] = [
    [(when) => t('Started: {0}', when), status.startExecuteTime],
    [(when) => t('Ended: {0}', when), status.endExecuteTime],
    [(when) => t('Next run: {0}', when), status.nextExecuteTime],
  ];
  let anyTime = false;
  for (const [line, text] of times) {
    if (text === null) continue;
    anyTime = true;
    lines.push(line(formatServiceTimeText(text, o)));
  }
  if (anyTime)
    lines.push(
      t('The service sends times without a zone; they are read as UTC and shown in your time zone ({0}).', zoneName(o)),
    );
  if (status.source === 'v1')
    lines.push(t('The service answered with its older status call: rows and times are not known.'));
  return lines;
}

/** A service time in the user's locale and zone; a text that is not a time is shown as sent. */
export function formatServiceTimeText(text: string, o: TextOptions): string {
  const ms = parseServiceTime(text);
  if (ms === undefined) return o.t('{0} (as sent)', statusText(text));
  return dateTimeFormat(o).format(ms);
}

export function formatNumber(n: number, locale: string | undefined): string {
  return numberFormat(locale).format(n);
}

/*
 * Intl formatters are costly to build (about a millisecond each on a busy machine) and a refresh
 * presents every visible row, so they are built once per locale and zone and kept.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
let localZone: string | undefined;

function numberFormat(locale: string | undefined): Intl.NumberFormat {
  const key = locale ?? '';
  let format = numberFormats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(locale);
    } catch {
      format = new Intl.NumberFormat();
    }
    numberFormats.set(key, format);
  }
  return format;
}

function dateTimeFormat(o: TextOptions): Intl.DateTimeFormat {
  const key = `${o.locale ?? ''}\n${o.timeZone ?? ''}`;
  let format = dateTimeFormats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat(o.locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone: o.timeZone });
    } catch {
      format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
    }
    dateTimeFormats.set(key, format);
  }
  return format;
}

function zoneName(o: TextOptions): string {
  localZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return o.timeZone ?? localZone;
}

/*
 * The finish notice's buttons (`finishNotice.ts`): a notification cuts a long button ("Browse This
 * Run's D…"), so they are short and the message says what they take: this run's rows alone, or
 * all of the task's.
 */
export interface NoticeButtons {
  readonly openAnalytics: string;
  /** This run's rows (its lot known): in the data browser, and to a file. */
  readonly browseRun: string;
  readonly exportRun: string;
  /** All of the task's rows (the run's lot is not known). */
  readonly exportData: string;
}

export function noticeButtons(t: Translate): NoticeButtons {
  return {
    openAnalytics: t('Open Analytics'),
    browseRun: t('Browse Rows'),
    exportRun: t('Export Rows'),
    exportData: t('Export Data'),
  };
}

/** The sentence after "“Prices” finished: 480 rows collected." saying what the data buttons shown take; '' without them. */
export function buttonsNote(
  t: Translate,
  shown: { browseRun: boolean; exportRun: boolean; exportData: boolean },
): string {
  const b = noticeButtons(t);
  const notes: string[] = [];
  if (shown.browseRun && shown.exportRun)
    notes.push(t('{0} and {1} take the rows of this run only.', b.browseRun, b.exportRun));
  else if (shown.browseRun) notes.push(t('{0} shows the rows of this run only.', b.browseRun));
  else if (shown.exportRun) notes.push(t('{0} writes the rows of this run only.', b.exportRun));
  if (shown.exportData) notes.push(t('{0} writes all of the task’s rows.', b.exportData));
  return notes.join(' ');
}
