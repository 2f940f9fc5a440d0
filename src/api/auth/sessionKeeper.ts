/**
 * The token session kept fresh: headers for the main interface and the hub, renewed before the
 * session expires or after a 401. A session within its renewal margin is renewed in the
 * background while calls go on with its still-valid token; only a call that finds the token
 * spent (the last quarter of the margin, or expired) waits for the renewal. Renewal is
 * single-flight: however many calls find the token due at once, one refresh grant goes out; a
 * refresh token another window used first is followed, not replayed.
 */
import { ApiError } from '../errors/errors';
import type { SecretSet } from '../errors/redact';
import { headerValueProblem } from '../schemas/headerValues';
import type { TokenData } from '../schemas/schemas';
import { type Credentials, type CredentialsStore, sessionFromToken, SIGN_IN_NEEDED, type TokenSession } from './auth';
import { isDue, isSpent, untilAborted } from './sessionTiming';

export interface SessionKeeperOptions {
  store: CredentialsStore;
  now: () => number;
  refreshMarginMs: number;
  /** Performs the refresh grant (no caller signal: the renewal is shared by many callers). */
  refresh: (refreshToken: string) => Promise<TokenData>;
  onSessionExpired?: () => void;
  /** The renewed session could not be stored; it is still used from memory. */
  onStoreError?: (error: unknown) => void;
  secrets: SecretSet;
}

/** How many refresh-token rotations are remembered (each lives for a token's lifetime, hours). */
const ROTATIONS_KEPT = 8;
/** After a refused refresh: how often, and how far apart, the store is read for another window's session. */
const STORE_REREADS = 10;
const STORE_REREAD_MS = 100;

export interface AuthHeaders {
  headers: Record<string, string>;
  /** The access token sent, if any: after a 401 it tells whether someone renewed already. */
  accessToken?: string;
  /** The session those headers came from, if any: lets a queued call see it went stale. */
  session?: TokenSession;
}

export class SessionKeeper {
  private inflight: { refreshToken: string; promise: Promise<TokenSession> } | undefined;
  /** A refresh token the server refused: later calls fail at once, without asking (or telling the owner) again. */
  private refused: { refreshToken: string; error: ApiError } | undefined;
  /**
   * Refresh tokens this keeper has rotated out, and the session that replaced each. The server
   * accepts a refresh token once: a caller that read the store before a renewal was written (or
   * after a write failed) must follow the rotation, not replay the old token and be signed out.
   */
  private readonly rotations = new Map<string, TokenSession>();
  /** The refresh token of a due session whose store read (before a background renewal) is under way. */
  private reading: string | undefined;

  constructor(private readonly options: SessionKeeperOptions) {}

  /**
   * Credentials for the main interface: a session due for renewal is renewed in the background
   * (the call goes on with the token it has); one whose token is spent is renewed first.
   */
  async mainHeaders(signal?: AbortSignal): Promise<AuthHeaders> {
    const creds = await this.read();
    if (creds.kind === 'apiKey') return { headers: { 'x-api-key': creds.apiKey } };
    let session = this.latest(creds.session);
    if (isSpent(session, this.options.now(), this.options.refreshMarginMs))
      session = await this.renewShared({ ...creds, session }, signal);
    else if (this.isDue(session)) this.renewInBackground({ ...creds, session });
    return { headers: { authorization: `Bearer ${session.accessToken}` }, accessToken: session.accessToken, session };
  }

  /**
   * Headers built earlier, as they may be sent now (synchronous: called after the rate limiter's
   * grant): the newest session this keeper knows of unless its token is spent, else undefined (the
   * caller rebuilds them, waiting for the renewal). A session found due starts its renewal in the
   * background. API keys never go stale.
   */
  current(used: AuthHeaders): AuthHeaders | undefined {
    if (used.session === undefined) return used;
    const session = this.latest(used.session);
    if (isSpent(session, this.options.now(), this.options.refreshMarginMs)) return undefined;
    if (this.isDue(session)) this.dueSeen(session);
    return session === used.session
      ? used
      : { headers: { authorization: `Bearer ${session.accessToken}` }, accessToken: session.accessToken, session };
  }

  /** Credentials for the data-app hub: always an API key, as a Bearer token. */
  async hubHeaders(): Promise<AuthHeaders> {
    const creds = await this.read();
    const key = creds.kind === 'apiKey' ? creds.apiKey : creds.hubApiKey;
    if (key === undefined || key === '') {
      throw new ApiError({
        kind: 'auth',
        message:
          'An API key is needed for the data-app hub: a username and password session does not work there. Add an API key.',
      });
    }
    return { headers: { authorization: `Bearer ${key}` } };
  }

  /** After a 401 on the main interface: renew once, unless another call already did. */
  async renewAfter401(usedAccessToken: string, signal?: AbortSignal): Promise<void> {
    const creds = await this.read();
    if (creds.kind !== 'session') return;
    const session = this.latest(creds.session);
    if (session.accessToken !== usedAccessToken) return; // renewed meanwhile
    await this.renewShared({ ...creds, session }, signal);
  }

  /** The newest session this keeper knows of that descends from `session`. */
  private latest(session: TokenSession): TokenSession {
    let current = session;
    for (let hops = 0; hops < ROTATIONS_KEPT; hops++) {
      const next = this.rotations.get(current.refreshToken);
      if (next === undefined) break;
      current = next;
    }
    return current;
  }

  private async read(): Promise<Credentials> {
    const creds = await this.options.store.get();
    if (creds === undefined) {
      throw new ApiError({
        kind: 'auth',
        message: 'Not signed in: sign in with an API key or a username and password.',
      });
    }
    if (creds.kind === 'apiKey') this.options.secrets.add(creds.apiKey);
    else this.options.secrets.add(creds.session.accessToken, creds.session.refreshToken, creds.hubApiKey);
    // A value the header layer would refuse is not a network problem to retry: say what is wrong.
    const problem =
      creds.kind === 'apiKey'
        ? headerValueProblem(creds.apiKey, 'The stored API key')
        : (headerValueProblem(creds.session.accessToken, 'The stored access token') ??
          (creds.hubApiKey !== undefined
            ? headerValueProblem(creds.hubApiKey, 'The stored data-app hub API key')
            : undefined));
    if (problem !== undefined) throw new ApiError({ kind: 'auth', message: `${problem} Sign in again.` });
    return creds;
  }

  private isDue(session: TokenSession): boolean {
    return isDue(session, this.options.now(), this.options.refreshMarginMs);
  }

  /**
   * A renewal no caller waits for: started once per session (single-flight with any other), its
   * failure left to the call that finds the token spent (which renews again, or gets the refusal).
   */
  private renewInBackground(creds: Extract<Credentials, { kind: 'session' }>): void {
    if (this.inflight?.refreshToken === creds.session.refreshToken) return;
    if (this.refused?.refreshToken === creds.session.refreshToken) return;
    this.renewShared(creds).catch(() => undefined);
  }

  /**
   * A due session seen after a grant, where the store is not at hand: read it (the hub key is kept
   * with the renewed session) and renew in the background, once per session however many grants see it.
   */
  private dueSeen(session: TokenSession): void {
    if (this.inflight?.refreshToken === session.refreshToken || this.reading === session.refreshToken) return;
    this.reading = session.refreshToken;
    this.read()
      .then((creds) => {
        if (creds.kind !== 'session') return;
        const latest = this.latest(creds.session);
        if (this.isDue(latest)) this.renewInBackground({ ...creds, session: latest });
      })
      .catch(() => undefined) // signed out or unreadable: the next call says so
      .finally(() => {
        if (this.reading === session.refreshToken) this.reading = undefined;
      });
  }

  private renewShared(creds: Extract<Credentials, { kind: 'session' }>, signal?: AbortSignal): Promise<TokenSession> {
    const { refreshToken } = creds.session;
    if (this.refused?.refreshToken === refreshToken) return Promise.reject(this.refused.error);
    if (this.inflight === undefined || this.inflight.refreshToken !== refreshToken) {
      const promise = this.renew(creds).finally(() => {
        if (this.inflight?.promise === promise) this.inflight = undefined;
      });
      promise.catch(() => undefined); // awaited by callers; never an unhandled rejection if all of them gave up
      this.inflight = { refreshToken, promise };
    }
    return untilAborted(this.inflight.promise, signal);
  }

  private async renew(creds: Extract<Credentials, { kind: 'session' }>): Promise<TokenSession> {
    const old = creds.session;
    if (old.refreshToken === '') throw this.expired(old.refreshToken, undefined);
    let data: TokenData;
    try {
      data = await this.options.refresh(old.refreshToken);
    } catch (e) {
      // Refused (bad or revoked refresh token): only signing in again helps. Anything else
      // (network, 5xx) is passed on as it is: the session may still be renewable later.
      if (e instanceof ApiError && (e.kind === 'auth' || e.kind === 'invalid-request' || e.kind === 'forbidden')) {
        // Another window sharing the store may have used this refresh token first: its session
        // is the one to use, not a sign-in prompt.
        const adopted = await this.storedSuccessor(old);
        if (adopted !== undefined) return adopted;
        throw this.expired(old.refreshToken, e);
      }
      throw e;
    }
    const next = sessionFromToken(data, this.options.now());
    this.options.secrets.add(next.accessToken, next.refreshToken);
    this.rotations.set(old.refreshToken, next);
    if (this.rotations.size > ROTATIONS_KEPT) this.rotations.delete(this.rotations.keys().next().value as string);
    try {
      const current = await this.options.store.get();
      // Do not resurrect a session the owner has signed out of or replaced meanwhile.
      const stored = current?.kind === 'session' ? this.latest(current.session) : undefined;
      if (stored?.refreshToken === next.refreshToken) {
        await this.options.store.set({
          kind: 'session',
          session: next,
          ...(creds.hubApiKey !== undefined ? { hubApiKey: creds.hubApiKey } : {}),
        });
      }
    } catch (e) {
      // The renewal worked: callers get the new session from memory. Only persisting it failed.
      try {
        this.options.onStoreError?.(e);
      } catch {
        // The owner's callback must not change the outcome.
      }
    }
    return next;
  }

  /**
   * After a refused refresh: a different session that reached the store meanwhile (another
   * window's renewal), adopted as this keeper's rotation. The other window writes after its grant
   * answers, so the store is read a few times over a short while before giving up.
   */
  private async storedSuccessor(old: TokenSession): Promise<TokenSession | undefined> {
    for (let attempt = 0; attempt < STORE_REREADS; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, STORE_REREAD_MS));
      let current: Credentials | undefined;
      try {
        current = await this.options.store.get();
      } catch {
        continue;
      }
      if (current?.kind !== 'session') return undefined; // signed out or replaced: nothing to adopt
      const next = current.session;
      // A session this keeper already rotated out is older, not another window's renewal.
      if (
        next.refreshToken !== old.refreshToken &&
        next.accessToken !== old.accessToken &&
        !this.rotations.has(next.refreshToken)
      ) {
        this.options.secrets.add(next.accessToken, next.refreshToken);
        this.rotations.set(old.refreshToken, next);
        return next;
      }
    }
    return undefined;
  }

  private expired(refreshToken: string, cause: ApiError | undefined): ApiError {
    const detail = cause !== undefined ? ` (${cause.message})` : ' (no refresh token)';
    const error = new ApiError({
      kind: 'auth',
      message: `${SIGN_IN_NEEDED}${detail}`,
      status: cause?.status,
      code: cause?.code,
      requestId: cause?.requestId,
      cause,
    });
    this.refused = { refreshToken, error };
    try {
      this.options.onSessionExpired?.();
    } catch {
      // The owner's callback must not change the outcome.
    }
    return error;
  }
}
