/**
 * The runs' two settings, read from the configuration and checked with zod: a bad value is never
 * used (the default stands in, and the log says which setting and why), so a typo cannot make the
 * poll hammer the service or stop it.
 */
import * as vscode from 'vscode';
import * as z from 'zod';

export const REFRESH_SECONDS = { default: 10, min: 2, max: 3600 } as const;

export interface RunSettings {
  /** Seconds between status polls while a visible task runs. */
  readonly refreshSeconds: number;
  /** Whether a run that ends while VS Code is open shows a notification. */
  readonly notifyOnFinish: boolean;
}

const refreshSchema = z.number().int().min(REFRESH_SECONDS.min).max(REFRESH_SECONDS.max);
const notifySchema = z.boolean();

/** Reads `scrapedeck.runs.*`; `warn` hears of each value that was refused. */
export function readRunSettings(warn: (message: string) => void): RunSettings {
  const config = vscode.workspace.getConfiguration('scrapedeck.runs');
  const refresh = refreshSchema.safeParse(config.get<unknown>('refreshSeconds', REFRESH_SECONDS.default));
  const notify = notifySchema.safeParse(config.get<unknown>('notifyOnFinish', true));
  if (!refresh.success) {
    warn(
      `scrapedeck.runs.refreshSeconds must be a whole number from ${REFRESH_SECONDS.min} to ${REFRESH_SECONDS.max}; using ${REFRESH_SECONDS.default}.`,
    );
  }
  if (!notify.success) warn('scrapedeck.runs.notifyOnFinish must be true or false; using true.');
  return {
    refreshSeconds: refresh.success ? refresh.data : REFRESH_SECONDS.default,
    notifyOnFinish: notify.success ? notify.data : true,
  };
}

/** Calls `listener` with fresh settings whenever `scrapedeck.runs` changes. */
export function onRunSettingsChange(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('scrapedeck.runs')) listener();
  });
}
