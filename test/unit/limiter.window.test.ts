/**
 * Issue 18: the server counts a request when it reads it, anywhere between our send and our
 * receiving its reply. A server that stalls now and then (a busy event loop, a loaded machine)
 * reads a burst of requests late, all at once; with grants merely spaced 1,025 ms per 20, the
 * request 20 grants later is read at once and 21 land in one window (the wholeQuery bench's 429).
 * Simulated on fake timers: a server that reads each request when it is free, with stalls, and
 * counts a sliding one-second window as the sandbox does (src/sandbox/http/rateLimit.ts).
 */
import * as assert from 'node:assert/strict';

import { RateLimiter } from '../../src/api/http/limiter';
import { FakeTimers } from './helpers/fakeTimers';

interface Served {
  /** When the server read each request (its window's stamp). */
  reads: number[];
  /** When the limiter granted each. */
  grants: number[];
}

/**
 * `requests` calls through the limiter, `inFlight` at a time (the panel's whole-query fetch uses 6).
 * The server is stalled during [k * stallEveryMs, k * stallEveryMs + stallMs): a request sent then
 * is read when the stall ends. It answers `serviceMs` after reading; the reply releases the grant.
 */
async function serve(opts: {
  requests: number;
  inFlight: number;
  stallEveryMs: number;
  stallMs: number;
  serviceMs: number;
  lateMs?: number;
}): Promise<Served> {
  const timers = new FakeTimers(opts.lateMs ?? 0);
  const limiter = new RateLimiter({ perSecond: 20, timers });
  const served: Served = { reads: [], grants: [] };
  let next = 0;
  const readAt = (sent: number): number => {
    if (opts.stallMs <= 0) return sent;
    const into = sent % opts.stallEveryMs;
    return into < opts.stallMs ? sent - into + opts.stallMs : sent;
  };
  const worker = async (): Promise<void> => {
    while (next < opts.requests) {
      next++;
      const release = await limiter.acquire();
      const sent = timers.now();
      const read = readAt(sent);
      served.grants.push(sent);
      served.reads.push(read);
      await new Promise<void>((resolve) => timers.setTimeout(resolve, read - sent + opts.serviceMs));
      release();
    }
  };
  const done = Promise.all(Array.from({ length: opts.inFlight }, worker));
  await timers.advance(opts.requests * 200);
  await done;
  return served;
}

/** The most requests the server read within any window (t - 1000, t], as a sliding-window server counts. */
function worstWindow(reads: readonly number[]): number {
  const sorted = [...reads].sort((a, b) => a - b);
  let worst = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[j] as number) <= (sorted[i] as number) - 1000) j++;
    worst = Math.max(worst, i - j + 1);
  }
  return worst;
}

describe('RateLimiter against a server that reads requests late', () => {
  it('never lets 21 requests into one server window when the server stalls (60 ms every 700 ms)', async () => {
    const served = await serve({ requests: 200, inFlight: 6, stallEveryMs: 700, stallMs: 60, serviceMs: 4, lateMs: 3 });
    assert.equal(served.reads.length, 200);
    assert.ok(worstWindow(served.reads) <= 20, `${worstWindow(served.reads)} requests read in one window`);
  });

  it('holds with long stalls and many in flight (a loaded machine)', async () => {
    for (const [every, stall, inFlight] of [
      [333, 150, 20],
      [1000, 400, 6],
      [250, 90, 12],
    ] as const) {
      const served = await serve({
        requests: 150,
        inFlight,
        stallEveryMs: every,
        stallMs: stall,
        serviceMs: 2,
        lateMs: 1,
      });
      assert.ok(
        worstWindow(served.reads) <= 20,
        `stall ${stall}/${every} ms, ${inFlight} in flight: ${worstWindow(served.reads)} in one window`,
      );
    }
  });

  it('uses the whole window on a quiet line: 20 at once from idle, then one per lease that stops counting', async () => {
    const served = await serve({ requests: 101, inFlight: 6, stallEveryMs: 1000, stallMs: 0, serviceMs: 5 });
    // Six in flight, 5 ms each: the first 20 go within four replies, no spacing between them.
    assert.ok((served.grants[19] as number) <= 20, `grant 20 at ${served.grants[19]}`);
    // Grant n + 20 waits for grant n's reply (5 ms) plus the window and the 25 ms guard, never longer.
    for (let i = 20; i < served.grants.length; i++) {
      const gap = (served.grants[i] as number) - (served.grants[i - 20] as number);
      assert.ok(gap >= 1030 && gap <= 1030 + 20, `grant ${i} came ${gap} ms after grant ${i - 20}`);
    }
    assert.equal(worstWindow(served.reads), 20);
  });

  it('grants whose replies have not come hold their places in the window; a release frees one a window later', async () => {
    const timers = new FakeTimers();
    const limiter = new RateLimiter({ perSecond: 2, guardMs: 0, timers });
    const first = await limiter.acquire(); // at 0, in flight
    void limiter.acquire(); // at 500, in flight
    let third = Number.NaN;
    void limiter.acquire().then((release) => {
      release();
      third = timers.now();
    });
    await timers.advance(3000);
    assert.ok(Number.isNaN(third), 'granted while two requests could still be counted');
    assert.equal(limiter.leased, 2);
    first(); // its reply, at 3000
    first(); // a second call does nothing
    await timers.advance(999);
    assert.ok(Number.isNaN(third), 'granted before the released request left the window');
    await timers.advance(1);
    assert.equal(third, 4000);
  });
});
