/**
 * The optional argument of `scrapedeck.analytics.open`: which tasks to pre-fill, and a label for
 * the tab. Commands can be run from anywhere (palette, keybindings, other extensions, menus that
 * pass a Uri), so the argument is parsed, and anything unexpected means "no preset".
 */
import { english, type Translate } from '../../platform/errorText';
import { type Preset, presetSchema } from '../protocol';

export type PresetParse = { preset: Preset | undefined; warning?: string };

/** The longest tab label a preset keeps (the schema's limit); a longer task name is shortened, not refused. */
export const MAX_LABEL = 200;

export function parsePreset(arg: unknown): PresetParse {
  if (arg === undefined || arg === null) return { preset: undefined };
  const parsed = presetSchema.safeParse(withShortLabel(arg));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'argument';
    return { preset: undefined, warning: `ignored the analytics preset (${where}: ${issue?.message ?? 'invalid'})` };
  }
  return { preset: normalisePreset(parsed.data) };
}

/** A task or group may be named at any length; losing its task ids over a long tab title would be wrong. */
function withShortLabel(arg: unknown): unknown {
  if (typeof arg !== 'object' || arg === null || !('label' in arg)) return arg;
  const { label } = arg as { label: unknown };
  if (typeof label !== 'string' || label.length <= MAX_LABEL) return arg;
  return { ...arg, label: `${label.slice(0, MAX_LABEL - 1)}…` };
}

/** Drops empty parts, so "no tasks" and "an empty list of tasks" are the same preset (all tasks). */
export function normalisePreset(preset: Preset): Preset | undefined {
  const taskIds = preset.taskIds && preset.taskIds.length > 0 ? [...new Set(preset.taskIds)] : undefined;
  const label = preset.label?.trim() ? preset.label.trim() : undefined;
  if (!taskIds && !label) return undefined;
  return { ...(taskIds ? { taskIds } : {}), ...(label ? { label } : {}) };
}

/** The tab's title; `t` is vscode.l10n.t in the extension. */
export function panelTitle(preset: Preset | undefined, t: Translate = english): string {
  return preset?.label ? t('Analytics: {0}', preset.label) : t('Task Analytics');
}

/** Two presets ask for the same tasks (order aside): reopening one reveals the open panel. */
export function samePreset(a: Preset | undefined, b: Preset | undefined): boolean {
  const ka = [...(a?.taskIds ?? [])].sort().join('\n');
  const kb = [...(b?.taskIds ?? [])].sort().join('\n');
  return ka === kb && (a?.label ?? '') === (b?.label ?? '');
}
