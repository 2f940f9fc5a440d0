/**
 * Tracked data apps, without `vscode`. The service cannot list the apps a user authors, so the
 * Data Apps view shows the references the user added plus those in the `scrapedeck.trackedApps`
 * setting. Everything read from storage or settings is parsed with zod here.
 */
import * as z from 'zod';

import { APP_REF_MAX, appRefSchema } from '../api/schemas/schemas';
import { english, type Translate } from '../platform/errorText';

export type AppSource = 'added' | 'settings';

export interface TrackedApp {
  /** `namespace/name`, trimmed, exactly as the user wrote it (the spec does not say refs are case-insensitive). */
  readonly ref: string;
  readonly namespace: string;
  readonly name: string;
  /** Settings win: an app listed there can only be removed there. */
  readonly source: AppSource;
}

export interface NamespaceGroup {
  readonly namespace: string;
  readonly apps: readonly TrackedApp[];
}

/** Parse one reference; undefined when it is not `namespace/name`. */
export function parseAppRef(text: unknown): { ref: string; namespace: string; name: string } | undefined {
  const parsed = appRefSchema.safeParse(text);
  if (!parsed.success) return undefined;
  const [namespace, name] = parsed.data.split('/') as [string, string];
  return { ref: parsed.data, namespace, name };
}

/** The message an input box shows for a bad reference (undefined = valid); `t` is vscode.l10n.t in the extension. */
export function validateAppRefInput(
  text: string,
  alreadyTracked: (ref: string) => TrackedApp | undefined,
  t: Translate = english,
): string | undefined {
  const parsed = appRefSchema.safeParse(text);
  // The schema's own message is English (it also guards the wire), so the box words it itself.
  if (!parsed.success) {
    return text.trim().length > APP_REF_MAX
      ? t('An app reference has at most {0} characters.', APP_REF_MAX)
      : t('An app reference is namespace/name, e.g. acme/price-tracker');
  }
  const existing = alreadyTracked(parsed.data);
  if (existing) {
    return existing.source === 'settings'
      ? t('{0} is already tracked (from the scrapedeck.trackedApps setting)', parsed.data)
      : t('{0} is already tracked', parsed.data);
  }
  return undefined;
}

export interface SettingsApps {
  readonly refs: readonly string[];
  /** Entries that are not `namespace/name` strings, as shown to the user in one warning. */
  readonly invalid: readonly string[];
}

/** The `scrapedeck.trackedApps` setting: valid refs kept (deduplicated), the rest listed as invalid. */
export function parseSettingsApps(raw: unknown): SettingsApps {
  const list = z.array(z.unknown()).safeParse(raw);
  if (!list.success) return { refs: [], invalid: raw === undefined || raw === null ? [] : [JSON.stringify(raw)] };
  const refs: string[] = [];
  const invalid: string[] = [];
  for (const item of list.data) {
    const parsed = parseAppRef(item);
    if (!parsed) invalid.push(typeof item === 'string' ? item : JSON.stringify(item));
    else if (!refs.includes(parsed.ref)) refs.push(parsed.ref);
  }
  return { refs, invalid };
}

/** One list from both sources, without duplicates; an app in both counts as from settings. */
export function mergeTracked(added: readonly string[], fromSettings: readonly string[]): TrackedApp[] {
  const byRef = new Map<string, TrackedApp>();
  for (const ref of fromSettings) {
    const p = parseAppRef(ref);
    if (p) byRef.set(p.ref, { ...p, source: 'settings' });
  }
  for (const ref of added) {
    const p = parseAppRef(ref);
    if (p && !byRef.has(p.ref)) byRef.set(p.ref, { ...p, source: 'added' });
  }
  return [...byRef.values()];
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Namespace nodes, sorted; apps sorted by name inside each. */
export function groupByNamespace(apps: readonly TrackedApp[]): NamespaceGroup[] {
  const groups = new Map<string, TrackedApp[]>();
  for (const app of apps) {
    const list = groups.get(app.namespace) ?? [];
    list.push(app);
    groups.set(app.namespace, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([namespace, list]) => ({ namespace, apps: list.sort((a, b) => collator.compare(a.name, b.name)) }));
}
