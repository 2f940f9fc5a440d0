/**
 * The query form as data: its defaults, its validation (the spec's rules, through the same
 * checkAnalyticsQuery and checkDateRange the client and the sandbox use, so the three agree),
 * and the AnalyticsQuery it builds. Issues are keyed by form field so the page can show each one
 * next to its input.
 */
import { checkAnalyticsQuery } from '../../api/schemas/analyticsQuery';
import { ANALYTICS_LIMITS, type AnalyticsQuery } from '../../api/schemas/analyticsSchemas';
import { checkDateRange, defaultRange, earliestStart, isDay } from '../../api/schemas/dates';
import { type FormField, type FormValues, isFormField } from './formState';
import { type PageStringKey, pageText } from './pageStrings';

export type { FormField, FormValues } from './formState';
export type FormIssues = Partial<Record<FormField, string[]>>;
export type FormCheck = { ok: true; query: AnalyticsQuery } | { ok: false; issues: FormIssues };

export function defaultForm(today: string, preset?: { taskIds?: string[]; label?: string }): FormValues {
  const range = defaultRange(today);
  const taskIds = preset?.taskIds ?? [];
  return {
    start: range.start,
    end: range.end,
    timeGranularity: 'Day',
    collectionMethod: 'All',
    taskIds,
    // One label for a group preset would not line up with its ids; the ids then label themselves.
    taskLabels: preset?.label && taskIds.length === 1 ? [preset.label] : [],
    memberNames: '',
    pageSize: String(ANALYTICS_LIMITS.pageSizeDefault),
    page: 1,
  };
}

/** Member names from free text: split on commas and newlines, trimmed, blanks and repeats dropped. */
export function parseMembers(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[,\n\r]/)) {
    const name = part.trim();
    if (name) seen.add(name);
  }
  return [...seen];
}

/** A whole number typed as digits (surrounding blanks allowed); otherwise null. */
export function parseWholeNumber(text: string): number | null {
  const t = text.trim();
  return /^\d{1,9}$/.test(t) ? Number(t) : null;
}

/** The request body the form describes, unchecked: "All tasks" and "only me" are omissions. */
export function draftQuery(form: FormValues): Record<string, unknown> {
  const members = parseMembers(form.memberNames);
  const pageSize = parseWholeNumber(form.pageSize);
  const draft: Record<string, unknown> = {
    start: form.start.trim(),
    end: form.end.trim(),
    page: form.page,
    pageSize: pageSize ?? form.pageSize,
    collectionMethod: form.collectionMethod,
    timeGranularity: form.timeGranularity,
  };
  if (form.taskIds.length > 0) draft.taskIds = form.taskIds;
  if (members.length > 0) draft.memberNames = members;
  return draft;
}

/** Validates the form against the spec's rules, as of `today` (UTC). */
export function checkForm(form: FormValues, today: string): FormCheck {
  const issues: FormIssues = {};
  const explained = new Set<FormField>();
  const add = (field: FormField, message: string): void => {
    const list = (issues[field] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  // Friendlier words for the fields people type numbers and names into; the schema still decides.
  const pageSize = parseWholeNumber(form.pageSize);
  if (pageSize === null || pageSize < ANALYTICS_LIMITS.pageSizeMin || pageSize > ANALYTICS_LIMITS.pageSizeMax)
    add('pageSize', pageText('form.pageSizeIssue', ANALYTICS_LIMITS.pageSizeMin, ANALYTICS_LIMITS.pageSizeMax));
  const members = parseMembers(form.memberNames).length;
  if (members > ANALYTICS_LIMITS.maxMemberNames)
    add('memberNames', pageText('form.membersIssue', ANALYTICS_LIMITS.maxMemberNames, members));
  if (form.taskIds.length > ANALYTICS_LIMITS.maxTaskIds)
    add('taskIds', pageText('form.tasksIssue', ANALYTICS_LIMITS.maxTaskIds, form.taskIds.length));
  for (const field of Object.keys(issues)) explained.add(field as FormField);

  const check = checkAnalyticsQuery(draftQuery(form), today);
  if (check.ok && Object.keys(issues).length === 0) return { ok: true, query: check.query };
  if (!check.ok) {
    for (const issue of check.issues) {
      const field: FormField = isFormField(issue.field) ? issue.field : 'start';
      if (explained.has(field)) continue; // already explained in plain words
      add(field, pageWords(issue.message, form, today));
    }
  }
  // The query check stops at schema errors; the date rules are still worth saying at once.
  if (isDay(form.start.trim()) && isDay(form.end.trim())) {
    for (const d of checkDateRange(form.start.trim(), form.end.trim(), today))
      add(d.field, pageWords(d.message, form, today));
  }
  return { ok: false, issues };
}

/**
 * The date rules in the page's words: api/schemas/dates.ts words them for the wire (English, shared with
 * the client and the sandbox); the page says each rule from its table. Anything else (the schema's
 * own messages, such as an impossible day) is the wire's sentence. test/unit/l10n.page.test.ts pins
 * every rule to the wire's wording.
 */
const DATE_RULES: readonly { prefix: string; key: PageStringKey; arg(form: FormValues, today: string): string }[] = [
  { prefix: 'end must not be after today', key: 'form.endAfterToday', arg: (_f, today) => today },
  { prefix: 'start must not be after end', key: 'form.startAfterEnd', arg: (f) => f.end.trim() },
  {
    prefix: 'start must be within the last three months',
    key: 'form.startTooEarly',
    arg: (_f, today) => earliestStart(today),
  },
];

function pageWords(message: string, form: FormValues, today: string): string {
  const rule = DATE_RULES.find((r) => message.startsWith(r.prefix));
  return rule ? pageText(rule.key, rule.arg(form, today)) : sentence(message);
}

/** "end must not be after today" -> "End must not be after today." */
function sentence(message: string): string {
  const m = message.trim();
  const capital = m.charAt(0).toUpperCase() + m.slice(1);
  return /[.!?)]$/.test(capital) ? capital : `${capital}.`;
}
