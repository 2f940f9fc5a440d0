/**
 * The workspace configuration behind `settings.ts`: reads the raw values, validates them, warns
 * once per bad value (naming the setting, with "Open Settings"), and tells listeners when the
 * validated values changed.
 */
import * as vscode from 'vscode';

import { changedSettings, type RawSettings, type SettingProblem, type Settings, validateSettings } from './settings';
import type { Ui } from './ui';

export interface SettingsChange {
  readonly settings: Settings;
  readonly changed: readonly (keyof Settings)[];
}

export class Configuration implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SettingsChange>();
  readonly onDidChange = this.emitter.event;
  private values: Settings;
  /** Problems already shown, so an unrelated change does not repeat a warning. */
  private shown = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly ui: Ui,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.values = this.read(undefined);
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('scrapedeck') && !e.affectsConfiguration('http.proxy')) return;
      const before = this.values;
      this.values = this.read(before);
      const changed = changedSettings(before, this.values);
      if (changed.length > 0) this.emitter.fire({ settings: this.values, changed });
    });
  }

  get settings(): Settings {
    return this.values;
  }

  private read(lastGood: Settings | undefined): Settings {
    const config = vscode.workspace.getConfiguration('scrapedeck');
    const raw: RawSettings = {
      baseUrl: config.get<unknown>('baseUrl'),
      datahubUrl: config.get<unknown>('datahubUrl'),
      requestsPerSecond: config.get<unknown>('requestsPerSecond'),
      externalUserId: config.get<unknown>('externalUserId'),
      trackedApps: config.get<unknown>('trackedApps'),
      proxy: config.get<unknown>('proxy'),
      httpProxy: vscode.workspace.getConfiguration('http').get<unknown>('proxy'),
      analyticsAutoFetchRows: config.get<unknown>('analytics.autoFetchRows'),
    };
    const { values, problems } = validateSettings(raw, lastGood, vscode.l10n.t);
    this.report(problems);
    return values;
  }

  private report(problems: readonly SettingProblem[]): void {
    const now = new Set(problems.map((p) => p.message));
    for (const problem of problems) {
      if (this.shown.has(problem.message)) continue;
      this.log.warn(problem.message);
      const openSettings = vscode.l10n.t('Open Settings');
      void this.ui.showWarningMessage(problem.message, openSettings).then((choice) => {
        if (choice === openSettings)
          void vscode.commands.executeCommand('workbench.action.openSettings', problem.setting);
      });
    }
    // Forget fixed problems, so the same mistake made again is reported again.
    this.shown = now;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
