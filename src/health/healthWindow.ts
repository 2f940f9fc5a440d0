/**
 * The health windows: the last N UTC days (today included) and the N days before them. The
 * service answers only dates within the last three months, so the previous window must start
 * there too; a longer window is clamped, and the caller says so.
 */
import { addDays, daysBetween, earliestStart } from '../api/schemas/dates';

export interface DayRange {
  start: string;
  end: string;
}

export interface HealthWindows {
  /** Days per window actually used. */
  days: number;
  /** Days the setting asked for. */
  requested: number;
  /** True when `days` < `requested` (the three-month limit). */
  clamped: boolean;
  current: DayRange;
  previous: DayRange;
}

/** The longest window whose previous window still starts within the three-month limit. */
export function maxWindowDays(today: string): number {
  // The two windows cover 2N days ending today; the first of them may be the earliest start.
  return Math.floor((daysBetween(earliestStart(today), today) + 1) / 2);
}

export function healthWindows(today: string, requestedDays: number): HealthWindows {
  const requested = Math.max(1, Math.floor(requestedDays));
  const days = Math.min(requested, maxWindowDays(today));
  return {
    days,
    requested,
    clamped: days < requested,
    current: { start: addDays(today, -(days - 1)), end: today },
    previous: { start: addDays(today, -(2 * days - 1)), end: addDays(today, -days) },
  };
}

export function sameRange(a: DayRange | undefined, b: DayRange | undefined): boolean {
  return a !== undefined && b !== undefined && a.start === b.start && a.end === b.end;
}
