/**
 * The one sign-in: verify the secret against the service, then store it. No prompts (the commands
 * ask and explain) and no `vscode` import.
 *
 *   await signIn(holder, 'apiKey', { apiKey, label }, { signal });
 *   await signIn(holder, 'password', { username, password });
 *   await signIn(holder, 'sandbox', { apiKey, username });
 *
 * Nothing is stored unless the service accepted the secret. `endpoints` lets a caller sign in at
 * another address than the one in use (Switch Account leaving the sandbox).
 */
import type { ApiError } from '../api/errors/errors';
import type { Account, ClientHolder, Endpoints } from './clientHolder';
import { type AccountMeta, apiKeyLabel, type SignInMethod } from './credentials';
import { obtainSession, type ProbeClientFactory, type Verified, verifyApiKey } from './verify';

export interface SignInSecrets {
  apiKey: { apiKey: string; /** Shown for the account; default "API key …abcd". */ label?: string };
  password: { username: string; password: string };
  sandbox: { apiKey: string; username: string };
}

export type SignInResult =
  | {
      ok: true;
      account: Account | undefined;
      /** Accepted, but the plan does not allow listing tasks. */ planLimited?: ApiError;
    }
  | { ok: false; error: ApiError };

export interface SignInOptions {
  signal?: AbortSignal;
  /** Where to verify and store; default: the endpoints in use. */
  endpoints?: Endpoints;
  now?: () => number;
}

type Holder = Pick<ClientHolder, 'createProbeClient' | 'store' | 'endpoints' | 'account'>;

export async function signIn<K extends SignInMethod>(
  holder: Holder,
  kind: K,
  secret: SignInSecrets[K],
  options: SignInOptions = {},
): Promise<SignInResult> {
  const endpoints = options.endpoints ?? holder.endpoints;
  const probes: ProbeClientFactory = {
    createProbeClient: (credentials) => holder.createProbeClient(credentials, endpoints),
  };
  const { verified, meta } = await verify(probes, { kind, ...secret } as Request, options);
  if (!verified.ok) return verified;
  await holder.store(verified.credentials, meta, endpoints.baseUrl);
  return verified.planLimited === undefined
    ? { ok: true, account: holder.account }
    : { ok: true, account: holder.account, planLimited: verified.planLimited };
}

type Request = { [K in SignInMethod]: { kind: K } & SignInSecrets[K] }[SignInMethod];

async function verify(
  probes: ProbeClientFactory,
  request: Request,
  options: SignInOptions,
): Promise<{ verified: Verified; meta: AccountMeta }> {
  switch (request.kind) {
    case 'apiKey':
      return {
        verified: await verifyApiKey(probes, request.apiKey, options.signal),
        meta: { label: labelOrDefault(request.label, request.apiKey), method: 'apiKey' },
      };
    case 'sandbox':
      return {
        verified: await verifyApiKey(probes, request.apiKey, options.signal),
        meta: { label: request.username, method: 'sandbox' },
      };
    case 'password':
      return {
        verified: await obtainSession(
          probes,
          request.username,
          request.password,
          options.now ?? Date.now,
          options.signal,
        ),
        meta: { label: request.username, method: 'password', username: request.username },
      };
  }
}

function labelOrDefault(label: string | undefined, apiKey: string): string {
  const trimmed = label?.trim() ?? '';
  // A label is shown everywhere and kept outside secret storage: it may never carry the key.
  return trimmed === '' || trimmed.includes(apiKey) ? apiKeyLabel(apiKey) : trimmed;
}
