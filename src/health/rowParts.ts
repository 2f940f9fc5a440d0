/**
 * Health's words on a task row, without `vscode` (the translator is passed in): what leads the
 * row's description when the task needs attention ("12% failed", "2.2× slower"; the tooltip says of what), and what
 * trails it ("no runs in 7 days"). A healthy task adds nothing: its figures are in the tooltip,
 * where they say what they count, and the row stays short enough for a narrow sidebar.
 */
import type { TaskHealth } from './healthModel';

export type Translate = (message: string, ...args: (string | number)[]) => string;

/** "12%", "<1%" for a rate that is not 0 but rounds to it, "100%". */
export function percent(rate: number): string {
  if (rate > 0 && rate < 0.005) return '<1%';
  return `${Math.round(rate * 100)}%`;
}

/** "2.2×" */
export const factor = (x: number): string => `${x.toFixed(1)}×`;

export interface HealthRowParts {
  /** Shown first (before the run state): why the task needs attention. */
  readonly lead?: string;
  /** Shown after the run state. */
  readonly tail?: string;
}

export function healthRowParts(h: TaskHealth, windowDays: number, t: Translate): HealthRowParts {
  if (h.level === 'idle') return { tail: windowDays === 1 ? t('no runs today') : t('no runs in {0} days', windowDays) };
  const lead: string[] = [];
  if (h.failing && h.failureRate !== null) lead.push(t('{0} failed', percent(h.failureRate)));
  if (h.slowing && h.slowdown !== null) lead.push(t('{0} slower', factor(h.slowdown)));
  return lead.length === 0 ? {} : { lead: lead.join(', ') };
}
