import * as assert from 'node:assert/strict';

import { codeOf, FakeClock, TestSandbox } from './helpers/sandbox';

describe('sandbox: rate limit', () => {
  const clock = new FakeClock(Date.parse('2026-11-22T10:00:00Z'));
  let sb: TestSandbox;
  before(async () => {
    sb = await TestSandbox.start({ now: clock.now, rateLimit: 5 });
  });
  after(() => sb.close());

  it("above N per second per credential: 429 with Retry-After and retryGuidance, in each interface's shape", async () => {
    const ada = sb.user('ada');
    const h = { 'x-api-key': ada.apiKey };
    for (let i = 0; i < 5; i++) assert.equal((await sb.call('/taskGroup', { headers: h })).status, 200);
    clock.advance(300);
    const limited = await sb.call('/taskGroup', { headers: h });
    assert.equal(limited.status, 429);
    assert.equal(codeOf(limited), 42900);
    assert.equal(limited.headers.get('retry-after'), '1');
    assert.deepEqual(limited.json?.retryGuidance, { retryAfterMs: 700 });
    assert.match(
      String((limited.json?.error as { message?: unknown } | undefined)?.message),
      /\(5 requests per second per credential\)/,
      'the limit in force',
    );
    assert.equal(sb.stats.status429, 1);

    // Another credential (grace's key) has its own budget.
    assert.equal((await sb.call('/taskGroup', { headers: { 'x-api-key': sb.user('grace').apiKey } })).status, 200);

    // After the window slides, the same key gets through again.
    clock.advance(700);
    assert.equal((await sb.call('/taskGroup', { headers: h })).status, 200);
  });

  it('the hub and token interfaces answer 429 in their own shapes', async () => {
    clock.advance(5_000);
    const linus = sb.account('Enterprise');
    const hub = { authorization: `Bearer ${linus.apiKey}` };
    let hub429;
    for (let i = 0; i < 6; i++)
      hub429 = await sb.call('/datahub/v1/data-apps/linus/catalog-sync/deprecate', { method: 'POST', headers: hub });
    assert.equal(hub429?.status, 429);
    assert.equal(codeOf(hub429!), 'rate_limited');
    assert.equal((hub429?.json?.error as { retryable: boolean }).retryable, true);

    clock.advance(5_000);
    let token429;
    for (let i = 0; i < 6; i++)
      token429 = await sb.token({ username: 'grace', password: 'wrong', grant_type: 'password' });
    assert.equal(token429?.status, 429);
    assert.equal(codeOf(token429!), 'Too.Many.Requests');
    assert.ok(token429?.headers.get('retry-after'));
  });

  it("one API key has one budget, whether sent as x-api-key or as the hub's Bearer", async () => {
    clock.advance(5_000);
    const ada = sb.user('ada');
    for (let i = 0; i < 3; i++)
      assert.equal((await sb.call('/taskGroup', { headers: { 'x-api-key': ada.apiKey } })).status, 200);
    const hub = { method: 'POST', headers: { authorization: `Bearer ${ada.apiKey}` } };
    for (let i = 0; i < 2; i++)
      assert.equal((await sb.call('/datahub/v1/data-apps/ada/news-digest/deprecate', hub)).status, 200);
    const sixth = await sb.call('/datahub/v1/data-apps/ada/news-digest/deprecate', hub);
    assert.equal(sixth.status, 429, 'the sixth request of the same key in one second is over the limit of 5');
  });

  it('GET /__sandbox is never limited', async () => {
    for (let i = 0; i < 12; i++) assert.equal((await sb.call('/__sandbox')).status, 200);
  });

  it('--rate-limit 0 turns it off', async () => {
    const off = await TestSandbox.start({ rateLimit: 0 });
    try {
      const h = { 'x-api-key': off.user('ada').apiKey };
      const replies = await Promise.all(Array.from({ length: 40 }, () => off.call('/taskGroup', { headers: h })));
      assert.ok(replies.every((r) => r.status === 200));
      assert.equal(off.stats.status429, 0);
    } finally {
      await off.close();
    }
  });

  it('defaults to 20 per second', async () => {
    const def = await TestSandbox.start({ rateLimit: undefined, now: clock.now });
    try {
      const h = { 'x-api-key': def.user('ada').apiKey };
      const replies = await Promise.all(Array.from({ length: 22 }, () => def.call('/taskGroup', { headers: h })));
      assert.equal(replies.filter((r) => r.status === 200).length, 20);
      assert.equal(replies.filter((r) => r.status === 429).length, 2);
    } finally {
      await def.close();
    }
  });
});
