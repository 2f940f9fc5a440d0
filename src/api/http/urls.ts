/**
 * Address hygiene: which base URLs are acceptable, and how paths are built from user input.
 * Pure functions, so the rules can be tested without a network.
 */
import { ApiError } from '../errors/errors';
import { appRefSchema } from '../schemas/schemas';
import { fitText } from './replyBody';

/**
 * 127.0.0.0/8, localhost and ::1 — traffic that never leaves the machine. Not `*.localhost`:
 * Node asks the system resolver for those names, and a resolver may send them elsewhere.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return v4 !== null && v4.slice(1).every((part) => Number(part) <= 255);
}

/** Whether a URL's user name and password percent-decode (the proxy agent decodes them, and throws if not). */
export function hasDecodableUserinfo(url: URL): boolean {
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
    return true;
  } catch {
    return false;
  }
}

/** An address as it may be quoted in a message or log: any `user:password@` replaced by `***@`. */
export function maskUserinfo(raw: string): string {
  // Up to the last '@': a password may hold a raw '@' or '/', and over-masking a message costs nothing.
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, '$1***@');
}

/**
 * The one rule for a service address, shared by the settings and the client: https (plain http
 * only to a loopback host, where nothing can be overheard; not `*.localhost`), no user name or
 * password, no query or fragment. The normalised URL (no trailing slash), or why it is refused.
 */
/** Why an address is refused, for callers that word it themselves (the settings, through l10n). */
export type AddressProblem =
  { code: 'not-url' } | { code: 'scheme'; got: string } | { code: 'userinfo' } | { code: 'query' };

export function checkServiceAddress(
  raw: string,
): { ok: true; url: string } | { ok: false; reason: string; problem: AddressProblem } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'is not a URL', problem: { code: 'not-url' } };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    const got = `${url.protocol}//${url.host}`;
    return {
      ok: false,
      reason: `must start with https:// (http:// is allowed only for localhost, 127.0.0.0/8 and ::1); got ${got}`,
      problem: { code: 'scheme', got },
    };
  }
  if (url.username || url.password)
    return { ok: false, reason: 'must not contain a user name or password', problem: { code: 'userinfo' } };
  if (url.search || url.hash)
    return { ok: false, reason: 'must not contain a query (?…) or fragment (#…)', problem: { code: 'query' } };
  return { ok: true, url: url.toString().replace(/\/+$/, '') };
}

/**
 * Parses a base URL with the rule of `checkServiceAddress` (a proxy: http or https, decodable
 * user info). The result has no trailing slash so paths can be appended verbatim.
 */
export function checkBaseUrl(raw: string, field: 'baseUrl' | 'datahubUrl' | 'proxyUrl'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError({
      kind: 'invalid-request',
      field,
      message: `${field} is not a valid URL: "${maskUserinfo(raw)}"`,
    });
  }
  if (field === 'proxyUrl') {
    // A proxy may legitimately be plain http (the tunnel to the service is still TLS).
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ApiError({ kind: 'invalid-request', field, message: `${field} must be an http:// or https:// URL` });
    }
    if (!hasDecodableUserinfo(url)) {
      throw new ApiError({
        kind: 'invalid-request',
        field,
        message: `${field} has a user name or password with a % that is not a valid escape (write % as %25)`,
      });
    }
    return url.toString();
  }
  const checked = checkServiceAddress(raw);
  if (!checked.ok) throw new ApiError({ kind: 'invalid-request', field, message: `${field} ${checked.reason}` });
  return checked.url;
}

/**
 * The hub path segment of an app reference: `namespace/name`, each part encoded on its own and
 * joined by a literal slash (the spec's app_id "has a namespace part and an app-name part
 * separated by a slash"). Anything else is refused before sending.
 */
export function appRefPath(appRef: string): string {
  const parsed = appRefSchema.safeParse(appRef);
  if (!parsed.success) {
    throw new ApiError({
      kind: 'invalid-request',
      field: 'appRef',
      // Quoted in part only: the reference may be anything a caller sent (a megabyte, a line break).
      message: `Invalid app reference "${fitText(appRef.slice(0, 200), 80)}": ${parsed.error.issues[0]?.message ?? 'expected namespace/name'}`,
    });
  }
  const [namespace, name] = parsed.data.split('/') as [string, string];
  return `${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
}
