/**
 * How health reads, in words (through vscode.l10n): the short parts of the nodes' descriptions
 * ("12% failed · 41 runs", "no runs in 7 days"), the tooltips with the figures and the window,
 * and the age of what is shown.
 */
import * as vscode from 'vscode';

import type { GroupHealthInfo, HealthView, TaskHealthInfo } from './healthBoard';
import type { TaskHealth } from './healthModel';
import { factor, type HealthRowParts, healthRowParts, percent } from './rowParts';
import type { HealthSnapshot } from './snapshot';

export { factor, percent };

const t = vscode.l10n.t;

/** "45s", "3m 20s", "1h 02m". */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** One formatter for all rows: toLocaleString builds a new one per call (most of a node's cost). */
const COUNT = new Intl.NumberFormat('en-US');

export function runs(n: number): string {
  return n === 1 ? t('1 run') : t('{0} runs', COUNT.format(n));
}

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
export function age(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return t('just now');
  if (minutes < 60) return t('{0} min ago', minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t('{0} h ago', hours);
  return t('{0} days ago', Math.floor(hours / 24));
}

/** The window before the current one: "the 7 days before", "the day before". */
export function daysBefore(days: number): string {
  return days === 1 ? t('the day before') : t('the {0} days before', days);
}

export function noRuns(days: number): string {
  return days === 1 ? t('no runs today') : t('no runs in {0} days', days);
}

/** The task's parts of its node's description: why it needs attention (first), or that it did not run (last). */
export function taskParts(h: TaskHealth, windowDays: number): HealthRowParts {
  return healthRowParts(h, windowDays, t);
}

/** The group's part: how many of its tasks fail, slow down or did not run. */
export function groupPart(g: GroupHealthInfo): string | undefined {
  const parts: string[] = [];
  if (g.failing > 0) parts.push(t('{0} failing', g.failing));
  if (g.slowing > 0) parts.push(t('{0} slowing', g.slowing));
  return parts.length === 0 ? undefined : parts.join(', ');
}

/** "the last 7 days (2026-11-17 – 2026-11-23, UTC)" */
export function windowText(s: Pick<HealthSnapshot, 'windowDays' | 'current'>): string {
  return s.windowDays === 1
    ? t('today ({0}, UTC)', s.current.end)
    : t('the last {0} days ({1} – {2}, UTC)', s.windowDays, s.current.start, s.current.end);
}

/** Tooltip lines for one task: the figures, the window, the previous window, the thresholds crossed, the age. */
export function appendTaskTooltip(
  md: vscode.MarkdownString,
  info: TaskHealthInfo,
  view: Pick<HealthView, 'thresholds' | 'now'>,
  s: HealthSnapshot,
): void {
  const h = info.health;
  md.appendMarkdown('\n\n---\n\n');
  md.appendMarkdown('**')
    .appendText(t('Health over {0}', windowText(s)))
    .appendMarkdown('**  \n');
  md.appendText(t('Counted from analytics: runs in the cloud and on computers, in this window only.')).appendMarkdown(
    '  \n',
  );
  if (h.level === 'idle') {
    md.appendText(t('No runs in this window.')).appendMarkdown('  \n');
  } else {
    md.appendText(
      h.failureRate === null
        ? t('Runs: {0} (outcome not reported)', h.runs)
        : t('Failed: {0} of {1} ({2})', h.failures, runs(h.runs), percent(h.failureRate)),
    );
    md.appendMarkdown('  \n');
    if (h.averageSeconds !== null) {
      const before =
        h.previousAverageSeconds === null
          ? t('no timed runs in {0}', daysBefore(s.windowDays))
          : t('{0} in {1}', duration(h.previousAverageSeconds), daysBefore(s.windowDays));
      md.appendText(t('Average run: {0} ({1})', duration(h.averageSeconds), before));
      if (h.slowdown !== null) md.appendText(` · ${factor(h.slowdown)}`);
      md.appendMarkdown('  \n');
    }
  }
  const crossed: string[] = [];
  if (h.failing) crossed.push(t('failure rate above {0}', percent(view.thresholds.failureRate)));
  if (h.slowing) crossed.push(t('runs more than {0} slower', factor(view.thresholds.slowdownFactor)));
  if (crossed.length > 0)
    md.appendMarkdown('**')
      .appendText(t('Needs attention: {0}', crossed.join(', ')))
      .appendMarkdown('**  \n');
  const mark = taskMark(h, view.thresholds, s.windowDays);
  if (mark !== undefined) md.appendText(mark).appendMarkdown('  \n');
  md.appendText(t('Updated {0}', age(view.now() - s.computedAt)));
}

/** What the letter beside a task's name means (the decorations draw it: F, S or 0). */
export function taskMark(
  h: TaskHealth,
  thresholds: { failureRate: number; slowdownFactor: number },
  windowDays: number,
): string | undefined {
  if (h.level === 'failing')
    return t('F beside the name: failing, more than {0} of its runs failed.', percent(thresholds.failureRate));
  if (h.level === 'slowing')
    return t(
      'S beside the name: slowing, its runs took more than {0} as long as in {1}.',
      factor(thresholds.slowdownFactor),
      daysBefore(windowDays),
    );
  if (h.level === 'idle') return t('0 beside the name: no runs in this window.');
  return undefined;
}

/** Tooltip lines for a group: how its tasks fare. */
export function appendGroupTooltip(
  md: vscode.MarkdownString,
  g: GroupHealthInfo,
  s: HealthSnapshot,
  now: number,
): void {
  md.appendMarkdown('\n\n---\n\n');
  md.appendMarkdown('**')
    .appendText(t('Health over {0}', windowText(s)))
    .appendMarkdown('**  \n');
  md.appendText(
    t('{0} failing, {1} slowing, {2} with no runs, of {3}', g.failing, g.slowing, g.idle, g.tasks),
  ).appendMarkdown('  \n');
  const mark =
    g.level === 'failing'
      ? t('F beside the name: at least one of its tasks is failing.')
      : g.level === 'slowing'
        ? t('S beside the name: at least one of its tasks is slowing.')
        : g.level === 'idle'
          ? t('0 beside the name: its tasks had no runs in this window.')
          : undefined;
  if (mark !== undefined) md.appendText(mark).appendMarkdown('  \n');
  md.appendText(t('Updated {0}', age(now - s.computedAt)));
}
