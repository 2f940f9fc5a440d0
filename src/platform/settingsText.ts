/**
 * The words of a refused setting: whole sentences, one per reason, through the translator
 * (vscode.l10n.t in the extension, English in tests), so a translation never embeds an English
 * fragment. Pure, like settings.ts.
 */
import type { AddressProblem } from '../api/http/urls';
import { english, type Translate } from './errorText';

/** Why a value was refused. */
export type Refusal =
  | { why: 'not-text' }
  | { why: 'address'; problem: AddressProblem }
  | { why: 'proxy-not-url' }
  | { why: 'proxy-scheme' }
  | { why: 'proxy-escape' }
  | { why: 'rate'; max: number }
  /** `issue` is the header layer's own (English, technical) description of the character. */
  | { why: 'header'; issue: string }
  | { why: 'too-long'; max: number }
  | { why: 'not-list' }
  | { why: 'whole-number'; min: number; max: string };

/** What is used instead: a value as quoted, or one of these. */
export type Fallback = { value: string } | { none: 'hub' | 'externalUserId' | 'proxy' | 'previousList' };

function whatIsWrong(setting: string, shown: string, r: Refusal, t: Translate): string {
  switch (r.why) {
    case 'not-text':
      return t('The setting {0} is {1}, which is not text.', setting, shown);
    case 'proxy-not-url':
      return t('The setting {0} is {1}, which is not a URL.', setting, shown);
    case 'proxy-scheme':
      return t('The setting {0} is {1}, which must be an http:// or https:// proxy address.', setting, shown);
    case 'proxy-escape':
      return t(
        'The setting {0} is {1}, which has a user name or password with a % that is not a valid escape (write % as %25).',
        setting,
        shown,
      );
    case 'rate':
      return t(
        'The setting {0} is {1}, which is not a number from 1 to {2} (the service allows {2} per second).',
        setting,
        shown,
        r.max,
      );
    case 'header':
      return t('The setting {0} is {1}, which cannot be sent in an HTTP header ({2}).', setting, shown, r.issue);
    case 'too-long':
      return t('The setting {0} is {1}, which is over {2} characters.', setting, shown, r.max);
    case 'not-list':
      return t('The setting {0} is {1}, which is not a list.', setting, shown);
    case 'whole-number':
      return t('The setting {0} is {1}, which is not a whole number from {2} to {3}.', setting, shown, r.min, r.max);
    case 'address':
      switch (r.problem.code) {
        case 'not-url':
          return t('The setting {0} is {1}, which is not a URL.', setting, shown);
        case 'scheme':
          return t(
            'The setting {0} is {1}, which must start with https:// (http:// is allowed only for localhost, 127.0.0.0/8 and ::1); got {2}.',
            setting,
            shown,
            r.problem.got,
          );
        case 'userinfo':
          return t('The setting {0} is {1}, which must not contain a user name or password.', setting, shown);
        case 'query':
          return t('The setting {0} is {1}, which must not contain a query (?…) or fragment (#…).', setting, shown);
      }
  }
}

function instead(f: Fallback, t: Translate): string {
  if ('value' in f) return t('Using {0} instead.', f.value);
  switch (f.none) {
    case 'hub':
      return t('Using no hub address instead.');
    case 'externalUserId':
      return t('Using no external user id instead.');
    case 'proxy':
      return t('Using no proxy instead.');
    case 'previousList':
      return t('Using the previous list instead.');
  }
}

/** "The setting X is Y, which …. Using Z instead." (with why http.proxy counts, when it is that one). */
export function refusalText(
  setting: string,
  shown: string,
  refusal: Refusal,
  using: Fallback,
  t: Translate = english,
): string {
  const note = setting === 'http.proxy' ? ` ${t('Scrapedeck uses it because scrapedeck.proxy is empty.')}` : '';
  return `${whatIsWrong(setting, shown, refusal, t)}${note} ${instead(using, t)}`;
}

/** The tracked-apps entries that are not namespace/name, quoted, are ignored. */
export function badTrackedAppsText(quoted: string, count: number, t: Translate = english): string {
  return count === 1
    ? t('The setting scrapedeck.trackedApps has an entry that is not namespace/name ({0}). It is ignored.', quoted)
    : t('The setting scrapedeck.trackedApps has entries that are not namespace/name ({0}). They are ignored.', quoted);
}
