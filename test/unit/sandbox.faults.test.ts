import * as assert from 'node:assert/strict';

import { BURST_LENGTH, type Fault, FaultInjector } from '../../src/sandbox/http/faults';
import { checkShape, codeOf, dataOf, type Reply, TestSandbox } from './helpers/sandbox';

type Outcome = 'ok' | 'slow' | 'error500' | 'error503' | 'drop' | 'not-json' | 'burst429';

function predicted(rate: number, seed: number, n: number): Outcome[] {
  const f = new FaultInjector(rate, seed);
  return Array.from({ length: n }, () => (f.next() as Fault | undefined)?.kind ?? 'ok');
}

describe('sandbox: --faults', function () {
  it('the injector is deterministic per seed, respects the rate and bursts 429s', () => {
    assert.deepEqual(predicted(0.3, 5, 200), predicted(0.3, 5, 200));
    assert.notDeepEqual(predicted(0.3, 5, 200), predicted(0.3, 6, 200));
    assert.ok(predicted(0, 5, 500).every((k) => k === 'ok'));
    const seq = predicted(0.2, 11, 2000);
    const faulty = seq.filter((k) => k !== 'ok').length;
    assert.ok(faulty > 300 && faulty < 600, `about 20% plus bursts (${faulty})`);
    for (const kind of ['slow', 'error500', 'error503', 'drop', 'not-json', 'burst429'] as const)
      assert.ok(seq.includes(kind), kind);
    const burst = seq.indexOf('burst429');
    assert.deepEqual(seq.slice(burst, burst + BURST_LENGTH), Array(BURST_LENGTH).fill('burst429'));
  });

  it('real responses fail in each way, as the seed predicts', async () => {
    const n = 30;
    const seed = 3;
    const sb = await TestSandbox.start({ faults: 0.5, seed });
    try {
      const key = sb.user('ada').apiKey;
      // Concurrent, so the slow replies overlap; the multiset of outcomes is what the seed fixes.
      const outcomes = await Promise.all(
        Array.from({ length: n }, async (): Promise<Outcome> => {
          let r: Reply;
          try {
            r = await sb.call('/taskGroup', { headers: { 'x-api-key': key }, raw: true });
          } catch {
            return 'drop';
          }
          if (r.status === 500) return 'error500';
          if (r.status === 503) {
            assert.ok(Number(r.headers.get('retry-after')) >= 1);
            checkShape('/taskGroup', r);
            return 'error503';
          }
          if (r.status === 429) {
            assert.equal(codeOf(r), 42900);
            return 'burst429';
          }
          assert.equal(r.status, 200);
          assert.ok(r.headers.get('x-request-id'));
          if (!r.json) {
            assert.match(r.headers.get('content-type') ?? '', /text\/html/);
            return 'not-json';
          }
          checkShape('/taskGroup', r);
          return r.ms >= 1400 ? 'slow' : 'ok';
        }),
      );
      const count = (xs: Outcome[]) =>
        Object.fromEntries([...new Set(xs)].sort().map((k) => [k, xs.filter((x) => x === k).length]));
      assert.deepEqual(count(outcomes), count(predicted(0.5, seed, n)));
      assert.ok(new Set(outcomes).size >= 5, `several kinds: ${JSON.stringify(count(outcomes))}`);
      assert.equal(sb.stats.faultsInjected, outcomes.filter((o) => o !== 'ok').length);
    } finally {
      await sb.close();
    }
  });

  it('GET /__sandbox is never faulted', async () => {
    const sb = await TestSandbox.start({ faults: 1 });
    try {
      for (let i = 0; i < 10; i++) assert.equal((await sb.call('/__sandbox')).status, 200);
      assert.equal(sb.stats.faultsInjected, 0);
    } finally {
      await sb.close();
    }
  });

  it('a faulted refresh does not consume the refresh token', async () => {
    // Seed 206 at rate 0.5 faults as: ok, drop, error500, ok: the password grant goes through, the
    // first refresh is dropped, the second is a 500, the third succeeds with the same refresh token.
    const seed = 206;
    assert.deepEqual(predicted(0.5, seed, 4), ['ok', 'drop', 'error500', 'ok']);
    const sb = await TestSandbox.start({ faults: 0.5, seed });
    try {
      const ada = sb.user('ada');
      const attempt = async (body: unknown): Promise<Reply | undefined> => {
        try {
          const r = await sb.call('/token', { body, raw: true });
          return r.status === 200 && r.json ? r : undefined;
        } catch {
          return undefined;
        }
      };
      let granted: Reply | undefined;
      while (!granted)
        granted = await attempt({ username: ada.username, password: ada.password, grant_type: 'password' });
      const refreshToken = dataOf<{ refresh_token: string }>(granted).refresh_token;
      const faultsBefore = sb.stats.faultsInjected;
      let refreshed: Reply | undefined;
      let tries = 0;
      while (!refreshed && tries++ < 20)
        refreshed = await attempt({ refresh_token: refreshToken, grant_type: 'refresh_token' });
      assert.ok(refreshed, 'the same refresh token eventually works');
      assert.equal(sb.stats.faultsInjected - faultsBefore, 2, 'two refresh attempts were faulted first');
      assert.equal(sb.stats.droppedConnections, 1);
      assert.equal(sb.stats.refreshGrants, 1, 'exactly one refresh');
    } finally {
      await sb.close();
    }
  });
});
