/**
 * Credentials: the token store (password and refresh grants, expiry, rotation) and how a request's
 * headers resolve to an account on the main interface and on the hub.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { SeedAccount, World } from './seed';
import { errorReply, type Reply } from './respond';

/** Integer codes of the main interface's 401s, one per cause. */
export const AUTH_CODES = { missing: 40100, invalid: 40101, expired: 40102 } as const;

interface AccessEntry {
  username: string;
  expiresAt: number;
}
interface RefreshEntry {
  username: string;
  used: boolean;
}

export interface IssuedToken {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

export type RefreshUse = { ok: true; username: string } | { ok: false; reason: 'unknown' | 'used' };
export type AccessCheck = { ok: true; username: string } | { ok: false; reason: 'invalid' | 'expired' };

/** Tokens are secrets, so they come from the OS's CSPRNG, not the seed. */
function secret(prefix: string): string {
  return prefix + randomBytes(24).toString('base64url');
}

export class TokenStore {
  private readonly access = new Map<string, AccessEntry>();
  private readonly refresh = new Map<string, RefreshEntry>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  issue(username: string): IssuedToken {
    this.prune();
    const access_token = secret('sat_');
    const refresh_token = secret('srt_');
    this.access.set(access_token, { username, expiresAt: this.now() + this.ttlSeconds * 1000 });
    this.refresh.set(refresh_token, { username, used: false });
    return { access_token, refresh_token, token_type: 'Bearer', expires_in: this.ttlSeconds };
  }

  checkAccess(token: string): AccessCheck {
    const entry = this.access.get(token);
    if (!entry) return { ok: false, reason: 'invalid' };
    if (this.now() >= entry.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, username: entry.username };
  }

  /** Marks the refresh token used (rotation): a second use is refused. */
  useRefresh(token: string): RefreshUse {
    const entry = this.refresh.get(token);
    if (!entry) return { ok: false, reason: 'unknown' };
    if (entry.used) return { ok: false, reason: 'used' };
    entry.used = true;
    return { ok: true, username: entry.username };
  }

  ownerOfRefresh(token: string): string | undefined {
    return this.refresh.get(token)?.username;
  }

  /** Drops long-expired access tokens so a long-running sandbox does not grow without bound. */
  private prune(): void {
    if (this.access.size < 10_000) return;
    const now = this.now();
    for (const [token, entry] of this.access) if (entry.expiresAt < now) this.access.delete(token);
  }
}

export type AuthResult = { ok: true; account: SeedAccount } | { ok: false; reply: Reply };

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function bearer(headers: IncomingHttpHeaders): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header(headers, 'authorization') ?? '');
  return m?.[1];
}

/** Main interface: `x-api-key` (wins when both are sent) or `Authorization: Bearer <access token>`. */
export function authenticateMain(headers: IncomingHttpHeaders, world: World, tokens: TokenStore): AuthResult {
  const fail = (code: number, message: string): AuthResult => ({
    ok: false,
    reply: errorReply('main', 'unauthorized', message, { mainCode: code, headers: { 'www-authenticate': 'Bearer' } }),
  });
  const apiKey = header(headers, 'x-api-key');
  if (apiKey !== undefined) {
    const account = world.byApiKey.get(apiKey.trim());
    return account ? { ok: true, account } : fail(AUTH_CODES.invalid, 'The API key is invalid.');
  }
  const token = bearer(headers);
  if (token === undefined) {
    return fail(AUTH_CODES.missing, 'Authentication required: send x-api-key or Authorization: Bearer <access token>.');
  }
  const check = tokens.checkAccess(token);
  if (!check.ok) {
    return check.reason === 'expired'
      ? fail(AUTH_CODES.expired, 'The access token has expired; obtain a new one with grant_type refresh_token.')
      : fail(AUTH_CODES.invalid, 'The access token is invalid.');
  }
  const account = world.byUsername.get(check.username);
  return account ? { ok: true, account } : fail(AUTH_CODES.invalid, 'The access token is invalid.');
}

/** Hub: `Authorization: Bearer <API key>` only (access tokens are not accepted there). */
export function authenticateHub(headers: IncomingHttpHeaders, world: World): AuthResult {
  const key = bearer(headers);
  const account = key === undefined ? undefined : world.byApiKey.get(key);
  if (account) return { ok: true, account };
  const message = key === undefined
    ? 'Authentication required: send Authorization: Bearer <API key>.'
    : 'The API key is invalid.';
  return { ok: false, reply: errorReply('hub', 'unauthorized', message, { headers: { 'www-authenticate': 'Bearer' } }) };
}

/**
 * The rate-limit bucket of a request: the credential presented, else the client address. One
 * bucket per credential however it is sent: an API key as `x-api-key` on the main interface and
 * as `Bearer` on the hub shares its 20 a second.
 */
export function credentialKey(headers: IncomingHttpHeaders, remoteAddress: string | undefined): string {
  const credential = header(headers, 'x-api-key')?.trim() || bearer(headers);
  if (credential) return `credential:${credential}`;
  return `ip:${remoteAddress ?? 'unknown'}`;
}
