/**
 * Credentials and the token session. The owner decides where credentials live (SecretStorage
 * in the extension, memory in tests); the client reads them per request and writes back a
 * renewed session (`sessionKeeper.ts` renews it).
 */
import type { TokenData } from '../schemas/schemas';

export interface TokenSession {
  accessToken: string;
  refreshToken: string;
  tokenType: string;
  /** Epoch ms after which the access token is no longer valid. */
  expiresAt: number;
  /** Epoch ms the token was obtained; lets the renewal margin scale down for short-lived tokens. */
  issuedAt?: number;
}

export type Credentials =
  | { kind: 'apiKey'; apiKey: string } // main: x-api-key; hub: Bearer apiKey
  | { kind: 'session'; session: TokenSession; hubApiKey?: string }; // main: Bearer access token; hub: Bearer hubApiKey

export interface CredentialsStore {
  /** undefined = signed out. */
  get(): Promise<Credentials | undefined>;
  /** Called by the client after it renewed the session, so the owner can persist it. */
  set(next: Credentials): Promise<void>;
}

export class MemoryCredentialsStore implements CredentialsStore {
  private value: Credentials | undefined;
  constructor(initial?: Credentials) {
    this.value = initial;
  }
  get(): Promise<Credentials | undefined> {
    return Promise.resolve(this.value);
  }
  set(next: Credentials): Promise<void> {
    this.value = next;
    return Promise.resolve();
  }
  /** Sign out (not part of CredentialsStore: the client never signs anyone out). */
  clear(): void {
    this.value = undefined;
  }
}

export function sessionFromToken(data: TokenData, now: number): TokenSession {
  return {
    accessToken: data.access_token,
    refreshToken: data.refresh_token,
    tokenType: data.token_type,
    expiresAt: now + data.expires_in * 1000,
    issuedAt: now,
  };
}

export const SIGN_IN_NEEDED = 'Your session has expired and could not be renewed: sign in again.';
