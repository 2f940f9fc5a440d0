/**
 * The extension's settings, read from a plain object and validated. Pure (no `vscode`), so the
 * rules are unit-tested in Node; `configuration.ts` feeds it from the workspace configuration.
 * A bad value is never used: it becomes a problem to show, and the last good value (or the
 * default) stands in for it.
 */
import { fitText } from '../api/http/replyBody';
import { checkServiceAddress, hasDecodableUserinfo, isLoopbackHost, maskUserinfo } from '../api/http/urls';
import { headerValueIssue } from '../api/schemas/headerValues';
import { APP_REF_RE } from '../api/schemas/schemas';
import { english, type Translate } from './errorText';
import { badTrackedAppsText, type Fallback, type Refusal, refusalText } from './settingsText';

export { isLoopbackHost };

export const DEFAULT_BASE_URL = 'https://openapi.octoparse.com';
export const MAX_REQUESTS_PER_SECOND = 20;
/** Rows the analytics panel fetches after Run query: the first page (100) at least, 100,000 at most. */
export const AUTO_FETCH_ROWS = { default: 10_000, min: 100, max: 100_000 } as const;

export interface Settings {
  /** Normalised: no trailing slash. */
  baseUrl: string;
  /** The hub address before `/v1/...`; undefined when not set (there is no default). */
  datahubUrl: string | undefined;
  requestsPerSecond: number;
  externalUserId: string | undefined;
  /** Valid `namespace/name` references, de-duplicated, in settings order. */
  trackedApps: string[];
  /** The effective proxy: `scrapedeck.proxy`, else VS Code's `http.proxy`, else undefined. */
  proxy: string | undefined;
  /** `scrapedeck.analytics.autoFetchRows`: how many rows of a query the analytics panel fetches by itself. */
  analyticsAutoFetchRows: number;
}

/** Raw values as the configuration holds them; anything may be there. */
export interface RawSettings {
  baseUrl?: unknown;
  datahubUrl?: unknown;
  requestsPerSecond?: unknown;
  externalUserId?: unknown;
  trackedApps?: unknown;
  proxy?: unknown;
  /** VS Code's own `http.proxy`, the fallback for an empty `scrapedeck.proxy`. */
  httpProxy?: unknown;
  analyticsAutoFetchRows?: unknown;
}

export type SettingId =
  | 'scrapedeck.baseUrl'
  | 'scrapedeck.datahubUrl'
  | 'scrapedeck.requestsPerSecond'
  | 'scrapedeck.externalUserId'
  | 'scrapedeck.trackedApps'
  | 'scrapedeck.proxy'
  | 'scrapedeck.analytics.autoFetchRows'
  | 'http.proxy';

export interface SettingProblem {
  setting: SettingId;
  /** A sentence for people: what is wrong and what is used instead. */
  message: string;
}

export interface SettingsResult {
  values: Settings;
  problems: SettingProblem[];
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  baseUrl: DEFAULT_BASE_URL,
  datahubUrl: undefined,
  requestsPerSecond: MAX_REQUESTS_PER_SECOND,
  externalUserId: undefined,
  trackedApps: [],
  proxy: undefined,
  analyticsAutoFetchRows: AUTO_FETCH_ROWS.default,
});

/** A service address: the client's own rule (src/api/http/urls.ts), so settings and client never disagree. */
export function checkServiceUrl(raw: string): { ok: true; url: string } | { ok: false; reason: string } {
  return checkServiceAddress(raw);
}

function checkProxyUrl(raw: string): { ok: true; url: string } | { ok: false; refusal: Refusal } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, refusal: { why: 'proxy-not-url' } };
  }
  // Plain http is normal for a proxy: the tunnel to the service is still TLS.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, refusal: { why: 'proxy-scheme' } };
  if (!hasDecodableUserinfo(url)) return { ok: false, refusal: { why: 'proxy-escape' } };
  return { ok: true, url: url.toString() };
}

/**
 * How a refused value is quoted; credentials before an `@` are never repeated, whether or not the
 * value parses as a URL (`user:secret@proxy:3128` has no scheme, and parses with the wrong parts).
 */
function show(value: unknown): string {
  // Quoted as JSON (control characters escaped) and cut: the message reaches the log and a toast.
  return fitText(
    typeof value === 'string' ? JSON.stringify(maskUserinfo(value)) : (JSON.stringify(value) ?? String(value)),
    120,
  );
}

/** Reads and validates every setting. `lastGood` stands in for any value that is refused; `t` words the problems. */
export function validateSettings(
  raw: RawSettings,
  lastGood: Readonly<Settings> = DEFAULT_SETTINGS,
  t: Translate = english,
): SettingsResult {
  const problems: SettingProblem[] = [];
  const refuse = (setting: SettingId, value: unknown, refusal: Refusal, using: Fallback): void => {
    problems.push({ setting, message: refusalText(setting, show(value), refusal, using, t) });
  };
  const NOT_TEXT: Refusal = { why: 'not-text' };
  const value = (v: string): Fallback => ({ value: v });

  // Base URL: required, so an empty value also falls back.
  let baseUrl = lastGood.baseUrl;
  if (raw.baseUrl === undefined || raw.baseUrl === null || raw.baseUrl === '') {
    baseUrl = DEFAULT_BASE_URL;
  } else if (typeof raw.baseUrl !== 'string') {
    refuse('scrapedeck.baseUrl', raw.baseUrl, NOT_TEXT, value(lastGood.baseUrl));
  } else {
    const checked = checkServiceAddress(raw.baseUrl);
    if (checked.ok) baseUrl = checked.url;
    else
      refuse('scrapedeck.baseUrl', raw.baseUrl, { why: 'address', problem: checked.problem }, value(lastGood.baseUrl));
  }

  // Hub URL: optional; empty means "not set".
  let datahubUrl = lastGood.datahubUrl;
  const hubFallback: Fallback = lastGood.datahubUrl === undefined ? { none: 'hub' } : value(lastGood.datahubUrl);
  if (
    raw.datahubUrl === undefined ||
    raw.datahubUrl === null ||
    (typeof raw.datahubUrl === 'string' && raw.datahubUrl.trim() === '')
  ) {
    datahubUrl = undefined;
  } else if (typeof raw.datahubUrl !== 'string') {
    refuse('scrapedeck.datahubUrl', raw.datahubUrl, NOT_TEXT, hubFallback);
  } else {
    const checked = checkServiceAddress(raw.datahubUrl);
    if (checked.ok) datahubUrl = checked.url;
    else refuse('scrapedeck.datahubUrl', raw.datahubUrl, { why: 'address', problem: checked.problem }, hubFallback);
  }

  let requestsPerSecond = lastGood.requestsPerSecond;
  if (raw.requestsPerSecond === undefined || raw.requestsPerSecond === null) {
    requestsPerSecond = MAX_REQUESTS_PER_SECOND;
  } else if (
    typeof raw.requestsPerSecond !== 'number' ||
    !Number.isFinite(raw.requestsPerSecond) ||
    raw.requestsPerSecond < 1 ||
    raw.requestsPerSecond > MAX_REQUESTS_PER_SECOND
  ) {
    refuse(
      'scrapedeck.requestsPerSecond',
      raw.requestsPerSecond,
      { why: 'rate', max: MAX_REQUESTS_PER_SECOND },
      value(String(lastGood.requestsPerSecond)),
    );
  } else {
    requestsPerSecond = raw.requestsPerSecond;
  }

  let externalUserId = lastGood.externalUserId;
  const idFallback: Fallback =
    lastGood.externalUserId === undefined ? { none: 'externalUserId' } : value(show(lastGood.externalUserId));
  if (
    raw.externalUserId === undefined ||
    raw.externalUserId === null ||
    (typeof raw.externalUserId === 'string' && raw.externalUserId.trim() === '')
  ) {
    externalUserId = undefined;
  } else if (typeof raw.externalUserId !== 'string') {
    refuse('scrapedeck.externalUserId', raw.externalUserId, NOT_TEXT, idFallback);
  } else if (headerValueIssue(raw.externalUserId.trim()) !== undefined || raw.externalUserId.length > 256) {
    // It travels as an HTTP header value: name the character the header layer would refuse.
    const issue = headerValueIssue(raw.externalUserId.trim());
    refuse(
      'scrapedeck.externalUserId',
      raw.externalUserId,
      issue !== undefined ? { why: 'header', issue } : { why: 'too-long', max: 256 },
      idFallback,
    );
  } else {
    externalUserId = raw.externalUserId.trim();
  }

  // Tracked apps: keep the valid entries, name the others.
  let trackedApps = [...lastGood.trackedApps];
  if (raw.trackedApps === undefined || raw.trackedApps === null) {
    trackedApps = [];
  } else if (!Array.isArray(raw.trackedApps)) {
    refuse('scrapedeck.trackedApps', raw.trackedApps, { why: 'not-list' }, { none: 'previousList' });
  } else {
    const good = new Set<string>();
    const bad: unknown[] = [];
    for (const entry of raw.trackedApps as unknown[]) {
      if (typeof entry === 'string' && APP_REF_RE.test(entry.trim())) good.add(entry.trim());
      else bad.push(entry);
    }
    trackedApps = [...good];
    if (bad.length > 0) {
      problems.push({
        setting: 'scrapedeck.trackedApps',
        message: badTrackedAppsText(bad.map(show).join(', '), bad.length, t),
      });
    }
  }

  // Proxy: ours first, then VS Code's http.proxy. Either being bad means a direct connection
  // (or the last good proxy), never a half-parsed address.
  let proxy = lastGood.proxy;
  const proxyFallback: Fallback = lastGood.proxy === undefined ? { none: 'proxy' } : value(lastGood.proxy);
  const ownProxy = typeof raw.proxy === 'string' ? raw.proxy.trim() : raw.proxy;
  if (ownProxy !== undefined && ownProxy !== null && ownProxy !== '') {
    if (typeof ownProxy !== 'string') refuse('scrapedeck.proxy', raw.proxy, NOT_TEXT, proxyFallback);
    else {
      const checked = checkProxyUrl(ownProxy);
      if (checked.ok) proxy = checked.url;
      else refuse('scrapedeck.proxy', raw.proxy, checked.refusal, proxyFallback);
    }
  } else if (typeof raw.httpProxy === 'string' && raw.httpProxy.trim() !== '') {
    const checked = checkProxyUrl(raw.httpProxy);
    if (checked.ok) proxy = checked.url;
    else refuse('http.proxy', raw.httpProxy, checked.refusal, proxyFallback);
  } else {
    proxy = undefined;
  }

  let analyticsAutoFetchRows = lastGood.analyticsAutoFetchRows;
  const rows = raw.analyticsAutoFetchRows;
  const { min, max } = AUTO_FETCH_ROWS;
  if (rows === undefined || rows === null) analyticsAutoFetchRows = AUTO_FETCH_ROWS.default;
  else if (typeof rows !== 'number' || !Number.isInteger(rows) || rows < min || rows > max) {
    refuse(
      'scrapedeck.analytics.autoFetchRows',
      rows,
      { why: 'whole-number', min, max: max.toLocaleString('en-US') },
      value(String(lastGood.analyticsAutoFetchRows)),
    );
  } else analyticsAutoFetchRows = rows;

  return {
    values: { baseUrl, datahubUrl, requestsPerSecond, externalUserId, trackedApps, proxy, analyticsAutoFetchRows },
    problems,
  };
}

/** Which settings differ between two validated snapshots. */
export function changedSettings(a: Readonly<Settings>, b: Readonly<Settings>): (keyof Settings)[] {
  const keys = Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[];
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}
