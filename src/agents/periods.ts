/**
 * Named date ranges a model can ask for ("this week"), as UTC calendar days, so it need not know
 * today's date. The spec's rules are checked afterwards, on whatever range results.
 */
import { addDays, isoWeek, todayUtc } from '../api/schemas/dates';

export const PERIODS = [
  'today',
  'yesterday',
  'thisWeek',
  'lastWeek',
  'last7Days',
  'last30Days',
  'thisMonth',
  'lastMonth',
] as const;
export type Period = (typeof PERIODS)[number];

export function periodRange(period: Period, now: number): { start: string; end: string } {
  const today = todayUtc(new Date(now));
  switch (period) {
    case 'today':
      return { start: today, end: today };
    case 'yesterday': {
      const d = addDays(today, -1);
      return { start: d, end: d };
    }
    case 'thisWeek':
      return { start: isoWeek(today).weekStartDate, end: today };
    case 'lastWeek': {
      const monday = addDays(isoWeek(today).weekStartDate, -7);
      return { start: monday, end: addDays(monday, 6) };
    }
    case 'last7Days':
      return { start: addDays(today, -6), end: today };
    case 'last30Days':
      return { start: addDays(today, -29), end: today };
    case 'thisMonth':
      return { start: `${today.slice(0, 7)}-01`, end: today };
    case 'lastMonth': {
      const lastOfPrevious = addDays(`${today.slice(0, 7)}-01`, -1);
      return { start: `${lastOfPrevious.slice(0, 7)}-01`, end: lastOfPrevious };
    }
  }
}
