/**
 * Transport behaviour against a scripted local server: each test says exactly what the server
 * answers, so retries, time-outs, dropped connections, guidance and headers are deterministic.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { type Credentials, MemoryCredentialsStore } from '../../src/api/auth/auth';
import { type ClientOptions, ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { UnlimitedLimiter } from '../../src/api/http/limiter';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const groups = { data: [{ taskGroupId: 7, taskGroupName: 'G' }], requestId: 'req-ok' };

/** Polls a condition the client reaches on its own (a background renewal), for at most 2 s. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('client: transport against a scripted server', () => {
  let server: http.Server;
  let base = '';
  let script: Handler[] = [];
  const seen: Seen[] = [];
  const logs: string[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const handler = script.shift() ?? ((_q, r) => json(r, 200, groups));
        handler(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    script = [];
    seen.length = 0;
  });

  const clients: ScrapedeckClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  const make = (
    creds: Credentials | undefined = { kind: 'apiKey', apiKey: 'sdk_scripted_key' },
    extra: Partial<ClientOptions> = {},
  ) => {
    const client = new ScrapedeckClient({
      baseUrl: base,
      datahubUrl: `${base}/datahub`,
      credentials: new MemoryCredentialsStore(creds),
      env: {},
      limiter: new UnlimitedLimiter(),
      backoffBaseMs: 5,
      random: () => 0.5,
      log: (l) => logs.push(l),
      ...extra,
    });
    clients.push(client);
    return client;
  };
  const kind = (k: string) => (e: unknown) => e instanceof ApiError && e.kind === k;

  it('sends x-api-key on main, Bearer on the hub, nothing on token calls, and x-external-user-id', async () => {
    const client = make(undefined, { externalUserId: 'ext-42' });
    await client.listTaskGroups();
    script.push((_q, r) => json(r, 200, { data: { app_name: 'a', status: 'deprecated' } }));
    await client.deprecateApp('ns/a');
    script.push((_q, r) =>
      json(r, 200, {
        data: { access_token: 'acc_1234', refresh_token: 'ref_1234', token_type: 'Bearer', expires_in: '7200' },
        requestId: 't',
      }),
    );
    const token = await client.obtainToken('ada', 'secret-pw');
    assert.equal(token.data.expires_in, 7200); // a numeric string is accepted
    const [main, hub, tok] = seen;
    assert.equal(main?.headers['x-api-key'], 'sdk_scripted_key');
    assert.equal(main?.headers['x-external-user-id'], 'ext-42');
    assert.equal(main?.headers.authorization, undefined);
    assert.equal(hub?.url, '/datahub/v1/data-apps/ns/a/deprecate');
    assert.equal(hub?.headers.authorization, 'Bearer sdk_scripted_key');
    assert.equal(hub?.headers['x-api-key'], undefined);
    assert.equal(tok?.headers['x-api-key'], undefined);
    assert.equal(tok?.headers.authorization, undefined);
    assert.equal(tok?.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(tok?.body ?? ''), { username: 'ada', password: 'secret-pw', grant_type: 'password' });
  });

  it('retries a 503 with back-off and succeeds', async () => {
    script.push((_q, r) => json(r, 503, { error: { code: 50300, message: 'busy' }, requestId: 'r1' }));
    const result = await make().listTaskGroups();
    assert.equal(result.requestId, 'req-ok');
    assert.equal(seen.length, 2);
  });

  it('waits as Retry-After says on a 503, not its own back-off', async () => {
    const at: number[] = [];
    script.push((_q, r) => {
      at.push(Date.now());
      json(r, 503, { error: { code: 50300, message: 'maintenance' }, requestId: 'r1' }, { 'retry-after': '0.4' });
    });
    script.push((_q, r) => {
      at.push(Date.now());
      json(r, 200, groups);
    });
    await make().listTaskGroups(); // back-off alone would wait about 5 ms
    assert.ok((at[1] ?? 0) - (at[0] ?? 0) >= 380, `waited ${(at[1] ?? 0) - (at[0] ?? 0)} ms`);
  });

  it('waits as retryGuidance says on a 429, then retries', async () => {
    script.push((_q, r) =>
      json(
        r,
        429,
        { error: { code: 42900, message: 'slow down' }, retryGuidance: { retryAfterMs: 30 }, requestId: 'r' },
        { 'retry-after': '1' },
      ),
    );
    const client = make();
    const result = await client.listTaskGroups();
    assert.equal(result.data[0]?.taskGroupId, '7');
    assert.equal(client.stats.rateLimited, 1);
    assert.equal(client.stats.retries, 1);
  });

  it('gives up after the retry budget with the last error, its requestId and kind', async () => {
    for (let i = 0; i < 5; i++)
      script.push((_q, r) => json(r, 500, { error: { code: 50000, message: 'boom' }, requestId: `r${i}` }));
    await assert.rejects(
      make(undefined, { maxRetries: 2 }).listTaskGroups(),
      (e: unknown) => kind('server')(e) && (e as ApiError).requestId === 'r2' && (e as ApiError).retryable,
    );
    assert.equal(seen.length, 3);
  });

  it('never retries the password grant, not even on a 5xx', async () => {
    script.push((_q, r) => json(r, 503, { error: { code: 'Service.Unavailable', message: 'x' }, requestId: 'r' }));
    await assert.rejects(make().obtainToken('ada', 'pw12345'), kind('server'));
    assert.equal(seen.length, 1);
  });

  it('retries a dropped connection for reads; reports network when it persists', async () => {
    script.push((q) => q.socket.destroy());
    assert.equal((await make().listTaskGroups()).requestId, 'req-ok');
    for (let i = 0; i < 4; i++) script.push((q) => q.socket.destroy());
    await assert.rejects(make(undefined, { maxRetries: 1 }).listTaskGroups(), kind('network'));
  });

  it('times out a reply that never comes', async () => {
    script.push(() => undefined);
    script.push(() => undefined);
    await assert.rejects(make(undefined, { timeoutMs: 100, maxRetries: 1 }).listTaskGroups(), kind('timeout'));
    assert.equal(seen.length, 2);
  });

  it('cancels on the caller signal, before or during a request', async () => {
    await assert.rejects(make().listTaskGroups({ signal: AbortSignal.abort() }), kind('cancelled'));
    script.push(() => undefined);
    const controller = new AbortController();
    const pending = make().listTaskGroups({ signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(pending, kind('cancelled'));
  });

  it('a reply of the wrong shape is bad-response naming the field and keeping the requestId', async () => {
    script.push((_q, r) => json(r, 200, { data: [{ taskGroupId: 1 }], requestId: 'shape-1' }));
    await assert.rejects(
      make().listTaskGroups(),
      (e: unknown) =>
        kind('bad-response')(e) &&
        (e as ApiError).field === 'data.0.taskGroupName' &&
        (e as ApiError).requestId === 'shape-1',
    );
    script.push((_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html', 'x-request-id': 'hdr-9' });
      r.end('<html>');
    });
    await assert.rejects(
      make(undefined, { maxRetries: 0 }).listTaskGroups(),
      (e: unknown) => kind('bad-response')(e) && (e as ApiError).requestId === 'hdr-9',
    );
  });

  it('retries a 200 that is not JSON (a gateway error page) for reads', async () => {
    script.push((_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html' });
      r.end('<h1>502</h1>');
    });
    assert.equal((await make().listTaskGroups()).requestId, 'req-ok');
    assert.equal(seen.length, 2);
  });

  it('maps 403 to forbidden with the plan note, hub errors with code and category', async () => {
    script.push((_q, r) => json(r, 403, { error: { code: 40300, message: 'Plan too low' }, requestId: 'f' }));
    await assert.rejects(
      make().listTaskGroups(),
      (e: unknown) =>
        kind('forbidden')(e) &&
        /Standard, Professional or Enterprise/.test((e as Error).message) &&
        (e as ApiError).code === 40300,
    );
    script.push((_q, r) =>
      json(
        r,
        401,
        { error: { code: 'unauthorized', category: 'forbidden', message: 'bad key', retryable: false } },
        { 'x-request-id': 'h1' },
      ),
    );
    await assert.rejects(
      make().deprecateApp('ns/a'),
      (e: unknown) =>
        kind('auth')(e) &&
        (e as ApiError).category === 'forbidden' &&
        (e as ApiError).code === 'unauthorized' &&
        (e as ApiError).requestId === 'h1',
    );
  });

  it('a session renews before expiry, with one refresh for many calls, and stores the new session', async () => {
    let now = 1_000_000;
    const store = new MemoryCredentialsStore({
      kind: 'session',
      session: { accessToken: 'old_access', refreshToken: 'old_refresh', tokenType: 'Bearer', expiresAt: now + 30_000 },
      hubApiKey: 'sdk_hub',
    });
    const client = new ScrapedeckClient({
      baseUrl: base,
      credentials: store,
      env: {},
      limiter: new UnlimitedLimiter(),
      now: () => now,
    });
    clients.push(client);
    // The renewal runs beside the calls: whichever request comes first, /token gets the token.
    const token = { access_token: 'new_access', refresh_token: 'new_refresh', token_type: 'Bearer', expires_in: 7200 };
    const answer: Handler = (q, r) =>
      q.url === '/token' ? json(r, 200, { data: token, requestId: 'rt' }) : json(r, 200, groups);
    script.push(...new Array<Handler>(6).fill(answer));
    // Within the 60 s margin, 30 s before expiry: renewed in the background, the calls go on.
    await Promise.all(Array.from({ length: 5 }, () => client.listTaskGroups()));
    await until(() => seen.some((s) => s.url === '/token'));
    const tokenCalls = seen.filter((s) => s.url === '/token');
    assert.equal(tokenCalls.length, 1);
    assert.deepEqual(JSON.parse(tokenCalls[0]?.body ?? ''), {
      refresh_token: 'old_refresh',
      grant_type: 'refresh_token',
    });
    for (const s of seen.filter((x) => x.url === '/taskGroup'))
      assert.equal(s.headers.authorization, 'Bearer old_access', 'the still-valid token, not a wait');
    const renewed = async (): Promise<boolean> => {
      const held = await store.get();
      return held?.kind === 'session' && held.session.accessToken === 'new_access';
    };
    await until(renewed);
    const stored = await store.get();
    assert.ok(
      stored?.kind === 'session' && stored.session.refreshToken === 'new_refresh' && stored.hubApiKey === 'sdk_hub',
    );
    now += 16_000; // 14 s before the old token's expiry: spent, but the renewed one is in hand
    seen.length = 0;
    await client.listTaskGroups();
    assert.deepEqual(
      seen.map((s) => [s.url, s.headers.authorization]),
      [['/taskGroup', 'Bearer new_access']],
    );
  });

  it('a refused refresh means sign-in: kind auth, onSessionExpired once', async () => {
    const store = new MemoryCredentialsStore({
      kind: 'session',
      session: { accessToken: 'a_x', refreshToken: 'r_x', tokenType: 'Bearer', expiresAt: 0 },
    });
    let expired = 0;
    const client = new ScrapedeckClient({
      baseUrl: base,
      credentials: store,
      env: {},
      limiter: new UnlimitedLimiter(),
      onSessionExpired: () => expired++,
    });
    clients.push(client);
    script.push((_q, r) =>
      json(r, 400, { error: { code: 'Invalid.Grant', message: 'refresh token used' }, requestId: 'g' }),
    );
    const results = await Promise.allSettled([
      client.listTaskGroups(),
      client.listTaskGroups(),
      client.searchTasks('1'),
    ]);
    for (const r of results)
      assert.ok(r.status === 'rejected' && kind('auth')(r.reason) && /sign in/.test((r.reason as Error).message));
    assert.equal(expired, 1);
    assert.equal(seen.length, 1);
  });

  it('a session without a hub key cannot deprecate; without datahubUrl neither', async () => {
    const session: Credentials = {
      kind: 'session',
      session: { accessToken: 'a_y', refreshToken: 'r_y', tokenType: 'Bearer', expiresAt: Date.now() + 3_600_000 },
    };
    await assert.rejects(
      make(session).deprecateApp('ns/a'),
      (e: unknown) => kind('auth')(e) && /API key is needed for the data-app hub/.test((e as Error).message),
    );
    await assert.rejects(
      make(undefined, { datahubUrl: undefined }).deprecateApp('ns/a'),
      (e: unknown) => kind('invalid-request')(e) && /hub URL is not configured/.test((e as Error).message),
    );
    assert.equal(seen.length, 0);
  });

  it('signed out is an auth error, nothing sent', async () => {
    await assert.rejects(
      new ScrapedeckClient({ baseUrl: base, credentials: new MemoryCredentialsStore(), env: {} }).listTaskGroups(),
      (e: unknown) => kind('auth')(e) && /Not signed in/.test((e as Error).message),
    );
    assert.equal(seen.length, 0);
  });

  it('log lines carry method, path, status, ms, requestId and retries, and no secret', async () => {
    logs.length = 0;
    script.push((_q, r) =>
      json(r, 200, {
        data: { access_token: 'acc_zz99', refresh_token: 'ref_zz99', token_type: 'Bearer', expires_in: 60 },
        requestId: 'tok-1',
      }),
    );
    await make().obtainToken('ada', 'pw-secret-1');
    await make().listTaskGroups();
    assert.match(logs[0] ?? '', /^POST \/token \(password\) 200 \d+ms requestId=tok-1 retries=0$/);
    assert.match(logs[1] ?? '', /^GET \/taskGroup 200 \d+ms requestId=req-ok retries=0$/);
    for (const secret of ['pw-secret-1', 'acc_zz99', 'ref_zz99', 'sdk_scripted_key'])
      assert.ok(!logs.join('\n').includes(secret));
  });
});
