/**
 * Credentials: the token store (password and refresh grants, expiry, rotation) and how a request's
 * headers resolve to an account on the main interface and on the hub.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

import { errorReply, type Reply } from '../http/respond';
import type { SeedAccount, World } from '../seed/seed';

/** Integer codes of the main interface's 401s, one per cause. */
export const AUTH_CODES = { missing: 40100, invalid: 40101, expired: 40102 } as const;

interface AccessEntry {
  username: string;
  expiresAt: number;
}
interface RefreshEntry {
  username: string;
  used: boolean;
  /** When it was issued, or used: unused ones expire, used ones are kept only to refuse a replay. */
  at: number;
}

/** An unused refresh token lives this long; a used one is remembered this long (to answer "already used"). */
const REFRESH_LIFETIME_MS = 24 * 3600_000;
const USED_REMEMBERED_MS = 10 * 60_000;
/** Above this many, the oldest refresh tokens go first whatever their age: memory stays bounded. */
const MAX_REFRESH_TOKENS = 20_000;

export interface IssuedToken {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

export interface TokenSnapshot {
  access: [string, AccessEntry][];
  refresh: [string, RefreshEntry][];
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
  private lastSweep = 0;
  private nextSweepAt = 2_000;

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  issue(username: string): IssuedToken {
    this.prune();
    const access_token = secret('sat_');
    const refresh_token = secret('srt_');
    this.access.set(access_token, { username, expiresAt: this.now() + this.ttlSeconds * 1000 });
    this.refresh.set(refresh_token, { username, used: false, at: this.now() });
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
    if (this.now() - entry.at > REFRESH_LIFETIME_MS) {
      this.refresh.delete(token);
      return { ok: false, reason: 'unknown' };
    }
    entry.used = true;
    entry.at = this.now();
    return { ok: true, username: entry.username };
  }

  ownerOfRefresh(token: string): string | undefined {
    return this.refresh.get(token)?.username;
  }

  /** The tokens still good (the state file keeps them, so a sandbox restart does not sign anyone out). */
  toSnapshot(): TokenSnapshot {
    const now = this.now();
    return {
      access: [...this.access].filter(([, e]) => e.expiresAt > now).map(([token, e]) => [token, { ...e }]),
      refresh: [...this.refresh]
        .filter(([, e]) => !e.used && now - e.at <= REFRESH_LIFETIME_MS)
        .map(([token, e]) => [token, { ...e }]),
    };
  }

  restore(s: TokenSnapshot): void {
    for (const [token, e] of s.access) this.access.set(token, { ...e });
    for (const [token, e] of s.refresh) this.refresh.set(token, { ...e });
  }

  /** How many refresh tokens are remembered (for tests of the bound). */
  get refreshTokens(): number {
    return this.refresh.size;
  }

  /** Drops expired tokens so a long-running sandbox does not grow without bound. */
  private prune(): void {
    const now = this.now();
    // A sweep costs the maps' size, so it runs when they have grown by half since the last one
    // (amortised O(1) per grant), or a minute after it.
    const size = this.access.size + this.refresh.size;
    if (size >= this.nextSweepAt || now - this.lastSweep > 60_000) {
      for (const [token, entry] of this.access) if (entry.expiresAt < now) this.access.delete(token);
      for (const [token, entry] of this.refresh) {
        if (now - entry.at > (entry.used ? USED_REMEMBERED_MS : REFRESH_LIFETIME_MS)) this.refresh.delete(token);
      }
      this.lastSweep = now;
      this.nextSweepAt = Math.max(2_000, Math.ceil((this.access.size + this.refresh.size) * 1.5));
    }
    // Insertion order is age order: at the cap, the oldest tenth goes in one pass (one at a time
    // would walk the map's deleted slots again on every grant).
    if (this.refresh.size >= MAX_REFRESH_TOKENS) {
      let excess = this.refresh.size - Math.floor(MAX_REFRESH_TOKENS * 0.9);
      for (const token of this.refresh.keys()) {
        if (excess-- <= 0) break;
        this.refresh.delete(token);
      }
    }
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
  const message =
    key === undefined ? 'Authentication required: send Authorization: Bearer <API key>.' : 'The API key is invalid.';
  return {
    ok: false,
    reply: errorReply('hub', 'unauthorized', message, { headers: { 'www-authenticate': 'Bearer' } }),
  };
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
