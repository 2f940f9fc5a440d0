import * as assert from 'node:assert/strict';

import { codeOf, dataOf, TestSandbox } from './helpers/sandbox';

interface Deprecated {
  app_name: string;
  namespace: string;
  version: string;
  status: string;
  missing_secrets: string[];
}

describe('sandbox: hub deprecate', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await TestSandbox.start();
  });
  after(() => sb.close());

  const deprecate = (appPath: string, headers: Record<string, string>) =>
    sb.call(`/datahub/v1/data-apps/${appPath}/deprecate`, { method: 'POST', headers });
  const bearer = (username: string) => ({ authorization: `Bearer ${sb.user(username).apiKey}` });

  it('the author deprecates with the literal slash and with %2F; idempotent', async () => {
    const first = await deprecate('ada/price-tracker', bearer('ada'));
    assert.equal(first.status, 200);
    const d = dataOf<Deprecated>(first);
    assert.equal(d.app_name, 'price-tracker');
    assert.equal(d.namespace, 'ada');
    assert.equal(d.version, '1.2.3');
    assert.equal(d.status, 'deprecated');
    assert.deepEqual(d.missing_secrets, ['PROXY_TOKEN', 'SLACK_WEBHOOK']);
    const second = await deprecate('ada%2Fprice-tracker', bearer('ada'));
    assert.equal(second.status, 200);
    assert.deepEqual(second.json?.data, first.json?.data);
    const lower = await deprecate('ada%2fprice-tracker', bearer('ada'));
    assert.equal(lower.status, 200);
  });

  it('an app with zero releases is deprecatable, with version ""', async () => {
    const r = await deprecate('ada%2Fnews-digest', bearer('ada'));
    assert.equal(r.status, 200);
    assert.equal(dataOf<Deprecated>(r).version, '');
  });

  it('every listed app of every account is deprecatable by its author', async () => {
    for (const a of sb.info.accounts) {
      for (const app of a.apps)
        assert.equal((await deprecate(app, { authorization: `Bearer ${a.apiKey}` })).status, 200, app);
    }
  });

  it('a non-author, or an app that does not exist, gets 404 not_found', async () => {
    for (const [path, who] of [
      ['ada/price-tracker', 'grace'],
      ['grace%2Freview-miner', 'ada'],
      ['ada/no-such-app', 'ada'],
    ]) {
      const r = await deprecate(path as string, bearer(who as string));
      assert.equal(r.status, 404, path);
      assert.equal(codeOf(r), 'not_found');
      assert.equal((r.json?.error as { category: string }).category, 'not_found');
    }
  });

  it('missing or invalid API key: 401 unauthorized / forbidden; access tokens and x-api-key do not count', async () => {
    const ada = sb.user('ada');
    const token = dataOf<{ access_token: string }>(
      await sb.token({ username: ada.username, password: ada.password, grant_type: 'password' }),
    );
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Bearer sdk_nope' },
      { 'x-api-key': ada.apiKey },
      { authorization: `Bearer ${token.access_token}` },
    ];
    for (const headers of cases) {
      const r = await deprecate('ada/price-tracker', headers);
      assert.equal(r.status, 401);
      const e = r.json?.error as { code: string; category: string; retryable: boolean };
      assert.deepEqual([e.code, e.category, e.retryable], ['unauthorized', 'forbidden', false]);
    }
  });

  it('a malformed app_id is 400 naming app_id', async () => {
    for (const path of ['just-a-name', 'a%2Fb%2Fc', '%E0%A4%A']) {
      const r = await deprecate(path, bearer('ada'));
      assert.equal(r.status, 400, path);
      assert.equal(codeOf(r), 'invalid_argument');
      assert.match(String((r.json?.error as { message: string }).message), /app_id/);
    }
  });
});
