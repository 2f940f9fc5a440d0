/**
 * Two windows signed in to one account share one secret store. Both find the token stale at
 * expiry and both renew; the service accepts the first use of the refresh token and refuses the
 * second. The refused window must re-read the store and take the session the other window
 * stored, instead of failing calls and offering "Sign In Again".
 * The sandbox and the windows read one fake clock: the token turns stale when the test moves it,
 * and no second expiry can come while a loaded machine is slow with the calls, so every refresh
 * grant of a test renews the one expiry it crosses.
 */
import * as assert from 'node:assert/strict';

import {
  type Credentials,
  type CredentialsStore,
  MemoryCredentialsStore,
  sessionFromToken,
} from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { assertOneRenewal } from './helpers/renewals';

/** One window's view of the shared SecretStorage: its writes reach the others after `lagMs`. */
class WindowStore implements CredentialsStore {
  constructor(
    private readonly shared: MemoryCredentialsStore,
    private readonly lagMs: number,
  ) {}
  get(): Promise<Credentials | undefined> {
    return this.shared.get();
  }
  async set(next: Credentials): Promise<void> {
    await new Promise((r) => setTimeout(r, this.lagMs));
    await this.shared.set(next);
  }
}

describe('client: two windows renewing one session', function () {
  let sandbox: RunningSandbox;
  let clock = Date.now();
  const now = (): number => clock;
  before(async () => {
    sandbox = await startSandbox({ seed: 3, tokenTtlSeconds: 2, rateLimit: 0, now });
  });
  after(() => sandbox.close());

  for (const lagMs of [0, 60]) {
    it(`50 calls in each window across an expiry: no failure, no sign-in prompt, one refresh grant per window at most (store lag ${lagMs} ms)`, async () => {
      const ada = sandbox.info.accounts.find((a) => a.username === 'ada');
      assert.ok(ada);
      const signIn = new ScrapedeckClient({
        baseUrl: sandbox.info.baseUrl,
        credentials: new MemoryCredentialsStore(),
        now,
      });
      const token = await signIn.obtainToken(ada.username, ada.password);
      await signIn.close();
      const shared = new MemoryCredentialsStore({ kind: 'session', session: sessionFromToken(token.data, now()) });
      const grantsBefore = sandbox.stats.refreshGrants;
      let prompts = 0;
      const windows = [0, 1].map(
        () =>
          new ScrapedeckClient({
            baseUrl: sandbox.info.baseUrl,
            credentials: new WindowStore(shared, lagMs),
            requestsPerSecond: 20,
            onSessionExpired: () => prompts++,
            now,
          }),
      );
      try {
        // Both windows find the 2 s token within its renewal margin (its last quarter) together.
        clock += 1_600;
        const calls = windows.flatMap((w) => Array.from({ length: 50 }, () => w.listTaskGroups()));
        const results = await Promise.allSettled(calls);
        assertOneRenewal(results, prompts, sandbox.stats.refreshGrants - grantsBefore);
      } finally {
        await Promise.all(windows.map((w) => w.close()));
      }
    });
  }
});
