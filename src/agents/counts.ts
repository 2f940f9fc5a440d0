/**
 * Counts as words for the tools' summaries: "1 task", "2 tasks". Each form is its own message so
 * a translation can word both (the l10n bundle reads literal `t(...)` calls).
 */
import type { Translate } from '../platform/errorText';

export function tasksCount(t: Translate, n: number): string {
  return n === 1 ? t('1 task') : t('{0} tasks', n);
}

export function rowsCount(t: Translate, n: number): string {
  return n === 1 ? t('1 row') : t('{0} rows', n);
}

export function daysCount(t: Translate, n: number): string {
  return n === 1 ? t('1 day') : t('{0} days', n);
}

export function runsCount(t: Translate, n: number | null): string {
  if (n === null) return t('runs unknown');
  return n === 1 ? t('1 run') : t('{0} runs', n);
}

export function failuresCount(t: Translate, n: number | null): string {
  if (n === null) return t('failures unknown');
  return n === 1 ? t('1 failure') : t('{0} failures', n);
}
