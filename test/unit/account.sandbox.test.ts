/**
 * Checking credentials before they are stored (src/account/verify.ts) and recognising a sandbox
 * (src/account/sandboxProbe.ts), against a real sandbox: the calls matter, so nothing is faked.
 */
import * as assert from 'node:assert/strict';
import type { Credentials } from '../../src/api/auth';
import { MemoryCredentialsStore } from '../../src/api/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { probeSandbox } from '../../src/account/sandboxProbe';
import { obtainSession, verifyApiKey, type ProbeClientFactory } from '../../src/account/verify';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server';

describe('account checks against the sandbox', () => {
  let sandbox: RunningSandbox;
  let factory: ProbeClientFactory;
  const lines: string[] = [];

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    factory = {
      createProbeClient: (credentials?: Credentials) =>
        new ScrapedeckClient({
          baseUrl: sandbox.info.baseUrl,
          datahubUrl: sandbox.info.datahubUrl,
          credentials: new MemoryCredentialsStore(credentials),
          maxRetries: 0,
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
    const info = await probeSandbox(sandbox.info.baseUrl);
    assert.ok(info);
    assert.equal(info.baseUrl, sandbox.info.baseUrl);
    assert.equal(info.datahubUrl, `${sandbox.info.baseUrl}/datahub`);
    assert.equal(info.accounts[0]?.plan, 'Professional', 'accounts[0] is the demo account');
    assert.equal(await probeSandbox('http://127.0.0.1:1', 500), undefined, 'nothing listening');
    assert.equal(await probeSandbox(`${sandbox.info.baseUrl}/datahub`), undefined, 'answers, but not as a sandbox');
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
