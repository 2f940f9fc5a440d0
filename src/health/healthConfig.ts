/**
 * The `scrapedeck.health.*` settings from the workspace configuration: validated (healthSettings.ts),
 * a refused value said once with "Open Settings" (and the default used), and changes passed on with
 * the names that changed.
 */
import * as vscode from 'vscode';

import type { Ui } from '../platform/ui';
import {
  type HealthSettingName,
  type HealthSettingProblem,
  type HealthSettings,
  MAX_REFRESH_MINUTES,
  validateHealthSettings,
} from './healthSettings';

const t = vscode.l10n.t;
const SECTION = 'scrapedeck.health';

function expectation(name: HealthSettingName): string {
  switch (name) {
    case 'windowDays':
      return t('a whole number of days, at least 1');
    case 'refreshMinutes':
      return t('a number of minutes from 1 to {0}', MAX_REFRESH_MINUTES);
    case 'failureRateThreshold':
      return t('a fraction from 0 up to (not including) 1, e.g. 0.2 for 20%');
    case 'slowdownFactor':
      return t('a factor of at least 1, e.g. 1.5');
    case 'notify':
      return t('true or false');
  }
}

export function problemMessage(p: HealthSettingProblem): string {
  return t(
    'The setting {0} is {1}, which is not {2}. Using {3} instead.',
    `${SECTION}.${p.name}`,
    p.shown,
    expectation(p.name),
    p.fallback,
  );
}

export class HealthConfig implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<readonly (keyof HealthSettings)[]>();
  readonly onDidChange = this.emitter.event;
  private values: HealthSettings;
  private shown = new Set<string>();
  private readonly notes = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly ui: Ui,
    private readonly log: Pick<vscode.LogOutputChannel, 'warn'>,
  ) {
    this.values = this.read();
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      const before = this.values;
      this.values = this.read();
      const changed = (Object.keys(before) as (keyof HealthSettings)[]).filter((k) => before[k] !== this.values[k]);
      if (changed.length > 0) this.emitter.fire(changed);
    });
  }

  get settings(): HealthSettings {
    return this.values;
  }

  /** Says something about a setting once per `key` in this window's life (e.g. a clamped window). */
  warnOnce(key: string, setting: string, message: string): void {
    if (this.notes.has(key)) return;
    this.notes.add(key);
    this.warn(setting, message);
  }

  private read(): HealthSettings {
    const c = vscode.workspace.getConfiguration(SECTION);
    const { values, problems } = validateHealthSettings({
      windowDays: c.get<unknown>('windowDays'),
      refreshMinutes: c.get<unknown>('refreshMinutes'),
      failureRateThreshold: c.get<unknown>('failureRateThreshold'),
      slowdownFactor: c.get<unknown>('slowdownFactor'),
      notify: c.get<unknown>('notify'),
    });
    const now = new Set<string>();
    for (const p of problems) {
      const message = problemMessage(p);
      now.add(message);
      if (!this.shown.has(message)) this.warn(`${SECTION}.${p.name}`, message);
    }
    // Forget fixed problems, so the same mistake made again is said again.
    this.shown = now;
    return values;
  }

  private warn(setting: string, message: string): void {
    this.log.warn(message);
    const open = t('Open Settings');
    void this.ui.showWarningMessage(message, open).then((choice) => {
      if (choice === open) void vscode.commands.executeCommand('workbench.action.openSettings', setting);
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
