/**
 * The one wait of the end-to-end steps, and the sandbox asked behind the UI. support.ts re-exports
 * both: specs import them from there.
 */
import type { SandboxAccount, SandboxInfo } from './support';

/** Generous waits for a shared 2-core machine; assertions themselves do not wait on time. */
export const UI_TIMEOUT = 60_000;

/** How often a wait looks again: the only pause an end-to-end step makes. */
export const POLL_MS = 100;

export interface WaitOptions {
  /** Fails after this long (default UI_TIMEOUT). */
  timeoutMs?: number;
  /** Looks again this often (default POLL_MS). */
  intervalMs?: number;
}

/**
 * The one wait of the end-to-end steps, for a state a locator cannot wait on by itself (a count, a
 * value, the focus, a scroll position, the sandbox's data): looks at `check` every `intervalMs`
 * until it answers something other than false, undefined or null, and resolves to that answer.
 * A check that throws counts as "not yet". After `timeoutMs` it fails, naming `what` and the last
 * error. Steps never sleep: a pause is only ever this poll interval.
 */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | false | undefined | null> | T | false | undefined | null,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = UI_TIMEOUT, intervalMs = POLL_MS } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined && value !== null) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? `: ${lastError.message.split('\n')[0]}` : '';
      throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The earlier name of the wait (each spec had its own copy): `until(what, check, timeoutMs)`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = UI_TIMEOUT): Promise<void> {
  await waitUntil(what, async () => (await check()) || undefined, { timeoutMs });
}

/**
 * Asks the sandbox itself, with the account's API key, what the UI should show (or does what a
 * step needs behind the UI), and returns the reply's `data`. The sandbox's 20 requests a second
 * per account are shared with the extension: a 429 is waited out, through waitUntil, as its
 * Retry-After says.
 */
export async function sandboxRequest<T>(
  info: SandboxInfo,
  account: SandboxAccount,
  method: 'GET' | 'POST',
  pathAndQuery: string,
  body?: unknown,
): Promise<T> {
  const res = await waitUntil(
    `${method} ${pathAndQuery} past the sandbox's rate limit`,
    async () => {
      const r = await fetch(`${info.baseUrl}${pathAndQuery}`, {
        method,
        headers: {
          'x-api-key': account.apiKey,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (r.status !== 429) return r;
      await r.arrayBuffer();
      return undefined;
    },
    { intervalMs: 1000 },
  ); // the sandbox's Retry-After: its window is one second
  if (res.status !== 200)
    throw new Error(`${method} ${pathAndQuery}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return ((await res.json()) as { data: T }).data;
}
