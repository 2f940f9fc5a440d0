/**
 * Two windows signed in to one account share one secret store. Both find the token stale at
 * expiry and both renew; the service accepts the first use of the refresh token and refuses the
 * second. The refused window must re-read the store and take the session the other window
 * stored, instead of failing calls and offering "Sign In Again".
 */
import * as assert from 'node:assert/strict';
import { MemoryCredentialsStore, sessionFromToken, type Credentials, type CredentialsStore } from '../../src/api/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';
import { grantsPerExpiry } from './helpers/renewals';

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
  before(async () => {
    sandbox = await startSandbox({ seed: 3, tokenTtlSeconds: 2, rateLimit: 0 });
  });
  after(() => sandbox.close());

  for (const lagMs of [0, 60]) {
    it(`50 calls in each window across an expiry: no failure, no sign-in prompt, one refresh grant per window at most (store lag ${lagMs} ms)`, async () => {
      const ada = sandbox.info.accounts.find((a) => a.username === 'ada');
      assert.ok(ada);
      const signIn = new ScrapedeckClient({ baseUrl: sandbox.info.baseUrl, credentials: new MemoryCredentialsStore() });
      const token = await signIn.obtainToken(ada.username, ada.password);
      await signIn.close();
      const shared = new MemoryCredentialsStore({ kind: 'session', session: sessionFromToken(token.data, Date.now()) });
      const grantsBefore = sandbox.stats.refreshGrants;
      let prompts = 0;
      const windows = [0, 1].map(
        () =>
          new ScrapedeckClient({
            baseUrl: sandbox.info.baseUrl,
            credentials: new WindowStore(shared, lagMs),
            requestsPerSecond: 20,
            onSessionExpired: () => prompts++,
          }),
      );
      try {
        // Both windows cross the 2 s token's renewal point together.
        const calls = windows.flatMap((w) => Array.from({ length: 50 }, () => w.listTaskGroups()));
        const results = await Promise.allSettled(calls);
        const failed = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
        assert.deepEqual(failed, []);
        assert.equal(prompts, 0, 'no window asked to sign in again');
        const perExpiry = grantsPerExpiry(sandbox.stats.refreshGrantTimes.slice(grantsBefore), 2_000);
        assert.ok(perExpiry.length >= 1 && perExpiry.every((n) => n <= 2), `refresh grants per expiry in two windows: ${perExpiry.join(', ')}`);
      } finally {
        await Promise.all(windows.map((w) => w.close()));
      }
    });
  }
});
