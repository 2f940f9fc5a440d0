import * as assert from 'node:assert/strict';

import { ApiError } from '../../src/api/errors/errors';
import { RateLimiter } from '../../src/api/http/limiter';
import { FakeTimers } from './helpers/fakeTimers';

describe('RateLimiter', () => {
  it('grants perSecond at once from idle, then one as each lease stops counting: a burst waits instead of failing', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 20, guardMs: 0, timers });
    const grants: number[] = [];
    const all = Array.from({ length: 45 }, () =>
      limiter.acquire().then((release) => {
        release();
        return grants.push(timers.now());
      }),
    );
    await timers.advance(5000);
    await Promise.all(all);
    // Released at its grant, a lease counts one window: 20 at 0, 20 at 1000, 5 at 2000.
    assert.deepEqual(
      grants,
      Array.from({ length: 45 }, (_, i) => Math.floor(i / 20) * 1000),
    );
    // Hence never more than 20 in any one-second window.
    for (let i = 20; i < grants.length; i++)
      assert.ok((grants[i] as number) - (grants[i - 20] as number) >= 1000, `grant ${i} too early`);
  });

  it('lets the pages of a whole query go together: 10 requests from idle, none waits for another', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 20, timers });
    const grants: number[] = [];
    const all = Array.from({ length: 10 }, (_, i) =>
      limiter.acquire().then(async (release) => {
        grants.push(timers.now());
        await new Promise<void>((resolve) => timers.setTimeout(resolve, 30 + i)); // the server's reply
        release();
      }),
    );
    await timers.advance(100);
    await Promise.all(all);
    assert.deepEqual(grants, new Array<number>(10).fill(0));
    assert.equal(limiter.leased, 10, 'each still counts for a window after its reply');
  });

  it('a slot given up unsent stops counting at once (the server never read it); a sent one counts a window', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 2, guardMs: 25, timers });
    const sent = await limiter.acquire();
    const unsent = await limiter.acquire();
    sent();
    unsent('unsent');
    assert.equal(limiter.leased, 1, 'only the sent request still counts');
    let granted = 0;
    const next = limiter.acquire().then((release) => {
      granted = timers.now();
      release();
    });
    const after = limiter.acquire().then(() => timers.now());
    await timers.advance(0);
    await next;
    assert.equal(granted, 0, 'the unsent slot is free now, not a window later');
    await timers.advance(2000);
    assert.equal(await after, 1025, 'two sent requests: the third waits for the first to stop counting');
  });

  it('keeps released leases a window plus the guard, and an idle limiter grants at once', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 2, guardMs: 30, timers });
    const grants: number[] = [];
    const all = Array.from({ length: 3 }, () =>
      limiter.acquire().then((release) => {
        release();
        return grants.push(timers.now());
      }),
    );
    await timers.advance(2000);
    await Promise.all(all);
    assert.deepEqual(grants, [0, 0, 1030]);
    await timers.advance(5000);
    (await limiter.acquire())();
    assert.equal(timers.now(), 7000);
  });

  it('does not let late timers add up over a long queue', async () => {
    const timers = new FakeTimers(3); // every timer fires 3 ms late
    const limiter = new RateLimiter({ perSecond: 20, guardMs: 0, timers });
    const grants: number[] = [];
    const all = Array.from({ length: 41 }, () =>
      limiter.acquire().then((release) => {
        release();
        return grants.push(timers.now());
      }),
    );
    await timers.advance(5000);
    await Promise.all(all);
    // A lease (released here at its late grant) ends one window after that late moment, so the
    // timer's lateness counts once per window, never per grant.
    assert.ok((grants[40] as number) <= 2000 + 3 * 3, `last grant at ${grants[40]}`);
  });

  it('keeps FIFO order, lets priority jump the queue', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 1, guardMs: 0, timers });
    const order: string[] = [];
    (await limiter.acquire())();
    const a = limiter.acquire().then((release) => {
      release();
      return order.push('a');
    });
    const b = limiter.acquire().then((release) => {
      release();
      return order.push('b');
    });
    const p = limiter.acquire(undefined, true).then((release) => {
      release();
      return order.push('priority');
    });
    await timers.advance(3000);
    await Promise.all([a, b, p]);
    assert.deepEqual(order, ['priority', 'a', 'b']);
  });

  it('is abortable while queued, and the queue moves up', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 1, guardMs: 0, timers });
    (await limiter.acquire())();
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    assert.equal(limiter.pending, 2);
    controller.abort();
    await assert.rejects(aborted, (e: unknown) => e instanceof ApiError && e.kind === 'cancelled');
    assert.equal(limiter.pending, 1);
    let nextAt = -1;
    void next.then(() => (nextAt = timers.now()));
    await timers.advance(1000);
    assert.equal(nextAt, 1000);
  });

  it('rejects at once with an already aborted signal', async () => {
    const limiter = new RateLimiter({ perSecond: 5, timers: new FakeTimers() });
    await assert.rejects(
      limiter.acquire(AbortSignal.abort()),
      (e: unknown) => e instanceof ApiError && e.kind === 'cancelled',
    );
  });

  it('pause() holds every grant until it ends (a 429 slows everyone)', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 20, guardMs: 0, timers });
    (await limiter.acquire())();
    limiter.pause(700);
    const grants: number[] = [];
    const all = Array.from({ length: 3 }, () =>
      limiter.acquire().then((release) => {
        release();
        return grants.push(timers.now());
      }),
    );
    await timers.advance(1000);
    await Promise.all(all);
    assert.deepEqual(grants, [700, 700, 700]);
  });

  it('a lease counts until its release plus a window, whichever order the replies come back in', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 2, guardMs: 0, timers });
    const first = await limiter.acquire(); // at 0
    await timers.advance(500);
    const second = await limiter.acquire(); // at 500
    let thirdAt: number | undefined;
    const third = limiter.acquire().then((release) => {
      thirdAt = timers.now();
      return release;
    });
    await timers.advance(700); // 1200: both still in flight, nothing granted however long it waits
    assert.equal(thirdAt, undefined);
    assert.equal(limiter.leased, 2);
    second(); // replied at 1200: counts until 2200
    await timers.advance(300);
    first(); // replied at 1500, after the later grant: counts until 2500
    first(); // a second call changes nothing
    await timers.advance(699);
    assert.equal(thirdAt, undefined, 'not before the first lease to stop counting (2200)');
    await timers.advance(1);
    assert.equal(thirdAt, 2200);
    (await third)();
    assert.equal(limiter.leased, 2, 'the lease until 2500 and the third (until 3200)');
    await timers.advance(300);
    assert.equal(limiter.leased, 1);
    await timers.advance(700);
    assert.equal(limiter.leased, 0);
  });

  it('keeps its book small over thousands of grants (each grant looks at it)', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 100_000, timers });
    for (let i = 0; i < 5000; i++) {
      (await limiter.acquire())();
      await timers.advance(1);
    }
    // One window (and the 25 ms guard) of releases still counts; the rest were dropped.
    assert.ok(limiter.leased <= 1026 && limiter.leased >= 1024, `${limiter.leased} leases`);
  });
});
