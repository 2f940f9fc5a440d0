/**
 * Checking credentials before they are stored (src/account/verify.ts) and recognising a sandbox
 * (src/account/sandbox/sandboxProbe.ts), against a real sandbox: the calls matter, so nothing is faked.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { probeSandbox, sandboxAddressProblem, sandboxInfoProblem } from '../../src/account/sandbox/sandboxProbe';
import { obtainSession, type ProbeClientFactory, verifyApiKey } from '../../src/account/verify';
import type { Credentials } from '../../src/api/auth/auth';
import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';

describe('account checks against the sandbox', () => {
  let sandbox: RunningSandbox;
  let factory: ProbeClientFactory;
  const lines: string[] = [];

  before(async () => {
    sandbox = await startSandbox({ port: 0, rateLimit: 0 });
    factory = {
      createProbeClient: (credentials?: Credentials) =>
        new ScrapedeckClient({
          baseUrl: sandbox.info.baseUrl,
          datahubUrl: sandbox.info.datahubUrl,
          credentials: new MemoryCredentialsStore(credentials),
          maxRetries: 0,
          // The account checks are under test, not the pacing: no limit on either side.
          limiter: new UnlimitedLimiter(),
          log: (line) => lines.push(line),
        }),
    };
  });
  after(() => sandbox.close());

  const account = (plan: string) => {
    const found = sandbox.info.accounts.find((a) => a.plan === plan);
    assert.ok(found, `the sandbox seeds a ${plan} account`);
    return found;
  };

  it('recognises a sandbox by GET /__sandbox, and a non-sandbox as none', async () => {
    // What is judged is the answer, not its speed: the product's 3 s for a local reply was passed
    // once in a cold CI run with every tier beside it (this process's first fetch loads undici).
    const info = await probeSandbox(sandbox.info.baseUrl, { timeoutMs: 30_000 });
    assert.ok(info);
    assert.equal(info.baseUrl, sandbox.info.baseUrl);
    assert.equal(info.datahubUrl, `${sandbox.info.baseUrl}/datahub`);
    assert.equal(info.accounts[0]?.plan, 'Professional', 'accounts[0] is the demo account');
    assert.equal(await probeSandbox('http://127.0.0.1:1', { timeoutMs: 500 }), undefined, 'nothing listening');
    assert.equal(
      await probeSandbox(`${sandbox.info.baseUrl}/datahub`, { timeoutMs: 30_000 }),
      undefined,
      'answers, but not as a sandbox',
    );
  });

  it('accepts a good API key with a real call', async () => {
    const key = account('Professional').apiKey;
    const result = await verifyApiKey(factory, key);
    assert.deepEqual(result, { ok: true, credentials: { kind: 'apiKey', apiKey: key } });
  });

  it('refuses a wrong API key as an auth error, with the server message and request ID', async () => {
    const result = await verifyApiKey(factory, 'op_wrong_0000000000000000');
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.error.kind, 'auth');
    assert.ok(result.error.message.length > 0);
    assert.ok(result.error.requestId, 'the sandbox sends a requestId');
  });

  it('accepts the key of a Free account but notes the plan limit', async () => {
    const result = await verifyApiKey(factory, account('Free').apiKey);
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.equal(result.planLimited?.kind, 'forbidden');
  });

  it('turns a username and password into a token session, never keeping the password', async () => {
    const ada = account('Professional');
    const now = Date.now();
    const result = await obtainSession(factory, ada.username, ada.password, () => now);
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.equal(result.credentials.kind, 'session');
    if (result.credentials.kind !== 'session') return;
    assert.ok(result.credentials.session.accessToken);
    assert.ok(result.credentials.session.refreshToken);
    assert.ok(result.credentials.session.expiresAt > now);
    assert.doesNotMatch(JSON.stringify(result.credentials), new RegExp(ada.password));
  });

  it("refuses a wrong password as an auth error with the server's message", async () => {
    const result = await obtainSession(factory, account('Professional').username, 'wrong-password', Date.now);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.error.kind, 'auth');
    assert.match(result.error.message, /username or password/i);
  });

  it('honours cancellation', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await verifyApiKey(factory, account('Professional').apiKey, controller.signal);
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.error.kind, 'cancelled');
  });

  it('writes no secret to the client log', () => {
    assert.ok(lines.length > 0, 'the client logged its requests');
    const text = lines.join('\n');
    for (const a of sandbox.info.accounts) {
      assert.ok(!text.includes(a.apiKey), 'no API key in the log');
      assert.ok(!text.includes(a.password), 'no password in the log');
    }
  });
});

describe('a sandbox is only ever an address on this machine', () => {
  /** A loopback server that answers /__sandbox with whatever description the test gives it. */
  async function impostor(
    answer: (origin: string) => unknown,
  ): Promise<{ origin: string; hits: string[]; server: Server }> {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer(origin)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
  }
  const accounts = [{ username: 'ada', password: 'p', apiKey: 'k', plan: 'Professional', team: ['ada'], apps: [] }];

  it('never asks an address that is not loopback (the production service included)', async () => {
    const original = globalThis.fetch;
    const asked: string[] = [];
    globalThis.fetch = (async (input: string | URL | Request) => {
      asked.push(String(input));
      throw new Error('no network in this test');
    }) as typeof fetch;
    try {
      for (const address of [
        'https://openapi.octoparse.com',
        'http://10.0.0.5:8080',
        'http://sandbox.localhost:1',
        'http://user:pw@127.0.0.1:9',
      ]) {
        assert.equal(await probeSandbox(address), undefined, address);
      }
    } finally {
      globalThis.fetch = original;
    }
    assert.deepEqual(asked, []);
  });

  it('refuses, and says why, a local answer that names another host for its addresses', async () => {
    for (const field of ['baseUrl', 'datahubUrl'] as const) {
      const fake = await impostor((origin) => ({
        baseUrl: origin,
        datahubUrl: `${origin}/datahub`,
        accounts,
        [field]: 'https://collector.example.net',
      }));
      try {
        const refused: string[] = [];
        assert.equal(await probeSandbox(fake.origin, { onRefused: (r) => refused.push(r) }), undefined);
        assert.deepEqual(fake.hits, ['/__sandbox'], 'the local address was asked once');
        assert.equal(refused.length, 1);
        assert.match(
          refused[0] ?? '',
          new RegExp(`its ${field} names collector\\.example\\.net, which is not this machine`),
        );
      } finally {
        fake.server.close();
      }
    }
  });

  it('accepts a local answer naming local addresses', async () => {
    const fake = await impostor((origin) => ({ baseUrl: origin, datahubUrl: `${origin}/datahub`, accounts }));
    try {
      const info = await probeSandbox(fake.origin);
      assert.equal(info?.baseUrl, fake.origin);
    } finally {
      fake.server.close();
    }
  });

  it('applies the same rule to what was remembered for a restore', () => {
    assert.equal(
      sandboxInfoProblem({ baseUrl: 'http://127.0.0.1:4000', datahubUrl: 'http://[::1]:4000/datahub' }),
      undefined,
    );
    assert.equal(
      sandboxInfoProblem({ baseUrl: 'http://localhost:4000', datahubUrl: 'http://localhost:4000/datahub' }),
      undefined,
    );
    assert.match(
      sandboxInfoProblem({ baseUrl: 'https://evil.example', datahubUrl: 'http://127.0.0.1:1/datahub' }) ?? '',
      /baseUrl names evil\.example/,
    );
    assert.match(
      sandboxInfoProblem({ baseUrl: 'http://127.0.0.1:1', datahubUrl: 'http://127.0.0.1.nip.io/datahub' }) ?? '',
      /datahubUrl names/,
    );
    assert.match(sandboxAddressProblem('ftp://127.0.0.1/') ?? '', /ftp:/);
    assert.match(sandboxAddressProblem('http://a:b@localhost:1') ?? '', /user name or password/);
  });
});
