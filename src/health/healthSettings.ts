/**
 * The `scrapedeck.health.*` settings, read from a plain object and validated. Pure (no `vscode`).
 * A bad value is never used: it becomes a problem (the setting, the value as shown, what stands in
 * for it) that the vscode layer words through l10n, and the default stands in for it.
 */
import type { Thresholds } from './healthModel';

export interface HealthSettings extends Thresholds {
  windowDays: number;
  refreshMinutes: number;
  notify: boolean;
}

export const DEFAULT_HEALTH_SETTINGS: Readonly<HealthSettings> = Object.freeze({
  windowDays: 7,
  refreshMinutes: 15,
  failureRate: 0.2,
  slowdownFactor: 1.5,
  notify: true,
});

/** Raw values as the configuration holds them (`scrapedeck.health.<name>`); anything may be there. */
export interface RawHealthSettings {
  windowDays?: unknown;
  refreshMinutes?: unknown;
  failureRateThreshold?: unknown;
  slowdownFactor?: unknown;
  notify?: unknown;
}

export type HealthSettingName = keyof RawHealthSettings;

export interface HealthSettingProblem {
  name: HealthSettingName;
  /** The refused value, quoted and cut for a message. */
  shown: string;
  /** What is used instead. */
  fallback: string;
}

export const MAX_REFRESH_MINUTES = 24 * 60;

/** Which numbers each setting accepts (the manifest's schema says the same to the Settings editor). */
const RULES: Record<Exclude<HealthSettingName, 'notify'>, (v: number) => boolean> = {
  windowDays: (v) => v >= 1 && Number.isInteger(v),
  refreshMinutes: (v) => v >= 1 && v <= MAX_REFRESH_MINUTES,
  failureRateThreshold: (v) => v >= 0 && v < 1,
  slowdownFactor: (v) => v >= 1,
};

const show = (value: unknown): string => (JSON.stringify(value) ?? String(value)).slice(0, 60);

export function validateHealthSettings(raw: RawHealthSettings): {
  values: HealthSettings;
  problems: HealthSettingProblem[];
} {
  const problems: HealthSettingProblem[] = [];
  const number = (name: Exclude<HealthSettingName, 'notify'>, fallback: number): number => {
    const value = raw[name];
    if (value === undefined || value === null) return fallback;
    if (typeof value === 'number' && Number.isFinite(value) && RULES[name](value)) return value;
    problems.push({ name, shown: show(value), fallback: String(fallback) });
    return fallback;
  };
  const d = DEFAULT_HEALTH_SETTINGS;
  const windowDays = number('windowDays', d.windowDays);
  const refreshMinutes = number('refreshMinutes', d.refreshMinutes);
  const failureRate = number('failureRateThreshold', d.failureRate);
  const slowdownFactor = number('slowdownFactor', d.slowdownFactor);
  let notify = d.notify;
  if (typeof raw.notify === 'boolean') notify = raw.notify;
  else if (raw.notify !== undefined && raw.notify !== null)
    problems.push({ name: 'notify', shown: show(raw.notify), fallback: String(d.notify) });
  return {
    values: { windowDays, refreshMinutes, failureRate, slowdownFactor, notify },
    problems,
  };
}
