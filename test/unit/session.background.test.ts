/**
 * The session keeper renews a token before it expires without holding calls: within the renewal
 * margin the renewal runs in the background and calls go on with the still-valid token; only a
 * token too close to its expiry (spent) makes a call wait. A manual clock and a refresh grant the
 * test answers when it likes, so "waited" and "went on" are decided by order, not by time.
 */
import * as assert from 'node:assert/strict';

import { MemoryCredentialsStore, type TokenSession } from '../../src/api/auth/auth';
import { SessionKeeper } from '../../src/api/auth/sessionKeeper';
import { SecretSet } from '../../src/api/errors/redact';
import type { TokenData } from '../../src/api/schemas/schemas';

const MARGIN = 60_000;
const ISSUED = 1_000_000;
const LIFETIME = 2 * 3600_000;

function setUp(): {
  keeper: SessionKeeper;
  store: MemoryCredentialsStore;
  clock: { now: number };
  grants: string[];
  answer: () => void;
} {
  const clock = { now: ISSUED };
  const session: TokenSession = {
    accessToken: 'access_one_1234',
    refreshToken: 'refresh_one_1234',
    tokenType: 'Bearer',
    issuedAt: ISSUED,
    expiresAt: ISSUED + LIFETIME,
  };
  const store = new MemoryCredentialsStore({ kind: 'session', session, hubApiKey: 'hub_key_1234' });
  const grants: string[] = [];
  const pending: (() => void)[] = [];
  const keeper = new SessionKeeper({
    store,
    now: () => clock.now,
    refreshMarginMs: MARGIN,
    secrets: new SecretSet(),
    refresh: (refreshToken) => {
      grants.push(refreshToken);
      return new Promise<TokenData>((resolve) =>
        pending.push(() =>
          resolve({
            access_token: 'access_two_1234',
            refresh_token: 'refresh_two_1234',
            token_type: 'Bearer',
            expires_in: LIFETIME / 1000,
          }),
        ),
      );
    },
  });
  return { keeper, store, clock, grants, answer: () => pending.splice(0).forEach((f) => f()) };
}

/** Lets every pending promise callback run (store reads, the renewal's start). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('session keeper: renewal in the background', () => {
  it('a due token: calls go on with it while one refresh grant runs; later calls get the renewed token', async () => {
    const { keeper, store, clock, grants, answer } = setUp();
    clock.now = ISSUED + LIFETIME - MARGIN + 1; // within the margin, far from expiry
    const headers = await Promise.all(Array.from({ length: 5 }, () => keeper.mainHeaders()));
    // Resolved although the grant has not answered: nobody waited for it.
    assert.deepEqual(
      headers.map((h) => h.accessToken),
      new Array<string>(5).fill('access_one_1234'),
    );
    assert.deepEqual(grants, ['refresh_one_1234'], 'one refresh grant for every call that found the token due');
    answer();
    await settle();
    assert.equal((await keeper.mainHeaders()).accessToken, 'access_two_1234');
    const stored = await store.get();
    assert.ok(stored?.kind === 'session' && stored.session.refreshToken === 'refresh_two_1234');
    assert.equal(stored.hubApiKey, 'hub_key_1234', 'the hub key is kept with the renewed session');
    assert.equal(grants.length, 1);
  });

  it('a spent token (its last quarter-margin) is never handed out: the call waits for the renewal', async () => {
    const { keeper, clock, grants, answer } = setUp();
    clock.now = ISSUED + LIFETIME - MARGIN / 4; // 15 s before expiry
    let got: string | undefined;
    const call = keeper.mainHeaders().then((h) => (got = h.accessToken));
    await settle();
    assert.equal(got, undefined, 'the call waits for the renewal');
    assert.deepEqual(grants, ['refresh_one_1234']);
    answer();
    await call;
    assert.equal(got, 'access_two_1234');
  });

  it('headers built earlier: a due token is still sent and starts one renewal; a spent one is not sent', async () => {
    const { keeper, clock, grants, answer } = setUp();
    const built = await keeper.mainHeaders(); // fresh: no renewal
    await settle();
    assert.deepEqual(grants, []);
    clock.now = ISSUED + LIFETIME - MARGIN + 1;
    for (let i = 0; i < 10; i++) assert.equal(keeper.current(built), built, 'a due token is still sent');
    await settle();
    assert.deepEqual(grants, ['refresh_one_1234'], 'grants that see a due token start one renewal between them');
    clock.now = ISSUED + LIFETIME - MARGIN / 4;
    assert.equal(keeper.current(built), undefined, 'a spent token is not sent while the renewal runs');
    answer();
    await settle();
    assert.equal(keeper.current(built)?.accessToken, 'access_two_1234', 'the renewed token replaces it');
  });
});
