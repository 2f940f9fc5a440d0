/**
 * Colours and badge letters of the Tasks view's task and group nodes, from the health board: a
 * FileDecorationProvider on their `scrapedeck-task:` resource URIs. Theme colours only (they
 * follow every theme, high contrast included); a healthy task is left undecorated.
 */
import * as vscode from 'vscode';

import type { HealthView } from './healthBoard';
import type { HealthLevel } from './healthModel';
import { factor, groupPart, noRuns, percent } from './healthText';
import { parseTaskResourceUri } from './taskUri';

const t = vscode.l10n.t;

interface Look {
  badge: string;
  color: string;
}

/** Badges are one letter (the tree shows at most two characters). */
const LOOKS: Record<Exclude<HealthLevel, 'ok'>, Look> = {
  failing: { badge: 'F', color: 'testing.iconFailed' },
  slowing: { badge: 'S', color: 'charts.yellow' },
  idle: { badge: '0', color: 'disabledForeground' },
};

export class HealthDecorations implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeFileDecorations = this.changed.event;
  private readonly subscription: { dispose(): void };

  constructor(private readonly health: HealthView) {
    // Any change may touch any node: VS Code asks again for the URIs it shows.
    this.subscription = health.onDidChange(() => this.changed.fire(undefined));
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const target = parseTaskResourceUri(uri);
    const snapshot = this.health.snapshot;
    if (!target || !snapshot) return undefined;
    if (target.kind === 'task') {
      const h = this.health.task(target.id)?.health;
      if (!h || h.level === 'ok') return undefined;
      const tip =
        h.level === 'idle'
          ? noRuns(snapshot.windowDays)
          : [
              h.failing && h.failureRate !== null ? t('{0} of runs failed', percent(h.failureRate)) : undefined,
              h.slowing && h.slowdown !== null ? t('runs {0} slower', factor(h.slowdown)) : undefined,
            ]
              .filter((x): x is string => x !== undefined)
              .join(' · ');
      return decoration(h.level, tip);
    }
    const g = this.health.group(target.id);
    if (!g || g.level === 'ok') return undefined;
    const idle = g.tasks === 1 ? t('Its one task had no runs') : t('{0} of {1} tasks had no runs', g.idle, g.tasks);
    return decoration(g.level, g.level === 'idle' ? idle : (groupPart(g) ?? ''));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function decoration(level: Exclude<HealthLevel, 'ok'>, tooltip: string): vscode.FileDecoration {
  const look = LOOKS[level];
  const d = new vscode.FileDecoration(look.badge, tooltip, new vscode.ThemeColor(look.color));
  d.propagate = false;
  return d;
}
