import * as assert from 'node:assert/strict';

import { codeOf, dataOf, FakeClock, messageOf, TestSandbox } from './helpers/sandbox';

interface Token {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: unknown;
}

describe('sandbox: POST /token', () => {
  const clock = new FakeClock(Date.parse('2026-11-22T10:00:00Z'));
  let sb: TestSandbox;
  before(async () => {
    sb = await TestSandbox.start({ now: clock.now, tokenTtlSeconds: 600 });
  });
  after(() => sb.close());

  const password = (username: string, pw: string) => sb.token({ username, password: pw, grant_type: 'password' });
  const refresh = (refresh_token: string) => sb.token({ refresh_token, grant_type: 'refresh_token' });

  it('password grant: token data with expires_in as a numeric string', async () => {
    const ada = sb.user('ada');
    const r = await password(ada.username, ada.password);
    assert.equal(r.status, 200);
    const t = dataOf<Token>(r);
    assert.equal(t.expires_in, '600');
    assert.equal(t.token_type, 'Bearer');
    assert.ok(t.access_token && t.refresh_token);
  });

  it('refresh grant: expires_in as an integer, the refresh token rotates, the old one is refused', async () => {
    const ada = sb.user('ada');
    const first = dataOf<Token>(await password(ada.username, ada.password));
    const before = sb.stats.refreshGrants;
    const r = await refresh(first.refresh_token);
    assert.equal(r.status, 200);
    const second = dataOf<Token>(r);
    assert.equal(second.expires_in, 600);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.notEqual(second.access_token, first.access_token);
    assert.equal(sb.stats.refreshGrants, before + 1);

    const again = await refresh(first.refresh_token);
    assert.equal(again.status, 400);
    assert.equal(codeOf(again), 'Invalid.Grant');
    assert.match(messageOf(again), /already been used/);
    assert.equal(sb.stats.refreshGrants, before + 1, 'a refused refresh is not counted');
    // The rotated one still works once.
    assert.equal((await refresh(second.refresh_token)).status, 200);
  });

  it('an unknown refresh token is Invalid.Grant', async () => {
    const r = await refresh('srt_not-a-token');
    assert.equal(r.status, 400);
    assert.equal(codeOf(r), 'Invalid.Grant');
    assert.match(messageOf(r), /invalid or unknown/);
  });

  it('wrong password or unknown username: Invalid.Grant saying so', async () => {
    for (const [u, p] of [
      ['ada', 'wrong'],
      ['nobody', 'sandbox-ada'],
    ]) {
      const r = await password(u as string, p as string);
      assert.equal(r.status, 400);
      assert.equal(codeOf(r), 'Invalid.Grant');
      assert.equal(messageOf(r), 'The username or password is incorrect.');
    }
  });

  it('usernames are matched case-insensitively', async () => {
    assert.equal((await password('ADA', sb.user('ada').password)).status, 200);
  });

  it('bad bodies are 400 in the token error shape, naming the field', async () => {
    const cases: [unknown, string, RegExp][] = [
      ['{not json', 'Invalid.Request', /body: not valid JSON/],
      [[1, 2], 'Unsupported.GrantType', /grant_type/],
      [{ username: 'ada', password: 'x' }, 'Unsupported.GrantType', /grant_type/],
      [{ username: 'ada', password: 'x', grant_type: 'client_credentials' }, 'Unsupported.GrantType', /grant_type/],
      [{ password: 'x', grant_type: 'password' }, 'Invalid.Request', /username/],
      [{ username: 'ada', password: '', grant_type: 'password' }, 'Invalid.Request', /password/],
      [{ grant_type: 'refresh_token' }, 'Invalid.Request', /refresh_token/],
      [{ refresh_token: 42, grant_type: 'refresh_token' }, 'Invalid.Request', /refresh_token/],
    ];
    for (const [body, code, message] of cases) {
      const r = await sb.token(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(codeOf(r), code, JSON.stringify(body));
      assert.match(messageOf(r), message);
    }
  });

  it('GET /token is 405 with Allow and the token error shape', async () => {
    const r = await sb.call('/token');
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'POST');
    assert.equal(codeOf(r), 'Method.Not.Allowed');
  });

  it('an access token works until token-ttl, then 401 expired; a refresh brings it back', async () => {
    const ada = sb.user('ada');
    const t = dataOf<Token>(await password(ada.username, ada.password));
    const auth = { authorization: `Bearer ${t.access_token}` };
    assert.equal((await sb.call('/taskGroup', { headers: auth })).status, 200);
    clock.advance(599_000);
    assert.equal((await sb.call('/taskGroup', { headers: auth })).status, 200, 'reusable within expires_in');
    clock.advance(1_000);
    const expired = await sb.call('/taskGroup', { headers: auth });
    assert.equal(expired.status, 401);
    assert.equal(codeOf(expired), 40102);
    assert.match(messageOf(expired), /expired/);
    const renewed = dataOf<Token>(await refresh(t.refresh_token));
    assert.equal(
      (await sb.call('/taskGroup', { headers: { authorization: `Bearer ${renewed.access_token}` } })).status,
      200,
    );
  });

  it('counts successful grants', async () => {
    const before = structuredClone(sb.stats);
    const ada = sb.user('ada');
    await password(ada.username, ada.password);
    await password(ada.username, 'wrong');
    assert.equal(sb.stats.passwordGrants, before.passwordGrants + 1);
    assert.equal(sb.stats.byRoute['POST /token'], (before.byRoute['POST /token'] ?? 0) + 2);
  });

  it('the Free account can still obtain tokens (token operations are open to all)', async () => {
    const free = sb.account('Free');
    assert.equal((await password(free.username, free.password)).status, 200);
  });
});
