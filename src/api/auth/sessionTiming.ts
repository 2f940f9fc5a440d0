/**
 * When a token session is renewed, and a caller's wait for a shared renewal. Pure: the keeper
 * (`sessionKeeper.ts`) passes its clock in.
 */
import { ApiError } from '../errors/errors';
import type { TokenSession } from './auth';

/** The renewal margin: `marginMs`, at most a quarter of the token's lifetime. */
export function renewalMargin(session: TokenSession, marginMs: number): number {
  const lifetime = session.issuedAt !== undefined ? session.expiresAt - session.issuedAt : Infinity;
  // A 2-second token with a 60-second margin would renew forever: cap the margin at a quarter of the lifetime.
  return Math.min(marginMs, lifetime / 4);
}

/** Within its renewal margin: renew now, in the background, while the token still works. */
export function isDue(session: TokenSession, now: number, marginMs: number): boolean {
  return now >= session.expiresAt - renewalMargin(session, marginMs);
}

/**
 * Too close to its expiry to be sent, or expired: a call waits for the renewal. The last quarter
 * of the margin is room for the request's way to the server and for the server's clock having
 * started the token's life before ours (we start it when its reply arrives).
 */
export function isSpent(session: TokenSession, now: number, marginMs: number): boolean {
  return now >= session.expiresAt - renewalMargin(session, marginMs) / 4;
}

/** The shared promise, or a 'cancelled' ApiError as soon as this caller's signal fires. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted)
    return Promise.reject(new ApiError({ kind: 'cancelled', message: 'Cancelled while renewing the session' }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void =>
      reject(new ApiError({ kind: 'cancelled', message: 'Cancelled while renewing the session' }));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
