/**
 * Checking credentials before they are stored: an API key with a real call (listTaskGroups),
 * a username and password with `POST /token`. No prompts here; the commands decide what to say.
 */
import { type Credentials, sessionFromToken } from '../api/auth/auth';
import type { ScrapedeckClient } from '../api/client';
import { ApiError, errorMessage, isApiError } from '../api/errors/errors';

export type Verified =
  | {
      ok: true;
      credentials: Credentials;
      /** Accepted, but the plan does not allow listing tasks. */ planLimited?: ApiError;
    }
  | { ok: false; error: ApiError };

/** Something that can build a throwaway client (the ClientHolder, bound to the address being signed in to). */
export interface ProbeClientFactory {
  createProbeClient(credentials?: Credentials): ScrapedeckClient;
}

export async function verifyApiKey(
  factory: ProbeClientFactory,
  apiKey: string,
  signal?: AbortSignal,
): Promise<Verified> {
  const credentials: Credentials = { kind: 'apiKey', apiKey };
  // Built inside the try: an unusable proxy in the environment is a message, not a failed command.
  let client: ScrapedeckClient | undefined;
  try {
    client = factory.createProbeClient(credentials);
    await client.listTaskGroups({ signal });
    return { ok: true, credentials };
  } catch (e) {
    const error = asApiError(e);
    // 403: the key is valid, the plan is not enough for task groups. Still a sign-in.
    if (error.kind === 'forbidden') return { ok: true, credentials, planLimited: error };
    return { ok: false, error };
  } finally {
    await client?.close();
  }
}

export async function obtainSession(
  factory: ProbeClientFactory,
  username: string,
  password: string,
  now: () => number,
  signal?: AbortSignal,
): Promise<Verified> {
  let client: ScrapedeckClient | undefined;
  try {
    client = factory.createProbeClient(undefined);
    const { data } = await client.obtainToken(username, password, { signal });
    return { ok: true, credentials: { kind: 'session', session: sessionFromToken(data, now()) } };
  } catch (e) {
    return { ok: false, error: asApiError(e) };
  } finally {
    await client?.close();
  }
}

function asApiError(e: unknown): ApiError {
  if (isApiError(e)) return e;
  return new ApiError({ kind: 'network', message: errorMessage(e), cause: e });
}
