/**
 * Shared by the client's sandbox tests: a credentials store that remembers every token it is
 * given, a log collector, and the secret check run over everything the clients and the sandbox
 * logged.
 */
import * as assert from 'node:assert/strict';

import { type Credentials, MemoryCredentialsStore } from '../../../src/api/auth/auth';
import { ApiError, type ApiErrorKind } from '../../../src/api/errors/errors';
import type { TokenData } from '../../../src/api/schemas/schemas';
import type { SandboxInfo } from '../../../src/sandbox/server';

export class SecretsSeen {
  readonly values = new Set<string>();
  add(...values: (string | undefined)[]): void {
    for (const v of values) if (v) this.values.add(v);
  }
  token(data: TokenData): TokenData {
    this.add(data.access_token, data.refresh_token);
    return data;
  }
  accounts(info: SandboxInfo): void {
    for (const a of info.accounts) this.add(a.apiKey, a.password);
  }
  credentials(c: Credentials): void {
    if (c.kind === 'apiKey') this.add(c.apiKey);
    else this.add(c.session.accessToken, c.session.refreshToken, c.hubApiKey);
  }
}

/** A memory store that reports every session the client writes back. */
export class TrackingStore extends MemoryCredentialsStore {
  sets = 0;
  constructor(
    private readonly seen: SecretsSeen,
    initial?: Credentials,
  ) {
    super(initial);
    if (initial) seen.credentials(initial);
  }
  override set(next: Credentials): Promise<void> {
    this.sets++;
    this.seen.credentials(next);
    return super.set(next);
  }
}

export class LogCapture {
  readonly lines: string[] = [];
  readonly sink = (line: string): void => {
    this.lines.push(line);
  };
}

export function assertNoSecrets(lines: readonly string[], seen: SecretsSeen): void {
  assert.ok(lines.length > 0, 'nothing was logged');
  const text = lines.join('\n');
  for (const secret of seen.values) {
    assert.ok(!text.includes(secret), `a secret (${secret.slice(0, 4)}…) reached the log`);
  }
}

/** An assert.rejects predicate: an ApiError of this kind, and whatever else `extra` checks. */
export const isKind =
  (kind: ApiErrorKind, extra: (e: ApiError) => boolean = () => true) =>
  (e: unknown): boolean =>
    e instanceof ApiError && e.kind === kind && extra(e);
