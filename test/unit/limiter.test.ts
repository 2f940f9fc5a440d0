import * as assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import { RateLimiter } from '../../src/api/limiter';
import { FakeTimers } from './helpers/fakeTimers';

describe('RateLimiter', () => {
  it('spaces grants exactly (window + guard) / perSecond apart: a burst waits instead of failing', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 20, guardMs: 0, timers });
    const grants: number[] = [];
    const all = Array.from({ length: 45 }, () => limiter.acquire().then(() => grants.push(timers.now())));
    await timers.advance(5000);
    await Promise.all(all);
    assert.deepEqual(grants, Array.from({ length: 45 }, (_, i) => i * 50));
    // Hence never more than 20 in any one-second window.
    for (let i = 20; i < grants.length; i++) assert.ok((grants[i] as number) - (grants[i - 20] as number) >= 1000, `grant ${i} too early`);
  });

  it('adds the guard to the window, and an idle limiter grants at once', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 2, guardMs: 30, timers });
    const grants: number[] = [];
    const all = Array.from({ length: 3 }, () => limiter.acquire().then(() => grants.push(timers.now())));
    await timers.advance(2000);
    await Promise.all(all);
    assert.deepEqual(grants, [0, 515, 1030]);
    await timers.advance(5000);
    await limiter.acquire();
    assert.equal(timers.now(), 7000);
  });

  it('does not let late timers add up over a long queue', async () => {
    const timers = new FakeTimers(3); // every timer fires 3 ms late
    const limiter = new RateLimiter({ perSecond: 20, guardMs: 0, timers });
    const grants: number[] = [];
    const all = Array.from({ length: 41 }, () => limiter.acquire().then(() => grants.push(timers.now())));
    await timers.advance(5000);
    await Promise.all(all);
    assert.ok((grants[40] as number) <= 2000 + 3, `last grant at ${grants[40]}`);
  });

  it('keeps FIFO order, lets priority jump the queue', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 1, guardMs: 0, timers });
    const order: string[] = [];
    await limiter.acquire();
    const a = limiter.acquire().then(() => order.push('a'));
    const b = limiter.acquire().then(() => order.push('b'));
    const p = limiter.acquire(undefined, true).then(() => order.push('priority'));
    await timers.advance(3000);
    await Promise.all([a, b, p]);
    assert.deepEqual(order, ['priority', 'a', 'b']);
  });

  it('is abortable while queued, and the queue moves up', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 1, guardMs: 0, timers });
    await limiter.acquire();
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
    await assert.rejects(limiter.acquire(AbortSignal.abort()), (e: unknown) => e instanceof ApiError && e.kind === 'cancelled');
  });

  it('pause() holds every grant until it ends (a 429 slows everyone)', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 20, guardMs: 0, timers });
    await limiter.acquire();
    limiter.pause(700);
    const grants: number[] = [];
    const all = Array.from({ length: 3 }, () => limiter.acquire().then(() => grants.push(timers.now())));
    await timers.advance(1000);
    await Promise.all(all);
    assert.deepEqual(grants, [700, 750, 800]);
  });
});
