/**
 * What the rest of the extension sees of the sign-in: the account, the addresses in use, and the
 * settings the holder follows. Types and one pure function, no `vscode`.
 */
import type { Credentials } from '../api/auth/auth';
import type { Event } from '../platform/emitter';
import type { Settings } from '../platform/settings';
import { type AccountMeta, hubKeyOf, type SignInMethod } from './credentials';

export interface Account {
  /** The username, 'API key …abcd', or the label the user gave an API key. */
  label: string;
  method: SignInMethod;
  baseUrl: string;
  datahubUrl: string | undefined;
  hasHubKey: boolean;
  /** For a password sign-in: offered again by "Sign In Again". Not a secret. */
  username?: string;
}

/** Where the extension talks to. A sandbox override wins over the settings, for this window only. */
export interface Endpoints {
  baseUrl: string;
  datahubUrl: string | undefined;
}

/** The validated settings and their changes (the shared `Configuration`). */
export interface SettingsSource {
  readonly settings: Settings;
  onDidChange: Event<{ readonly changed: readonly (keyof Settings)[] }>;
}

/** The account a stored record stands for at these endpoints. */
export function accountOf(credentials: Credentials, meta: AccountMeta, endpoints: Endpoints): Account {
  return {
    label: meta.label,
    method: meta.method,
    baseUrl: endpoints.baseUrl,
    datahubUrl: endpoints.datahubUrl,
    hasHubKey: hubKeyOf(credentials) !== undefined,
    ...(meta.username === undefined ? {} : { username: meta.username }),
  };
}
