/**
 * How credentials are kept: the SecretStorage key (one per service address, so a sandbox sign-in
 * and a real one never mix) and the stored JSON (parsed with zod on every read: storage is outside
 * our control), which holds the non-secret account metadata too, so an account is one record
 * written in one step. Older versions kept the metadata in globalState; it is still read from
 * there for a record without it. Pure, no `vscode`.
 */
import * as z from 'zod';

import type { Credentials } from '../api/auth/auth';
import { english, type Translate } from '../platform/errorText';

export type SignInMethod = 'apiKey' | 'password' | 'sandbox';

const SECRET_PREFIX = 'scrapedeck.credentials:';
const META_PREFIX = 'scrapedeck.account:';

/**
 * One spelling per address: lower-case scheme and host, default port dropped, no trailing
 * slash. "HTTPS://Example.com:443/" and "https://example.com" share their secrets.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl.trim());
    // URL already lower-cases scheme and host and drops a default port.
    const path = url.pathname.replace(/\/+$/, '');
    return `${url.protocol}//${url.host}${path}`;
  } catch {
    return baseUrl.trim().replace(/\/+$/, '');
  }
}

/** The SecretStorage key of the credentials for one service address. */
export function credentialsKey(baseUrl: string): string {
  return `${SECRET_PREFIX}${normalizeBaseUrl(baseUrl)}`;
}

/** The globalState key where older versions kept the account metadata of one service address. */
export function accountMetaKey(baseUrl: string): string {
  return `${META_PREFIX}${normalizeBaseUrl(baseUrl)}`;
}

const tokenSessionSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  tokenType: z.string().min(1),
  expiresAt: z.number().finite(),
  issuedAt: z.number().finite().optional(),
});

export const credentialsSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('apiKey'), apiKey: z.string().min(1) }),
  z.object({ kind: z.literal('session'), session: tokenSessionSchema, hubApiKey: z.string().min(1).optional() }),
]);

export type StoredCredentials =
  | {
      ok: true;
      credentials: Credentials | undefined;
      /** Absent in a record an older version wrote. */ meta?: AccountMeta;
    }
  | { ok: false; reason: string };

/**
 * Parses what SecretStorage holds. Nothing stored is "signed out"; malformed credentials are an
 * error; malformed metadata is left out (the label falls back, the sign-in still works).
 */
export function parseStoredCredentials(text: string | undefined): StoredCredentials {
  if (text === undefined || text === '') return { ok: true, credentials: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the stored credentials are not JSON' };
  }
  const parsed = credentialsSchema.safeParse(json);
  if (!parsed.success) {
    // Name the fields only: the values are secrets.
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(root)'))].join(', ');
    return { ok: false, reason: `the stored credentials have an unexpected shape (${fields})` };
  }
  const c = parsed.data;
  const credentials: Credentials =
    c.kind === 'apiKey'
      ? { kind: 'apiKey', apiKey: c.apiKey }
      : c.hubApiKey === undefined
        ? { kind: 'session', session: c.session }
        : { kind: 'session', session: c.session, hubApiKey: c.hubApiKey };
  const meta = parseAccountMeta((json as { account?: unknown }).account);
  return meta === undefined ? { ok: true, credentials } : { ok: true, credentials, meta };
}

/** The stored record: the credentials and, beside them under `account`, who they are for. */
export function serializeCredentials(credentials: Credentials, meta?: AccountMeta): string {
  return JSON.stringify(meta === undefined ? credentials : { ...credentials, account: meta });
}

/** The key the hub is called with: the API key itself, or the one set for a password sign-in. */
export function hubKeyOf(credentials: Credentials | undefined): string | undefined {
  if (credentials === undefined) return undefined;
  return credentials.kind === 'apiKey' ? credentials.apiKey : credentials.hubApiKey;
}

export const accountMetaSchema = z.object({
  label: z.string().min(1),
  method: z.enum(['apiKey', 'password', 'sandbox']),
  /** For a password sign-in: offered again by "Sign In Again". Not a secret. */
  username: z.string().optional(),
});
export type AccountMeta = z.infer<typeof accountMetaSchema>;

export function parseAccountMeta(value: unknown): AccountMeta | undefined {
  const parsed = accountMetaSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** "API key …abcd": enough to tell keys apart, far too little to use one (`t`: vscode.l10n.t in the extension). */
export function apiKeyLabel(apiKey: string, t: Translate = english): string {
  const tail = apiKey.length >= 12 ? apiKey.slice(-4) : '';
  return tail ? t('API key …{0}', tail) : t('API key');
}

/** A label when the metadata is missing (e.g. another window has not written it yet). */
export function fallbackMeta(credentials: Credentials, t: Translate = english): AccountMeta {
  return credentials.kind === 'apiKey'
    ? { label: apiKeyLabel(credentials.apiKey, t), method: 'apiKey' }
    : { label: t('Signed in'), method: 'password' };
}

/** Same kind and same long-lived secret: a renewed token session is still the same account. */
export function sameAccount(a: Credentials | undefined, b: Credentials | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind === 'apiKey') return b.kind === 'apiKey' && a.apiKey === b.apiKey;
  return b.kind === 'session' && a.hubApiKey === b.hubApiKey;
}

/** The longest name an account may be given (the status bar shortens it further). */
export const MAX_LABEL_LENGTH = 64;

/**
 * Why `label` cannot name an API-key account, or undefined. A label is shown everywhere and kept
 * in globalState, outside secret storage, so it may never contain the key.
 */
export function labelProblem(
  label: string,
  apiKey: string,
  t: (message: string, ...args: (string | number)[]) => string,
): string | undefined {
  const trimmed = label.trim();
  if (trimmed === '') return t('Enter a name, or keep the suggested one.');
  if (trimmed.length > MAX_LABEL_LENGTH) return t('Keep the name to {0} characters.', MAX_LABEL_LENGTH);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(trimmed)) return t('A name cannot contain control characters.');
  if (apiKey.length >= 8 && trimmed.includes(apiKey)) return t('A name must not contain the API key.');
  return undefined;
}

export function describeMethod(method: SignInMethod): string {
  return method === 'apiKey' ? 'API key' : method === 'password' ? 'username and password' : 'sandbox';
}
