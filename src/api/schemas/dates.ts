/**
 * The analytics date rules, as pure functions on UTC calendar days ("yyyy-MM-dd").
 * Shared by the sandbox (to refuse), the client (to refuse before sending) and the webview form
 * (to explain inline), so all three always agree.
 */

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** A calendar day as the number of days since 1970-01-01 (UTC). */
export type DayNumber = number;

/** Today's UTC calendar day, whatever the machine's time zone. */
export function todayUtc(now: Date = new Date()): string {
  return formatDay(Math.floor(now.getTime() / MS_PER_DAY));
}

/** Parses a strict `yyyy-MM-dd` that names a real calendar day; otherwise null. */
export function parseDay(text: string): DayNumber | null {
  const m = DAY_RE.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

export function isDay(text: string): boolean {
  return parseDay(text) !== null;
}

export function formatDay(day: DayNumber): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function addDays(text: string, days: number): string {
  return formatDay(mustParse(text) + days);
}

/** Whole days from `a` to `b` (positive when b is later). */
export function daysBetween(a: string, b: string): number {
  return mustParse(b) - mustParse(a);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Moves by calendar months, clamping the day to the target month's last day (May 31 - 3 months = Feb 28). */
export function addMonthsClamped(text: string, months: number): string {
  const d = new Date(mustParse(text) * MS_PER_DAY);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const day = Math.min(d.getUTCDate(), daysInMonth(year, month));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The earliest `start` the service accepts: today minus three calendar months, clamped. */
export function earliestStart(today: string): string {
  return addMonthsClamped(today, -3);
}

/** The form's default: the last `days` UTC days ending today (7 by default). */
export function defaultRange(today: string, days = 7): { start: string; end: string } {
  return { start: addDays(today, -(days - 1)), end: today };
}

/** Every day from start to end inclusive. */
export function eachDay(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = mustParse(start); d <= mustParse(end); d++) out.push(formatDay(d));
  return out;
}

export type DateField = 'start' | 'end';
export interface DateIssue {
  field: DateField;
  message: string;
}

/**
 * Every way a start/end pair breaks the spec's rules, each naming its field.
 * Empty when the range is acceptable.
 */
export function checkDateRange(start: string, end: string, today: string): DateIssue[] {
  const issues: DateIssue[] = [];
  const s = parseDay(start);
  const e = parseDay(end);
  if (s === null) issues.push({ field: 'start', message: `start must be a date as yyyy-MM-dd (got "${start}")` });
  if (e === null) issues.push({ field: 'end', message: `end must be a date as yyyy-MM-dd (got "${end}")` });
  if (s === null || e === null) return issues;
  const t = mustParse(today);
  if (e > t) issues.push({ field: 'end', message: `end must not be after today (${today}, UTC)` });
  if (s > e) issues.push({ field: 'start', message: `start must not be after end (${end})` });
  const earliest = earliestStart(today);
  if (s < mustParse(earliest)) {
    issues.push({ field: 'start', message: `start must be within the last three months (not before ${earliest})` });
  }
  return issues;
}

/** ISO-8601 week of a day: the label used as `dayKey` for Week granularity ("2026-W07"), and its Monday..Sunday. */
export function isoWeek(text: string): { key: string; weekStartDate: string; weekEndDate: string } {
  const day = mustParse(text);
  const weekday = (new Date(day * MS_PER_DAY).getUTCDay() + 6) % 7; // Monday = 0
  const monday = day - weekday;
  const thursday = monday + 3;
  const isoYear = new Date(thursday * MS_PER_DAY).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(isoYear, 0, 1) / MS_PER_DAY) / 7) + 1;
  return {
    key: `${isoYear}-W${String(week).padStart(2, '0')}`,
    weekStartDate: formatDay(monday),
    weekEndDate: formatDay(monday + 6),
  };
}

/** The month bucket label used as `dayKey` for Month granularity ("2026-11"). */
export function monthKey(text: string): string {
  mustParse(text);
  return text.slice(0, 7);
}

function mustParse(text: string): DayNumber {
  const d = parseDay(text);
  if (d === null) throw new RangeError(`not a calendar day: ${text}`);
  return d;
}
