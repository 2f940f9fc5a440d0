/**
 * The sandbox behaves like the service where a lenient server would not: a body that is not JSON
 * gets 415, a path with `..` segments is not normalised into another route (404), and refresh
 * tokens expire so a long-running sandbox does not keep every grant forever.
 */
import * as assert from 'node:assert/strict';
import { request } from 'node:http';

import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { TokenStore } from '../../src/sandbox/state/auth';

function raw(
  base: string,
  method: string,
  path: string,
  body?: string,
  contentType?: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method, path, headers: contentType ? { 'content-type': contentType } : {} },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('sandbox: strict where the service is', () => {
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(() => sandbox.close());

  it('answers 415, in the error envelope, to a POST body that is not JSON', async () => {
    const ada = sandbox.info.accounts[0];
    assert.ok(ada);
    const body = JSON.stringify({ username: ada.username, password: ada.password, grant_type: 'password' });
    const refused = await raw(sandbox.info.baseUrl, 'POST', '/token', body, 'text/plain');
    assert.equal(refused.status, 415);
    const parsed = JSON.parse(refused.body) as { error: { code: string; message: string }; requestId: string };
    assert.equal(parsed.error.code, 'Unsupported.MediaType');
    assert.ok(parsed.requestId);
    const form = await raw(sandbox.info.baseUrl, 'POST', '/token', body, 'application/x-www-form-urlencoded');
    assert.equal(form.status, 415);
    const accepted = await raw(sandbox.info.baseUrl, 'POST', '/token', body, 'application/json; charset=utf-8');
    assert.equal(accepted.status, 200);
  });

  for (const path of ['/datahub/../token', '/datahub/%2e%2e/token', '/./taskGroup', '/task/../taskGroup']) {
    it(`answers 404 to ${path} instead of resolving it to another route`, async () => {
      const reply = await raw(
        sandbox.info.baseUrl,
        path.includes('token') ? 'POST' : 'GET',
        path,
        path.includes('token') ? '{}' : undefined,
        'application/json',
      );
      assert.equal(reply.status, 404, reply.body);
    });
  }
});

describe('sandbox: refresh tokens expire (bounded memory)', () => {
  it('keeps at most 20,000 refresh tokens however many grants', () => {
    let now = 0;
    const store = new TokenStore(3600, () => now);
    for (let i = 0; i < 25_000; i++) {
      store.issue('ada');
      now += 1;
    }
    assert.ok(store.refreshTokens <= 20_000, `${store.refreshTokens} refresh tokens kept`);
  });

  it('forgets used ones after ten minutes, and refuses an unused one after a day', () => {
    let now = 0;
    const store = new TokenStore(3600, () => now);
    const used = Array.from({ length: 1_000 }, () => store.issue('ada').refresh_token);
    for (const token of used) assert.equal(store.useRefresh(token).ok, true);
    assert.deepEqual(
      store.useRefresh(used[0] as string),
      { ok: false, reason: 'used' },
      'a replay right after is refused as used',
    );
    const stale = store.issue('ada').refresh_token;
    now += 11 * 60_000;
    store.issue('ada'); // pruning happens as grants are issued
    assert.ok(store.refreshTokens <= 2, `${store.refreshTokens} kept after the used ones aged out`);
    now += 24 * 3600_000;
    assert.deepEqual(store.useRefresh(stale), { ok: false, reason: 'unknown' });
  });
});
