/**
 * Display formatting of analytics figures. Pure (no DOM, no vscode) so the page, the tests and
 * any export preview say the same thing. A null is "not known" and always shows as DASH, never 0.
 */

import { pageText } from './pageStrings';

export const DASH = '—';

/**
 * One number format for every count, figure and tick the panel shows: VS Code's UI locale (the host
 * passes `vscode.env.language`; the page reads it from `<html lang>`), so "1,234" and "1.234" never
 * share a screen. en-US until told, which is what the tests see.
 */
let intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
let decimalFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
let percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
let numberLocale = 'en-US';

/** Formats numbers the way `locale` (a BCP 47 tag) groups them; an unknown or bad tag keeps en-US. Returns the one used. */
export function setNumberLocale(locale: string | undefined): string {
  let chosen = 'en-US';
  try {
    chosen = (locale ? Intl.NumberFormat.supportedLocalesOf([locale])[0] : undefined) ?? 'en-US';
  } catch {
    chosen = 'en-US'; // a malformed tag: RangeError
  }
  numberLocale = chosen;
  intFormat = new Intl.NumberFormat(chosen, { maximumFractionDigits: 0 });
  decimalFormat = new Intl.NumberFormat(chosen, { maximumFractionDigits: 2 });
  percentFormat = new Intl.NumberFormat(chosen, { style: 'percent', maximumFractionDigits: 1 });
  return chosen;
}

/** The locale numbers are formatted in now. */
export function getNumberLocale(): string {
  return numberLocale;
}

export function isKnown(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export function formatInt(value: number | null | undefined): string {
  return isKnown(value) ? intFormat.format(value) : DASH;
}

export function formatDecimal(value: number | null | undefined): string {
  return isKnown(value) ? decimalFormat.format(value) : DASH;
}

/** A 0..1 fraction as a percentage ("87.5%"). */
export function formatPercent(value: number | null | undefined): string {
  return isKnown(value) ? percentFormat.format(value) : DASH;
}

/** Tenths of a percent: the one decimal percentages are shown with. */
const PER_WHOLE = 1000;

/**
 * Fractions shown side by side as shares of one whole (a row's success and failure rates): each
 * rounded alone, 0.4515 and 0.5485 read 45.2% and 54.9%, 100.1% together. Rounded together by
 * largest remainder instead, what is shown adds up to what their sum rounds to (100% for a
 * whole): each gets its rounded-down tenths, and the tenths still missing go to the largest
 * remainders (the first on a tie). An unknown value is DASH and takes no part.
 */
export function formatShares(values: readonly (number | null | undefined)[]): string[] {
  // Scaled values lose the float noise below a millionth of a tenth (0.1 + 0.2 is not 0.3).
  const scaled = values.map((v) => (isKnown(v) ? Math.round(v * PER_WHOLE * 1e6) / 1e6 : null));
  const known = scaled.flatMap((v, i) => (v === null ? [] : [{ i, floor: Math.floor(v), rest: v - Math.floor(v) }]));
  const total = Math.round(known.reduce((sum, k) => sum + k.rest, 0));
  const extra = new Set(
    [...known]
      .sort((a, b) => b.rest - a.rest || a.i - b.i)
      .slice(0, total)
      .map((k) => k.i),
  );
  const units = new Map(known.map((k) => [k.i, k.floor + (extra.has(k.i) ? 1 : 0)]));
  return values.map((_, i) => {
    const u = units.get(i);
    return u === undefined ? DASH : percentFormat.format(u / PER_WHOLE);
  });
}

/** Seconds as "1h 2m 3s"; below a minute keeps one decimal ("4.5s") so short runs stay readable. */
export function formatDuration(seconds: number | null | undefined): string {
  if (!isKnown(seconds)) return DASH;
  const sign = seconds < 0 ? '-' : '';
  const abs = Math.abs(seconds);
  if (abs < 60) return `${sign}${abs < 10 && abs % 1 !== 0 ? abs.toFixed(1) : Math.round(abs)}s`;
  let rest = Math.round(abs);
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  const s = rest - m * 60;
  const parts: string[] = [];
  if (h > 0) parts.push(`${intFormat.format(h)}h`);
  if (h > 0 || m > 0) parts.push(`${m}m`);
  parts.push(`${s}s`);
  return sign + parts.join(' ');
}

/** Steps a time axis reads well at: seconds, minutes and hours people count in. */
const DURATION_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400];

/**
 * The tick step (seconds) for a duration axis from 0 to `max`: the smallest time-shaped step that
 * needs at most `maxTicks` steps. Base-10 steps would label the axis "8m 20s", "16m 40s".
 */
export function durationStep(max: number, maxTicks = 5): number {
  if (!isKnown(max) || max <= 0) return 1;
  const fit = DURATION_STEPS.find((step) => max / step <= maxTicks);
  if (fit !== undefined) return fit;
  const day = 86_400;
  return Math.ceil(max / maxTicks / day) * day;
}

/** An axis tick: "15m", "1h 30m", "45s" — zero parts dropped, whole seconds. */
export function formatDurationTick(seconds: number): string {
  if (!isKnown(seconds)) return '';
  if (seconds === 0) return '0';
  let rest = Math.round(Math.abs(seconds));
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  const s = rest - m * 60;
  const parts = [h > 0 ? `${intFormat.format(h)}h` : '', m > 0 ? `${m}m` : '', s > 0 ? `${s}s` : ''].filter(Boolean);
  return (seconds < 0 ? '-' : '') + parts.join(' ');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-11-16" -> "Nov 16" (text stays as given when it is not a yyyy-MM-dd). */
export function shortDay(day: string): string {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(day);
  const month = m ? MONTHS[Number(m[1]) - 1] : undefined;
  return m && month ? `${month} ${Number(m[2])}` : day;
}

/** The days a query asked for (yyyy-MM-dd, inclusive). */
export interface DayRange {
  readonly start: string;
  readonly end: string;
}

/**
 * A bucket as people read it, saying which days its figures cover: a week gets its dates, only
 * those inside the query ("2026-W47 (Nov 20 – Nov 22)" for a query from Nov 20, although the
 * week began on Nov 16); a month the query covers only in part gets the part ("2026-11 (Nov 1 –
 * Nov 26)"); a whole month, a day, or anything else is its key.
 */
export function bucketLabel(
  dayKey: string,
  weekStart: string | null,
  weekEnd: string | null,
  range?: DayRange,
): string {
  const month = /^(\d{4})-(\d{2})$/.exec(dayKey);
  const first = weekStart && weekEnd ? weekStart : month ? `${dayKey}-01` : undefined;
  const last =
    weekStart && weekEnd
      ? weekEnd
      : month
        ? `${dayKey}-${String(daysInMonth(Number(month[1]), Number(month[2]))).padStart(2, '0')}`
        : undefined;
  if (first === undefined || last === undefined) return dayKey;
  // yyyy-MM-dd compares as text; a range that misses the bucket (no record is outside its query) keeps the bucket's own days.
  const from = range && range.start > first && range.start <= last ? range.start : first;
  const to = range && range.end < last && range.end >= from ? range.end : last;
  if (!(weekStart && weekEnd) && from === first && to === last) return dayKey;
  return `${dayKey} (${from === to ? shortDay(from) : `${shortDay(from)} – ${shortDay(to)}`})`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** "Rows 21–40 of 1,234" for a page; "Rows 0 of 0" when empty. */
export function rowsRange(page: number, pageSize: number, shown: number, total: number): string {
  if (shown === 0) return pageText('pager.noRows', intFormat.format(total));
  const first = (page - 1) * pageSize + 1;
  return pageText('pager.rows', intFormat.format(first), intFormat.format(first + shown - 1), intFormat.format(total));
}
