import * as assert from 'node:assert/strict';

import { sandboxInfoSchema } from '../../src/sandbox/seed/info';
import { API_KEY_PREFIX } from '../../src/sandbox/seed/seed';
import { codeOf, dataOf, messageOf, TestSandbox } from './helpers/sandbox';

describe('sandbox: accounts, auth and plain routes', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await TestSandbox.start();
  });
  after(() => sb.close());

  it('seeds the accounts the issue asks for', () => {
    const info = sandboxInfoSchema.parse(sb.info);
    assert.equal(info.accounts[0]?.plan, 'Professional', 'accounts[0] is the demo account');
    for (const plan of ['Free', 'Standard', 'Professional', 'Enterprise'] as const) sb.account(plan);
    assert.ok(
      info.accounts.some((a) => a.team.length >= 2),
      'two accounts share a team',
    );
    for (const a of info.accounts) {
      assert.ok(a.apiKey.startsWith(API_KEY_PREFIX));
      assert.ok(a.apiKey.length > 30);
      assert.ok(a.apps.length > 0);
      assert.ok(a.team.includes(a.username));
    }
    assert.equal(info.datahubUrl, `${info.baseUrl}/datahub`);
    assert.match(info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('GET /__sandbox answers the info without auth', async () => {
    const r = await sb.call('/__sandbox');
    assert.equal(r.status, 200);
    assert.deepEqual(sandboxInfoSchema.parse(r.json), sb.info);
  });

  it('is deterministic for a seed and different for another', async () => {
    const same = await TestSandbox.start();
    const other = await TestSandbox.start({ seed: 99 });
    try {
      assert.deepEqual(same.info.accounts, sb.info.accounts);
      assert.notEqual(other.info.accounts[0]?.apiKey, sb.info.accounts[0]?.apiKey);
      const key = sb.user('ada').apiKey;
      const a = await sb.call('/taskGroup', { headers: { 'x-api-key': key } });
      const b = await same.call('/taskGroup', { headers: { 'x-api-key': key } });
      assert.deepEqual(a.json?.data, b.json?.data);
    } finally {
      await same.close();
      await other.close();
    }
  });

  it('main interface: missing / invalid credentials are 401 with an integer code', async () => {
    const cases: [Record<string, string>, number][] = [
      [{}, 40100],
      [{ 'x-api-key': 'sdk_wrong' }, 40101],
      [{ authorization: 'Bearer not-a-token' }, 40101],
      [{ authorization: `Bearer ${sb.user('ada').apiKey}` }, 40101], // an API key is not an access token
      [{ authorization: 'Basic abc' }, 40100],
    ];
    for (const [headers, code] of cases) {
      for (const path of ['/taskGroup', '/task/search?taskGroupId=1']) {
        const r = await sb.call(path, { headers });
        assert.equal(r.status, 401, `${path} ${JSON.stringify(headers)}`);
        assert.equal(codeOf(r), code);
      }
      const q = await sb.analytics('', { start: '2026-01-01', end: '2026-01-01' });
      assert.equal(q.status, 401);
    }
  });

  it('x-api-key and Bearer access token both work on the main interface', async () => {
    const ada = sb.user('ada');
    const byKey = await sb.call('/taskGroup', { headers: { 'x-api-key': ada.apiKey } });
    const t = dataOf<{ access_token: string }>(
      await sb.token({ username: ada.username, password: ada.password, grant_type: 'password' }),
    );
    const byToken = await sb.call('/taskGroup', { headers: { authorization: `Bearer ${t.access_token}` } });
    assert.equal(byKey.status, 200);
    assert.deepEqual(byToken.json?.data, byKey.json?.data);
  });

  it('the Free plan is refused task groups, tasks and analytics with 403', async () => {
    const free = sb.account('Free');
    const h = { 'x-api-key': free.apiKey };
    for (const r of [
      await sb.call('/taskGroup', { headers: h }),
      await sb.call('/task/search?taskGroupId=1', { headers: h }),
      await sb.analytics(free.apiKey, { start: '2026-01-01', end: '2026-01-01' }),
    ]) {
      assert.equal(r.status, 403);
      // The task operations' published errors carry string codes; analytics' are integers.
      assert.ok(codeOf(r) === 40300 || codeOf(r) === 'Forbidden.Plan', String(codeOf(r)));
      assert.match(messageOf(r), /Free plan/);
    }
  });

  it('unknown routes are 404 and wrong methods 405, with requestId, in the interface shape', async () => {
    const r404 = await sb.call('/nope?api_key=x');
    assert.equal(r404.status, 404);
    assert.equal(codeOf(r404), 40400);
    const hub404 = await sb.call('/datahub/v1/other');
    assert.equal(hub404.status, 404);
    assert.equal(codeOf(hub404), 'not_found');
    const r405 = await sb.call('/taskGroup', { method: 'DELETE' });
    assert.equal(r405.status, 405);
    assert.equal(codeOf(r405), 40500);
    const hub405 = await sb.call('/datahub/v1/data-apps/ada/news-digest/deprecate');
    assert.equal(hub405.status, 405);
    assert.equal(codeOf(hub405), 'method_not_allowed');
  });

  it('request ids are unique per response', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add(String((await sb.call('/__sandbox')).json?.requestId));
    assert.equal(ids.size, 5);
  });
});
