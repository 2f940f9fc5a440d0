/**
 * The remembered outcome of deprecating an app, and how it reads, without `vscode`. Kept in
 * globalState so a node still says "deprecated" after a reload: the service has no read for it.
 */
import * as z from 'zod';

import type { DeprecatedApp } from '../api/schemas/schemas';
import { english, type Translate } from '../platform/errorText';
import { plainText } from '../platform/plainText';

export const deprecationRecordSchema = z.object({
  /** The `status` the hub returned; its literal values are not in the spec, so it is shown verbatim. */
  status: z.string(),
  /** Undefined or empty when the hub sent none (an app with zero releases). */
  version: z.string().optional(),
  missingSecrets: z.array(z.string()).default([]),
  /** Epoch milliseconds of the successful call. */
  at: z.number().int().nonnegative(),
});
export type DeprecationRecord = z.infer<typeof deprecationRecordSchema>;

export function recordFromResult(result: DeprecatedApp, now: number): DeprecationRecord {
  return {
    status: result.status,
    version: result.version === undefined || result.version === '' ? undefined : result.version,
    missingSecrets: result.missing_secrets ?? [],
    at: now,
  };
}

/** "v1.2.0", keeping a "v" the hub may already send; "no version" for an app without releases. */
export function versionLabel(version: string | undefined, t: Translate = english): string {
  if (version === undefined || version.trim() === '') return t('no version');
  return /^v\d/i.test(version) ? version : `v${version}`;
}

/** The node's description, e.g. "deprecated · v1.2.0" or "deprecated · no version". */
export function deprecationDescription(record: DeprecationRecord, t: Translate = english): string {
  // The hub's status is shown verbatim: its literal values are not in the spec.
  const status = record.status.trim() === '' ? t('deprecated') : plainText(record.status, 60);
  return `${status} · ${versionLabel(record.version, t)}`;
}

/** The warning after a deprecation that left secrets missing; undefined when none are missing. */
export function missingSecretsWarning(
  ref: string,
  record: DeprecationRecord,
  t: Translate = english,
): string | undefined {
  if (record.missingSecrets.length === 0) return undefined;
  return t(
    '{0} is deprecated, but these secrets are missing: {1}',
    plainText(ref),
    plainText(record.missingSecrets.join(', ')),
  );
}

/** What the modal says deprecation means, from the spec's state table; nothing more is promised. */
export function confirmationText(ref: string, t: Translate = english): { message: string; detail: string } {
  return {
    message: t('Deprecate {0}?', plainText(ref)),
    detail: [
      t('Deprecation marks the app as no longer maintained; users are advised to migrate away from it.'),
      `• ${t('The app leaves market search.')}`,
      `• ${t('New releases of it are rejected.')}`,
      `• ${t('Runs of it are still allowed.')}`,
      `• ${t('Its detail stays readable, according to its visibility.')}`,
      `• ${t('Supply is not cut: that is a separate maintenance switch.')}`,
      '',
      t('Scrapedeck cannot undo this: the service interface does not show how to undeprecate an app.'),
    ].join('\n'),
  };
}
